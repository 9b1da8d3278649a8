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

/* ------------------------------------------------------ limits that never
 * trigger: another limit or the mounts always come first, so the reason
 * the limit's author wanted to read in the report (`cpu_time`, a SIGXFSZ)
 * can never be the one it gives. */

static void dead_cputime(struct lint_ctx *c, const struct lint_rule *r)
{
	const struct ward_limits *l = &c->p->limits;
	uint64_t cpu, wall, cputime, most;
	struct lint_finding *f;

	if (!set(c, WARD_LIM_CPUTIME) || !set(c, WARD_LIM_CPU) ||
	    !set(c, WARD_LIM_WALL))
		return;
	cpu = l->value[WARD_LIM_CPU];	/* thousandths of a CPU */
	wall = l->value[WARD_LIM_WALL]; /* ms */
	/* RLIMIT_CPU counts whole seconds (spec 3.6): the limit bites at the
	 * next second up. One process's CPU time is at most the cgroup's,
	 * cpu x wall, when the wall ends the run (what it uses during the
	 * grace comes after the run's reason is already `timeout`). */
	cputime = (l->value[WARD_LIM_CPUTIME] + 999) / 1000 * 1000;
	most = cpu * wall / 1000;
	if (cputime < most)
		return;
	f = lint_add(
	    c, r, c->w->limits[WARD_LIM_CPUTIME], "cputime",
	    "`cputime` (%s) can never be reached: with `cpu` %s a run gets "
	    "at most %s of CPU time before `wall` (%s) ends it",
	    ward_duration_str(c->pool, l->value[WARD_LIM_CPUTIME]),
	    ward_cpu_str(c->pool, cpu), ward_duration_str(c->pool, most),
	    ward_duration_str(c->pool, wall));
	f->help = ward_pool_printf(c->pool,
				   "lower `cputime` below %s (the rlimit "
				   "counts whole seconds), or remove it",
				   ward_duration_str(c->pool, most));
}

/* The largest file the sandbox can write, or UINT64_MAX when nothing
 * bounds it: a writable bind is the host's disk; a memfd, when
 * memfd_create may be called, is bounded by memory alone. */
static uint64_t largest_file(struct lint_ctx *c)
{
	const struct ward_limits *l = &c->p->limits;
	uint64_t most = 0;

	for (uint32_t i = 1; i < c->p->nmounts; i++) {
		const struct ward_mount *m = &c->p->mounts[i];
		bool rw = m->flags & WARD_MNT_F_RW;

		if (m->kind == WARD_MNT_BIND && rw)
			return UINT64_MAX;
		if ((m->kind == WARD_MNT_TMPFS || m->kind == WARD_MNT_SLOT) &&
		    rw && m->size > most)
			most = m->size;
		if (m->kind == WARD_MNT_DEV && WARD_SHM_SIZE > most)
			most = WARD_SHM_SIZE;
	}
	if (lint_sys_may_call(c, "memfd_create"))
		most = UINT64_MAX;
	/* tmpfs pages and memfds are memory: with memory and swap bounded,
	 * no file holds more */
	if (set(c, WARD_LIM_MEMORY) && set(c, WARD_LIM_SWAP)) {
		uint64_t mem =
		    l->value[WARD_LIM_MEMORY] + l->value[WARD_LIM_SWAP];
		if (mem < most)
			most = mem;
	}
	return most;
}

static void dead_filesize(struct lint_ctx *c, const struct lint_rule *r)
{
	const struct ward_limits *l = &c->p->limits;
	uint64_t most;

	/* a fragment's mounts and rules are not the whole sandbox */
	if (!c->is_policy || !set(c, WARD_LIM_FILESIZE))
		return;
	most = largest_file(c);
	/* SIGXFSZ comes at the first byte past the limit: a file that big
	 * must fit somewhere */
	if (l->value[WARD_LIM_FILESIZE] < most)
		return;
	struct lint_finding *f =
	    most
		? lint_add(c, r, c->w->limits[WARD_LIM_FILESIZE], "filesize",
			   "`filesize` (%s) can never be reached: no "
			   "writable mount, memfd or memory holds a file of "
			   "more than %s",
			   ward_size_str(c->pool, l->value[WARD_LIM_FILESIZE]),
			   ward_size_str(c->pool, most))
		: lint_add(c, r, c->w->limits[WARD_LIM_FILESIZE], "filesize",
			   "`filesize` (%s) can never be reached: the sandbox "
			   "has no writable mount and cannot create a memfd",
			   ward_size_str(c->pool, l->value[WARD_LIM_FILESIZE]));
	f->help = most ? ward_pool_printf(c->pool,
					  "lower `filesize` below %s, "
					  "or remove it",
					  ward_size_str(c->pool, most))
		       : "remove `filesize`: no file can grow";
}

void lint_lim_dead(struct lint_ctx *c, const struct lint_rule *r)
{
	dead_cputime(c, r);
	dead_filesize(c, r);
	/* a stream's cap above `output` is the compiler's warning already */
}
