/* SPDX-License-Identifier: MIT */
/*
 * verdict.h: why a run ended, from everything the supervisor saw.
 *
 * One primary reason, and flags for every condition observed (the
 * primary's own included). Each kill has more than one witness where the
 * kernel offers them: an OOM kill is the memory controller's oom_kill
 * counter, or (the counter can stay silent) a SIGKILL of the target while
 * the cgroup's peak reached its limit; a CPU-time
 * kill is SIGXCPU, or SIGKILL once the CPU time reached (3/4 of) the
 * rlimit.
 */
#ifndef WARD_VERDICT_H
#define WARD_VERDICT_H

#include "facts.h"
#include "policy.h"

#include <stdbool.h>
#include <stdint.h>

enum ward_reason {
	WARD_R_EXITED,		  /* the target exited */
	WARD_R_SIGNALED,	  /* the target died of a signal */
	WARD_R_TIMEOUT,		  /* wall */
	WARD_R_CPU_TIME,	  /* cputime (RLIMIT_CPU) */
	WARD_R_OOM_KILLED,	  /* memory */
	WARD_R_PIDS_LIMIT,	  /* a flag only: forks were refused */
	WARD_R_OUTPUT_LIMIT,	  /* a stream passed its ceiling */
	WARD_R_SECCOMP_VIOLATION, /* a kill rule matched */
	WARD_R_INTERRUPTED,	  /* ward got SIGTERM, SIGINT or SIGHUP */
	WARD_R_EXEC_FAILED,	  /* the program could not be run */
	WARD_R_LAUNCHER_ERROR,	  /* ward refused or failed */
	WARD_R_QUEUE_TIMEOUT,	  /* no sandbox slot in time: never started */
	/* Flags only: what the writable mounts show (slotfs.h). */
	WARD_R_DISK_FULL,      /* a writable mount was full: ENOSPC inside */
	WARD_R_FILESIZE_LIMIT, /* a file ends at `filesize`: EFBIG inside */
	/* A flag only: a stream passed its cap and was cut (output.h). */
	WARD_R_OUTPUT_TRUNCATED,
	/* Flags only: a limit came near (seed 004: warn before the OOM). At
	 * or past 90% of it and not over it: the workload is sized too close
	 * to its policy, and the next input may cross it. */
	WARD_R_NEAR_MEMORY, /* peak memory >= 90% of `memory`, no OOM */
	WARD_R_NEAR_PIDS,   /* peak tasks >= 90% of `pids`, none refused */
	WARD_R_NEAR_WALL,   /* wall time >= 90% of `wall`, no timeout */
	WARD_R_COUNT
};
#define WARD_R_BIT(r) (1u << (r))

struct ward_verdict {
	enum ward_reason reason;
	uint32_t flags; /* WARD_R_BITs */
	/* The OOM evidence. */
	bool oom_counter;      /* the controller's oom_kill counter moved */
	bool oom_sigkill_peak; /* SIGKILL with the peak at the limit */
};

/* "exited", "oom_killed", ... */
const char *ward_reason_name(enum ward_reason r);

/* st may be NULL (no cgroup); the CPU time then comes from init's rusage
 * in o. The flags hold the primary reason too. */
void ward_verdict(const struct ward_outcome *o, const struct ward_cg_stats *st,
		  const struct ward_limits *l, struct ward_verdict *v);

#endif
