/* SPDX-License-Identifier: MIT */
/*
 * session_record.c: what the session server keeps of each cell, the run
 * report it is handed at the end, and the session report (docs/spec.md
 * 7.6), with the run's seccomp denials attributed to their cells.
 */
#include "session_srv.h"

#include "json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A field of the driver's, decoded and cut, as a JSON string (or null). */
void ward_sjson_field(FILE *f, const char *b64, size_t n, size_t cap, bool text)
{
	struct ward_textsafe ts = {0};
	uint8_t *b, *esc;
	size_t len;

	if (!n || ward_b64_decode(b64, n, &b, &len) < 0) {
		fputs("null", f);
		return;
	}
	if (len > cap)
		len = cap;
	/* Under the policy's text mode, what the driver says of the cell
	 * (a repr, a message, a traceback) is displayed as its output is. */
	esc = text ? malloc(WARD_TEXT_GROWTH * (len + 3)) : NULL;
	if (esc)
		ward_json_bytes(f, esc, ward_text_escape(&ts, b, len, esc, 1));
	else if (text)
		fputs("null", f);
	else
		ward_json_bytes(f, b, len);
	free(esc);
	free(b);
}
void ward_skeep_cell(struct srv *s, char *body)
{
	size_t len = strlen(body);
	char **n;

	if (s->ncells >= CELLS_KEPT || s->cells_bytes + len > CELLS_BYTES ||
	    !(n = realloc(s->cells, (s->ncells + 1) * sizeof(*n)))) {
		s->cells_dropped++;
		free(body);
		return;
	}
	s->cells = n;
	s->cells[s->ncells++] = body;
	s->cells_bytes += len;
}

void ward_sread_report(struct srv *s, int fd)
{
	size_t cap = REPORT_MAX, len = 0;
	char *b = malloc(cap + 1);
	const char *r, *e;

	if (!b)
		return;
	for (;;) {
		ssize_t n = read(fd, b + len, cap - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len == cap)
			break;
	}
	b[len] = '\0';
	/* ward's courier wrote it (trusted); a report cut at the cap is not
	 * JSON any more and is left out. */
	if (!len || len == cap) {
		free(b);
		return;
	}
	s->run_report = b;
	while (len && (b[len - 1] == '\n' || b[len - 1] == ' '))
		b[--len] = '\0';
	if (s->reason[0])
		return;
	r = strstr(b, "\"reason\": \"");
	if (!r)
		return;
	r += strlen("\"reason\": \"");
	e = r;
	while ((*e >= 'a' && *e <= 'z') || *e == '_')
		e++;
	if (*e == '"' && e > r && (size_t)(e - r) < sizeof(s->reason))
		snprintf(s->reason, sizeof(s->reason), "%.*s", (int)(e - r), r);
}

void ward_ssession_report(struct srv *s)
{
	printf("{\"session\":{\"reason\":");
	ward_json_str(stdout, s->reason[0] ? s->reason : NULL);
	printf(",\"requests\":%llu,\"refused\":%llu,\"driver_garbage\":%llu,"
	       "\"cells_dropped\":%zu,\"run_status\":%d,\"stderr_tail\":",
	       (unsigned long long)s->requests, (unsigned long long)s->refused,
	       (unsigned long long)s->garbage, s->cells_dropped, s->run_status);
	ward_json_bytes(stdout, (const uint8_t *)s->err_tail, s->err_tail_len);
	printf(",\"cells\":[");
	/* each cell's reply, its denials in it (session_denials.c) */
	for (size_t i = 0; i < s->ncells; i++)
		printf("%s%s", i ? "," : "", s->cells[i]);
	printf("]},\"run\":%s}\n", s->run_report ? s->run_report : "null");
	fflush(stdout);
}
