/* SPDX-License-Identifier: MIT */
/*
 * cmd_diff.c: `wardc diff A B`: what B allows that A does not, and the
 * reverse, section by section, as a reviewer reads a change. Each change is
 * marked `+` (B allows more), `-` (B allows less) or `~` (different, neither
 * wider nor narrower). Exit 0 when the policies are equal, 1 when not.
 */
#include "blob_read.h"
#include "commands.h"
#include "describe.h"
#include "doc.h"
#include "policy_diff.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* ----------------------------------------------------------------- output */

static void print_text(const struct ward_vec *changes, const char *na,
		       const char *nb)
{
	const struct ward_change *c = changes->items;
	const char *section = NULL;

	printf("--- %s\n+++ %s\n(+ B allows more, - B allows less, ~ "
	       "changed)\n",
	       na, nb);
	for (size_t i = 0; i < changes->n; i++) {
		if (!section || strcmp(section, c[i].section)) {
			section = c[i].section;
			printf("%s:\n", section);
		}
		if (c[i].a && c[i].b)
			printf("  %c %s: %s -> %s\n", c[i].sign, c[i].what,
			       c[i].a, c[i].b);
		else
			printf("  %c %s: %s%s\n", c[i].sign, c[i].what,
			       c[i].a ? c[i].a : c[i].b,
			       c[i].a ? " (only in A)" : "");
	}
}

static struct doc *changes_doc(struct ward_pool *p,
			       const struct ward_vec *changes)
{
	struct doc *root = doc_map(p);
	struct doc *list;
	const struct ward_change *c;

	doc_set_bool(p, root, "equal", changes->n == 0);
	list = doc_add(root, "changes", doc_list(p));
	c = changes->items;
	for (size_t i = 0; i < changes->n; i++) {
		struct doc *m = doc_add(list, NULL, doc_map(p));
		doc_set_str(p, m, "section", c[i].section);
		doc_set_str(p, m, "sign", ward_pool_printf(p, "%c", c[i].sign));
		doc_set_str(p, m, "what", c[i].what);
		doc_set_str(p, m, "a", c[i].a);
		doc_set_str(p, m, "b", c[i].b);
	}
	return root;
}

int cmd_diff(struct wardc_args *a)
{
	const char *fmt;
	struct ward_vec changes = {0};
	struct ward_pool *pool;
	struct ward_blob xa, xb;
	ward_err err = {0};
	char msg[WARD_ERR_MSG_MAX + 128];
	size_t la = 0, lb = 0;
	int rc;

	if (a->nfiles != 2) {
		fprintf(stderr, "wardc diff: give two blobs or sources\n");
		return WARDC_USAGE;
	}
	fmt = a->out_format;
	if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "yaml")) {
		fprintf(stderr, "wardc diff: unknown format `%s`\n", fmt);
		return WARDC_USAGE;
	}
	_cleanup_free_ uint8_t *ba = NULL, *bb = NULL;
	rc = ward_driver_blob(a->files[0], &a->opts, &ba, &la);
	if (rc != WARDC_OK)
		return rc == WARDC_POLICY_ERROR ? WARDC_USAGE : rc;
	rc = ward_driver_blob(a->files[1], &a->opts, &bb, &lb);
	if (rc != WARDC_OK)
		return rc == WARDC_POLICY_ERROR ? WARDC_USAGE : rc;

	if (ward_blob_read(ba, la, 0, &xa, &err) < 0) {
		fprintf(stderr, "wardc: %s: %s\n", a->files[0],
			ward_err_str(&err, msg, sizeof(msg)));
		return WARDC_USAGE;
	}
	if (ward_blob_read(bb, lb, 0, &xb, &err) < 0) {
		fprintf(stderr, "wardc: %s: %s\n", a->files[1],
			ward_err_str(&err, msg, sizeof(msg)));
		ward_blob_release(&xa);
		return WARDC_USAGE;
	}
	pool = ward_pool_new();
	ward_policy_diff(pool, &xa.policy, &xb.policy, &changes);
	if (!strcmp(fmt, "text")) {
		if (changes.n)
			print_text(&changes, a->files[0], a->files[1]);
	} else if (!strcmp(fmt, "json")) {
		doc_print_json(changes_doc(pool, &changes), stdout);
	} else {
		doc_print_yaml(changes_doc(pool, &changes), stdout);
	}
	rc = changes.n ? 1 : 0;
	ward_pool_free(pool);
	ward_blob_release(&xa);
	ward_blob_release(&xb);
	return rc;
}
