/* SPDX-License-Identifier: MIT */
/*
 * lint_identity.c: the rules about the identity and the environment
 * (W5xx).
 */
#include "consts.h"
#include "lint_internal.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

void lint_id_root(struct lint_ctx *c, const struct lint_rule *r)
{
	const struct ward_identity *id = &c->p->identity;
	bool uid = id->uid == 0 && lint_has_place(c->w->user);
	bool gid = id->gid == 0 && lint_has_place(c->w->group);
	if (!uid && !gid)
		return;
	lint_add(c, r, uid ? c->w->user : c->w->group, uid ? "uid" : "gid",
		 "the sandbox runs as %s 0",
		 uid && gid ? "uid and gid"
		 : uid	    ? "uid"
			    : "gid");
}

/* Near-root capabilities (W503); every other kept capability is W502. */
static bool admin_cap(const char *name)
{
	static const char *const admin[] = {
	    "CAP_SYS_ADMIN",	"CAP_SYS_MODULE", "CAP_SYS_PTRACE",
	    "CAP_SYS_RAWIO",	"CAP_SYS_BOOT",	  "CAP_SYS_TIME",
	    "CAP_NET_ADMIN",	"CAP_NET_RAW",	  "CAP_DAC_READ_SEARCH",
	    "CAP_BPF",		"CAP_PERFMON",	  "CAP_MAC_ADMIN",
	    "CAP_MAC_OVERRIDE", "CAP_SYSLOG",	  "CAP_CHECKPOINT_RESTORE",
	};
	for (size_t i = 0; i < sizeof(admin) / sizeof(admin[0]); i++)
		if (strcmp(name, admin[i]) == 0)
			return true;
	return false;
}

static void caps(struct lint_ctx *c, const struct lint_rule *r, bool want)
{
	const char *names[64];
	size_t n = 0;
	const char *list;

	for (int cap = 0; cap < 64; cap++) {
		const char *name;

		if (!(c->p->identity.caps_keep & (1ull << cap)))
			continue;
		name = ward_cap_name(cap);
		if (!name)
			name = ward_pool_printf(c->pool, "capability %d", cap);
		if (admin_cap(name) == want)
			names[n++] = name;
	}
	if (!n)
		return;
	list = lint_name_list(c->pool, names, n);
	lint_add(c, r, c->w->capabilities, list, "%s %s kept", list,
		 n > 1 ? "are" : "is");
}

void lint_id_caps(struct lint_ctx *c, const struct lint_rule *r)
{
	caps(c, r, false);
}

void lint_id_admin_caps(struct lint_ctx *c, const struct lint_rule *r)
{
	caps(c, r, true);
}

/* ------------------------------------------------------------- secrets */

/* Does the variable's name say it holds a secret? */
static bool secret_name(const char *name)
{
	static const char *const words[] = {
	    "KEY",	  "KEYS",	 "TOKEN",  "TOKENS", "SECRET",
	    "SECRETS",	  "PASSWORD",	 "PASSWD", "PASS",   "PWD",
	    "CREDENTIAL", "CREDENTIALS", "CREDS",  "APIKEY", "AUTH",
	    "COOKIE",	  "PRIVATE",
	};
	static const char *const parts[] = {
	    "TOKEN",	  "SECRET", "PASSWORD",	  "PASSWD",
	    "CREDENTIAL", "APIKEY", "PRIVATEKEY", "ACCESSKEY"};
	char up[256];
	size_t n = 0;
	for (; name[n] && n + 1 < sizeof(up); n++)
		up[n] = (char)toupper((unsigned char)name[n]);
	up[n] = 0;
	if (strcmp(up, "PWD") == 0 || strcmp(up, "OLDPWD") == 0)
		return false;
	if (strncmp(up, "AWS_", 4) == 0)
		return true;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strstr(up, parts[i]))
			return true;
	for (char *w = up; *w;) {
		size_t len = strcspn(w, "_");
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i]) == len &&
			    strncmp(w, words[i], len) == 0)
				return true;
		w += len;
		while (*w == '_')
			w++;
	}
	return false;
}

/* What kind of secret the value looks like, or NULL. */
static const char *secret_value(const char *v)
{
	static const struct {
		const char *prefix, *what;
	} shapes[] = {
	    {"ghp_", "a GitHub token"},
	    {"gho_", "a GitHub token"},
	    {"ghu_", "a GitHub token"},
	    {"ghs_", "a GitHub token"},
	    {"ghr_", "a GitHub token"},
	    {"github_pat_", "a GitHub token"},
	    {"glpat-", "a GitLab token"},
	    {"xoxb-", "a Slack token"},
	    {"xoxp-", "a Slack token"},
	    {"sk-", "an API secret key"},
	    {"sk_live_", "a Stripe secret key"},
	    {"AIza", "a Google API key"},
	    {"-----BEGIN", "a PEM key or certificate"},
	};
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		if (strncmp(v, shapes[i].prefix, strlen(shapes[i].prefix)) ==
			0 &&
		    strlen(v) >= strlen(shapes[i].prefix) + 8)
			return shapes[i].what;
	/* AWS access key ids: AKIA or ASIA and 16 upper-case letters or
	 * digits */
	if ((strncmp(v, "AKIA", 4) == 0 || strncmp(v, "ASIA", 4) == 0) &&
	    strlen(v) == 20) {
		bool ok = true;
		for (size_t i = 4; i < 20; i++)
			ok &= isupper((unsigned char)v[i]) ||
			      isdigit((unsigned char)v[i]);
		if (ok)
			return "an AWS access key id";
	}
	return NULL;
}

void lint_env_secret_value(struct lint_ctx *c, const struct lint_rule *r)
{
	for (uint32_t i = 0; i < c->p->nenv; i++) {
		const struct ward_env_var *e = &c->p->env[i];
		const char *shape;

		if (!e->value || !e->value[0])
			continue;
		shape = secret_value(e->value);
		if (shape)
			lint_add(c, r, c->w->env[i], e->name,
				 "the value of `%s` looks like %s", e->name,
				 shape);
		else if (secret_name(e->name))
			lint_add(c, r, c->w->env[i], e->name,
				 "`%s` is set in the policy, and its name says "
				 "it is a secret",
				 e->name);
	}
}

void lint_env_secret_inherit(struct lint_ctx *c, const struct lint_rule *r)
{
	for (uint32_t i = 0; i < c->p->nenv; i++) {
		const struct ward_env_var *e = &c->p->env[i];
		if (!e->value && secret_name(e->name))
			lint_add(c, r, c->w->env[i], e->name,
				 "`%s` is inherited from the caller, and its "
				 "name says it is a secret",
				 e->name);
	}
}

static bool code_path_var(const char *name)
{
	static const char *const vars[] = {
	    "PATH",	     "PYTHONPATH",	  "PYTHONHOME",
	    "PYTHONSTARTUP", "PYTHONUSERBASE",	  "NODE_OPTIONS",
	    "NODE_PATH",     "PERL5LIB",	  "PERL5OPT",
	    "PERLLIB",	     "RUBYLIB",		  "RUBYOPT",
	    "GEM_PATH",	     "GEM_HOME",	  "BASH_ENV",
	    "ENV",	     "SHELLOPTS",	  "PROMPT_COMMAND",
	    "CLASSPATH",     "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
	    "GCONV_PATH",    "LUA_PATH",	  "LUA_CPATH",
	    "GIT_EXEC_PATH", "GIT_SSH_COMMAND",	  "IFS",
	};
	if (strncmp(name, "LD_", 3) == 0)
		return true;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (strcmp(name, vars[i]) == 0)
			return true;
	return false;
}

void lint_env_inherit_path(struct lint_ctx *c, const struct lint_rule *r)
{
	for (uint32_t i = 0; i < c->p->nenv; i++) {
		const struct ward_env_var *e = &c->p->env[i];
		if (!e->value && code_path_var(e->name))
			lint_add(
			    c, r, c->w->env[i], e->name,
			    "`%s` is inherited: the caller's value decides "
			    "which code the sandbox runs",
			    e->name);
	}
}

/* The user and group, named: in an `identity` section of the policy or of
 * a file it uses (a reviewed fragment names them too). */
void lint_id_named(struct lint_ctx *c, const struct lint_rule *r)
{
	bool user = lint_has_place(c->w->user),
	     group = lint_has_place(c->w->group);
	if (user && group)
		return;
	struct ward_loc at = lint_missing_loc(c, WARD_S_IDENTITY);
	bool section = false;
	for (size_t f = 0; f < c->unit->nfiles; f++)
		for (size_t i = 0; i < c->unit->files[f]->nstmts; i++)
			section |= c->unit->files[f]->stmts[i] &&
				   c->unit->files[f]->stmts[i]->kind ==
				       WARD_S_IDENTITY;
	if (!section && !user && !group)
		lint_add(c, r, at, "identity",
			 "no `identity` section: the sandbox runs as the "
			 "default user %u and group %u, which no one chose",
			 c->p->identity.uid, c->p->identity.gid);
	else
		lint_add(c, r, at, "identity",
			 "the identity names no `%s`: the sandbox runs as the "
			 "default %s %u",
			 !user ? "user" : "group", !user ? "user" : "group",
			 !user ? c->p->identity.uid : c->p->identity.gid);
}

void lint_id_hostname(struct lint_ctx *c, const struct lint_rule *r)
{
	const char *h = c->p->identity.hostname;
	char mine[256] = "";

	if (!lint_has_place(c->w->hostname) || !h)
		return;
	if (gethostname(mine, sizeof(mine) - 1) < 0)
		mine[0] = 0;
	/* the stdlib's neutral name, whatever this machine is called */
	if (strcmp(h, "sandbox") == 0)
		return;
	if (mine[0] && strcasecmp(h, mine) == 0)
		lint_add(c, r, c->w->hostname, h,
			 "the hostname `%s` is this machine's", h);
	else if (strchr(h, '.'))
		lint_add(c, r, c->w->hostname, h,
			 "the hostname `%s` looks like a real host's fully "
			 "qualified name",
			 h);
}
