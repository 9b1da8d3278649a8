/* SPDX-License-Identifier: MIT */
/*
 * cmd_lint.c: `wardc lint [--format text|json|sarif] [--threshold N]
 * [-Werror] [-o FILE] FILE...` and `wardc lint --list-rules [--format
 * text|json|markdown]`.
 *
 * Exit status: 2 when a file cannot be read or does not compile (it is not
 * linted), or on a usage error; else 1 when a finding of error severity is
 * not suppressed (a warning too, under -Werror) or a policy's exposure
 * score is above the threshold; else 0.
 */
#include "commands.h"
#include "lint.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 1, 2))) static int usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "wardc lint: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'wardc --help'.\n");
	return WARDC_USAGE;
}

static int list_rules(struct wardc_args *a)
{
	const char *fmt = a->out_format ? a->out_format : "text";
	if (a->nfiles)
		return usage("--list-rules takes no file (`%s`)", a->files[0]);
	if (strcmp(fmt, "text") && strcmp(fmt, "json") &&
	    strcmp(fmt, "markdown"))
		return usage("--list-rules prints text, json or markdown, not "
			     "`%s`",
			     fmt);
	if (lint_print_rules(stdout, fmt) < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "wardc lint: cannot write the rules: %s\n",
			strerror(errno));
		return WARDC_USAGE;
	}
	return WARDC_OK;
}

struct run {
	struct ward_session *sessions;
	struct lint_report *reports;
	bool *linted;
	const char **failed;
	size_t n, nfailed;
};

static void print_all(const struct wardc_args *a, const struct run *r,
		      FILE *out, bool threshold_set, unsigned threshold)
{
	const char *fmt = a->out_format;
	struct ward_pool *pl;
	struct doc *d;

	if (strcmp(fmt, "text") == 0) {
		bool first = true;
		for (size_t i = 0; i < r->n; i++) {
			if (!r->linted[i])
				continue;
			if (!first)
				fputc('\n', out);
			first = false;
			lint_print_text(&r->reports[i], out, a->opts.color);
		}
		return;
	}
	pl = ward_pool_new();
	if (strcmp(fmt, "sarif") == 0) {
		const struct lint_report **reps =
		    ward_pool_array(pl, r->n + 1, sizeof(*reps));
		size_t k = 0;
		for (size_t i = 0; i < r->n; i++)
			if (r->linted[i])
				reps[k++] = &r->reports[i];
		d = lint_sarif_doc(pl, reps, k, r->failed, r->nfailed);
	} else {
		struct doc *files;

		d = doc_map(pl);
		doc_set_str(pl, d, "tool", "wardc lint");
		doc_set_str(pl, d, "version", WARD_VERSION);
		if (threshold_set)
			doc_add(d, "threshold", doc_fixed(pl, threshold, 1));
		else
			doc_set_str(pl, d, "threshold", NULL);
		files = doc_add(d, "files", doc_list(pl));
		for (size_t i = 0; i < r->n; i++) {
			struct doc *f;

			if (r->linted[i]) {
				doc_add(files, NULL,
					lint_report_doc(pl, &r->reports[i]));
				continue;
			}
			f = doc_add(files, NULL, doc_map(pl));
			doc_set_str(pl, f, "file", a->files[i]);
			doc_set_str(pl, f, "error",
				    "it does not compile: see the "
				    "diagnostics");
		}
	}
	doc_print_json(d, out);
	ward_pool_free(pl);
}

/* The exit status the findings and scores call for (files that failed are
 * counted by the caller). */
static int verdict(const struct wardc_args *a, const struct run *r,
		   bool threshold_set, unsigned threshold)
{
	int rc = WARDC_OK;
	for (size_t i = 0; i < r->n; i++) {
		const struct lint_report *rep;
		unsigned e, w;

		if (!r->linted[i])
			continue;
		rep = &r->reports[i];
		lint_count(rep, &e, &w, NULL, NULL);
		if (e || (a->opts.werror && w))
			rc = WARDC_POLICY_ERROR;
		if (threshold_set && rep->score.scored &&
		    rep->score.tenths > threshold) {
			fprintf(stderr,
				"wardc lint: %s: the exposure score %u.%u is "
				"above the threshold %u.%u\n",
				rep->file, rep->score.tenths / 10,
				rep->score.tenths % 10, threshold / 10,
				threshold % 10);
			rc = WARDC_POLICY_ERROR;
		}
	}
	return rc;
}

/* buf and len are valid only after the stream is flushed. */
static int write_output(const char *path, FILE *mem, char *const *buf,
			const size_t *len)
{
	if (fflush(mem) != 0 || ferror(mem))
		return -1;
	return ward_write_file_atomic(path, *buf, *len, 0644);
}

int cmd_lint(struct wardc_args *a)
{
	unsigned threshold = 0;
	bool threshold_set;
	struct ward_opts o;
	struct run r;
	int rc;

	if (a->list_rules)
		return list_rules(a);
	if (!a->out_format)
		a->out_format = "text";
	if (strcmp(a->out_format, "text") && strcmp(a->out_format, "json") &&
	    strcmp(a->out_format, "sarif"))
		return usage("--format takes text, json or sarif, not `%s`",
			     a->out_format);
	threshold_set = a->threshold != NULL;
	if (threshold_set && lint_parse_threshold(a->threshold, &threshold) < 0)
		return usage("--threshold takes a score from 0 to 10 with at "
			     "most one decimal (3 or 3.5), not `%s`",
			     a->threshold);
	if (a->nfiles == 0)
		return usage("%s", "no file to lint");

	o = a->opts;
	o.werror = false; /* -Werror is about lint's findings here */
	r = (struct run){.n = a->nfiles};
	r.sessions = calloc(r.n, sizeof(*r.sessions));
	r.reports = calloc(r.n, sizeof(*r.reports));
	r.linted = calloc(r.n, sizeof(*r.linted));
	r.failed = calloc(r.n, sizeof(*r.failed));
	if (!r.sessions || !r.reports || !r.linted || !r.failed) {
		fprintf(stderr, "wardc lint: out of memory\n");
		free(r.sessions);
		free(r.reports);
		free(r.linted);
		free(r.failed);
		return WARDC_USAGE;
	}
	for (size_t i = 0; i < r.n; i++) {
		if (ward_session_open(&r.sessions[i], a->files[i], &o) !=
		    WARDC_OK) {
			fprintf(stderr,
				"wardc lint: %s does not compile: not linted\n",
				a->files[i]);
			r.failed[r.nfailed++] = a->files[i];
			continue;
		}
		ward_lint(&r.sessions[i], a->files[i], &r.reports[i]);
		r.linted[i] = true;
	}

	rc = verdict(a, &r, threshold_set, threshold);
	if (r.nfailed)
		rc = WARDC_USAGE;
	if (a->output) {
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);
		if (mem) {
			print_all(a, &r, mem, threshold_set, threshold);
			if (write_output(a->output, mem, &buf, &len) < 0) {
				fprintf(stderr,
					"wardc lint: cannot write %s: %s\n",
					a->output, strerror(errno));
				rc = WARDC_USAGE;
			}
			fclose(mem);
		} else {
			rc = WARDC_USAGE;
		}
		free(buf);
	} else {
		print_all(a, &r, stdout, threshold_set, threshold);
		if (fflush(stdout) != 0) {
			fprintf(stderr, "wardc lint: cannot write: %s\n",
				strerror(errno));
			rc = WARDC_USAGE;
		}
	}

	for (size_t i = 0; i < r.n; i++) {
		if (r.linted[i])
			ward_lint_free(&r.reports[i]);
		ward_session_close(&r.sessions[i]);
	}
	free(r.sessions);
	free(r.reports);
	free(r.linted);
	free(r.failed);
	return rc;
}
