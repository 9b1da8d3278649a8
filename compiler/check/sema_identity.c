/* SPDX-License-Identifier: MIT */
/*
 * sema_identity.c: the `identity` and `env` sections.
 */
#include "sema_internal.h"

#include "consts.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_ID	 1000 /* not 65534, the overflow id: spec 1.7.1 */
#define DEFAULT_HOSTNAME "sandbox"
#define DEFAULT_WORKDIR	 "/"

static bool valid_hostname(const char *h, size_t len)
{
	if (len == 0 || len > 64 || len != strlen(h))
		return false;
	if (h[0] == '-' || h[0] == '.' || h[len - 1] == '-' ||
	    h[len - 1] == '.')
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = h[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '.'))
			return false;
	}
	return true;
}

static void suggest_cap(struct sema *s, const char *name)
{
	const char *names[64];
	size_t n = 0;
	const char *hit;

	for (int i = 0; i < 64; i++) {
		const char *c = ward_cap_name(i);
		if (c)
			names[n++] = c;
	}
	hit = ward_suggest(name, names, n);
	if (hit)
		ward_diag_help(s->d, "did you mean `%s`?", hit);
}

static uint64_t check_caps(struct sema *s, const struct ward_stmt *st)
{
	uint64_t keep = 0;
	if (st->caps_none)
		return 0;
	for (size_t i = 0; i < st->nnames; i++) {
		int cap = ward_cap_lookup(st->names[i]);
		if (cap < 0 || cap > 63) {
			ward_diag(s->d, WARD_SEV_ERROR, st->name_locs[i],
				  "unknown capability `%s`", st->names[i]);
			suggest_cap(s, st->names[i]);
			continue;
		}
		if (keep & (1ull << cap))
			ward_diag(s->d, WARD_SEV_WARNING, st->name_locs[i],
				  "capability `%s` is listed twice",
				  st->names[i]);
		keep |= 1ull << cap;
	}
	return keep;
}

/* `groups keep;`: rootless, the caller's supplementary groups may follow
 * the sandbox (which cannot drop them); without it the launcher refuses
 * them (docs/spec.md 3.2). The blob says so by a requirement bit. */
static void check_groups(struct sema *s, const struct ward_stmt *st)
{
	const struct ward_value *v = st->value;

	if (v->kind == WARD_V_NAME && !strcmp(v->str, "keep")) {
		s->out->requirements |= WARD_REQ_HOST_GROUPS;
		return;
	}
	if (v->kind == WARD_V_NAME && !strcmp(v->str, "refuse"))
		return;
	ward_diag(s->d, WARD_SEV_ERROR, v->loc,
		  "`groups` takes `keep` or `refuse`, not `%s`", v->text);
	ward_diag_help(s->d, "`refuse` (the default): rootless, ward refuses "
			     "to run while the caller has supplementary "
			     "groups; `keep`: they follow the sandbox, and the "
			     "report lists them");
}

void sema_identity(struct sema *s)
{
	const struct ward_stmt *user = NULL, *group = NULL, *host = NULL,
			       *caps = NULL, *workdir = NULL, *groups = NULL;
	struct ward_identity *id = &s->out->identity;
	const struct ward_stmt **items;
	struct ward_provenance *w;

	id->uid = DEFAULT_ID;
	id->gid = DEFAULT_ID;
	id->hostname = DEFAULT_HOSTNAME;
	id->workdir = DEFAULT_WORKDIR;
	id->caps_keep = 0;

	items = s->identity_items.items;
	for (size_t i = 0; i < s->identity_items.n; i++) {
		const struct ward_stmt *st = items[i];
		uint64_t v;
		switch (st->kind) {
		case WARD_S_ID_USER:
			if (sema_once(s, &user, st, "the user") &&
			    sema_int(s, st->value, "`user`", &v) &&
			    sema_range(s, st->value->loc, "the user id", v, 0,
				       65534, NULL))
				id->uid = (uint32_t)v;
			break;
		case WARD_S_ID_GROUP:
			if (sema_once(s, &group, st, "the group") &&
			    sema_int(s, st->value, "`group`", &v) &&
			    sema_range(s, st->value->loc, "the group id", v, 0,
				       65534, NULL))
				id->gid = (uint32_t)v;
			break;
		case WARD_S_ID_HOSTNAME: {
			const char *h;
			size_t len;
			if (!sema_once(s, &host, st, "the hostname") ||
			    !sema_string(s, st->value, "`hostname`", &h, &len))
				break;
			if (!valid_hostname(h, len)) {
				ward_diag(s->d, WARD_SEV_ERROR, st->value->loc,
					  "`%s` is not a valid hostname",
					  st->value->text);
				ward_diag_help(s->d,
					       "use 1 to 64 letters, digits, "
					       "`-` and `.`, not starting or "
					       "ending with `-` or `.`");
				break;
			}
			id->hostname = h;
			break;
		}
		case WARD_S_ID_WORKDIR:
			if (sema_once(s, &workdir, st, "the working directory"))
				sema_path(s, st->value, "the working directory",
					  false, &id->workdir);
			break;
		case WARD_S_ID_CAPS:
			if (sema_once(s, &caps, st, "the capabilities"))
				id->caps_keep = check_caps(s, st);
			break;
		case WARD_S_ID_GROUPS:
			if (sema_once(s, &groups, st, "`groups`"))
				check_groups(s, st);
			break;
		default:
			break;
		}
	}
	w = s->where;
	w->user = user ? user->kw_loc : sema_noloc();
	w->group = group ? group->kw_loc : sema_noloc();
	w->hostname = host ? host->kw_loc : sema_noloc();
	w->capabilities = caps ? caps->kw_loc : sema_noloc();
	w->workdir = workdir ? workdir->value->loc : sema_noloc();
}

/* ------------------------------------------------------------------ env */

static bool valid_env_name(const char *n)
{
	if (!((*n >= 'A' && *n <= 'Z') || (*n >= 'a' && *n <= 'z') ||
	      *n == '_'))
		return false;
	for (n++; *n; n++)
		if (!((*n >= 'A' && *n <= 'Z') || (*n >= 'a' && *n <= 'z') ||
		      (*n >= '0' && *n <= '9') || *n == '_'))
			return false;
	return true;
}

struct env_entry {
	const struct ward_stmt *stmt; /* first, for "first set here" */
	struct ward_loc loc;
	struct ward_env_var var;
};

static void add_env(struct sema *s, struct ward_symtab *seen,
		    struct ward_vec *vars, const struct ward_stmt *st,
		    const char *name, struct ward_loc loc, const char *value)
{
	struct env_entry *e;
	struct env_entry *first;

	if (!valid_env_name(name)) {
		ward_diag(s->d, WARD_SEV_ERROR, loc,
			  "`%s` is not a valid environment variable name",
			  name);
		ward_diag_help(s->d, "use letters, digits and `_`, not "
				     "starting with a digit");
		return;
	}
	e = ward_vec_push(s->pool, vars, sizeof(*e));
	e->stmt = st;
	e->loc = loc;
	e->var.name = name;
	e->var.value = value;
	first = ward_symtab_put(seen, name, e);
	if (first) {
		vars->n--;
		ward_diag(s->d, WARD_SEV_ERROR, loc,
			  "environment variable `%s` is set twice", name);
		ward_diag_note(s->d, first->loc, "first set here");
	}
}

static int cmp_env(const void *a, const void *b)
{
	const struct env_entry *x = a, *y = b;
	return strcmp(x->var.name, y->var.name);
}

void sema_env(struct sema *s)
{
	struct ward_symtab seen;
	struct ward_vec vars = {0};
	const struct ward_stmt **items;
	struct ward_env_var *out;
	struct env_entry *e;

	ward_symtab_init(&seen, s->pool);

	items = s->env_items.items;
	for (size_t i = 0; i < s->env_items.n; i++) {
		const struct ward_stmt *st = items[i];
		if (st->kind == WARD_S_ENV_SET) {
			const char *v;
			size_t len;
			if (!sema_string(s, st->value, "an environment value",
					 &v, &len))
				continue;
			if (len != strlen(v)) {
				ward_diag(s->d, WARD_SEV_ERROR, st->value->loc,
					  "an environment value cannot hold a "
					  "NUL byte");
				continue;
			}
			add_env(s, &seen, &vars, st, st->name, st->name_loc, v);
		} else if (st->kind == WARD_S_ENV_INHERIT) {
			for (size_t k = 0; k < st->nnames; k++)
				add_env(s, &seen, &vars, st, st->names[k],
					st->name_locs[k], NULL);
		}
	}
	/* A policy is a set: the order of variables carries no meaning, so
	 * the blob lists them by name. */
	if (vars.n)
		qsort(vars.items, vars.n, sizeof(struct env_entry), cmp_env);
	out = ward_pool_array(s->pool, vars.n + 1, sizeof(*out));
	e = vars.items;
	s->where->env =
	    ward_pool_array(s->pool, vars.n + 1, sizeof(struct ward_loc));
	for (size_t i = 0; i < vars.n; i++) {
		out[i] = e[i].var;
		s->where->env[i] = e[i].loc;
	}
	s->out->env = out;
	s->out->nenv = (uint32_t)vars.n;
}
