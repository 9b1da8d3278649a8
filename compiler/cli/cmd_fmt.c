/* SPDX-License-Identifier: MIT */
/*
 * cmd_fmt.c: `wardc fmt [-w | --check] FILE...`: print policies in canonical
 * form (lang/fmt.c). A file with syntax errors is left alone.
 */
#include "commands.h"
#include "diag.h"
#include "fmt.h"
#include "load.h"
#include "source.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SOURCE (4u * 1024 * 1024)

/* Format one file into a malloc'd buffer; a WARDC_* code. */
static int format_file(const char *path, const struct ward_opts *o, char **out,
		       size_t *outlen, uint8_t **orig, size_t *origlen)
{
	struct ward_sources *src;
	char *text;
	struct ward_loc none;
	uint32_t id;
	struct ward_diags *d;
	struct ward_file *f;
	int rc = WARDC_OK;

	if (ward_read_file(path, MAX_SOURCE, orig, origlen) < 0) {
		fprintf(stderr, "wardc: cannot read %s: %s\n", path,
			strerror(errno));
		return WARDC_USAGE;
	}
	src = ward_sources_new();
	text = malloc(*origlen + 1);
	if (!src || !text) {
		free(text);
		ward_sources_free(src);
		return WARDC_USAGE;
	}
	memcpy(text, *orig, *origlen);
	none = (struct ward_loc){.file = WARD_NO_FILE};
	id = ward_sources_add(src, path, text, *origlen, WARD_NO_FILE, none);
	d = ward_diags_new(src, stderr, o->format, o->color, false);
	f = ward_parse(src, id, d);
	if (f->nerrors || ward_diags_errors(d)) {
		rc = WARDC_POLICY_ERROR;
	} else {
		FILE *mem = open_memstream(out, outlen);
		if (!mem || ward_fmt(f, src, mem) < 0) {
			fprintf(stderr, "wardc: cannot format %s: %s\n", path,
				strerror(errno));
			rc = WARDC_USAGE;
		}
		if (mem)
			fclose(mem);
	}
	ward_file_free(f);
	ward_diags_flush(d);
	ward_diags_free(d);
	ward_sources_free(src);
	return rc;
}

int cmd_fmt(struct wardc_args *a)
{
	int worst = WARDC_OK;

	if (a->nfiles == 0) {
		fprintf(stderr, "wardc fmt: no file given\n");
		return WARDC_USAGE;
	}
	for (size_t i = 0; i < a->nfiles; i++) {
		_cleanup_free_ char *out = NULL;
		_cleanup_free_ uint8_t *orig = NULL;
		size_t outlen = 0, origlen = 0;
		int rc = format_file(a->files[i], &a->opts, &out, &outlen,
				     &orig, &origlen);
		bool same;

		if (rc != WARDC_OK) {
			if (rc > worst)
				worst = rc;
			continue;
		}
		same = outlen == origlen && !memcmp(out, orig, outlen);
		if (a->check) {
			if (!same) {
				printf("%s\n", a->files[i]);
				if (worst < WARDC_POLICY_ERROR)
					worst = WARDC_POLICY_ERROR;
			}
		} else if (a->write) {
			if (!same && ward_write_file_atomic(a->files[i], out,
							    outlen, 0644) < 0) {
				fprintf(stderr, "wardc: cannot write %s: %s\n",
					a->files[i], strerror(errno));
				worst = WARDC_USAGE;
			}
		} else {
			fwrite(out, 1, outlen, stdout);
		}
	}
	return worst;
}
