/* SPDX-License-Identifier: MIT */
/*
 * diag.c: diagnostics in the gcc/rustc text form or as JSON lines.
 *
 * A diagnostic is collected (message, help lines, notes) until the next one
 * opens or the caller flushes, then rendered in one go, so that help lines
 * and notes always print under their own diagnostic.
 */
#include "diag.h"

#include "json.h"
#include "utf8.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAB_STOP    8
#define MIN_GUTTER  5
#define MAX_CHAIN   256
#define PROGRAM	    "wardc"
#define WERROR_FLAG " [-Werror]"

/* gcc's palette: bold locus, red errors, cyan notes, green carets; warnings
 * in yellow. */
#define C_RESET	  "\033[0m"
#define C_BOLD	  "\033[1m"
#define C_ERROR	  "\033[1;31m"
#define C_WARNING "\033[1;33m"
#define C_NOTE	  "\033[1;36m"
#define C_CARET	  "\033[1;32m"

struct note {
	struct ward_loc loc;
	char *msg;
};

struct ward_diags {
	const struct ward_sources *src;
	FILE *out;
	enum ward_diag_format format;
	bool color, werror;
	unsigned errors, warnings;

	/* the diagnostic being collected */
	bool open;
	enum ward_severity sev;
	bool promoted; /* a warning turned into an error by -Werror */
	struct ward_loc loc;
	char *msg;
	char **helps;
	size_t nhelps, cap_helps;
	struct note *notes;
	size_t nnotes, cap_notes;
};

static bool want_color(FILE *out, enum ward_color color)
{
	const char *term;

	if (color != WARD_COLOR_AUTO)
		return color == WARD_COLOR_ALWAYS;
	term = getenv("TERM");
	if (getenv("NO_COLOR") || !term || strcmp(term, "dumb") == 0)
		return false;
	return isatty(fileno(out));
}

struct ward_diags *ward_diags_new(const struct ward_sources *src, FILE *out,
				  enum ward_diag_format format,
				  enum ward_color color, bool werror)
{
	struct ward_diags *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->src = src;
	d->out = out;
	d->format = format;
	d->color = format == WARD_DIAG_TEXT && want_color(out, color);
	d->werror = werror;
	return d;
}

static void clear_current(struct ward_diags *d)
{
	free(d->msg);
	d->msg = NULL;
	for (size_t i = 0; i < d->nhelps; i++)
		free(d->helps[i]);
	for (size_t i = 0; i < d->nnotes; i++)
		free(d->notes[i].msg);
	d->nhelps = d->nnotes = 0;
	d->open = false;
}

void ward_diags_free(struct ward_diags *d)
{
	if (!d)
		return;
	ward_diags_flush(d);
	free(d->helps);
	free(d->notes);
	free(d);
}

/* ------------------------------------------------------------ text form */

static void put_color(struct ward_diags *d, const char *code)
{
	if (d->color)
		fputs(code, d->out);
}

static bool has_place(const struct ward_diags *d, struct ward_loc loc)
{
	return loc.file != WARD_NO_FILE && d->src &&
	       ward_sources_name(d->src, loc.file) != NULL;
}

static unsigned digits(uint32_t n)
{
	unsigned k = 1;
	while (n >= 10) {
		n /= 10;
		k++;
	}
	return k;
}

static int gutter_width(uint32_t line)
{
	unsigned w = digits(line);
	return (int)(w < MIN_GUTTER ? MIN_GUTTER : w);
}

/* Lines longer than this show a window around the caret. */
#define WIDE_LINE   200
#define WINDOW	    160
#define WINDOW_LEAD 60

/* One byte (or character) of a source line as the terminal will show it;
 * returns the bytes consumed and adds the columns used to *dcol. */
static size_t put_source_char(FILE *out, const unsigned char *s, size_t n,
			      size_t *dcol)
{
	size_t step;

	if (s[0] == '\t') {
		size_t w = TAB_STOP - *dcol % TAB_STOP;
		for (size_t i = 0; i < w; i++)
			fputc(' ', out);
		*dcol += w;
		return 1;
	}
	if (s[0] >= 0x20 && s[0] < 0x7f) {
		fputc(s[0], out);
		*dcol += 1;
		return 1;
	}
	if (s[0] >= 0x80 && (step = ward_utf8_len(s, n))) {
		fwrite(s, 1, step, out);
		*dcol += 1;
		return step;
	}
	fprintf(out, "<%02x>", s[0]);
	*dcol += 4;
	return 1;
}

/*
 * Print the source line of loc and a caret line under its span. Tabs are
 * expanded to the next multiple of 8, control bytes and bytes that are not
 * UTF-8 print as <xx>, so that what the terminal shows lines up with the
 * caret whatever the line holds. A very long line shows a window around
 * the caret, with "..." where it was cut.
 */
static void render_snippet(struct ward_diags *d, struct ward_loc loc)
{
	size_t len;
	const char *line = ward_sources_line(d->src, loc.file, loc.line, &len);
	const unsigned char *s;
	int w;
	size_t first;
	size_t last;
	size_t i;
	size_t dcol = 0, caret_from = SIZE_MAX, caret_to = 0;
	size_t from, to;

	if (!line)
		return;
	s = (const unsigned char *)line;
	w = gutter_width(loc.line);

	/* Byte span on this line, 0-based, inclusive; may reach past the end
	 * (an error at the end of the line or of the file). */
	first = loc.col ? loc.col - 1 : 0;
	if (loc.end_line != loc.line)
		last = len ? len - 1 : 0;
	else if (loc.end_col < loc.col)
		last = first; /* an empty span: a single caret */
	else
		last = loc.end_col - 1;
	if (last < first)
		last = first;

	from = 0;
	to = len;
	if (len > WIDE_LINE) {
		size_t anchor = first < len ? first : len;
		from = anchor > WINDOW_LEAD ? anchor - WINDOW_LEAD : 0;
		while (from > 0 && (s[from] & 0xc0) == 0x80)
			from--;
		to = from + WINDOW < len ? from + WINDOW : len;
		while (to < len && (s[to] & 0xc0) == 0x80)
			to++;
	}

	fprintf(d->out, "%*u | ", w, loc.line);
	if (from > 0) {
		fputs("...", d->out);
		dcol = 3;
	}
	i = from;
	while (i < to) {
		size_t start = dcol;
		size_t step = put_source_char(d->out, s + i, len - i, &dcol);
		if (i <= first && first < i + step && caret_from == SIZE_MAX)
			caret_from = start;
		if (i <= last)
			caret_to = dcol;
		i += step;
	}
	if (to < len)
		fputs("...", d->out);
	fputc('\n', d->out);
	if (caret_from == SIZE_MAX) /* past the end of the line */
		caret_from = dcol + (first >= to ? first - to : 0);
	if (last >= to)
		caret_to = to < len ? dcol : dcol + (last - to) + 1;
	if (caret_to <= caret_from)
		caret_to = caret_from + 1;

	fprintf(d->out, "%*s | %*s", w, "", (int)caret_from, "");
	put_color(d, C_CARET);
	fputc('^', d->out);
	for (size_t k = caret_from + 1; k < caret_to; k++)
		fputc('~', d->out);
	put_color(d, C_RESET);
	fputc('\n', d->out);
}

static const char *sev_word(enum ward_severity sev)
{
	switch (sev) {
	case WARD_SEV_NOTE:
		return "note";
	case WARD_SEV_WARNING:
		return "warning";
	case WARD_SEV_ERROR:
		break;
	}
	return "error";
}

static const char *sev_color(enum ward_severity sev)
{
	switch (sev) {
	case WARD_SEV_NOTE:
		return C_NOTE;
	case WARD_SEV_WARNING:
		return C_WARNING;
	case WARD_SEV_ERROR:
		break;
	}
	return C_ERROR;
}

/* `use` and `include` are told apart by the statement the chain points at. */
static const char *via_verb(struct ward_diags *d, struct ward_loc via)
{
	size_t len;
	const char *line = ward_sources_line(d->src, via.file, via.line, &len);
	if (line && via.col >= 1 && via.col - 1 + 7 <= len &&
	    memcmp(line + via.col - 1, "include", 7) == 0)
		return "included";
	return "used";
}

static void render_header(struct ward_diags *d, struct ward_loc loc,
			  enum ward_severity sev, const char *msg,
			  bool promoted)
{
	put_color(d, C_BOLD);
	if (has_place(d, loc))
		fprintf(d->out,
			"%s:%u:%u:", ward_sources_name(d->src, loc.file),
			loc.line, loc.col);
	else
		fputs(PROGRAM ":", d->out);
	put_color(d, C_RESET);
	fputc(' ', d->out);
	/* A message without a place reads like any command's error:
	 * "wardc: cannot read x.ward: No such file or directory". */
	if (has_place(d, loc) || sev != WARD_SEV_ERROR || promoted) {
		put_color(d, sev_color(sev));
		fprintf(d->out, "%s:", sev_word(sev));
		put_color(d, C_RESET);
		fputc(' ', d->out);
	}
	fprintf(d->out, "%s%s\n", msg, promoted ? WERROR_FLAG : "");
}

static void render_text(struct ward_diags *d)
{
	bool placed = has_place(d, d->loc);
	int w;

	if (placed) {
		struct ward_loc via;
		uint32_t f = d->loc.file;
		for (int depth = 0; depth < MAX_CHAIN; depth++) {
			uint32_t parent = ward_sources_parent(d->src, f, &via);
			if (parent == WARD_NO_FILE || !has_place(d, via))
				break;
			fprintf(d->out, "in file %s from %s:%u:%u:\n",
				via_verb(d, via),
				ward_sources_name(d->src, via.file), via.line,
				via.col);
			f = parent;
		}
	}
	render_header(d, d->loc, d->sev, d->msg, d->promoted);
	if (placed)
		render_snippet(d, d->loc);
	w = placed ? gutter_width(d->loc.line) : MIN_GUTTER;
	for (size_t i = 0; i < d->nhelps; i++) {
		fprintf(d->out, "%*s ", w, "");
		put_color(d, C_BOLD);
		fputs("= help:", d->out);
		put_color(d, C_RESET);
		fprintf(d->out, " %s\n", d->helps[i]);
	}
	for (size_t i = 0; i < d->nnotes; i++) {
		const struct note *n = &d->notes[i];
		render_header(d, n->loc, WARD_SEV_NOTE, n->msg, false);
		if (has_place(d, n->loc))
			render_snippet(d, n->loc);
	}
}

/* ------------------------------------------------------------ JSON form */

static void json_place(struct ward_diags *d, struct ward_loc loc)
{
	if (has_place(d, loc)) {
		fputs("\"file\":", d->out);
		ward_json_str(d->out, ward_sources_name(d->src, loc.file));
		fprintf(d->out,
			",\"line\":%u,\"column\":%u,\"end_line\":%u,"
			"\"end_column\":%u",
			loc.line, loc.col, loc.end_line, loc.end_col);
	} else {
		fputs("\"file\":null,\"line\":0,\"column\":0,\"end_line\":0,"
		      "\"end_column\":0",
		      d->out);
	}
}

static void render_json(struct ward_diags *d)
{
	FILE *out = d->out;
	fputc('{', out);
	json_place(d, d->loc);
	fprintf(out, ",\"severity\":\"%s\",\"message\":", sev_word(d->sev));
	if (d->promoted) {
		size_t n = strlen(d->msg);
		char *m = malloc(n + sizeof(WERROR_FLAG));
		if (m) {
			memcpy(m, d->msg, n);
			memcpy(m + n, WERROR_FLAG, sizeof(WERROR_FLAG));
			ward_json_str(out, m);
			free(m);
		} else
			ward_json_str(out, d->msg);
	} else
		ward_json_str(out, d->msg);
	fputs(",\"help\":[", out);
	for (size_t i = 0; i < d->nhelps; i++) {
		if (i)
			fputc(',', out);
		ward_json_str(out, d->helps[i]);
	}
	fputs("],\"notes\":[", out);
	for (size_t i = 0; i < d->nnotes; i++) {
		if (i)
			fputc(',', out);
		fputc('{', out);
		json_place(d, d->notes[i].loc);
		fputs(",\"severity\":\"note\",\"message\":", out);
		ward_json_str(out, d->notes[i].msg);
		fputc('}', out);
	}
	fputs("],\"include_chain\":[", out);
	if (has_place(d, d->loc)) {
		struct ward_loc via;
		uint32_t f = d->loc.file;
		for (int depth = 0; depth < MAX_CHAIN; depth++) {
			uint32_t parent = ward_sources_parent(d->src, f, &via);
			if (parent == WARD_NO_FILE || !has_place(d, via))
				break;
			if (depth)
				fputc(',', out);
			fputs("{\"file\":", out);
			ward_json_str(out, ward_sources_name(d->src, via.file));
			fprintf(out, ",\"line\":%u,\"column\":%u}", via.line,
				via.col);
			f = parent;
		}
	}
	fputs("]}\n", out);
}

/* ------------------------------------------------------------ the API */

void ward_diags_flush(struct ward_diags *d)
{
	if (!d || !d->open)
		return;
	if (d->msg) {
		if (d->format == WARD_DIAG_JSON)
			render_json(d);
		else
			render_text(d);
		fflush(d->out);
	}
	clear_current(d);
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		return NULL;
	return s;
}

void ward_diag(struct ward_diags *d, enum ward_severity sev,
	       struct ward_loc loc, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return;
	ward_diags_flush(d);
	d->open = true;
	d->sev = sev;
	d->promoted = false;
	if (sev == WARD_SEV_WARNING && d->werror) {
		d->sev = WARD_SEV_ERROR;
		d->promoted = true;
	}
	if (d->sev == WARD_SEV_ERROR)
		d->errors++;
	else if (d->sev == WARD_SEV_WARNING)
		d->warnings++;
	d->loc = loc;
	va_start(ap, fmt);
	d->msg = vformat(fmt, ap);
	va_end(ap);
}

void ward_diag_help(struct ward_diags *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (!d || !d->open)
		return;
	if (d->nhelps == d->cap_helps) {
		size_t cap = d->cap_helps ? d->cap_helps * 2 : 4;
		char **helps = realloc(d->helps, cap * sizeof(*helps));
		if (!helps)
			return;
		d->helps = helps;
		d->cap_helps = cap;
	}
	va_start(ap, fmt);
	s = vformat(fmt, ap);
	va_end(ap);
	if (s)
		d->helps[d->nhelps++] = s;
}

void ward_diag_note(struct ward_diags *d, struct ward_loc loc, const char *fmt,
		    ...)
{
	va_list ap;
	char *s;

	if (!d || !d->open)
		return;
	if (d->nnotes == d->cap_notes) {
		size_t cap = d->cap_notes ? d->cap_notes * 2 : 4;
		struct note *notes = realloc(d->notes, cap * sizeof(*notes));
		if (!notes)
			return;
		d->notes = notes;
		d->cap_notes = cap;
	}
	va_start(ap, fmt);
	s = vformat(fmt, ap);
	va_end(ap);
	if (s)
		d->notes[d->nnotes++] = (struct note){loc, s};
}

unsigned ward_diags_errors(const struct ward_diags *d)
{
	return d ? d->errors : 0;
}

unsigned ward_diags_warnings(const struct ward_diags *d)
{
	return d ? d->warnings : 0;
}
