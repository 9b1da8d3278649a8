/* SPDX-License-Identifier: MIT */
/*
 * dnsname.c: the normal form of an allowed domain name, wildcard matching,
 * and Mozilla's public suffix list as Debian ships it (publicsuffix). The
 * list is the compiler's only: the launcher never reads it, it enforces
 * the names the blob holds (docs/spec.md 1.7.4, 5.11).
 */
#include "dnsname.h"

#include "utf8.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ldh(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

int ward_dnsname_normalise(const char *in, size_t len, char *out,
			   const char **why, const char **help)
{
	size_t o = 0, label = 0;

	*help = NULL;
	if (len && in[len - 1] == '.')
		len--; /* the root: `index.example.` is `index.example` */
	if (len == 0) {
		*why = "is empty";
		return -1;
	}
	if (len > WARD_DNSNAME_MAX) {
		*why = "is longer than 253 bytes (RFC 1035)";
		return -1;
	}
	for (size_t i = 0; i < len; i++) {
		char c = in[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((unsigned char)c >= 0x80) {
			*why = "is not ASCII";
			*help = "write an internationalised name in its "
				"punycode form (`xn--...`), as DNS carries it";
			return -1;
		}
		if (c == '*') {
			if (i != 0 || (len > 1 && in[1] != '.')) {
				*why = "has `*` other than as its whole first "
				       "label";
				*help = "a wildcard is `*.SUFFIX`, for one or "
					"more labels before SUFFIX";
				return -1;
			}
			if (len == 1) {
				*why = "would allow every name";
				*help = "name the domains the program needs";
				return -1;
			}
			out[o++] = c;
			label = 1;
			continue;
		}
		if (c == '.') {
			if (label == 0) {
				*why = "has an empty label";
				return -1;
			}
			if (out[o - 1] == '-') {
				*why = "has a label that ends with `-`";
				return -1;
			}
			out[o++] = c;
			label = 0;
			continue;
		}
		if (!ldh(c)) {
			*why = "has a character other than letters, digits, "
			       "`-` and `.`";
			return -1;
		}
		if (label == 0 && c == '-') {
			*why = "has a label that starts with `-`";
			return -1;
		}
		if (++label > WARD_DNSLABEL_MAX) {
			*why = "has a label longer than 63 bytes (RFC 1035)";
			return -1;
		}
		out[o++] = c;
	}
	if (label == 0) {
		*why = "has an empty label";
		return -1;
	}
	if (out[o - 1] == '-') {
		*why = "has a label that ends with `-`";
		return -1;
	}
	if (out[o - 1] == '*') {
		*why = "is a wildcard without a suffix";
		return -1;
	}
	out[o] = '\0';
	return 0;
}

/* ------------------------------------------------------------ the list */

/* The list, each rule a string tagged by its first byte: 'R' a rule, 'W'
 * the SUFFIX of a wildcard rule `*.SUFFIX`, 'X' an exception `!NAME`;
 * sorted for bsearch. */
struct ward_psl {
	char **rules;
	size_t n, cap;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* RFC 3492's encoder for one label of code points, into out ("xn--" and
 * the ASCII form). 0, or -1 when it does not fit. */
static int punycode(const uint32_t *cp, size_t n, char *out, size_t outsz)
{
	enum { BASE = 36, TMIN = 1, TMAX = 26, SKEW = 38, DAMP = 700 };
	uint32_t next = 128, delta = 0, bias = 72;
	size_t o = 0, h, b = 0;

	if (outsz < 5)
		return -1;
	memcpy(out, "xn--", 4);
	o = 4;
	for (size_t i = 0; i < n; i++)
		if (cp[i] < 0x80) {
			if (o + 1 >= outsz)
				return -1;
			out[o++] = (char)cp[i];
			b++;
		}
	h = b;
	if (b && o + 1 < outsz)
		out[o++] = '-';
	while (h < n) {
		uint32_t m = UINT32_MAX;
		for (size_t i = 0; i < n; i++)
			if (cp[i] >= next && cp[i] < m)
				m = cp[i];
		delta += (m - next) * (uint32_t)(h + 1);
		next = m;
		for (size_t i = 0; i < n; i++) {
			if (cp[i] < next)
				delta++;
			if (cp[i] != next)
				continue;
			uint32_t q = delta;
			for (uint32_t k = BASE;; k += BASE) {
				uint32_t t = k <= bias		? TMIN
					     : k >= bias + TMAX ? TMAX
								: k - bias;
				uint32_t d;
				if (q < t)
					break;
				d = t + (q - t) % (BASE - t);
				if (o + 1 >= outsz)
					return -1;
				out[o++] =
				    (char)(d < 26 ? 'a' + d : '0' + d - 26);
				q = (q - t) / (BASE - t);
			}
			if (o + 1 >= outsz)
				return -1;
			out[o++] = (char)(q < 26 ? 'a' + q : '0' + q - 26);
			/* adapt */
			delta = h == b ? delta / DAMP : delta / 2;
			delta += delta / (uint32_t)(h + 1);
			{
				uint32_t k = 0;
				while (delta > ((BASE - TMIN) * TMAX) / 2) {
					delta /= BASE - TMIN;
					k += BASE;
				}
				bias = k + (BASE - TMIN + 1) * delta /
					       (delta + SKEW);
			}
			delta = 0;
			h++;
		}
		delta++;
		next++;
	}
	out[o] = '\0';
	return 0;
}

/* A rule of the list as DNS carries it: UTF-8 labels in punycode. The
 * list's own ASCII is lower case already. 0, or -1 when malformed. */
static int ascii_rule(const char *in, char *out, size_t outsz)
{
	size_t o = 0;
	const uint8_t *s = (const uint8_t *)in;
	size_t len = strlen(in);

	for (size_t i = 0; i <= len;) {
		size_t j = i;
		bool ascii = true;
		uint32_t cp[64];
		size_t n = 0;
		char lab[80];

		while (j < len && s[j] != '.')
			j++;
		for (size_t k = i; k < j;) {
			size_t l = ward_utf8_len(s + k, j - k);
			uint32_t c;
			if (l == 0 || n == ARRAY_LEN(cp))
				return -1;
			c = l == 1   ? s[k]
			    : l == 2 ? s[k] & 0x1fu
			    : l == 3 ? s[k] & 0x0fu
				     : s[k] & 0x07u;
			for (size_t m = 1; m < l; m++)
				c = c << 6 | (s[k + m] & 0x3fu);
			ascii &= l == 1;
			/* The list's non-ASCII labels are in NFC and lower
			 * case already; ASCII upper case is folded. */
			if (c >= 'A' && c <= 'Z')
				c += 'a' - 'A';
			cp[n++] = c;
			k += l;
		}
		if (ascii) {
			if (j - i >= sizeof(lab))
				return -1;
			for (size_t k = 0; k < n; k++)
				lab[k] = (char)cp[k];
			lab[n] = '\0';
		} else if (punycode(cp, n, lab, sizeof(lab)) < 0)
			return -1;
		if (o + strlen(lab) + 2 > outsz)
			return -1;
		if (o)
			out[o++] = '.';
		memcpy(out + o, lab, strlen(lab));
		o += strlen(lab);
		i = j + 1;
	}
	out[o] = '\0';
	return 0;
}

static int add(struct ward_psl *p, char tag, const char *name)
{
	char *r;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 1024;
		char **nr = realloc(p->rules, cap * sizeof(*nr));
		if (!nr)
			return -1;
		p->rules = nr;
		p->cap = cap;
	}
	r = malloc(strlen(name) + 2);
	if (!r)
		return -1;
	r[0] = tag;
	strcpy(r + 1, name);
	p->rules[p->n++] = r;
	return 0;
}

struct ward_psl *ward_psl_load(const char *path)
{
	struct ward_psl *p;
	FILE *f;
	char line[512];
	bool ok = true;

	if (!path)
		path = getenv("WARDC_PUBLIC_SUFFIX_LIST");
	if (!path || !*path)
		path = WARD_PSL_PATH;
	if (!(f = fopen(path, "re")))
		return NULL;
	if (!(p = calloc(1, sizeof(*p)))) {
		fclose(f);
		return NULL;
	}
	while (ok && fgets(line, sizeof(line), f)) {
		char *s = line, *e;
		char tag = 'R';
		char ascii[WARD_DNSNAME_MAX + 8];

		/* A rule is the line's first word; `//` starts a comment. */
		s += strspn(s, " \t");
		e = s + strcspn(s, " \t\r\n");
		*e = '\0';
		if (!*s || (s[0] == '/' && s[1] == '/'))
			continue;
		if (s[0] == '!') {
			tag = 'X';
			s++;
		} else if (s[0] == '*' && s[1] == '.') {
			tag = 'W';
			s += 2;
		}
		if (ascii_rule(s, ascii, sizeof(ascii)) < 0)
			continue; /* a rule no allowed name can spell */
		ok = add(p, tag, ascii) == 0;
	}
	ok &= !ferror(f);
	fclose(f);
	if (!ok || p->n == 0) {
		ward_psl_free(p);
		return NULL;
	}
	qsort(p->rules, p->n, sizeof(*p->rules), cmp_str);
	return p;
}

void ward_psl_free(struct ward_psl *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->rules[i]);
	free(p->rules);
	free(p);
}

static bool has(const struct ward_psl *p, char tag, const char *name)
{
	char key[WARD_DNSNAME_MAX + 2];
	const char *k = key;

	if (strlen(name) > WARD_DNSNAME_MAX)
		return false;
	key[0] = tag;
	strcpy(key + 1, name);
	return bsearch(&k, p->rules, p->n, sizeof(*p->rules), cmp_str);
}

bool ward_psl_is_suffix(const struct ward_psl *p, const char *name)
{
	const char *dot = strchr(name, '.');

	/* The list's implicit rule `*`: every TLD is a public suffix, the
	 * ones RFC 2606 and 6761 reserve (test, example, invalid,
	 * localhost) too, which the list itself leaves out. */
	if (!dot)
		return true;
	if (has(p, 'X', name))
		return false;
	return has(p, 'R', name) || has(p, 'W', dot + 1);
}
