/* SPDX-License-Identifier: MIT */
/*
 * lint_limits.c: the rules about resource limits (W4xx). A limit that is
 * not written is not applied (spec 1.7.5): these rules say which missing
 * ones matter.
 */
#include "describe.h"
#include "lint_internal.h"
#include "units.h"

static bool set(const struct lint_ctx *c, enum ward_limit k)
{
	return ward_limit_is_set(&c->p->limits, k);
}

static void missing(struct lint_ctx *c, const struct lint_rule *r,
		    enum ward_limit k, const char *what)
{
	if (!set(c, k))
		lint_add(c, r, lint_missing_loc(c, WARD_S_LIMITS),
			 describe_limit_name(k), "no `%s` limit: %s",
			 describe_limit_name(k), what);
}

void lint_lim_memory(struct lint_ctx *c, const struct lint_rule *r)
{
	missing(c, r, WARD_LIM_MEMORY,
		"the sandbox can take all of the host's memory");
}

void lint_lim_pids(struct lint_ctx *c, const struct lint_rule *r)
{
	missing(c, r, WARD_LIM_PIDS,
		"a fork bomb can fill the host's process table");
}

void lint_lim_wall(struct lint_ctx *c, const struct lint_rule *r)
{
	missing(c, r, WARD_LIM_WALL, "a run that waits never ends");
}

void lint_lim_output(struct lint_ctx *c, const struct lint_rule *r)
{
	const char *which;
	bool out, err;

	if (set(c, WARD_LIM_OUTPUT))
		return;
	out = set(c, WARD_LIM_STDOUT);
	err = set(c, WARD_LIM_STDERR);
	if (out && err)
		return;
	which = !out && !err ? "stdout and stderr are"
		: !out	     ? "stdout is"
			     : "stderr is";
	lint_add(c, r, lint_missing_loc(c, WARD_S_LIMITS), "output",
		 "%s not bounded: no `%s` limit and no `output` limit", which,
		 !out && !err ? "stdout`/`stderr"
		 : !out	      ? "stdout"
			      : "stderr");
}

void lint_lim_swap(struct lint_ctx *c, const struct lint_rule *r)
{
	const struct ward_limits *l = &c->p->limits;
	if (set(c, WARD_LIM_SWAP)) {
		if (l->value[WARD_LIM_SWAP] > 0)
			lint_add(
			    c, r, c->w->limits[WARD_LIM_SWAP], "swap",
			    "%s of swap is allowed on top of the memory "
			    "limit",
			    ward_size_str(c->pool, l->value[WARD_LIM_SWAP]));
		return;
	}
	if (c->is_policy && set(c, WARD_LIM_MEMORY))
		lint_add(c, r, c->w->limits[WARD_LIM_MEMORY], "swap",
			 "a `memory` limit without a `swap` limit: the host's "
			 "default lets the sandbox swap");
}

void lint_lim_cpu(struct lint_ctx *c, const struct lint_rule *r)
{
	if (!set(c, WARD_LIM_CPU) && !set(c, WARD_LIM_CPUTIME))
		lint_add(c, r, lint_missing_loc(c, WARD_S_LIMITS), "cpu",
			 "no `cpu` or `cputime` limit: one run can keep every "
			 "CPU of the host busy until `wall`");
}

void lint_lim_core(struct lint_ctx *c, const struct lint_rule *r)
{
	const struct ward_limits *l = &c->p->limits;
	if (set(c, WARD_LIM_CORE) && l->value[WARD_LIM_CORE] > 0)
		lint_add(c, r, c->w->limits[WARD_LIM_CORE], "core",
			 "core dumps of up to %s are written where the "
			 "program crashes",
			 ward_size_str(c->pool, l->value[WARD_LIM_CORE]));
}

void lint_lim_oom_process(struct lint_ctx *c, const struct lint_rule *r)
{
	if (!ward_oom_process(&c->p->limits))
		return;
	lint_add(c, r, c->w->limits[WARD_LIM_OOM], "oom",
		 "`oom process`: an OOM kill ends only its victim, and the run "
		 "may go on as if nothing happened");
}
