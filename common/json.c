/* SPDX-License-Identifier: MIT */
/*
 * json.c: JSON strings and times (json.h).
 */
#include "json.h"

#include "utf8.h"

#include <string.h>

/* One ASCII byte, with JSON's escapes. */
static void put_ascii(FILE *f, uint8_t ch)
{
	if (ch == '"' || ch == '\\')
		fprintf(f, "\\%c", ch);
	else if (ch == '\n')
		fputs("\\n", f);
	else if (ch == '\t')
		fputs("\\t", f);
	else if (ch < 0x20 || ch == 0x7f)
		fprintf(f, "\\u%04x", ch);
	else
		fputc(ch, f);
}

void ward_json_bytes(FILE *f, const uint8_t *s, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n;) {
		size_t k = ward_utf8_len(s + i, n - i);

		if (k == 0) {
			fprintf(f, "\\udc%02x", s[i]);
			i++;
		} else if (k == 1) {
			put_ascii(f, s[i]);
			i++;
		} else {
			fwrite(s + i, 1, k, f);
			i += k;
		}
	}
	fputc('"', f);
}

void ward_json_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	ward_json_bytes(f, (const uint8_t *)s, strlen(s));
}

void ward_rfc3339(const struct timespec *ts, char *buf, size_t len)
{
	struct tm tm;
	time_t t = ts->tv_sec;

	if (!gmtime_r(&t, &tm)) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, ts->tv_nsec / 1000000);
}

void ward_json_time(FILE *f, const struct timespec *ts)
{
	char buf[64];

	if (!ts->tv_sec) {
		fputs("null", f);
		return;
	}
	ward_rfc3339(ts, buf, sizeof(buf));
	ward_json_str(f, buf);
}

void ward_json_u64_or_null(FILE *f, bool have, uint64_t v)
{
	if (have)
		fprintf(f, "%llu", (unsigned long long)v);
	else
		fputs("null", f);
}
