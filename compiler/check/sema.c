/* SPDX-License-Identifier: MIT */
/*
 * sema.c: the checker's driver. It gathers the statements of every file of a
 * unit into sections and symbol tables, evaluates values with their types,
 * then hands each section to its own checker (sema_*.c).
 */
#include "sema_internal.h"

#include "ast_canon.h"
#include "consts.h"
#include "sha256.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sema_type_name(enum ward_type t)
{
	switch (t) {
	case T_INT:
		return "an integer";
	case T_SIZE:
		return "a size";
	case T_DURATION:
		return "a duration";
	case T_CPU:
		return "a CPU share";
	case T_STRING:
		return "a string";
	case T_PATH:
		return "a path";
	case T_ADDR:
		return "an address";
	case T_ERROR:
		break;
	}
	return "an invalid value";
}

bool sema_once(struct sema *s, const struct ward_stmt **slot,
	       const struct ward_stmt *st, const char *what)
{
	if (*slot) {
		ward_diag(s->d, WARD_SEV_ERROR, st->kw_loc, "%s is set twice",
			  what);
		ward_diag_note(s->d, (*slot)->kw_loc, "first set here");
		return false;
	}
	*slot = st;
	return true;
}

bool sema_range(struct sema *s, struct ward_loc loc, const char *what,
		uint64_t v, uint64_t lo, uint64_t hi, const char *unit)
{
	if (v >= lo && v <= hi)
		return true;
	ward_diag(s->d, WARD_SEV_ERROR, loc, "%s is out of range", what);
	ward_diag_help(s->d, "it must be between %llu and %llu%s",
		       (unsigned long long)lo, (unsigned long long)hi,
		       unit ? unit : "");
	return false;
}

/* ------------------------------------------------------------ constants */

static const char *const *builtin_names(struct sema *s, size_t *n)
{
	if (!s->builtin) {
		s->nbuiltin = ward_const_count(s->arch);
		s->builtin = ward_pool_array(s->pool, s->nbuiltin + 1,
					     sizeof(*s->builtin));
		for (size_t i = 0; i < s->nbuiltin; i++)
			s->builtin[i] = ward_const_name(s->arch, i);
	}
	*n = s->nbuiltin;
	return s->builtin;
}

static void suggest_constant(struct sema *s, const char *name)
{
	const char *hit = ward_suggest(name, s->consts.order, s->consts.norder);
	if (!hit) {
		size_t n;
		const char *const *names = builtin_names(s, &n);
		hit = ward_suggest(name, names, n);
	}
	if (hit)
		ward_diag_help(s->d, "did you mean `%s`?", hit);
}

static struct tval resolve_const(struct sema *s, struct sym_const *c)
{
	struct tval v;

	if (c->state == 2)
		return c->val;
	if (c->state == 1) {
		ward_diag(s->d, WARD_SEV_ERROR, c->stmt->name_loc,
			  "constant `%s` is defined in terms of itself",
			  c->stmt->name);
		c->val.type = T_ERROR;
		c->state = 2;
		return c->val;
	}
	c->state = 1;
	v = sema_eval(s, c->stmt->value);
	if (c->state == 1) {
		c->val = v;
		c->state = 2;
	}
	return c->val;
}

/* A decimal literal with a leading zero reads as octal to a C programmer. */
static bool leading_zero(const char *text)
{
	if (!text || text[0] != '0' || !text[1])
		return false;
	for (const char *p = text; *p; p++)
		if ((*p < '0' || *p > '9') && *p != '_')
			return false;
	return true;
}

struct tval sema_eval(struct sema *s, const struct ward_value *v)
{
	struct tval t = {0};
	switch (v->kind) {
	case WARD_V_INT:
		if (leading_zero(v->text)) {
			ward_diag(s->d, WARD_SEV_ERROR, v->loc,
				  "`%s` has a leading zero", v->text);
			ward_diag_help(s->d,
				       "write 0o%s for octal or %s for decimal "
				       "(only after `mode` are digits octal)",
				       v->text + strspn(v->text, "0_"),
				       v->text + strspn(v->text, "0_"));
			return t;
		}
		t.type = T_INT;
		t.u = v->u;
		return t;
	case WARD_V_SIZE:
		t.type = T_SIZE;
		t.u = v->u;
		return t;
	case WARD_V_DURATION:
		t.type = T_DURATION;
		t.u = v->u;
		return t;
	case WARD_V_DECIMAL:
		t.type = T_CPU;
		t.u = v->u;
		return t;
	case WARD_V_STRING:
		t.type = T_STRING;
		t.str = v->str;
		t.len = v->len;
		return t;
	case WARD_V_PATH:
		t.type = T_PATH;
		t.str = v->str;
		t.len = strlen(v->str);
		return t;
	case WARD_V_ADDR:
		t.type = T_ADDR;
		t.family = v->addr.family;
		memcpy(t.bytes, v->addr.bytes, 16);
		t.prefix = v->addr.prefix;
		return t;
	case WARD_V_NAME: {
		struct sym_const *c = ward_symtab_get(&s->consts, v->str);
		uint64_t val;

		if (c)
			return resolve_const(s, c);
		switch (ward_const_lookup(v->str, s->arch, &val)) {
		case WARD_CONST_OK:
			t.type = T_INT;
			t.u = val;
			return t;
		case WARD_CONST_NOT_ON_TARGET:
			ward_diag(s->d, WARD_SEV_ERROR, v->loc,
				  "constant `%s` has no known value on %s",
				  v->str, s->arch_name);
			return t;
		case WARD_CONST_UNKNOWN:
			break;
		}
		ward_diag(s->d, WARD_SEV_ERROR, v->loc, "unknown constant `%s`",
			  v->str);
		suggest_constant(s, v->str);
		return t;
	}
	case WARD_V_OR: {
		t.type = T_INT;
		for (size_t i = 0; i < v->nitems; i++) {
			struct tval it = sema_eval(s, v->items[i]);
			if (it.type == T_ERROR) {
				t.type = T_ERROR;
			} else if (it.type != T_INT) {
				ward_diag(
				    s->d, WARD_SEV_ERROR, v->items[i]->loc,
				    "`|` combines integers, but `%s` is "
				    "%s",
				    v->items[i]->text, sema_type_name(it.type));
				t.type = T_ERROR;
			} else {
				t.u |= it.u;
			}
		}
		return t;
	}
	}
	return t;
}

static void wrong_type(struct sema *s, const struct ward_value *v,
		       const char *what, enum ward_type want,
		       enum ward_type got)
{
	ward_diag(s->d, WARD_SEV_ERROR, v->loc, "%s takes %s, but `%s` is %s",
		  what, sema_type_name(want), v->text, sema_type_name(got));
}

/* The number part of a literal such as "2m" or "512M". */
static int number_len(const char *text)
{
	return (int)strspn(text, "0123456789._");
}

bool sema_int(struct sema *s, const struct ward_value *v, const char *what,
	      uint64_t *out)
{
	struct tval t = sema_eval(s, v);
	if (t.type == T_ERROR)
		return false;
	if (t.type != T_INT) {
		wrong_type(s, v, what, T_INT, t.type);
		return false;
	}
	*out = t.u;
	return true;
}

bool sema_size(struct sema *s, const struct ward_value *v, const char *what,
	       uint64_t *out)
{
	struct tval t = sema_eval(s, v);
	switch (t.type) {
	case T_ERROR:
		return false;
	case T_SIZE:
		*out = t.u;
		return true;
	case T_INT:
		if (t.u == 0) {
			*out = 0;
			return true;
		}
		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "%s takes a size, but `%s` has no unit", what,
			  v->text);
		ward_diag_help(s->d,
			       "write a unit: B, K, M, G or T (powers of "
			       "1024), as in `%sM`",
			       v->text);
		return false;
	case T_DURATION: {
		size_t n;

		wrong_type(s, v, what, T_SIZE, t.type);
		n = strlen(v->text);
		if (v->kind == WARD_V_DURATION && n > 1 &&
		    v->text[n - 1] == 'm' && v->text[n - 2] != 'm')
			ward_diag_help(
			    s->d,
			    "`m` means minutes; did you mean `%.*sM` "
			    "(MiB)?",
			    number_len(v->text), v->text);
		return false;
	}
	default:
		wrong_type(s, v, what, T_SIZE, t.type);
		return false;
	}
}

bool sema_duration(struct sema *s, const struct ward_value *v, const char *what,
		   uint64_t *out)
{
	struct tval t = sema_eval(s, v);
	switch (t.type) {
	case T_ERROR:
		return false;
	case T_DURATION:
		*out = t.u;
		return true;
	case T_INT:
		if (t.u == 0) {
			*out = 0;
			return true;
		}
		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "%s takes a duration, but `%s` has no unit", what,
			  v->text);
		ward_diag_help(s->d, "write a unit: ms, s, m or h, as in `%ss`",
			       v->text);
		return false;
	case T_SIZE: {
		size_t n;

		wrong_type(s, v, what, T_DURATION, t.type);
		n = strlen(v->text);
		if (v->kind == WARD_V_SIZE && n > 1 && v->text[n - 1] == 'M')
			ward_diag_help(s->d,
				       "`M` means MiB; did you mean `%.*sm` "
				       "(minutes)?",
				       number_len(v->text), v->text);
		return false;
	}
	default:
		wrong_type(s, v, what, T_DURATION, t.type);
		return false;
	}
}

bool sema_cpu(struct sema *s, const struct ward_value *v, const char *what,
	      uint64_t *out)
{
	struct tval t = sema_eval(s, v);
	switch (t.type) {
	case T_ERROR:
		return false;
	case T_CPU:
		*out = t.u;
		return true;
	case T_INT:
		if (__builtin_mul_overflow(t.u, 1000, out)) {
			ward_diag(s->d, WARD_SEV_ERROR, v->loc,
				  "%s is too large", what);
			return false;
		}
		return true;
	default:
		wrong_type(s, v, what, T_CPU, t.type);
		return false;
	}
}

bool sema_string(struct sema *s, const struct ward_value *v, const char *what,
		 const char **str, size_t *len)
{
	struct tval t = sema_eval(s, v);
	if (t.type == T_ERROR)
		return false;
	if (t.type != T_STRING) {
		wrong_type(s, v, what, T_STRING, t.type);
		return false;
	}
	*str = t.str;
	*len = t.len;
	return true;
}

/* The lexically normalised form of p, for a suggestion; NULL when it
 * climbs above the root. */
static char *normalise(struct ward_pool *pool, const char *p, bool absolute)
{
	size_t n = strlen(p);
	char *out = ward_pool_alloc(pool, n + 2);
	size_t o = 0;
	const char *q = p;
	while (*q) {
		size_t len;

		while (*q == '/')
			q++;
		len = strcspn(q, "/");
		if (len == 0)
			break;
		if (len == 1 && q[0] == '.') {
			/* skip */
		} else if (len == 2 && q[0] == '.' && q[1] == '.') {
			if (o == 0)
				return NULL;
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
		} else {
			if (o > 0 || absolute)
				out[o++] = '/';
			memcpy(out + o, q, len);
			o += len;
		}
		q += len;
	}
	if (o == 0 && absolute)
		out[o++] = '/';
	out[o] = 0;
	return out;
}

bool sema_path(struct sema *s, const struct ward_value *v, const char *what,
	       bool rel_ok, const char **out)
{
	struct tval t = sema_eval(s, v);
	const char *p;
	bool absolute;
	const char *why = NULL;

	if (t.type == T_ERROR)
		return false;
	if (t.type != T_PATH && t.type != T_STRING) {
		wrong_type(s, v, what, T_PATH, t.type);
		return false;
	}
	p = t.str;
	if (t.len != strlen(p)) {
		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "%s contains a NUL byte", what);
		return false;
	}
	if (t.len == 0) {
		ward_diag(s->d, WARD_SEV_ERROR, v->loc, "%s is empty", what);
		return false;
	}
	if (t.len > 4095) {
		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "%s is longer than 4095 bytes", what);
		return false;
	}
	absolute = p[0] == '/';
	if (!absolute && !rel_ok) {
		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "%s must be an absolute path, but `%s` is relative",
			  what, p);
		ward_diag_help(s->d, "did you mean `/%s`?", p);
		return false;
	}
	if (strstr(p, "//"))
		why = "`//`";
	else if (t.len > 1 && p[t.len - 1] == '/')
		why = "a trailing `/`";
	for (const char *q = p; !why && *q;) {
		size_t len = strcspn(q, "/");
		if (len == 1 && q[0] == '.')
			why = "a `.` component";
		else if (len == 2 && q[0] == '.' && q[1] == '.')
			why = "a `..` component";
		q += len;
		q += strspn(q, "/");
	}
	if (why) {
		const char *fix;

		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "%s `%s` is not normalised: it has %s", what, p, why);
		fix = normalise(s->pool, p, absolute);
		if (fix && *fix)
			ward_diag_help(s->d, "write `%s`", fix);
		return false;
	}
	*out = p;
	return true;
}

bool sema_addr(struct sema *s, const struct ward_value *v, const char *what,
	       struct tval *out)
{
	struct tval t = sema_eval(s, v);
	if (t.type == T_ERROR)
		return false;
	if (t.type != T_ADDR) {
		wrong_type(s, v, what, T_ADDR, t.type);
		return false;
	}
	*out = t;
	return true;
}

bool sema_mode(struct sema *s, const struct ward_value *v, uint32_t *out)
{
	const char *p;
	uint64_t m = 0;

	if (v->kind != WARD_V_INT) {
		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "a mode is written in octal digits, as in `0755`");
		return false;
	}
	p = v->text;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'b' || p[1] == 'o')) {
		m = v->u;
	} else {
		for (; *p; p++) {
			if (*p == '_')
				continue;
			if (*p < '0' || *p > '7') {
				ward_diag(s->d, WARD_SEV_ERROR, v->loc,
					  "mode `%s` is not octal: `%c` is not "
					  "an octal digit",
					  v->text, *p);
				return false;
			}
			m = m * 8 + (uint64_t)(*p - '0');
			if (m > 07777)
				break;
		}
	}
	if (m > 07777) {
		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "mode `%s` is larger than 07777", v->text);
		return false;
	}
	*out = (uint32_t)m;
	return true;
}

/* ------------------------------------------------------------ the driver */

static void define(struct sema *s, struct ward_symtab *tab, const char *key,
		   void *sym, const struct ward_stmt *st, const char *what)
{
	void *old = ward_symtab_put(tab, key, sym);
	const struct ward_stmt *first;

	if (!old)
		return;
	first = *(const struct ward_stmt **)old;
	ward_diag(s->d, WARD_SEV_ERROR, st->name_loc,
		  "%s `%s` is defined twice", what, key);
	ward_diag_note(s->d, first->name_loc, "first defined here");
}

static void push_body(struct sema *s, struct ward_vec *v,
		      const struct ward_stmt *st)
{
	for (size_t i = 0; i < st->nbody; i++)
		*(const struct ward_stmt **)ward_vec_push(
		    s->pool, v, sizeof(st)) = st->body[i];
}

static void gather(struct sema *s, const struct ward_file *f, bool is_main)
{
	for (size_t i = 0; i < f->nstmts; i++) {
		const struct ward_stmt *st = f->stmts[i];
		switch (st->kind) {
		case WARD_S_POLICY:
			/* The loader refuses a policy statement in a used
			 * file; only the main file's counts. */
			if (is_main)
				sema_once(s, &s->policy_stmt, st,
					  "the policy name");
			break;
		case WARD_S_CONST: {
			struct sym_const *c =
			    ward_pool_alloc(s->pool, sizeof(*c));
			uint64_t dummy;

			c->stmt = st;
			if (ward_const_lookup(st->name, s->arch, &dummy) !=
			    WARD_CONST_UNKNOWN) {
				ward_diag(s->d, WARD_SEV_ERROR, st->name_loc,
					  "constant `%s` would hide the "
					  "built-in constant of that name",
					  st->name);
				ward_diag_help(s->d, "choose another name");
				break;
			}
			define(s, &s->consts, st->name, c, st, "constant");
			break;
		}
		case WARD_S_GROUP: {
			struct sym_group *g =
			    ward_pool_alloc(s->pool, sizeof(*g));
			const char *key;

			g->stmt = st;
			key = st->name[0] == '@'
				  ? st->name
				  : ward_pool_printf(s->pool, "@%s", st->name);
			define(s, &s->groups, key, g, st, "group");
			break;
		}
		case WARD_S_IDENTITY:
			push_body(s, &s->identity_items, st);
			break;
		case WARD_S_ENV:
			push_body(s, &s->env_items, st);
			break;
		case WARD_S_FS:
			push_body(s, &s->fs_items, st);
			break;
		case WARD_S_LIMITS:
			push_body(s, &s->limit_items, st);
			break;
		case WARD_S_NET_NONE:
			if (s->net_block) {
				ward_diag(s->d, WARD_SEV_ERROR, st->kw_loc,
					  "`net none` conflicts with the `net` "
					  "allow-list");
				ward_diag_note(s->d, s->net_block->kw_loc,
					       "the allow-list starts here");
			} else {
				sema_once(s, &s->net_none, st, "`net none`");
			}
			break;
		case WARD_S_NET:
			if (s->net_none) {
				ward_diag(s->d, WARD_SEV_ERROR, st->kw_loc,
					  "this `net` allow-list conflicts "
					  "with `net none`");
				ward_diag_note(s->d, s->net_none->kw_loc,
					       "`net none` is set here");
				break;
			}
			if (!s->net_block)
				s->net_block = st;
			push_body(s, &s->net_items, st);
			break;
		case WARD_S_SYSCALLS:
			if (st->action)
				sema_once(s, &s->default_stmt, st,
					  "the default syscall action");
			push_body(s, &s->rules, st);
			break;
		default:
			break;
		}
	}
}

static const char *arch_name(uint32_t arch)
{
	return arch == WARD_ARCH_AARCH64 ? "aarch64" : "x86_64";
}

int ward_sema(const struct ward_unit *unit, const struct ward_sources *src,
	      struct ward_diags *diags, const struct ward_sema_opts *opts,
	      struct ward_checked *out)
{
	unsigned errors_before;
	struct sema s;
	struct ward_policy *p;
	struct ward_provenance *w;

	memset(out, 0, sizeof(*out));
	out->pool = ward_pool_new();
	errors_before = ward_diags_errors(diags);

	s = (struct sema){
	    .pool = out->pool,
	    .unit = unit,
	    .src = src,
	    .d = diags,
	    .arch = opts->arch,
	    .arch_name = arch_name(opts->arch),
	    .out = &out->policy,
	    .where = &out->where,
	};
	ward_symtab_init(&s.consts, s.pool);
	ward_symtab_init(&s.groups, s.pool);
	ward_symtab_init(&s.hosts, s.pool);

	for (size_t i = 0; i < unit->nfiles; i++)
		gather(&s, unit->files[i], unit->files[i] == unit->main);
	out->is_policy = s.policy_stmt != NULL;

	/* Constants and groups are checked where they are defined, used or
	 * not, so that a fragment is checked on its own. */
	for (size_t i = 0; i < s.consts.norder; i++)
		resolve_const(&s,
			      ward_symtab_get(&s.consts, s.consts.order[i]));
	sema_check_groups(&s);

	p = &out->policy;
	p->arch = opts->arch;
	if (s.policy_stmt)
		p->meta.policy_name = s.policy_stmt->name;
	p->meta.compiler_version = "wardc " WARD_VERSION;
	ward_source_digest(unit, src, p->meta.source_digest);

	w = &out->where;
	w->policy = s.policy_stmt ? s.policy_stmt->kw_loc : sema_noloc();
	w->default_action =
	    s.default_stmt ? s.default_stmt->action->loc : sema_noloc();
	w->net = s.net_block  ? s.net_block->kw_loc
		 : s.net_none ? s.net_none->kw_loc
			      : sema_noloc();
	sema_identity(&s);
	sema_env(&s);
	sema_limits(&s); /* before fs: the tmpfs check reads the memory limit */
	sema_fs(&s);
	sema_export(&s);
	sema_net(&s);
	sema_syscalls(&s);
	if (ward_diags_errors(diags) == 0)
		sema_net_hosts(&s);

	if (s.policy_stmt && !s.default_stmt) {
		ward_diag(diags, WARD_SEV_ERROR, s.policy_stmt->kw_loc,
			  "policy `%s` has no default syscall action",
			  s.policy_stmt->name);
		ward_diag_help(diags, "add `syscalls default errno ENOSYS { "
				      "... }` (a policy must say what happens "
				      "to the syscalls it does not name)");
	}
	ward_diags_flush(diags);
	return ward_diags_errors(diags) > errors_before ? -1 : 0;
}

void ward_checked_free(struct ward_checked *c)
{
	ward_pool_free(c->pool);
	memset(c, 0, sizeof(*c));
}

void ward_source_digest(const struct ward_unit *unit,
			const struct ward_sources *src, uint8_t out[32])
{
	struct ward_sha256 h;

	(void)src;
	ward_sha256_init(&h);
	for (size_t i = 0; i < unit->nfiles; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);
		uint8_t le[8];

		if (mem) {
			ward_ast_canonical(unit->files[i], mem);
			fclose(mem);
		}
		for (int b = 0; b < 8; b++)
			le[b] = (uint8_t)((uint64_t)len >> (8 * b));
		ward_sha256_update(&h, le, sizeof(le));
		ward_sha256_update(&h, buf ? buf : "", len);
		free(buf);
	}
	ward_sha256_final(&h, out);
}
