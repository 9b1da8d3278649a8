/* SPDX-License-Identifier: MIT */
/*
 * verdict.c: see verdict.h.
 */
#include "verdict.h"

#include <signal.h>
#include <sys/wait.h>

static const char *const names[WARD_R_COUNT] = {
    [WARD_R_EXITED] = "exited",
    [WARD_R_SIGNALED] = "signaled",
    [WARD_R_TIMEOUT] = "timeout",
    [WARD_R_CPU_TIME] = "cpu_time",
    [WARD_R_OOM_KILLED] = "oom_killed",
    [WARD_R_PIDS_LIMIT] = "pids_limit",
    [WARD_R_OUTPUT_LIMIT] = "output_limit",
    [WARD_R_SECCOMP_VIOLATION] = "seccomp_violation",
    [WARD_R_INTERRUPTED] = "interrupted",
    [WARD_R_EXEC_FAILED] = "exec_failed",
    [WARD_R_LAUNCHER_ERROR] = "launcher_error",
    [WARD_R_QUEUE_TIMEOUT] = "queue_timeout",
    [WARD_R_DISK_FULL] = "disk_full",
    [WARD_R_FILESIZE_LIMIT] = "filesize_limit",
    [WARD_R_OUTPUT_TRUNCATED] = "output_truncated",
    [WARD_R_NEAR_MEMORY] = "near_memory_limit",
    [WARD_R_NEAR_PIDS] = "near_pids_limit",
    [WARD_R_NEAR_WALL] = "near_wall_limit",
};

const char *ward_reason_name(enum ward_reason r)
{
	return (unsigned)r < WARD_R_COUNT ? names[r] : "?";
}

static uint64_t cpu_usec(const struct ward_outcome *o,
			 const struct ward_cg_stats *st)
{
	if (st && st->have_cpu)
		return st->cpu_user_usec + st->cpu_sys_usec;
	if (!o->have_rusage)
		return 0;
	return (uint64_t)o->rusage.ru_utime.tv_sec * 1000000 +
	       (uint64_t)o->rusage.ru_utime.tv_usec +
	       (uint64_t)o->rusage.ru_stime.tv_sec * 1000000 +
	       (uint64_t)o->rusage.ru_stime.tv_usec;
}

/* The signal the target died of, or 0. init killed by SIGKILL without a
 * word (the OOM killer may choose init too) counts as the target's. */
static int death_signal(const struct ward_outcome *o)
{
	if (o->end == WARD_END_STATUS && WIFSIGNALED(o->status))
		return WTERMSIG(o->status);
	if (o->end == WARD_END_UNKNOWN && o->init_code == CLD_KILLED)
		return o->init_status;
	return 0;
}

/* x at or past 90% of the limit (without overflow). */
static bool near(uint64_t x, uint64_t limit)
{
	return limit > 0 && x >= limit - limit / 10;
}

/* The near-limit flags, for limits that did not end the run (f: the flags
 * so far). */
static uint32_t near_flags(const struct ward_outcome *o,
			   const struct ward_cg_stats *st,
			   const struct ward_limits *l, uint32_t f)
{
	uint32_t n = 0;

	if (st && st->have_mem_peak && ward_limit_is_set(l, WARD_LIM_MEMORY) &&
	    !(f & WARD_R_BIT(WARD_R_OOM_KILLED)) &&
	    near(st->mem_peak, l->value[WARD_LIM_MEMORY]))
		n |= WARD_R_BIT(WARD_R_NEAR_MEMORY);
	if (st && st->have_pids_peak && ward_limit_is_set(l, WARD_LIM_PIDS) &&
	    !(f & WARD_R_BIT(WARD_R_PIDS_LIMIT)) &&
	    near(st->pids_peak, l->value[WARD_LIM_PIDS]))
		n |= WARD_R_BIT(WARD_R_NEAR_PIDS);
	if (ward_limit_is_set(l, WARD_LIM_WALL) &&
	    !(f & WARD_R_BIT(WARD_R_TIMEOUT)) &&
	    near(o->wall_ms, l->value[WARD_LIM_WALL]))
		n |= WARD_R_BIT(WARD_R_NEAR_WALL);
	return n;
}

void ward_verdict(const struct ward_outcome *o, const struct ward_cg_stats *st,
		  const struct ward_limits *l, struct ward_verdict *v)
{
	int sig = death_signal(o);
	uint32_t f = 0;

	*v = (struct ward_verdict){0};
	/* OOM: the counter, or the cross-check: a SIGKILL while the peak
	 * reached the limit (within a page of it). (The limit's hit counter,
	 * memory.failcnt, is reported but not required: v1 on recent
	 * kernels leaves it at 0.) */
	if (st && st->have_oom && st->oom_kills > 0)
		v->oom_counter = true;
	if (st && sig == SIGKILL && ward_limit_is_set(l, WARD_LIM_MEMORY) &&
	    st->have_mem_peak &&
	    st->mem_peak + 4096 >= l->value[WARD_LIM_MEMORY])
		v->oom_sigkill_peak = true;
	if (v->oom_counter || v->oom_sigkill_peak)
		f |= WARD_R_BIT(WARD_R_OOM_KILLED);
	if (st && st->have_pids_events && st->pids_max_hits > 0)
		f |= WARD_R_BIT(WARD_R_PIDS_LIMIT);
	/* RLIMIT_CPU, soft = hard: the kernel sends SIGKILL at the hard limit
	 * (SIGXCPU only below it). It counts CPU time by ticks, the counters
	 * read here by the scheduler's clock; on a busy host (steal time)
	 * they differ by a tenth or more, hence 3/4 of the limit. */
	if (sig == SIGXCPU ||
	    (sig == SIGKILL && ward_limit_is_set(l, WARD_LIM_CPUTIME) &&
	     cpu_usec(o, st) / 1000 * 4 >= l->value[WARD_LIM_CPUTIME] * 3))
		f |= WARD_R_BIT(WARD_R_CPU_TIME);
	switch (o->stop) {
	case WARD_STOP_TIMEOUT:
		f |= WARD_R_BIT(WARD_R_TIMEOUT);
		break;
	case WARD_STOP_OUTPUT:
		f |= WARD_R_BIT(WARD_R_OUTPUT_LIMIT);
		break;
	case WARD_STOP_SECCOMP:
		f |= WARD_R_BIT(WARD_R_SECCOMP_VIOLATION);
		break;
	case WARD_STOP_SIGNAL:
		f |= WARD_R_BIT(WARD_R_INTERRUPTED);
		break;
	case WARD_STOP_OOM:
		f |= WARD_R_BIT(WARD_R_OOM_KILLED);
		break;
	case WARD_STOP_COURIER: /* ward's own failure */
	case WARD_STOP_BROKER:
	case WARD_STOP_HOLDER:
	case WARD_STOP_NONE:
		break;
	}
	/* init's own timer ended the run (the supervisor was stopped or
	 * stuck past wall + grace): a timeout, by the second layer. */
	if (o->backstop)
		f |= WARD_R_BIT(WARD_R_TIMEOUT);
	/* The primary reason: what the supervisor did, then what the kernel
	 * did, then how the target ended. */
	if (o->stop == WARD_STOP_SECCOMP)
		v->reason = WARD_R_SECCOMP_VIOLATION;
	else if (o->stop == WARD_STOP_OUTPUT)
		v->reason = WARD_R_OUTPUT_LIMIT;
	else if (o->stop == WARD_STOP_TIMEOUT || o->backstop)
		v->reason = WARD_R_TIMEOUT;
	else if (o->stop == WARD_STOP_SIGNAL)
		v->reason = WARD_R_INTERRUPTED;
	else if (o->stop == WARD_STOP_COURIER || o->stop == WARD_STOP_BROKER ||
		 o->stop == WARD_STOP_HOLDER)
		v->reason = WARD_R_LAUNCHER_ERROR;
	else if (o->stop == WARD_STOP_OOM)
		v->reason = WARD_R_OOM_KILLED;
	else if (sig == SIGKILL && (f & WARD_R_BIT(WARD_R_OOM_KILLED)))
		v->reason = WARD_R_OOM_KILLED;
	else if (f & WARD_R_BIT(WARD_R_CPU_TIME))
		v->reason = WARD_R_CPU_TIME;
	else if (o->end == WARD_END_STATUS)
		v->reason =
		    WIFSIGNALED(o->status) ? WARD_R_SIGNALED : WARD_R_EXITED;
	else if (o->end == WARD_END_EXEC)
		v->reason = WARD_R_EXEC_FAILED;
	else
		v->reason = WARD_R_LAUNCHER_ERROR;
	v->flags = f | WARD_R_BIT(v->reason) | near_flags(o, st, l, f);
}
