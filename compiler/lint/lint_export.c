/* SPDX-License-Identifier: MIT */
/*
 * lint_export.c: the rules about `export` sections (W408, W409, W410):
 * the output channel is part of the boundary (the first seed). What the
 * exporter lets out reaches whatever reads the results: it must be bounded
 * in bytes, what a viewer or an unpacker executes deserves a word, and a
 * writable slot without rules has no checked way out at all.
 */
#include "blob.h"
#include "lint_internal.h"
#include "units.h"
#include "util.h"

#include <string.h>

/* The `export SLOT { }` statement that made rule e, and its `types` item. */
static const struct ward_stmt *export_stmt(const struct lint_ctx *c,
					   const struct ward_export_rule *e)
{
	for (size_t f = 0; f < c->unit->nfiles; f++) {
		const struct ward_file *file = c->unit->files[f];
		for (size_t i = 0; i < file->nstmts; i++) {
			const struct ward_stmt *st = file->stmts[i];
			if (st && st->kind == WARD_S_EXPORT &&
			    !strcmp(st->name, e->slot))
				return st;
		}
	}
	return NULL;
}

static struct ward_loc item_loc(const struct ward_stmt *st, const char *item)
{
	for (size_t i = 0; st && i < st->nbody; i++)
		if (st->body[i] && !strcmp(st->body[i]->name, item))
			return st->body[i]->name_loc;
	return st ? st->kw_loc : (struct ward_loc){.file = WARD_NO_FILE};
}

void lint_export_total(struct lint_ctx *c, const struct lint_rule *r)
{
	for (uint32_t i = 0; i < c->p->nexports; i++) {
		const struct ward_export_rule *e = &c->p->exports[i];
		uint64_t product;
		bool big;
		const struct ward_stmt *st;

		if (e->total || e->max_files < 2)
			continue;
		big = __builtin_mul_overflow((uint64_t)e->max_files,
					     e->per_file, &product);
		st = export_stmt(c, e);
		lint_add(
		    c, r, st ? st->kw_loc : lint_missing_loc(c, WARD_S_FS),
		    e->slot,
		    "the export of slot `%s` has no `total` cap: %u files "
		    "of %s each add up to %s",
		    e->slot, e->max_files, ward_size_str(c->pool, e->per_file),
		    big ? "more than 16 EiB" : ward_size_str(c->pool, product));
	}
}

void lint_export_missing(struct lint_ctx *c, const struct lint_rule *r)
{
	for (uint32_t i = 0; i < c->p->nmounts; i++) {
		const struct ward_mount *m = &c->p->mounts[i];
		bool ruled = false;
		if (m->kind != WARD_MNT_SLOT || !(m->flags & WARD_MNT_F_RW))
			continue;
		for (uint32_t k = 0; k < c->p->nexports; k++)
			ruled |= !strcmp(c->p->exports[k].slot, m->src);
		if (!ruled)
			lint_add(c, r, lint_mount_loc(c, i), m->src,
				 "slot `%s` is writable and has no `export` "
				 "section: what the run leaves there reaches "
				 "the caller unchecked",
				 m->src);
	}
}

void lint_export_active(struct lint_ctx *c, const struct lint_rule *r)
{
	static const char archive[] =
	    "an archive's entries are checked for paths, links and sizes, "
	    "not for what they hold";
	static const struct {
		uint32_t type;
		const char *why;
	} active[] = {
	    {WARD_EXPORT_T_HTML,
	     "HTML runs scripts in the browser that opens it"},
	    {WARD_EXPORT_T_SVG,
	     "SVG runs scripts in the browser that opens it"},
	    {WARD_EXPORT_T_ZIP, archive},
	    {WARD_EXPORT_T_TAR, archive},
	    {WARD_EXPORT_T_GZIP,
	     "what a gzip file holds is bounded in size, not typed"},
	};

	for (uint32_t i = 0; i < c->p->nexports; i++) {
		const struct ward_export_rule *e = &c->p->exports[i];
		for (size_t k = 0; k < ARRAY_LEN(active); k++) {
			const char *name;

			if (!(e->types & active[k].type))
				continue;
			name = ward_export_type_name(active[k].type);
			lint_add(
			    c, r, item_loc(export_stmt(c, e), "types"),
			    ward_pool_printf(c->pool, "%s:%s", e->slot, name),
			    "the export of slot `%s` lets `%s` files out: "
			    "%s",
			    e->slot, name, active[k].why);
		}
	}
}
