/* SPDX-License-Identifier: MIT */
/*
 * cmd_export.c: `wardc export --format oci|k8s SRC|BLOB [-o FILE]` and
 * `wardc import FILE.json [-o OUT.ward]` (docs/export.md).
 *
 * Export reads the policy back from the blob, as explain does (a source is
 * compiled in memory first), so that it exports what the launcher would
 * apply. What the format cannot express goes to stderr as well as into
 * the output (an annotation, YAML comments).
 */
#include "blob_read.h"
#include "commands.h"
#include "consts.h"
#include "export.h"
#include "import.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PROFILE (16u * 1024 * 1024)

/* Write what gen prints to -o FILE (atomically) or stdout. */
static int emit(const char *cmd, const char *path,
		int (*gen)(void *ctx, FILE *out), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!path)
		return gen(ctx, stdout) < 0 || fflush(stdout) ? -1 : 0;
	f = open_memstream(&buf, &len);
	if (!f)
		return -1;
	rc = gen(ctx, f);
	if (fclose(f) != 0)
		rc = -1;
	if (rc == 0 && ward_write_file_atomic(path, buf, len, 0644) < 0) {
		fprintf(stderr, "wardc %s: cannot write %s: %s\n", cmd, path,
			strerror(errno));
		rc = -2;
	}
	free(buf);
	return rc;
}

struct export_ctx {
	struct ward_pool *pool;
	const struct ward_policy *pol;
	struct ward_notes notes;
	const char *format;
	enum ward_spo_layout layout;
	struct ward_oci_opts oci;
	ward_err err;
};

static int gen_export(void *ctx, FILE *out)
{
	struct export_ctx *x = ctx;
	struct doc *d;

	if (!strcmp(x->format, "k8s"))
		return ward_export_k8s(x->pool, x->pol, x->layout, &x->notes,
				       out, &x->err);
	d = ward_export_oci(x->pool, x->pol, &x->oci, &x->notes, &x->err);
	if (!d)
		return -1;
	if (doc_print_json(d, out) < 0)
		return ward_fail(&x->err, errno, "write");
	return 0;
}

static int usage(const char *msg)
{
	fprintf(stderr, "wardc export: %s\n", msg);
	return WARDC_USAGE;
}

/* The command line's combinations; fills x's format, layout and options. */
static int check_usage(const struct wardc_args *a, struct export_ctx *x)
{
	size_t npolicy = a->has_dashdash ? a->dashdash : a->nfiles;

	if (npolicy != 1)
		return usage("give one blob or source");
	if (strcmp(a->out_format, "oci") && strcmp(a->out_format, "k8s"))
		return usage("give --format oci or --format k8s");
	*x = (struct export_ctx){.format = a->out_format,
				 .layout = WARD_SPO_CLUSTER};
	if (a->spo_layout && !strcmp(a->spo_layout, "namespaced"))
		x->layout = WARD_SPO_NAMESPACED;
	else if (a->spo_layout && strcmp(a->spo_layout, "cluster"))
		return usage("--spo-layout takes cluster or namespaced");
	if (a->spo_layout && strcmp(x->format, "k8s"))
		return usage("--spo-layout is for --format k8s");
	if ((a->bundle || a->nslots || a->runtime_init) &&
	    strcmp(x->format, "oci"))
		return usage("--bundle, --slot and --allow-runtime-init are "
			     "for --format oci");
	if (a->nslots && !a->bundle)
		return usage("--slot is for --bundle");
	if (a->bundle && a->output)
		return usage("--bundle writes DIR/config.json: no -o");
	if (a->bundle && npolicy == a->nfiles)
		return usage("--bundle DIR POLICY -- PROGRAM [ARGS]: give the "
			     "program after --");
	if (!a->bundle && npolicy != a->nfiles)
		return usage("a program after -- is for --bundle");
	x->oci.args = a->files + npolicy;
	x->oci.nargs = a->nfiles - npolicy;
	x->oci.runtime_init = a->runtime_init;
	return WARDC_OK;
}

int cmd_export(struct wardc_args *a)
{
	struct ward_blob blob;
	char msg[WARD_ERR_MSG_MAX + 128];
	struct export_ctx x;
	size_t len = 0;
	int rc;

	rc = check_usage(a, &x);
	if (rc != WARDC_OK)
		return rc;
	_cleanup_free_ uint8_t *buf = NULL;
	rc = ward_driver_blob(a->files[0], &a->opts, &buf, &len);
	if (rc != WARDC_OK)
		return rc;
	if (ward_blob_read(buf, len, 0, &blob, &x.err) < 0) {
		fprintf(stderr, "wardc: %s: %s\n", a->files[0],
			ward_err_str(&x.err, msg, sizeof(msg)));
		return WARDC_POLICY_ERROR;
	}
	if (!blob.has_rules) {
		fprintf(stderr,
			"wardc export: %s has no rule table (the optional "
			"section): recompile it from its source\n",
			a->files[0]);
		ward_blob_release(&blob);
		return WARDC_POLICY_ERROR;
	}
	x.pool = ward_pool_new();
	x.pol = &blob.policy;
	x.notes.pool = x.pool;
	if (a->bundle)
		rc = ward_export_bundle(x.pool, x.pol, a->bundle, &x.oci,
					a->slots, a->nslots, &x.notes, &x.err);
	else
		rc = emit("export", a->output, gen_export, &x);
	if (rc < 0 && (a->bundle || rc == -1))
		fprintf(stderr, "wardc export: %s: %s\n", a->files[0],
			ward_err_str(&x.err, msg, sizeof(msg)));
	else
		for (size_t i = 0; i < x.notes.n; i++)
			fprintf(stderr, "wardc export: not expressed: %s\n",
				x.notes.items[i]);
	if (rc == 0 && !strcmp(x.format, "oci") && !a->bundle)
		fprintf(stderr, "wardc export: set root.path and "
				"process.args before use\n");
	ward_pool_free(x.pool);
	ward_blob_release(&blob);
	return rc == 0 ? WARDC_OK : rc == -2 ? WARDC_USAGE : WARDC_POLICY_ERROR;
}

static int gen_text(void *ctx, FILE *out)
{
	return fputs(ctx, out) < 0 ? -1 : 0;
}

/* --capabilities: "none", or names joined by commas ("CAP_CHOWN,CAP_KILL").
 * Returns -1 naming the first unknown one in *bad. */
static int parse_caps(const char *list, uint64_t *caps, const char **bad,
		      struct ward_pool *pool)
{
	char *s = ward_pool_strdup(pool, list), *save = NULL;

	*caps = 0;
	if (!strcmp(list, "none"))
		return 0;
	for (char *w = strtok_r(s, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		int nr = ward_cap_lookup(w);
		if (nr < 0 || nr >= 64) {
			*bad = w;
			return -1;
		}
		*caps |= 1ull << nr;
	}
	if (!*caps) {
		*bad = list;
		return -1;
	}
	return 0;
}

int cmd_import(struct wardc_args *a)
{
	const char *path;
	struct ward_pool *pool;
	struct ward_notes warnings;
	struct ward_import_opts o;
	const char *bad = NULL;
	ward_err err = {0};
	size_t len = 0;
	int rc;

	if (a->nfiles != 1) {
		fprintf(stderr, "wardc import: give one profile (JSON)\n");
		return WARDC_USAGE;
	}
	path = a->files[0];
	_cleanup_free_ uint8_t *data = NULL;
	if (ward_read_file(path, MAX_PROFILE, &data, &len) < 0) {
		fprintf(stderr, "wardc import: cannot read %s: %s\n", path,
			strerror(errno));
		return WARDC_USAGE;
	}
	pool = ward_pool_new();
	warnings = (struct ward_notes){.pool = pool};
	o = (struct ward_import_opts){.arch = a->opts.arch,
				      .source = path,
				      .incdirs = a->opts.incdirs,
				      .nincdirs = a->opts.nincdirs};
	if (a->capabilities &&
	    parse_caps(a->capabilities, &o.caps, &bad, pool) < 0) {
		fprintf(stderr,
			"wardc import: --capabilities: `%s` is not a "
			"capability (CAP_CHOWN,CAP_KILL..., or none)\n",
			bad);
		ward_pool_free(pool);
		return WARDC_USAGE;
	}
	_cleanup_free_ char *text = NULL;
	rc = ward_import_docker((const char *)data, len, &o, &text, &warnings,
				&err);
	for (size_t i = 0; i < warnings.n; i++)
		fprintf(stderr, "wardc import: warning: %s\n",
			warnings.items[i]);
	ward_pool_free(pool);
	if (rc < 0) {
		char msg[WARD_ERR_MSG_MAX + 128];
		fprintf(stderr, "wardc import: error: %s\n",
			ward_err_str(&err, msg, sizeof(msg)));
		return WARDC_POLICY_ERROR;
	}
	rc = emit("import", a->output, gen_text, text);
	return rc == 0 ? WARDC_OK : WARDC_USAGE;
}
