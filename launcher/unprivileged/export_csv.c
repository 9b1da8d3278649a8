/* SPDX-License-Identifier: MIT */
/*
 * export_csv.c: formula cells in CSV files (export_csv.h).
 */
#include "export_csv.h"

#include <string.h>
#include <strings.h>

bool ward_csv_name(const char *name, bool *tsv)
{
	const char *dot = strrchr(name, '.');

	*tsv = dot && dot != name && !strcasecmp(dot, ".tsv");
	return dot && dot != name && (*tsv || !strcasecmp(dot, ".csv"));
}

void ward_csv_init(struct ward_csv_scan *s, bool tsv)
{
	memset(s, 0, sizeof(*s));
	s->tsv = tsv;
	s->row = s->col = 1;
}

static bool is_digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

/* A number as a spreadsheet reads one, after its sign: 12, 1.5, .5, 1e3,
 * 2.5E-3, 20%. */
static bool is_number(const uint8_t *p, size_t n)
{
	size_t i = 0, digits = 0;

	while (i < n && is_digit(p[i]))
		i++, digits++;
	if (i < n && p[i] == '.')
		for (i++; i < n && is_digit(p[i]); i++)
			digits++;
	if (!digits)
		return false;
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		size_t e = ++i;
		if (i < n && (p[i] == '+' || p[i] == '-'))
			e = ++i;
		while (i < n && is_digit(p[i]))
			i++;
		if (i == e)
			return false;
	}
	if (i < n && p[i] == '%')
		i++;
	return i == n;
}

static bool blank(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '"';
}

static bool trigger(uint8_t c)
{
	return c == '=' || c == '+' || c == '-' || c == '@';
}

/* The cell just ended: a formula? */
static void judge(struct ward_csv_scan *s)
{
	const uint8_t *h = s->head;
	size_t n = s->hlen, i = 0, first = 0;
	char why;

	if (!n)
		return;
	/* the byte-order mark a spreadsheet drops before the first cell */
	if (s->row == 1 && s->col == 1 && n >= 3 &&
	    !memcmp(h, "\xef\xbb\xbf", 3))
		i = first = 3;
	while (i < n && blank(h[i]))
		i++;
	if (i < n && trigger(h[i])) {
		size_t rest = n - i - 1;
		/* a lone `-` is a dash; a signed number is a number */
		if (!s->long_cell &&
		    (rest == 0 || ((h[i] == '-' || h[i] == '+') &&
				   is_number(h + i + 1, rest))))
			return;
		why = (char)h[i];
	} else if (first < n && (h[first] == '\t' || h[first] == '\r')) {
		why = (char)h[first]; /* OWASP lists both as triggers too */
	} else {
		return;
	}
	if (!s->formulas++) {
		s->first_row = s->row;
		s->first_col = s->col;
		s->first_trigger = why;
	}
}

static void end_cell(struct ward_csv_scan *s)
{
	judge(s);
	s->hlen = 0;
	s->long_cell = s->cell_begun = s->quote_seen = s->quoted = false;
}

static void keep(struct ward_csv_scan *s, uint8_t c)
{
	s->cell_begun = true;
	if (s->hlen < sizeof(s->head))
		s->head[s->hlen++] = c;
	else
		s->long_cell = true;
}

void ward_csv_feed(struct ward_csv_scan *s, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];

		if (s->quoted) {
			if (!s->quote_seen) {
				if (c == '"')
					s->quote_seen = true;
				else
					keep(s,
					     c); /* separators, line breaks */
				continue;
			}
			s->quote_seen = false;
			if (c == '"') { /* "" is one quote */
				keep(s, c);
				continue;
			}
			s->quoted = false; /* it closed: c is outside */
		}
		if (c == '\n' && s->after_cr) { /* the LF of a CRLF */
			s->after_cr = false;
			continue;
		}
		s->after_cr = false;
		if (s->tsv ? c == '\t' : c == ',' || c == ';') {
			end_cell(s);
			s->col++;
		} else if (c == '\n' || c == '\r') {
			end_cell(s);
			s->row++;
			s->col = 1;
			s->after_cr = c == '\r';
		} else if (c == '"' && !s->cell_begun) {
			s->quoted = s->cell_begun = true;
		} else {
			keep(s, c);
		}
	}
}

void ward_csv_done(struct ward_csv_scan *s)
{
	if (s->cell_begun)
		end_cell(s);
}
