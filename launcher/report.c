/* SPDX-License-Identifier: MIT */
/*
 * report.c: see report.h.
 */
#include "report.h"

#include <errno.h>
#include <string.h>

static void json_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

int ward_report_write(int fd, const struct ward_report *r, ward_err *err)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0, off = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return ward_fail(err, errno, "report");
	fputs("{\"ward_report\": 1, \"policy\": {\"name\": ", f);
	json_str(f, r->policy_name);
	fputs(", \"digest\": ", f);
	json_str(f, r->digest_hex);
	fputs("}, \"mode\": ", f);
	json_str(f, r->mode);
	fputs(", \"reason\": ", f);
	json_str(f, r->reason);
	fprintf(f, ", \"exit_code\": %d, \"target_exit\": ", r->exit_code);
	if (r->target_exit >= 0)
		fprintf(f, "%d", r->target_exit);
	else
		fputs("null", f);
	fputs(", \"signal\": ", f);
	if (r->signal)
		fprintf(f, "%d", r->signal);
	else
		fputs("null", f);
	fputs(", \"error\": ", f);
	json_str(f, r->error);
	fputs("}\n", f);
	if (fclose(f) != 0)
		return ward_fail(err, ENOMEM, "report");
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ward_fail(err, errno, "write the report");
		off += (size_t)n;
	}
	return 0;
}
