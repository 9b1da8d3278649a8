/* SPDX-License-Identifier: MIT */
/*
 * export_sniff.c: content types from bytes (export_sniff.h).
 */
#include "export_sniff.h"

#include "policy.h"
#include "util.h"

#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ text */

void ward_text_init(struct ward_text_check *t)
{
	memset(t, 0, sizeof(*t));
}

static bool allowed_control(uint8_t c)
{
	return c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

void ward_text_feed(struct ward_text_check *t, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n && !t->bad; i++) {
		uint8_t c = p[i];

		if (t->need) {
			if (c < t->lo || c > t->hi) {
				t->bad = true;
				break;
			}
			t->lo = 0x80;
			t->hi = 0xbf;
			t->cp = (t->cp << 6) | (c & 0x3f);
			if (--t->need == 0 && t->cp >= 0x80 && t->cp < 0xa0)
				t->bad = true; /* a C1 control */
			continue;
		}
		if (c < 0x80) {
			t->bad = (c < 0x20 && !allowed_control(c)) || c == 0x7f;
			continue;
		}
		t->lo = 0x80;
		t->hi = 0xbf;
		if (c >= 0xc2 && c <= 0xdf) {
			t->need = 1;
			t->cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			/* no overlong form, no surrogate */
			t->need = 2;
			t->cp = c & 0x0f;
			if (c == 0xe0)
				t->lo = 0xa0;
			if (c == 0xed)
				t->hi = 0x9f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			/* no overlong form, nothing above U+10FFFF */
			t->need = 3;
			t->cp = c & 0x07;
			if (c == 0xf0)
				t->lo = 0x90;
			if (c == 0xf4)
				t->hi = 0x8f;
		} else {
			t->bad = true;
		}
	}
}

bool ward_text_done(const struct ward_text_check *t)
{
	return !t->bad && t->need == 0;
}

/* ----------------------------------------------------------------- magic */

static bool starts(const uint8_t *h, size_t n, const void *magic, size_t m)
{
	return n >= m && memcmp(h, magic, m) == 0;
}

/* Does the text of head hold `word`, case-insensitively? */
static bool holds(const uint8_t *h, size_t n, const char *word)
{
	size_t m = strlen(word);

	for (size_t i = 0; i + m <= n; i++)
		if (strncasecmp((const char *)h + i, word, m) == 0)
			return true;
	return false;
}

/* Markup a browser would render and run: the first thing in the text
 * (after a byte-order mark and blanks) is a `<`, and the head names an SVG
 * or HTML element. Other markup (XML data) stays text. */
static uint32_t markup(const uint8_t *h, size_t n)
{
	static const char *const html[] = {
	    "<!doctype html", "<html",	 "<head",  "<body", "<script",
	    "<iframe",	      "<object", "<embed", "<meta"};
	size_t i = 0;

	if (starts(h, n, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < n && (h[i] == ' ' || h[i] == '\t' || h[i] == '\n' ||
			 h[i] == '\r' || h[i] == '\f'))
		i++;
	if (i >= n || h[i] != '<')
		return 0;
	if (holds(h + i, n - i, "<svg"))
		return WARD_EXPORT_T_SVG;
	for (size_t k = 0; k < ARRAY_LEN(html); k++)
		if (holds(h + i, n - i, html[k]))
			return WARD_EXPORT_T_HTML;
	return 0;
}

uint32_t ward_sniff(const uint8_t *h, size_t n, bool is_text)
{
	if (starts(h, n, "\x89PNG\r\n\x1a\n", 8))
		return WARD_EXPORT_T_PNG;
	if (starts(h, n, "\xff\xd8\xff", 3))
		return WARD_EXPORT_T_JPEG;
	if (starts(h, n, "GIF87a", 6) || starts(h, n, "GIF89a", 6))
		return WARD_EXPORT_T_GIF;
	if (starts(h, n, "RIFF", 4) && n >= 12 && !memcmp(h + 8, "WEBP", 4))
		return WARD_EXPORT_T_WEBP;
	if (starts(h, n, "%PDF-", 5))
		return WARD_EXPORT_T_PDF;
	if (starts(h, n, "PK\x03\x04", 4) || starts(h, n, "PK\x05\x06", 4))
		return WARD_EXPORT_T_ZIP;
	if (starts(h, n, "\x1f\x8b\x08", 3))
		return WARD_EXPORT_T_GZIP;
	/* ustar: POSIX "ustar" NUL "00" ("\000" is the NUL) or GNU "ustar  "
	 * NUL at 257. (A v7 archive has no magic: none of the known types.) */
	if (n >= 265 && (!memcmp(h + 257, "ustar\00000", 8) ||
			 !memcmp(h + 257, "ustar  \0", 8)))
		return WARD_EXPORT_T_TAR;
	if (!is_text)
		return 0;
	uint32_t m = markup(h, n);
	return m ? m : WARD_EXPORT_T_TEXT;
}

/* ------------------------------------------------------------ extensions */

static const struct {
	const char *ext;
	uint32_t types;
} claims[] = {
    {"png", WARD_EXPORT_T_PNG},	      {"jpg", WARD_EXPORT_T_JPEG},
    {"jpeg", WARD_EXPORT_T_JPEG},     {"gif", WARD_EXPORT_T_GIF},
    {"webp", WARD_EXPORT_T_WEBP},     {"pdf", WARD_EXPORT_T_PDF},
    {"zip", WARD_EXPORT_T_ZIP},	      {"docx", WARD_EXPORT_T_ZIP},
    {"xlsx", WARD_EXPORT_T_ZIP},      {"pptx", WARD_EXPORT_T_ZIP},
    {"odt", WARD_EXPORT_T_ZIP},	      {"ods", WARD_EXPORT_T_ZIP},
    {"gz", WARD_EXPORT_T_GZIP},	      {"tgz", WARD_EXPORT_T_GZIP},
    {"tar", WARD_EXPORT_T_TAR},	      {"svg", WARD_EXPORT_T_SVG},
    {"html", WARD_EXPORT_T_HTML},     {"htm", WARD_EXPORT_T_HTML},
    {"txt", WARD_EXPORT_T_TEXT},      {"csv", WARD_EXPORT_T_TEXT},
    {"tsv", WARD_EXPORT_T_TEXT},      {"json", WARD_EXPORT_T_TEXT},
    {"jsonl", WARD_EXPORT_T_TEXT},    {"md", WARD_EXPORT_T_TEXT},
    {"markdown", WARD_EXPORT_T_TEXT}, {"log", WARD_EXPORT_T_TEXT},
    {"yaml", WARD_EXPORT_T_TEXT},     {"yml", WARD_EXPORT_T_TEXT},
    {"xml", WARD_EXPORT_T_TEXT},
};

uint32_t ward_name_claims(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (!dot || dot == name)
		return 0;
	for (size_t i = 0; i < ARRAY_LEN(claims); i++)
		if (!strcasecmp(dot + 1, claims[i].ext))
			return claims[i].types;
	return 0;
}
