/* SPDX-License-Identifier: MIT */
/*
 * suggest_read.c: the record reader of `wardc suggest` (suggest.h). The
 * record is JSON lines of the form docs/spec.md 4.9 gives, read by a
 * parser of exactly that much JSON: objects, strings, integers, null.
 */
#include "suggest.h"

#include "policy.h"
#include "syscalls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct cur {
	const char *p, *end;
	const char *name;
	size_t line;
	ward_err *err;
};

static int fail(struct cur *c, const char *what)
{
	return ward_fail(c->err, 0, "%s:%zu: %s", c->name, c->line, what);
}

static void ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static bool eat(struct cur *c, char ch)
{
	ws(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return true;
	}
	return false;
}

/* A string without escapes but \" and \\ (what the broker writes). */
static int str(struct cur *c, char *out, size_t cap)
{
	size_t n = 0;

	if (!eat(c, '"'))
		return fail(c, "a string was expected");
	while (c->p < c->end && *c->p != '"') {
		char ch = *c->p++;

		if (ch == '\\') {
			if (c->p == c->end || (*c->p != '"' && *c->p != '\\'))
				return fail(c, "an escape other than \\\" "
					       "or \\\\ in a string");
			ch = *c->p++;
		}
		if ((unsigned char)ch < 0x20)
			return fail(c, "a control character in a string");
		if (n + 1 >= cap)
			return fail(c, "a string is too long");
		out[n++] = ch;
	}
	if (c->p == c->end)
		return fail(c, "a string is not closed");
	c->p++;
	out[n] = '\0';
	return 0;
}

static int num(struct cur *c, uint64_t *v, bool *neg)
{
	char *e;

	ws(c);
	*neg = c->p < c->end && *c->p == '-';
	if (*neg)
		c->p++;
	if (c->p == c->end || *c->p < '0' || *c->p > '9')
		return fail(c, "a number was expected");
	errno = 0;
	*v = strtoull(c->p, &e, 10);
	if (errno || e > c->end)
		return fail(c, "a number out of range");
	c->p = e;
	return 0;
}

static int unsigned_num(struct cur *c, uint64_t *v)
{
	bool neg;

	if (num(c, v, &neg) < 0)
		return -1;
	return neg ? fail(c, "a negative number where a count or value "
			     "was expected")
		   : 0;
}

static bool is_null(struct cur *c)
{
	ws(c);
	if (c->end - c->p >= 4 && !memcmp(c->p, "null", 4)) {
		c->p += 4;
		return true;
	}
	return false;
}

/* What a line says. */
struct line {
	bool header, end, entry, refused;
	uint64_t version;
	char arch[16];
	char name[64];
	bool has_name, has_nr, has_count;
	int64_t nr;
	uint64_t count;
	bool many;
	uint32_t mask;
	uint64_t args[6];
};

static int args_obj(struct cur *c, struct line *l)
{
	char key[8];

	ws(c);
	if (c->p < c->end && *c->p == '"') {
		if (str(c, key, sizeof(key)) < 0)
			return -1;
		if (strcmp(key, "many"))
			return fail(c, "\"args\" is an object or \"many\"");
		l->many = true;
		return 0;
	}
	if (!eat(c, '{'))
		return fail(c, "\"args\" is an object or \"many\"");
	if (eat(c, '}'))
		return 0;
	do {
		uint64_t v;

		if (str(c, key, sizeof(key)) < 0)
			return -1;
		if (strlen(key) != 1 || key[0] < '0' || key[0] > '5')
			return fail(c, "an argument's key is \"0\" to \"5\"");
		if (l->mask & (1u << (key[0] - '0')))
			return fail(c, "an argument given twice");
		if (!eat(c, ':') || unsigned_num(c, &v) < 0)
			return fail(c, "an argument's value is a number");
		l->mask |= 1u << (key[0] - '0');
		l->args[key[0] - '0'] = v;
	} while (eat(c, ','));
	if (!eat(c, '}'))
		return fail(c, "\"args\" is not closed");
	return 0;
}

/* Skip a flat object of numbers (the end line's counters). */
static int counters(struct cur *c)
{
	char key[32];
	uint64_t v;

	if (!eat(c, '{'))
		return fail(c, "\"end\" is an object of counters");
	if (eat(c, '}'))
		return 0;
	do {
		if (str(c, key, sizeof(key)) < 0 || !eat(c, ':') ||
		    unsigned_num(c, &v) < 0)
			return -1;
	} while (eat(c, ','));
	return eat(c, '}') ? 0 : fail(c, "\"end\" is not closed");
}

static int field(struct cur *c, const char *key, struct line *l)
{
	char buf[96];
	uint64_t v;
	bool neg;

	if (!strcmp(key, "ward_record")) {
		l->header = true;
		return unsigned_num(c, &l->version);
	}
	if (!strcmp(key, "arch"))
		return str(c, l->arch, sizeof(l->arch));
	if (!strcmp(key, "policy") || !strcmp(key, "source_digest"))
		return str(c, buf, sizeof(buf));
	if (!strcmp(key, "syscall") || !strcmp(key, "refused")) {
		if (!strcmp(key, "syscall"))
			l->entry = true;
		else
			l->refused = true;
		l->has_name = !is_null(c);
		return l->has_name ? str(c, l->name, sizeof(l->name)) : 0;
	}
	if (!strcmp(key, "nr")) {
		if (num(c, &v, &neg) < 0)
			return -1;
		if (v > 0x7fffffff)
			return fail(c, "\"nr\" out of range");
		l->has_nr = true;
		l->nr = neg ? -(int64_t)v : (int64_t)v;
		return 0;
	}
	if (!strcmp(key, "count")) {
		l->has_count = true;
		return unsigned_num(c, &l->count);
	}
	if (!strcmp(key, "errno") || !strcmp(key, "foreign_arch"))
		return unsigned_num(c, &v);
	if (!strcmp(key, "args"))
		return args_obj(c, l);
	if (!strcmp(key, "end")) {
		l->end = true;
		return counters(c);
	}
	snprintf(buf, sizeof(buf), "unknown key \"%.40s\"", key);
	return fail(c, buf);
}

static int parse_line(struct cur *c, struct line *l)
{
	char key[32];

	memset(l, 0, sizeof(*l));
	if (!eat(c, '{'))
		return fail(c, "a line is one JSON object");
	if (!eat(c, '}'))
		do {
			if (str(c, key, sizeof(key)) < 0)
				return -1;
			if (!eat(c, ':'))
				return fail(c, "':' was expected");
			if (field(c, key, l) < 0)
				return -1;
		} while (eat(c, ','));
	if (!eat(c, '}'))
		return fail(c, "'}' or ',' was expected");
	ws(c);
	if (c->p != c->end)
		return fail(c, "text after the object");
	if (l->header + l->end + l->entry + l->refused != 1)
		return fail(c, "a line is a header, an entry, a refusal or the "
			       "end");
	return 0;
}

void ward_seen_free(struct ward_seen_set *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int add(struct ward_seen_set *s, const struct line *l, size_t rec,
	       ward_err *err)
{
	struct ward_seen *e;

	for (size_t i = 0; i < s->n; i++) {
		e = &s->v[i];
		if (!strcmp(e->name, l->name) && e->refused == l->refused &&
		    e->many == l->many && e->mask == l->mask &&
		    !memcmp(e->args, l->args, sizeof(e->args))) {
			e->count += l->count;
			e->records |= 1u << rec;
			return 0;
		}
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct ward_seen *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return ward_fail(err, ENOMEM, "records");
		s->v = v;
		s->cap = cap;
	}
	e = &s->v[s->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", l->name);
	e->nr = (int32_t)l->nr;
	e->count = l->count;
	e->many = l->many;
	e->mask = l->mask;
	memcpy(e->args, l->args, sizeof(e->args));
	e->records = 1u << rec;
	e->refused = l->refused;
	return 0;
}

static uint32_t arch_of(const char *name)
{
	return !strcmp(name, "x86_64")	  ? WARD_ARCH_X86_64
	       : !strcmp(name, "aarch64") ? WARD_ARCH_AARCH64
					  : 0;
}

int ward_record_read(struct ward_seen_set *s, const char *name,
		     const char *text, size_t len, ward_err *err)
{
	struct cur c = {.name = name, .err = err};
	const char *p = text, *end = text + len;
	bool ended = false;
	size_t rec = s->nrecords;
	uint32_t arch = 0;

	if (rec == WARD_SUGGEST_MAX_RECORDS)
		return ward_fail(err, 0, "%s: more than %d records", name,
				 WARD_SUGGEST_MAX_RECORDS);
	if (memchr(text, '\0', len))
		return ward_fail(err, 0, "%s: a NUL byte: not a record", name);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct line l;

		c.line++;
		c.p = p;
		c.end = nl ? nl : end;
		p = nl ? nl + 1 : end;
		if (c.p == c.end)
			continue;
		if (ended)
			return fail(&c, "a line after the end line");
		if (parse_line(&c, &l) < 0)
			return -1;
		if (c.line == 1 && !l.header)
			return fail(&c, "not a ward record: the first line is "
					"not its header");
		if (l.header) {
			if (c.line != 1)
				return fail(&c, "a second header");
			if (l.version != 1)
				return fail(&c, "a record of another version "
						"(this wardc reads 1)");
			arch = arch_of(l.arch);
			if (!arch)
				return fail(&c, "unknown \"arch\"");
			if (s->arch && s->arch != arch)
				return fail(&c, "a record of another "
						"architecture than the "
						"others");
			continue;
		}
		if (l.end) {
			ended = true;
			continue;
		}
		if (!l.has_nr || !l.has_count || !l.count)
			return fail(&c, "an entry needs \"nr\" and a \"count\" "
					"of at least 1");
		if (!l.has_name) {
			const char *n = ward_sys_name(arch, (int32_t)l.nr);

			snprintf(l.name, sizeof(l.name), "%s", n ? n : "");
		} else if (ward_sys_nr(arch, l.name) < 0) {
			return fail(&c, "a syscall this wardc does not know "
					"on the record's architecture");
		}
		if (add(s, &l, rec, err) < 0)
			return -1;
	}
	if (!c.line)
		return ward_fail(err, 0,
				 "%s: empty: the run did not record (was it "
				 "refused before it started?)",
				 name);
	if (!ended)
		return ward_fail(err, 0,
				 "%s:%zu: no end line: the record is cut "
				 "short",
				 name, c.line);
	s->arch = arch;
	s->records[s->nrecords++] = name;
	return 0;
}
