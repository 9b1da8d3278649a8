/* SPDX-License-Identifier: MIT */
/*
 * import_docker.c: a Docker or OCI seccomp profile as a ward policy
 * (import.h).
 *
 * 1. The JSON is read with libyaml (JSON is YAML's flow style) into a small
 *    tree that keeps each value's line and column and whether a scalar was
 *    quoted: 1 is a number, "1" a string. Numbers are parsed here, strictly
 *    (unsigned decimal integers that fit 64 bits), since YAML would take
 *    0x10, 1e3 or 010 for numbers JSON does not have.
 * 2. The entries become a model of what a runtime builds with libseccomp
 *    (import.h lists its rules), per syscall number of the target.
 * 3. The stdlib groups are expanded by the compiler itself (a probe policy
 *    per group), and a group is used where every one of its syscalls on the
 *    target gets the same unconditional action: a group can then never
 *    widen the profile.
 * 4. The policy is written: a header saying where it came from and what
 *    was left out, unconditional rules by action (groups, then names),
 *    then the conditional rules in the profile's order with its comments.
 */
#include "import.h"

#include "consts.h"
#include "driver.h"
#include "pool.h"
#include "rules_meaning.h"
#include "syscalls.h"

#include <errno.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <yaml.h>

#define MAX_DEPTH  64
#define MAX_NR	   4096 /* syscall numbers, as the checker's table */
#define LINE_WIDTH 78

/* ------------------------------------------------------------- the tree */

enum jkind { J_MAP, J_LIST, J_STR, J_PLAIN };

struct jnode {
	enum jkind kind;
	const char *key; /* in a map */
	const char *s;	 /* J_STR, J_PLAIN */
	unsigned line, col;
	struct jnode *first, *last, *next;
};

/* One entry of "syscalls", as a runtime applies it. */
struct entry {
	unsigned no; /* 1-based */
	const struct jnode *at;
	const char **names;
	const struct jnode **name_at;
	size_t nnames;
	struct ward_action action;
	const char *mapped; /* how the action was mapped, or NULL */
	uint32_t raw;	    /* the action as libseccomp codes it */
	struct ward_cmp cmps[6];
	unsigned ncmps;
	bool any_of; /* one argument tested twice: ORed */
	const char *comment;
	const char *skip; /* why it does not apply, or NULL */
	bool *alive;	  /* per name: the rule survives for it */
};

/* A conditional entry of a syscall: the entry and the index of the name
 * it gives the syscall. */
struct use {
	struct entry *e;
	size_t k;
};

/* What the profile says about one syscall number of the target. */
struct sys {
	const char *name;
	struct entry *uncond;  /* the unconditional entry that decides */
	struct ward_vec conds; /* struct use, in profile order */
};

struct group {
	const char *name;
	int32_t *members;
	size_t n;
};

struct im {
	struct ward_pool *pool;
	const struct ward_import_opts *o;
	struct ward_notes *warn;
	struct ward_notes skipped; /* header lines: what was left out */
	ward_err *err;

	struct ward_action dflt;
	const char *dflt_mapped;
	uint32_t dflt_raw;
	struct ward_vec arches; /* const char *: the profile's */
	struct entry *entries;
	size_t nentries;
	struct sys *sys; /* [MAX_NR] */
	struct group *groups;
	size_t ngroups;
	bool groups_loaded;
};

__attribute__((format(printf, 3, 4))) static int
bad(struct im *im, const struct jnode *at, const char *fmt, ...)
{
	char msg[WARD_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ward_fail(im->err, 0, "%s:%u:%u: %s", im->o->source,
			 at ? at->line : 1, at ? at->col : 1, msg);
}

__attribute__((format(printf, 3, 4))) static void
warn(struct im *im, const struct jnode *at, const char *fmt, ...)
{
	char msg[WARD_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ward_note(im->warn, "%s:%u:%u: %s", im->o->source, at ? at->line : 1,
		  at ? at->col : 1, msg);
}

static int next_event(struct im *im, yaml_parser_t *ps, yaml_event_t *ev)
{
	struct jnode at;

	if (yaml_parser_parse(ps, ev))
		return 0;
	at = (struct jnode){.line = (unsigned)ps->problem_mark.line + 1,
			    .col = (unsigned)ps->problem_mark.column + 1};
	return bad(im, &at, "not valid JSON: %s",
		   ps->problem ? ps->problem : "syntax error");
}

static struct jnode *new_node(struct im *im, enum jkind kind,
			      const yaml_event_t *ev)
{
	struct jnode *n = ward_pool_alloc(im->pool, sizeof(*n));
	n->kind = kind;
	n->line = (unsigned)ev->start_mark.line + 1;
	n->col = (unsigned)ev->start_mark.column + 1;
	return n;
}

static void append(struct jnode *parent, struct jnode *child)
{
	if (parent->last)
		parent->last->next = child;
	else
		parent->first = child;
	parent->last = child;
}

static const struct jnode *get(const struct jnode *map, const char *key)
{
	if (!map || map->kind != J_MAP)
		return NULL;
	for (const struct jnode *c = map->first; c; c = c->next)
		if (!strcmp(c->key, key))
			return c;
	return NULL;
}

/* The node that starts with event ev (consumed). */
static struct jnode *parse_node(struct im *im, yaml_parser_t *ps,
				yaml_event_t *ev, int depth)
{
	struct jnode at = {.line = (unsigned)ev->start_mark.line + 1,
			   .col = (unsigned)ev->start_mark.column + 1};
	bool map;
	struct jnode *n;

	if (depth > MAX_DEPTH) {
		bad(im, &at, "nested deeper than %d levels", MAX_DEPTH);
		return NULL;
	}
	if (ev->type == YAML_ALIAS_EVENT) {
		bad(im, &at, "YAML aliases are not JSON");
		return NULL;
	}
	if (ev->type == YAML_SCALAR_EVENT) {
		const yaml_char_t *v = ev->data.scalar.value;
		size_t len = ev->data.scalar.length;
		bool plain;

		if (strlen((const char *)v) != len) {
			bad(im, &at, "a string holds a NUL character");
			return NULL;
		}
		plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		n = new_node(im, plain ? J_PLAIN : J_STR, ev);
		n->s = ward_pool_strdup(im->pool, (const char *)v);
		return n;
	}
	map = ev->type == YAML_MAPPING_START_EVENT;
	if (!map && ev->type != YAML_SEQUENCE_START_EVENT) {
		bad(im, &at, "unexpected YAML event");
		return NULL;
	}
	n = new_node(im, map ? J_MAP : J_LIST, ev);
	for (;;) {
		yaml_event_t e;
		const char *key = NULL;
		struct jnode *c;

		if (next_event(im, ps, &e) < 0)
			return NULL;
		if (e.type == YAML_MAPPING_END_EVENT ||
		    e.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&e);
			return n;
		}
		if (map) {
			struct jnode kat = {
			    .line = (unsigned)e.start_mark.line + 1,
			    .col = (unsigned)e.start_mark.column + 1};
			if (e.type != YAML_SCALAR_EVENT) {
				yaml_event_delete(&e);
				bad(im, &kat, "a key must be a string");
				return NULL;
			}
			key = ward_pool_strdup(
			    im->pool, (const char *)e.data.scalar.value);
			yaml_event_delete(&e);
			if (get(n, key)) {
				bad(im, &kat, "`%s` appears twice", key);
				return NULL;
			}
			if (next_event(im, ps, &e) < 0)
				return NULL;
		}
		c = parse_node(im, ps, &e, depth + 1);
		yaml_event_delete(&e);
		if (!c)
			return NULL;
		c->key = key;
		append(n, c);
	}
}

static struct jnode *parse_json(struct im *im, const char *text, size_t len)
{
	yaml_parser_t ps;
	yaml_event_t ev;
	struct jnode *root = NULL;
	int rc;

	if (!yaml_parser_initialize(&ps)) {
		ward_fail(im->err, ENOMEM, "libyaml");
		return NULL;
	}
	yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
	/* stream start, document start, the value, document end, end */
	rc = next_event(im, &ps, &ev);
	if (rc == 0) {
		yaml_event_delete(&ev);
		rc = next_event(im, &ps, &ev);
	}
	if (rc == 0 && ev.type == YAML_STREAM_END_EVENT) {
		bad(im, NULL, "the file is empty");
		rc = -1;
	}
	if (rc == 0) {
		yaml_event_delete(&ev);
		rc = next_event(im, &ps, &ev);
	}
	if (rc == 0) {
		root = parse_node(im, &ps, &ev, 0);
		yaml_event_delete(&ev);
		if (root) {
			rc = next_event(im, &ps, &ev); /* document end */
			if (rc == 0)
				yaml_event_delete(&ev);
			if (rc == 0)
				rc = next_event(im, &ps, &ev);
			if (rc == 0 && ev.type != YAML_STREAM_END_EVENT) {
				struct jnode at = {
				    .line = (unsigned)ev.start_mark.line + 1,
				    .col = (unsigned)ev.start_mark.column + 1};
				bad(im, &at, "more than one document");
				rc = -1;
			}
			if (rc == 0 || ev.type != YAML_NO_EVENT)
				yaml_event_delete(&ev);
			if (rc < 0)
				root = NULL;
		}
	}
	yaml_parser_delete(&ps);
	return root;
}

/* --------------------------------------------------------------- values */

static bool is_null(const struct jnode *n)
{
	return !n || (n->kind == J_PLAIN && !strcmp(n->s, "null"));
}

static int want(struct im *im, const struct jnode *n, enum jkind kind,
		const char *what)
{
	static const char *const kinds[] = {"an object", "a list", "a string",
					    "a number"};
	if (n->kind == kind)
		return 0;
	return bad(im, n, "%s must be %s", what, kinds[kind]);
}

/* A JSON number that is an unsigned integer of 64 bits. */
static int to_u64(struct im *im, const struct jnode *n, const char *what,
		  uint64_t *out)
{
	const char *s;
	uint64_t v = 0;

	if (n->kind != J_PLAIN)
		return bad(im, n, "%s must be a number, not %s", what,
			   n->kind == J_STR ? "a string" : "a structure");
	s = n->s;
	if (s[0] == '-')
		return bad(im, n, "%s must not be negative", what);
	if (!*s || (s[0] == '0' && s[1]) ||
	    strspn(s, "0123456789") != strlen(s))
		return bad(im, n, "%s must be an unsigned integer, not `%s`",
			   what, s);
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return bad(im, n, "%s is larger than 2^64-1", what);
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* Warn about keys not in known (a NULL-terminated list). */
static void check_keys(struct im *im, const struct jnode *map,
		       const char *const *known, const char *what)
{
	for (const struct jnode *c = map->first; c; c = c->next) {
		size_t i = 0;
		while (known[i] && strcmp(known[i], c->key))
			i++;
		if (!known[i])
			warn(im, c, "unknown key `%s` in %s: ignored", c->key,
			     what);
	}
}

/* --------------------------------------------------------------- actions */

/* An action of the profile with its errnoRet or errno (may be NULL): the
 * ward action in *a, how it was mapped in *mapped (NULL: exactly), and
 * the action as libseccomp codes it in *raw (runtimes skip entries whose
 * code is the default's). */
static int to_action(struct im *im, const struct jnode *n,
		     const struct jnode *errno_ret,
		     const struct jnode *errno_name, struct ward_action *a,
		     const char **mapped, uint32_t *raw)
{
	const char *s;
	uint32_t nr;
	bool takes_errno = false, trace = false;

	if (want(im, n, J_STR, "an action") < 0)
		return -1;
	s = n->s;
	*mapped = NULL;
	if (!strcmp(s, "SCMP_ACT_ALLOW")) {
		*a = (struct ward_action){WARD_ACT_ALLOW, 0, 0};
		*raw = SCMP_ACT_ALLOW;
	} else if (!strcmp(s, "SCMP_ACT_LOG")) {
		*a = (struct ward_action){WARD_ACT_LOG, 0, 0};
		*raw = SCMP_ACT_LOG;
	} else if (!strcmp(s, "SCMP_ACT_TRAP")) {
		*a = (struct ward_action){WARD_ACT_TRAP, 0, 0};
		*raw = SCMP_ACT_TRAP;
	} else if (!strcmp(s, "SCMP_ACT_KILL_PROCESS")) {
		*a = (struct ward_action){WARD_ACT_KILL, 0, 0};
		*raw = SCMP_ACT_KILL_PROCESS;
	} else if (!strcmp(s, "SCMP_ACT_KILL") ||
		   !strcmp(s, "SCMP_ACT_KILL_THREAD")) {
		*a = (struct ward_action){WARD_ACT_KILL, 0, 0};
		*mapped = "ward kills the whole process, not the thread";
		*raw = SCMP_ACT_KILL_THREAD;
	} else if (!strcmp(s, "SCMP_ACT_TRACE") ||
		   !strcmp(s, "SCMP_ACT_NOTIFY")) {
		*a = (struct ward_action){WARD_ACT_ERRNO, ENOSYS, 0};
		*mapped = "no tracer or listener in ward: the kernel's answer "
			  "then, ENOSYS";
		trace = takes_errno = !strcmp(s, "SCMP_ACT_TRACE");
		*raw = trace ? SCMP_ACT_TRACE(0) : SCMP_ACT_NOTIFY;
	} else if (!strcmp(s, "SCMP_ACT_ERRNO")) {
		*a = (struct ward_action){WARD_ACT_ERRNO, EPERM, 0};
		takes_errno = true;
	} else {
		return bad(im, n, "unknown action `%s`", s);
	}
	if (!takes_errno && (!is_null(errno_ret) || !is_null(errno_name)))
		return bad(im, !is_null(errno_ret) ? errno_ret : errno_name,
			   "an errno value with `%s` (runtimes refuse it)", s);
	nr = a->errno_nr;
	if (!is_null(errno_ret)) {
		uint64_t v;
		if (to_u64(im, errno_ret, "an errno value", &v) < 0)
			return -1;
		if (v == 0 && !trace)
			return bad(im, errno_ret,
				   "errno 0 makes the call succeed without "
				   "running it; ward has no such action");
		if (v > 4095)
			return bad(im, errno_ret,
				   "errno %llu is outside 1..4095",
				   (unsigned long long)v);
		nr = (uint32_t)v;
	} else if (!is_null(errno_name)) {
		int e;

		if (want(im, errno_name, J_STR, "`errno`") < 0)
			return -1;
		e = ward_errno_lookup(errno_name->s);
		if (e <= 0)
			return bad(im, errno_name, "unknown errno name `%s`",
				   errno_name->s);
		nr = (uint32_t)e;
	}
	if (trace) {
		*raw = SCMP_ACT_TRACE(nr & 0xffff); /* a tracer's message */
	} else if (a->kind == WARD_ACT_ERRNO) {
		a->errno_nr = nr;
		*raw = SCMP_ACT_ERRNO(nr);
	}
	return 0;
}

static bool same_action(struct ward_action a, struct ward_action b)
{
	return ward_action_cmp(&a, &b) == 0;
}

static const char *action_text(struct im *im, struct ward_action a)
{
	return ward_action_name(im->pool, a);
}

/* --------------------------------------------------------------- entries */

static bool target_arch_name(uint32_t arch, const char *s)
{
	static const char *const x86_64[] = {"amd64", "x86_64",
					     "SCMP_ARCH_X86_64"};
	static const char *const aarch64[] = {"arm64", "aarch64",
					      "SCMP_ARCH_AARCH64"};
	const char *const *names = arch == WARD_ARCH_AARCH64 ? aarch64 : x86_64;
	for (size_t i = 0; i < 3; i++)
		if (!strcmp(names[i], s))
			return true;
	return false;
}

/* A list of strings, "a, b" for the header; NULL if not a list. */
static const char *str_list(struct im *im, const struct jnode *l,
			    const char *what)
{
	const char *s = "";

	if (is_null(l))
		return "";
	if (want(im, l, J_LIST, what) < 0)
		return NULL;
	for (const struct jnode *c = l->first; c; c = c->next) {
		if (want(im, c, J_STR, what) < 0)
			return NULL;
		s = ward_pool_printf(im->pool, "%s%s%s", s, *s ? ", " : "",
				     c->s);
	}
	return s;
}

static bool list_has(const struct jnode *l, uint32_t arch)
{
	for (const struct jnode *c = l ? l->first : NULL; c; c = c->next)
		if (c->kind == J_STR && target_arch_name(arch, c->s))
			return true;
	return false;
}

/* The capabilities of list l that the container keeps (kept: true) or
 * does not keep (kept: false), as "CAP_A, CAP_B"; "" if none. An unknown
 * name is never kept. */
static const char *caps_in(struct im *im, const struct jnode *l, bool kept)
{
	const char *s = "";

	for (const struct jnode *c = l ? l->first : NULL; c; c = c->next) {
		int nr = c->kind == J_STR ? ward_cap_lookup(c->s) : -1;
		bool has = nr >= 0 && nr < 64 && ((im->o->caps >> nr) & 1);
		if (has == kept)
			s = ward_pool_printf(im->pool, "%s%s%s", s,
					     *s ? ", " : "", c->s);
	}
	return s;
}

/* Whether includes/excludes let the entry apply to the container (its
 * capabilities, the target), as a runtime decides: includes.caps needs
 * every capability listed, excludes.caps rules the entry out when any is
 * kept; *why says why not. */
static int applies(struct im *im, const struct jnode *e, const char **why)
{
	static const char *const keys[] = {"caps", "arches", "minKernel", NULL};
	const struct jnode *inc = get(e, "includes"), *exc = get(e, "excludes");
	*why = NULL;
	if (!is_null(inc)) {
		const char *caps;
		const struct jnode *arches;
		const char *al;

		if (want(im, inc, J_MAP, "`includes`") < 0)
			return -1;
		check_keys(im, inc, keys, "`includes`");
		caps = str_list(im, get(inc, "caps"), "caps");
		arches = get(inc, "arches");
		al = str_list(im, arches, "arches");
		if (!caps || !al)
			return -1;
		caps = caps_in(im, get(inc, "caps"), false);
		if (*caps)
			*why = ward_pool_printf(im->pool,
						"needs %s, which the policy "
						"does not keep",
						caps);
		else if (*al && !list_has(arches, im->o->arch))
			*why = ward_pool_printf(im->pool, "only for %s", al);
	}
	if (!is_null(exc) && !*why) {
		const struct jnode *arches;
		const char *al;
		const char *caps;

		if (want(im, exc, J_MAP, "`excludes`") < 0)
			return -1;
		check_keys(im, exc, keys, "`excludes`");
		arches = get(exc, "arches");
		al = str_list(im, arches, "arches");
		if (!al || !str_list(im, get(exc, "caps"), "caps"))
			return -1;
		caps = caps_in(im, get(exc, "caps"), true);
		if (list_has(arches, im->o->arch))
			*why = ward_pool_printf(im->pool, "not for %s", al);
		else if (*caps)
			*why = ward_pool_printf(im->pool,
						"not with %s, which the policy "
						"keeps",
						caps);
		else if (!is_null(get(exc, "minKernel")))
			*why = "excluded from current kernels (minKernel)";
	}
	return 0;
}

static int parse_arg(struct im *im, const struct jnode *a, struct ward_cmp *c)
{
	static const char *const keys[] = {"index", "value", "valueTwo", "op",
					   NULL};
	size_t i = 0;
	const struct jnode *idx, *op;
	const struct jnode *v, *v2;
	uint64_t index = 0, value = 0, value2 = 0;

	static const struct {
		const char *name;
		uint8_t op;
	} ops[] = {
	    {"SCMP_CMP_EQ", WARD_CMP_EQ},
	    {"SCMP_CMP_NE", WARD_CMP_NE},
	    {"SCMP_CMP_LT", WARD_CMP_LT},
	    {"SCMP_CMP_LE", WARD_CMP_LE},
	    {"SCMP_CMP_GT", WARD_CMP_GT},
	    {"SCMP_CMP_GE", WARD_CMP_GE},
	    {"SCMP_CMP_MASKED_EQ", WARD_CMP_MASKED_EQ},
	};
	if (want(im, a, J_MAP, "an argument comparison") < 0)
		return -1;
	check_keys(im, a, keys, "an argument comparison");
	idx = get(a, "index");
	op = get(a, "op");
	v = get(a, "value");
	v2 = get(a, "valueTwo");
	if (!idx || !op)
		return bad(im, a, "a comparison needs `index` and `op`");
	if (to_u64(im, idx, "`index`", &index) < 0 ||
	    (!is_null(v) && to_u64(im, v, "`value`", &value) < 0) ||
	    (!is_null(v2) && to_u64(im, v2, "`valueTwo`", &value2) < 0) ||
	    want(im, op, J_STR, "`op`") < 0)
		return -1;
	if (index > 5)
		return bad(im, idx, "argument index %llu is not 0..5",
			   (unsigned long long)index);
	while (i < ARRAY_LEN(ops) && strcmp(ops[i].name, op->s))
		i++;
	if (i == ARRAY_LEN(ops))
		return bad(im, op, "unknown operator `%s`", op->s);
	*c = (struct ward_cmp){.arg = (uint8_t)index, .op = ops[i].op};
	if (ops[i].op == WARD_CMP_MASKED_EQ) {
		c->mask = value;
		c->value = value2;
	} else {
		c->value = value;
	}
	return 0;
}

static int parse_entry(struct im *im, const struct jnode *n, unsigned no,
		       struct entry *e)
{
	static const char *const keys[] = {
	    "name", "names",   "action",   "errnoRet", "errno",
	    "args", "comment", "includes", "excludes", NULL};
	size_t cap = 1;
	const struct jnode *act;
	const struct jnode *comment;
	const struct jnode *args;
	const struct jnode *name, *names;

	if (want(im, n, J_MAP, "a syscalls entry") < 0)
		return -1;
	check_keys(im, n, keys, "a syscalls entry");
	e->no = no;
	e->at = n;
	name = get(n, "name");
	names = get(n, "names");
	if (!is_null(name) && !is_null(names))
		return bad(im, n, "an entry has `name` or `names`, not both");
	if (is_null(name) && is_null(names))
		return bad(im, n, "an entry without `names`");
	if (!is_null(names)) {
		if (want(im, names, J_LIST, "`names`") < 0)
			return -1;
		cap = 0;
		for (const struct jnode *c = names->first; c; c = c->next)
			cap++;
	}
	e->names = ward_pool_array(im->pool, cap ? cap : 1, sizeof(char *));
	e->name_at =
	    ward_pool_array(im->pool, cap ? cap : 1, sizeof(struct jnode *));
	e->alive = ward_pool_array(im->pool, cap ? cap : 1, sizeof(bool));
	for (const struct jnode *c = is_null(names) ? name : names->first; c;
	     c = is_null(names) ? NULL : c->next) {
		if (want(im, c, J_STR, "a syscall name") < 0)
			return -1;
		e->name_at[e->nnames] = c;
		e->names[e->nnames++] = c->s;
	}
	act = get(n, "action");
	if (!act)
		return bad(im, n, "an entry without `action`");
	if (to_action(im, act, get(n, "errnoRet"), get(n, "errno"), &e->action,
		      &e->mapped, &e->raw) < 0)
		return -1;
	comment = get(n, "comment");
	if (!is_null(comment)) {
		if (want(im, comment, J_STR, "`comment`") < 0)
			return -1;
		e->comment = comment->s;
	}
	args = get(n, "args");
	if (!is_null(args)) {
		unsigned seen = 0;

		if (want(im, args, J_LIST, "`args`") < 0)
			return -1;
		for (const struct jnode *c = args->first; c; c = c->next) {
			struct ward_cmp *cmp;

			if (e->ncmps == 6)
				return bad(im, c,
					   "more than 6 comparisons in one "
					   "entry (runtimes read 6)");
			cmp = &e->cmps[e->ncmps++];
			if (parse_arg(im, c, cmp) < 0)
				return -1;
			if (seen & (1u << cmp->arg))
				e->any_of = true;
			seen |= 1u << cmp->arg;
		}
	}
	return applies(im, n, &e->skip);
}

/* ------------------------------------------------------------- profile */

static int parse_profile(struct im *im, const struct jnode *root)
{
	static const char *const keys[] = {"defaultAction",
					   "defaultErrnoRet",
					   "defaultErrno",
					   "architectures",
					   "archMap",
					   "syscalls",
					   "flags",
					   "listenerPath",
					   "listenerMetadata",
					   NULL};
	const struct jnode *da;
	const struct jnode *arches;
	const char *al;
	const struct jnode *map;
	const struct jnode *sc;
	size_t n = 0;

	if (want(im, root, J_MAP, "the profile") < 0)
		return -1;
	/* a whole config.json: its linux.seccomp */
	if (get(root, "ociVersion") || get(root, "linux")) {
		const struct jnode *s = get(get(root, "linux"), "seccomp");
		if (!s)
			return bad(im, root,
				   "an OCI config.json without "
				   "linux.seccomp");
		root = s;
		if (want(im, root, J_MAP, "linux.seccomp") < 0)
			return -1;
	}
	check_keys(im, root, keys, "the profile");
	da = get(root, "defaultAction");
	if (!da)
		return bad(im, root, "the profile has no `defaultAction`");
	if (to_action(im, da, get(root, "defaultErrnoRet"),
		      get(root, "defaultErrno"), &im->dflt, &im->dflt_mapped,
		      &im->dflt_raw) < 0)
		return -1;

	arches = get(root, "architectures");
	al = str_list(im, arches, "architectures");
	if (!al)
		return -1;
	if (*al)
		*(const char **)ward_vec_push(im->pool, &im->arches,
					      sizeof(char *)) = al;
	map = get(root, "archMap");
	if (!is_null(map)) {
		if (want(im, map, J_LIST, "`archMap`") < 0)
			return -1;
		for (const struct jnode *m = map->first; m; m = m->next) {
			const struct jnode *a;
			const char *subs;

			if (want(im, m, J_MAP, "an archMap entry") < 0)
				return -1;
			a = get(m, "architecture");
			subs = str_list(im, get(m, "subArchitectures"),
					"subArchitectures");
			if (!a || a->kind != J_STR || !subs)
				return bad(im, m,
					   "an archMap entry needs "
					   "`architecture`");
			*(const char **)ward_vec_push(im->pool, &im->arches,
						      sizeof(char *)) =
			    *subs ? ward_pool_printf(im->pool, "%s (with %s)",
						     a->s, subs)
				  : a->s;
		}
	}
	if (!is_null(get(root, "flags")))
		warn(im, get(root, "flags"),
		     "`flags` are not imported: ward sets its own");
	if (!is_null(get(root, "listenerPath")))
		warn(im, get(root, "listenerPath"),
		     "`listenerPath` is not imported: ward has no seccomp "
		     "agent");

	sc = get(root, "syscalls");
	if (is_null(sc))
		return 0;
	if (want(im, sc, J_LIST, "`syscalls`") < 0)
		return -1;
	for (const struct jnode *c = sc->first; c; c = c->next)
		n++;
	im->entries =
	    ward_pool_array(im->pool, n ? n : 1, sizeof(struct entry));
	for (const struct jnode *c = sc->first; c; c = c->next) {
		if (parse_entry(im, c, (unsigned)im->nentries + 1,
				&im->entries[im->nentries]) < 0)
			return -1;
		im->nentries++;
	}
	return 0;
}

/* ------------------------------------------------------------ semantics */

/* One note for the header and, when it changes what the profile does, a
 * warning. */
static void drop(struct im *im, const struct entry *e, const char *name,
		 const struct jnode *at, bool changes, const char *why)
{
	ward_note(&im->skipped, "entry %u, %s: %s", e->no, name, why);
	if (changes)
		warn(im, at, "`%s`: %s", name, why);
}

/* The alternatives of an entry's condition, each a conjunction: the
 * comparisons ANDed, or each alone when one argument is tested twice. */
static size_t alternatives(const struct entry *e)
{
	return e->any_of ? e->ncmps : 1;
}

static const struct ward_cmp *alt_cmps(const struct entry *e, size_t k,
				       uint32_t *n)
{
	if (!e->any_of) {
		*n = e->ncmps;
		return e->cmps;
	}
	*n = 1;
	return &e->cmps[k];
}

static bool entries_overlap(const struct entry *a, const struct entry *b)
{
	for (size_t i = 0; i < alternatives(a); i++) {
		uint32_t na, nb;
		const struct ward_cmp *ca = alt_cmps(a, i, &na);
		for (size_t j = 0; j < alternatives(b); j++) {
			const struct ward_cmp *cb = alt_cmps(b, j, &nb);
			if (ward_conj_overlap(ca, na, cb, nb))
				return true;
		}
	}
	return false;
}

static bool same_condition(const struct entry *a, const struct entry *b)
{
	if (a->ncmps != b->ncmps || a->any_of != b->any_of)
		return false;
	for (unsigned i = 0; i < a->ncmps; i++)
		if (a->cmps[i].arg != b->cmps[i].arg ||
		    a->cmps[i].op != b->cmps[i].op ||
		    a->cmps[i].mask != b->cmps[i].mask ||
		    a->cmps[i].value != b->cmps[i].value)
			return false;
	return true;
}

/* A masked comparison whose value has bits outside its mask never holds
 * (in libseccomp as in ward). */
static bool never_matches(const struct entry *e)
{
	bool any = false;
	for (unsigned i = 0; i < e->ncmps; i++) {
		const struct ward_cmp *c = &e->cmps[i];
		bool never =
		    c->op == WARD_CMP_MASKED_EQ && (c->value & ~c->mask);
		if (never && !e->any_of)
			return true;
		any |= !never;
	}
	return e->any_of && !any;
}

/* Place each name of each applicable entry on its syscall. */
static int resolve(struct im *im)
{
	uint32_t other = im->o->arch == WARD_ARCH_AARCH64 ? WARD_ARCH_X86_64
							  : WARD_ARCH_AARCH64;
	for (size_t i = 0; i < im->nentries; i++) {
		struct entry *e = &im->entries[i];
		if (e->skip) {
			for (size_t k = 0; k < e->nnames; k++)
				drop(im, e, e->names[k], e->name_at[k], false,
				     e->skip);
			continue;
		}
		if (e->raw == im->dflt_raw) {
			/* runtimes skip it: the default does it */
			for (size_t k = 0; e->mapped && k < e->nnames; k++)
				ward_note(&im->skipped,
					  "entry %u, %s: %s, as the default",
					  e->no, e->names[k], e->mapped);
			continue;
		}
		if (never_matches(e)) {
			for (size_t k = 0; k < e->nnames; k++)
				drop(im, e, e->names[k], e->name_at[k], true,
				     "a masked comparison whose value has bits "
				     "outside its mask never holds");
			continue;
		}
		for (size_t k = 0; k < e->nnames; k++) {
			const char *name = e->names[k];
			int32_t nr;
			enum ward_sys_status st =
			    ward_sys_lookup(name, im->o->arch, &nr);
			struct sys *s;
			const struct use *last;

			if (st == WARD_SYS_UNKNOWN ||
			    (st == WARD_SYS_OK && nr >= MAX_NR)) {
				drop(im, e, name, e->name_at[k], true,
				     "unknown syscall, skipped");
				continue;
			}
			if (st == WARD_SYS_NOT_ON_TARGET) {
				bool elsewhere = ward_sys_nr(other, name) >= 0;
				drop(im, e, name, e->name_at[k], false,
				     elsewhere ? "not a syscall of the target"
					       : "a syscall of another "
						 "architecture only");
				continue;
			}
			s = &im->sys[nr];
			s->name = name;
			if (e->ncmps == 0) {
				if (!s->uncond) {
					s->uncond = e;
					if (e->mapped)
						ward_note(&im->skipped,
							  "entry %u, %s: %s",
							  e->no, name,
							  e->mapped);
				} else if (!same_action(s->uncond->action,
							e->action)) {
					drop(im, e, name, e->name_at[k], true,
					     ward_pool_printf(
						 im->pool,
						 "libseccomp keeps the first "
						 "unconditional rule (entry "
						 "%u, %s)",
						 s->uncond->no,
						 action_text(
						     im, s->uncond->action)));
				}
				continue;
			}
			last = s->conds.items;
			if (s->conds.n && last[s->conds.n - 1].e == e)
				continue; /* named twice in one entry */
			*(struct use *)ward_vec_push(im->pool, &s->conds,
						     sizeof(struct use)) =
			    (struct use){e, k};
		}
	}
	return 0;
}

/* Conditional entries of a syscall that has an unconditional one are
 * silenced by libseccomp; overlapping conditional entries with different
 * actions are resolved by its tree order, and ward takes the strictest. */
static int settle(struct im *im)
{
	for (int nr = 0; nr < MAX_NR; nr++) {
		struct sys *s = &im->sys[nr];
		const struct use *c = s->conds.items;
		for (size_t i = 0; i < s->conds.n; i++) {
			struct entry *e = c[i].e;
			size_t k = c[i].k;
			if (s->uncond) {
				bool differs =
				    !same_action(s->uncond->action, e->action);
				drop(im, e, s->name, e->name_at[k], differs,
				     ward_pool_printf(
					 im->pool,
					 "the condition is ignored: libseccomp "
					 "lets the unconditional entry %u "
					 "decide",
					 s->uncond->no));
				continue;
			}
			e->alive[k] = true;
			for (size_t j = 0; j < i; j++) {
				const struct entry *f = c[j].e;
				if (same_action(f->action, e->action))
					continue;
				if (same_condition(f, e))
					return bad(
					    im, e->at,
					    "`%s` gets %s here and %s "
					    "in entry %u under the same "
					    "condition (runtimes refuse "
					    "it)",
					    s->name, action_text(im, e->action),
					    action_text(im, f->action), f->no);
				if (entries_overlap(f, e))
					warn(im, e->at,
					     "`%s`: this condition and entry "
					     "%u's can both hold with "
					     "different actions; libseccomp "
					     "picks one by its own order, ward "
					     "the strictest",
					     s->name, f->no);
			}
		}
	}
	return 0;
}

/* --------------------------------------------------------------- groups */

/* A policy in a memfd, loaded and checked by the compiler. */
static int probe(struct im *im, const char *text, struct ward_session *s,
		 FILE *null)
{
	_cleanup_close_ int fd = memfd_create("ward-import-probe", MFD_CLOEXEC);
	char path[64];
	struct ward_opts o;
	int rc;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return -1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	o = (struct ward_opts){.incdirs = im->o->incdirs,
			       .nincdirs = im->o->nincdirs,
			       .arch = im->o->arch,
			       .format = WARD_DIAG_TEXT,
			       .color = WARD_COLOR_NEVER,
			       .diag_out = null};
	rc = ward_session_open(s, path, &o);
	return rc == WARDC_OK && s->checked.is_policy ? 0 : -1;
}

/* The stdlib's groups and their members on the target, as the compiler
 * expands them. Without them the policy lists syscalls by name. */
static void load_groups(struct im *im)
{
	_cleanup_fclose_ FILE *null = fopen("/dev/null", "w");
	struct ward_session s;
	struct ward_vec names = {0};
	int rc;

	if (!null)
		return;
	rc = probe(im,
		   "ward 1;\npolicy probe;\nuse groups;\n"
		   "syscalls default errno ENOSYS {}\n",
		   &s, null);
	for (size_t f = 0; rc == 0 && f < s.unit.nfiles; f++) {
		const struct ward_file *file = s.unit.files[f];
		for (size_t i = 0; file != s.unit.main && i < file->nstmts;
		     i++) {
			const struct ward_stmt *st = file->stmts[i];
			const char *n;

			if (st->kind != WARD_S_GROUP)
				continue;
			n = st->name[0] == '@' ? st->name + 1 : st->name;
			*(const char **)ward_vec_push(im->pool, &names,
						      sizeof(char *)) =
			    ward_pool_strdup(im->pool, n);
		}
	}
	ward_session_close(&s);
	if (rc < 0) {
		ward_note(im->warn, "the stdlib's `groups` could not be "
				    "loaded: syscalls are listed by name");
		return;
	}
	im->groups = ward_pool_array(im->pool, names.n ? names.n : 1,
				     sizeof(struct group));
	for (size_t g = 0; g < names.n; g++) {
		const char *gname = ((const char **)names.items)[g];
		char *text = ward_pool_printf(
		    im->pool,
		    "ward 1;\npolicy probe;\nuse groups;\n"
		    "syscalls default errno ENOSYS { allow @%s; }\n",
		    gname);
		rc = probe(im, text, &s, null);
		if (rc == 0) {
			const struct ward_rules *r = &s.checked.policy.rules;
			struct group *gr = &im->groups[im->ngroups++];
			gr->name = gname;
			gr->members = ward_pool_array(
			    im->pool, r->nsyscalls ? r->nsyscalls : 1,
			    sizeof(int32_t));
			for (uint32_t i = 0; i < r->nsyscalls; i++)
				if (r->syscalls[i].has_fallback &&
				    r->syscalls[i].fallback.kind ==
					WARD_ACT_ALLOW)
					gr->members[gr->n++] =
					    r->syscalls[i].nr;
		}
		ward_session_close(&s);
	}
	im->groups_loaded = true;
}

static int cmp_group_size(const void *x, const void *y)
{
	const struct group *a = *(const struct group *const *)x;
	const struct group *b = *(const struct group *const *)y;
	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The groups every member of which is in set (the syscalls with one
 * unconditional action), largest first, each adding something, none
 * covered by the others; *covered gets their members. */
static size_t pick_groups(struct im *im, const bool *set, bool *covered,
			  const struct group **out)
{
	size_t n = 0;
	size_t kept = 0;
	size_t m;
	size_t w = 0;

	for (size_t g = 0; g < im->ngroups; g++) {
		const struct group *gr = &im->groups[g];
		bool all = gr->n > 0;
		for (size_t i = 0; all && i < gr->n; i++)
			all = set[gr->members[i]];
		if (all)
			out[n++] = gr;
	}
	qsort(out, n, sizeof(*out), cmp_group_size);
	_cleanup_free_ unsigned *count = calloc(MAX_NR, sizeof(unsigned));
	if (!count)
		return 0;
	for (size_t g = 0; g < n; g++) {
		bool adds = false;
		for (size_t i = 0; i < out[g]->n; i++)
			adds |= !count[out[g]->members[i]];
		if (!adds)
			continue;
		for (size_t i = 0; i < out[g]->n; i++)
			count[out[g]->members[i]]++;
		out[kept++] = out[g];
	}
	/* smallest first: drop a group the others cover */
	m = kept;
	for (size_t g = kept; g-- > 0;) {
		bool needed = false;
		for (size_t i = 0; i < out[g]->n; i++)
			needed |= count[out[g]->members[i]] == 1;
		if (needed)
			continue;
		for (size_t i = 0; i < out[g]->n; i++)
			count[out[g]->members[i]]--;
		out[g] = NULL;
		m--;
	}
	for (size_t g = 0; g < kept; g++)
		if (out[g])
			out[w++] = out[g];
	for (size_t g = 0; g < w; g++)
		for (size_t i = 0; i < out[g]->n; i++)
			covered[out[g]->members[i]] = true;
	return m;
}

/* ---------------------------------------------------------------- output */

/* "\tACTION a, b, c;" wrapped at LINE_WIDTH (tabs count 8). */
static void rule_list(FILE *out, const char *action, const char **items,
		      size_t n, const char *tail)
{
	int col = 8 + fprintf(out, "\t%s ", action) - 1;
	for (size_t i = 0; i < n; i++) {
		int w =
		    (int)strlen(items[i]) + (i + 1 < n ? 1 : (int)strlen(tail));
		if (i > 0 && col + 1 + w > LINE_WIDTH) {
			fputs("\n\t\t", out);
			col = 16;
		} else if (i > 0) {
			fputc(' ', out);
			col++;
		}
		col += fprintf(out, "%s%s", items[i], i + 1 < n ? "," : "");
	}
	fprintf(out, "%s\n", tail);
}

static const char *cmp_text(struct im *im, const struct ward_cmp *c)
{
	static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};
	if (c->op == WARD_CMP_MASKED_EQ)
		return ward_pool_printf(im->pool, "arg%u & 0x%llx == 0x%llx",
					c->arg, (unsigned long long)c->mask,
					(unsigned long long)c->value);
	return ward_pool_printf(im->pool, "arg%u %s 0x%llx", c->arg, ops[c->op],
				(unsigned long long)c->value);
}

static const char *cond_text(struct im *im, const struct entry *e)
{
	const char *s = "";
	for (unsigned i = 0; i < e->ncmps; i++)
		s = ward_pool_printf(im->pool, "%s%s%s", s,
				     i ? (e->any_of ? " || " : " && ") : "",
				     cmp_text(im, &e->cmps[i]));
	return s;
}

/* A comment of the profile as "# " lines (control characters as spaces). */
static void comment_lines(FILE *out, const char *indent, const char *text)
{
	fprintf(out, "%s# ", indent);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '\n' && c[1])
			fprintf(out, "\n%s# ", indent);
		else if (*c < 0x20 || *c == 0x7f)
			fputc(' ', out);
		else
			fputc(*c, out);
	}
	fputc('\n', out);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void uncond_rules(struct im *im, FILE *out, bool *any_group)
{
	/* the distinct actions, least strict first */
	struct ward_action acts[64];
	size_t nacts = 0;
	for (int nr = 0; nr < MAX_NR; nr++) {
		const struct sys *s = &im->sys[nr];
		size_t i = 0;

		if (!s->uncond)
			continue;
		while (i < nacts && !same_action(acts[i], s->uncond->action))
			i++;
		if (i == nacts && nacts < ARRAY_LEN(acts))
			acts[nacts++] = s->uncond->action;
	}
	for (size_t i = 1; i < nacts; i++)
		for (size_t j = i;
		     j > 0 && ward_action_cmp(&acts[j - 1], &acts[j]) > 0;
		     j--) {
			struct ward_action t = acts[j];
			acts[j] = acts[j - 1];
			acts[j - 1] = t;
		}

	_cleanup_free_ bool *set = calloc(MAX_NR, sizeof(bool));
	_cleanup_free_ bool *covered = calloc(MAX_NR, sizeof(bool));
	_cleanup_free_ const struct group **groups =
	    calloc(im->ngroups ? im->ngroups : 1, sizeof(*groups));
	_cleanup_free_ const char **names = calloc(MAX_NR, sizeof(char *));
	if (!set || !covered || !groups || !names)
		return;
	for (size_t a = 0; a < nacts; a++) {
		size_t ng;
		const char *act;
		size_t n = 0;

		memset(set, 0, MAX_NR * sizeof(bool));
		memset(covered, 0, MAX_NR * sizeof(bool));
		for (int nr = 0; nr < MAX_NR; nr++)
			set[nr] =
			    im->sys[nr].uncond &&
			    same_action(im->sys[nr].uncond->action, acts[a]);
		ng = pick_groups(im, set, covered, groups);
		act = action_text(im, acts[a]);
		if (ng) {
			const char **gn = (const char **)names;
			for (size_t g = 0; g < ng; g++)
				gn[g] = ward_pool_printf(im->pool, "@%s",
							 groups[g]->name);
			qsort(gn, ng, sizeof(char *), cmp_str);
			rule_list(out, act, gn, ng, ";");
			*any_group = true;
		}
		for (int nr = 0; nr < MAX_NR; nr++)
			if (set[nr] && !covered[nr])
				names[n++] = im->sys[nr].name;
		qsort(names, n, sizeof(char *), cmp_str);
		if (n)
			rule_list(out, act, names, n, ";");
	}
}

static void cond_rules(struct im *im, FILE *out)
{
	for (size_t i = 0; i < im->nentries; i++) {
		const struct entry *e = &im->entries[i];
		const char *live[64];
		size_t n = 0;
		for (size_t k = 0; k < e->nnames && n < ARRAY_LEN(live); k++)
			if (e->alive[k])
				live[n++] = e->names[k];
		if (!n)
			continue;
		fputc('\n', out);
		if (e->comment && *e->comment)
			comment_lines(out, "\t", e->comment);
		if (e->mapped)
			comment_lines(out, "\t",
				      ward_pool_printf(im->pool,
						       "(profile entry %u: %s)",
						       e->no, e->mapped));
		if (e->any_of)
			comment_lines(out, "\t",
				      "(one argument is tested twice: "
				      "runtimes OR the comparisons)");
		rule_list(
		    out, action_text(im, e->action), live, n,
		    ward_pool_printf(im->pool, " if %s;", cond_text(im, e)));
	}
}

/* The policy's name from the profile's file name. */
static const char *policy_name(struct im *im)
{
	const char *base = strrchr(im->o->source, '/');
	char *s;
	char *dot;
	char *w;

	base = base ? base + 1 : im->o->source;
	s = ward_pool_strdup(im->pool, base);
	dot = strrchr(s, '.');
	if (dot && dot != s)
		*dot = 0;
	/* [A-Za-z_][A-Za-z0-9_]* with -word parts */
	w = s;
	for (char *c = s; *c; c++) {
		char ch = (char)((*c >= 'A' && *c <= 'Z') ||
					 (*c >= 'a' && *c <= 'z') ||
					 (*c >= '0' && *c <= '9') || *c == '_'
				     ? *c
				     : '-');
		if (ch == '-' && (w == s || w[-1] == '-'))
			continue;
		*w++ = ch;
	}
	while (w > s && w[-1] == '-')
		w--;
	*w = 0;
	if (!*s)
		return "imported";
	if (*s >= '0' && *s <= '9')
		return ward_pool_printf(im->pool, "p_%s", s);
	return s;
}

/* The capabilities kept, "CAP_A, CAP_B". */
static const char *caps_text(struct im *im)
{
	const char *s = "";

	for (int c = 0; c < 64; c++) {
		const char *n = ward_cap_name(c);
		if (!((im->o->caps >> c) & 1))
			continue;
		s = ward_pool_printf(
		    im->pool, "%s%s%s", s, *s ? ", " : "",
		    n ? n : ward_pool_printf(im->pool, "CAP_%d", c));
	}
	return s;
}

static void header(struct im *im, FILE *out)
{
	const char *const *a;

	fprintf(out,
		"# Imported by `wardc import` from %s\n"
		"# (a Docker or OCI seccomp profile), for %s. Review it before "
		"use.\n",
		im->o->source,
		im->o->arch == WARD_ARCH_AARCH64 ? "aarch64" : "x86_64");
	a = im->arches.items;
	for (size_t i = 0; i < im->arches.n; i++)
		fprintf(out, "# The profile's architectures: %s.\n", a[i]);
	fprintf(out,
		"# ward compiles for one architecture and kills calls of any "
		"other%s.\n",
		im->o->arch == WARD_ARCH_X86_64 ? " and of the x32 ABI" : "");
	if (im->dflt_mapped)
		fprintf(out, "# The default action: %s.\n", im->dflt_mapped);
	fprintf(out,
		"# Entries are read as a runtime applies them for a container "
		"that keeps\n"
		"# %s.\n",
		im->o->caps ? ward_pool_printf(im->pool, "the capabilities %s",
					       caps_text(im))
			    : "no capabilities");
	fputs("# Only the syscall filter comes from the profile: add the "
	      "filesystem,\n"
	      "# identity and limits (`use base;` gives a root filesystem).\n"
	      "# Without a `net` section the sandbox has no network, and "
	      "socket() is\n"
	      "# refused for every family but AF_UNIX, whatever the rules "
	      "below say.\n",
	      out);
	if (im->skipped.n) {
		fputs("#\n# Not imported, or imported differently:\n", out);
		for (size_t i = 0; i < im->skipped.n; i++)
			comment_lines(out, "",
				      ward_pool_printf(im->pool, "  - %s",
						       im->skipped.items[i]));
	}
}

static int write_policy(struct im *im, char **text)
{
	char *body = NULL, *all = NULL;
	size_t blen = 0, alen = 0;
	bool any_group = false;
	FILE *b = open_memstream(&body, &blen);
	FILE *f;

	if (!b)
		return ward_fail(im->err, errno, "open_memstream");
	uncond_rules(im, b, &any_group);
	cond_rules(im, b);
	if (fclose(b) != 0) {
		free(body);
		return ward_fail(im->err, ENOMEM, "import");
	}
	f = open_memstream(&all, &alen);
	if (!f) {
		free(body);
		return ward_fail(im->err, errno, "open_memstream");
	}
	header(im, f);
	fprintf(f, "ward 1;\npolicy %s;\n", policy_name(im));
	if (any_group)
		fputs("use groups;\n", f);
	if (im->o->caps)
		fprintf(f, "\nidentity { capabilities %s; }\n", caps_text(im));
	fprintf(f, "\nsyscalls default %s {\n%s}\n", action_text(im, im->dflt),
		body);
	free(body);
	if (fclose(f) != 0) {
		free(all);
		return ward_fail(im->err, ENOMEM, "import");
	}
	*text = all;
	return 0;
}

int ward_import_docker(const char *json, size_t len,
		       const struct ward_import_opts *o, char **text,
		       struct ward_notes *warnings, ward_err *err)
{
	struct ward_pool *pool = ward_pool_new();
	struct im im = {
	    .pool = pool,
	    .o = o,
	    .warn = warnings,
	    .skipped = {.pool = pool},
	    .err = err,
	};
	const struct jnode *root;
	int rc = -1;

	im.sys = ward_pool_array(pool, MAX_NR, sizeof(struct sys));
	root = parse_json(&im, json, len);
	if (root && parse_profile(&im, root) == 0 && resolve(&im) == 0 &&
	    settle(&im) == 0) {
		load_groups(&im);
		rc = write_policy(&im, text);
	}
	ward_pool_free(pool);
	return rc;
}
