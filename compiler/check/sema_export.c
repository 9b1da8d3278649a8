/* SPDX-License-Identifier: MIT */
/*
 * sema_export.c: the `export` sections (docs/spec.md part 6): what the
 * supervisor may copy out of a read-write slot once the sandbox is gone.
 *
 *   export output {
 *       files 20; per-file 5M; total 40M;
 *       names "*.csv", "*.png";
 *       types text, png;
 *       on-violation skip;
 *   }
 *
 * The parser keeps every item as a name and a list of values; the meaning
 * of each name is given here, from the table below. Runs after sema_fs:
 * the slot is looked up in the finished mount table.
 */
#include "sema_internal.h"

#include "blob.h"
#include "units.h"

#include <string.h>

enum item { I_FILES, I_PER_FILE, I_TOTAL, I_NAMES, I_TYPES, I_ON_VIOLATION };

static const char *const item_names[] = {
    [I_FILES] = "files", [I_PER_FILE] = "per-file",
    [I_TOTAL] = "total", [I_NAMES] = "names",
    [I_TYPES] = "types", [I_ON_VIOLATION] = "on-violation",
};
#define NITEMS ARRAY_LEN(item_names)

/* One `export SLOT { }` being checked. */
struct xp {
	const struct ward_stmt *st;
	const struct ward_stmt *seen[NITEMS];
	struct ward_export_rule *out;
	bool ok;
};

/* -------------------------------------------------------------- the slot */

static const struct ward_stmt *slot_stmt(struct sema *s, const char *name)
{
	const struct ward_stmt **items = s->fs_items.items;
	for (size_t i = 0; i < s->fs_items.n; i++)
		if (items[i]->kind == WARD_S_FS_SLOT &&
		    !strcmp(items[i]->name, name))
			return items[i];
	return NULL;
}

/* The slot must be a read-write slot of the mount table. */
static bool check_slot(struct sema *s, const struct ward_stmt *st)
{
	const struct ward_policy *p = s->out;
	const char **names =
	    ward_pool_array(s->pool, p->nmounts + 1, sizeof(*names));
	size_t n = 0;
	const char *hit;

	for (uint32_t i = 0; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];
		const struct ward_stmt *decl;

		if (m->kind != WARD_MNT_SLOT)
			continue;
		if (strcmp(m->src, st->name)) {
			names[n++] = m->src;
			continue;
		}
		if (m->flags & WARD_MNT_F_RW)
			return true;
		ward_diag(s->d, WARD_SEV_ERROR, st->name_loc,
			  "slot `%s` is read-only: the sandbox cannot write "
			  "anything there to export",
			  st->name);
		decl = slot_stmt(s, st->name);
		if (decl)
			ward_diag_note(s->d, decl->kw_loc,
				       "the slot is declared here; an output "
				       "slot is written `slot %s at %s rw;`",
				       st->name, m->dst);
		return false;
	}
	/* A slot that sema_fs refused is not in the table: it said why. */
	if (slot_stmt(s, st->name))
		return false;
	ward_diag(s->d, WARD_SEV_ERROR, st->name_loc,
		  "there is no slot `%s` to export", st->name);
	hit = ward_suggest(st->name, names, n);
	if (hit)
		ward_diag_help(s->d, "did you mean `%s`?", hit);
	else
		ward_diag_help(s->d, "declare it in `fs`: `slot %s at /%s rw;`",
			       st->name, st->name);
	return false;
}

/* ------------------------------------------------------------- the items */

static bool one_value(struct sema *s, const struct ward_stmt *it)
{
	if (it->nvalues == 1)
		return true;
	ward_diag(s->d, WARD_SEV_ERROR, it->values[1]->loc,
		  "`%s` takes one value", it->name);
	return false;
}

static bool range(struct sema *s, const struct ward_stmt *it, uint64_t v,
		  uint64_t lo, uint64_t hi, const char *range_text)
{
	if (v >= lo && v <= hi)
		return true;
	ward_diag(s->d, WARD_SEV_ERROR, it->values[0]->loc,
		  "`%s` is out of range", it->name);
	ward_diag_help(s->d, "it must be between %s", range_text);
	return false;
}

/* "*.csv": a glob on a file's base name (fnmatch(3) without flags). */
static bool check_glob(struct sema *s, const struct ward_value *v)
{
	const char *why = NULL;

	if (v->kind != WARD_V_STRING) {
		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "a file name pattern is a string, as in `\"*.csv\"`");
		if (v->kind == WARD_V_NAME)
			ward_diag_help(s->d, "write `\"%s\"`", v->str);
		return false;
	}
	if (v->len == 0)
		why = "is empty";
	else if (v->len > WARD_BLOB_GLOB_MAX)
		why = "is longer than 255 bytes";
	for (size_t i = 0; !why && i < v->len; i++) {
		unsigned char c = (unsigned char)v->str[i];
		if (c == '/')
			why = "holds a `/`: patterns match a file's base name, "
			      "in whatever directory of the slot";
		else if (c < 0x20 || c > 0x7e)
			why = "holds a character outside printable ASCII";
	}
	if (!why)
		return true;
	ward_diag(s->d, WARD_SEV_ERROR, v->loc, "the file name pattern %s",
		  why);
	return false;
}

static void unknown_type(struct sema *s, const struct ward_value *v)
{
	static const char *const textish[] = {"csv", "tsv",  "json",
					      "txt", "md",   "markdown",
					      "xml", "yaml", "plain"};
	const char *names[16];
	size_t n = 0;
	const char *hit;

	for (uint32_t bit = 1; bit & WARD_EXPORT_T_ALL; bit <<= 1)
		names[n++] = ward_export_type_name(bit);
	ward_diag(s->d, WARD_SEV_ERROR, v->loc, "unknown content type `%s`",
		  v->str);
	for (size_t i = 0; i < ARRAY_LEN(textish); i++)
		if (!strcasecmp(v->str, textish[i])) {
			ward_diag_help(s->d,
				       "CSV, TSV, JSON, YAML, Markdown and "
				       "plain text are all `text` (UTF-8 "
				       "without NUL or control characters); "
				       "restrict the names with `names`");
			return;
		}
	hit = ward_suggest(v->str, names, n);
	if (!hit && !strcasecmp(v->str, "jpg"))
		hit = "jpeg";
	if (hit)
		ward_diag_help(s->d, "did you mean `%s`?", hit);
	else
		ward_diag_help(s->d,
			       "the types are text, png, jpeg, gif, webp, pdf, "
			       "zip, tar, gzip, svg and html");
}

static void check_types(struct sema *s, struct xp *x,
			const struct ward_stmt *it)
{
	for (size_t i = 0; i < it->nvalues; i++) {
		const struct ward_value *v = it->values[i];
		uint32_t bit =
		    v->kind == WARD_V_NAME ? ward_export_type_bit(v->str) : 0;
		if (v->kind != WARD_V_NAME) {
			ward_diag(s->d, WARD_SEV_ERROR, v->loc,
				  "a content type is a name such as `text` "
				  "or `png`, not `%s`",
				  v->text);
			x->ok = false;
		} else if (!bit) {
			unknown_type(s, v);
			x->ok = false;
		} else if (x->out->types & bit) {
			ward_diag(s->d, WARD_SEV_WARNING, v->loc,
				  "content type `%s` is listed twice", v->str);
		}
		x->out->types |= bit;
	}
}

static void check_names(struct sema *s, struct xp *x,
			const struct ward_stmt *it)
{
	const char **names =
	    ward_pool_array(s->pool, it->nvalues, sizeof(*names));
	uint32_t n = 0;

	if (it->nvalues > WARD_BLOB_EXPORT_NAMES) {
		ward_diag(s->d, WARD_SEV_ERROR, it->name_loc,
			  "more than %u file name patterns",
			  WARD_BLOB_EXPORT_NAMES);
		x->ok = false;
		return;
	}
	for (size_t i = 0; i < it->nvalues; i++) {
		const struct ward_value *v = it->values[i];
		bool dup = false;

		if (!check_glob(s, v)) {
			x->ok = false;
			continue;
		}
		for (uint32_t k = 0; k < n; k++)
			dup |= !strcmp(names[k], v->str);
		if (dup) {
			ward_diag(s->d, WARD_SEV_WARNING, v->loc,
				  "file name pattern \"%s\" is listed twice",
				  v->str);
			continue;
		}
		names[n++] = v->str;
	}
	x->out->names = names;
	x->out->nnames = n;
}

static void check_action(struct sema *s, struct xp *x,
			 const struct ward_stmt *it)
{
	static const char *const actions[] = {"refuse", "skip"};
	const struct ward_value *v = it->values[0];
	const char *hit;

	if (v->kind == WARD_V_NAME && !strcmp(v->str, "refuse")) {
		x->out->on_violation = WARD_EXPORT_REFUSE;
		return;
	}
	if (v->kind == WARD_V_NAME && !strcmp(v->str, "skip")) {
		x->out->on_violation = WARD_EXPORT_SKIP;
		return;
	}
	x->ok = false;
	ward_diag(s->d, WARD_SEV_ERROR, v->loc,
		  "`on-violation` takes `refuse` or `skip`, not `%s`", v->text);
	hit = v->kind == WARD_V_NAME ? ward_suggest(v->str, actions, 2) : NULL;
	if (hit)
		ward_diag_help(s->d, "did you mean `%s`?", hit);
	else
		ward_diag_help(s->d, "`refuse`: one violation exports nothing; "
				     "`skip`: a violating file is left out");
}

static void check_item(struct sema *s, struct xp *x, const struct ward_stmt *it)
{
	size_t k = 0;
	char what[48];
	uint64_t v;

	while (k < NITEMS && strcmp(item_names[k], it->name))
		k++;
	if (k == NITEMS) {
		const char *hit;

		ward_diag(s->d, WARD_SEV_ERROR, it->name_loc,
			  "unknown export setting `%s`", it->name);
		hit = ward_suggest(it->name, item_names, NITEMS);
		if (hit)
			ward_diag_help(s->d, "did you mean `%s`?", hit);
		else
			ward_diag_help(s->d, "the settings are files, "
					     "per-file, total, names, types "
					     "and on-violation");
		x->ok = false;
		return;
	}
	snprintf(what, sizeof(what), "`%s`", item_names[k]);
	if (!sema_once(s, &x->seen[k], it, what)) {
		x->ok = false;
		return;
	}
	switch ((enum item)k) {
	case I_FILES:
		if (!one_value(s, it) ||
		    !sema_int(s, it->values[0], what, &v) ||
		    !range(s, it, v, 1, WARD_BLOB_EXPORT_FILES,
			   "1 and 1000000")) {
			x->ok = false;
			return;
		}
		x->out->max_files = (uint32_t)v;
		return;
	case I_PER_FILE:
	case I_TOTAL:
		if (!one_value(s, it) ||
		    !sema_size(s, it->values[0], what, &v) ||
		    !range(s, it, v, 1, WARD_BLOB_EXPORT_BYTES, "1B and 1T")) {
			x->ok = false;
			return;
		}
		*(k == I_PER_FILE ? &x->out->per_file : &x->out->total) = v;
		return;
	case I_NAMES:
		check_names(s, x, it);
		return;
	case I_TYPES:
		check_types(s, x, it);
		return;
	case I_ON_VIOLATION:
		if (!one_value(s, it)) {
			x->ok = false;
			return;
		}
		check_action(s, x, it);
		return;
	}
}

/* ----------------------------------------------------------- the section */

static void missing(struct sema *s, struct xp *x, enum item k,
		    const char *example)
{
	if (x->seen[k])
		return;
	ward_diag(s->d, WARD_SEV_ERROR, x->st->kw_loc,
		  "the export of slot `%s` has no `%s`", x->st->name,
		  item_names[k]);
	ward_diag_help(s->d,
		       "add `%s` (it has no default: a policy says "
		       "what may leave the sandbox)",
		       example);
	x->ok = false;
}

/* Warnings about caps that do not bound what they seem to. */
static void check_budget(struct sema *s, struct xp *x)
{
	const struct ward_export_rule *e = x->out;
	uint64_t product;

	if (!x->seen[I_TOTAL] && e->max_files > 1) {
		bool big = __builtin_mul_overflow(
		    e->per_file, (uint64_t)e->max_files, &product);
		ward_diag(s->d, WARD_SEV_WARNING, x->st->kw_loc,
			  "the export of slot `%s` has no `total` cap: %u "
			  "files of %s each can take %s out",
			  x->st->name, e->max_files,
			  ward_size_str(s->pool, e->per_file),
			  big ? "more than 16 EiB"
			      : ward_size_str(s->pool, product));
		ward_diag_help(s->d,
			       "add `total SIZE;`: per-file caps alone let "
			       "many files add up (20 files of 5M are 100M)");
	}
	if (x->seen[I_TOTAL] && e->per_file > e->total) {
		ward_diag(s->d, WARD_SEV_WARNING, x->seen[I_PER_FILE]->name_loc,
			  "`per-file` (%s) is larger than `total` (%s): no "
			  "file can reach it",
			  ward_size_str(s->pool, e->per_file),
			  ward_size_str(s->pool, e->total));
		ward_diag_note(s->d, x->seen[I_TOTAL]->name_loc,
			       "the total is set here");
	}
}

static void check_export(struct sema *s, struct xp *x)
{
	x->ok = check_slot(s, x->st);
	x->out->slot = x->st->name;
	x->out->on_violation = WARD_EXPORT_REFUSE;
	for (size_t i = 0; i < x->st->nbody; i++)
		check_item(s, x, x->st->body[i]);
	missing(s, x, I_FILES, "files 20;");
	missing(s, x, I_PER_FILE, "per-file 5M;");
	missing(s, x, I_TYPES, "types text;");
	if (x->ok)
		check_budget(s, x);
}

void sema_export(struct sema *s)
{
	struct ward_vec stmts = {0};
	const struct ward_unit *u = s->unit;
	const struct ward_stmt **all;
	struct ward_export_rule *rules;
	uint32_t n = 0;

	for (size_t f = 0; f < u->nfiles; f++)
		for (size_t i = 0; i < u->files[f]->nstmts; i++) {
			const struct ward_stmt *st = u->files[f]->stmts[i];
			if (st && st->kind == WARD_S_EXPORT)
				*(const struct ward_stmt **)ward_vec_push(
				    s->pool, &stmts, sizeof(st)) = st;
		}
	if (!stmts.n)
		return;

	all = stmts.items;
	rules = ward_pool_array(s->pool, stmts.n, sizeof(*rules));
	for (size_t i = 0; i < stmts.n; i++) {
		bool dup = false;
		struct xp x;

		for (size_t k = 0; k < i && !dup; k++)
			if (!strcmp(all[k]->name, all[i]->name)) {
				ward_diag(s->d, WARD_SEV_ERROR,
					  all[i]->name_loc,
					  "slot `%s` has two `export` "
					  "sections",
					  all[i]->name);
				ward_diag_note(s->d, all[k]->name_loc,
					       "the first is here");
				dup = true;
			}
		if (dup)
			continue;
		x = (struct xp){.st = all[i], .out = &rules[n]};
		check_export(s, &x);
		if (x.ok)
			n++;
		else
			memset(&rules[n], 0, sizeof(rules[n]));
	}
	s->out->exports = rules;
	s->out->nexports = n;
}
