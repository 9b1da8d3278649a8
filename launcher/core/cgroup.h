/* SPDX-License-Identifier: MIT */
/*
 * cgroup.h: the run's control groups, on cgroup v1, v2 or both (hybrid).
 *
 * Where each controller lives is detected per controller, from
 * /proc/self/mountinfo (which hierarchies are mounted where, and which
 * controllers a v1 hierarchy has) and /proc/self/cgroup (the launcher's own
 * cgroup in each): a controller bound to a v1 hierarchy is used there,
 * otherwise on cgroup2 if its root lists it in cgroup.controllers.
 *
 * A run gets one directory per hierarchy it uses, all named after the run
 * id, below a ward-owned base in that hierarchy:
 *
 *   <mount>/<base>/<run-id>      base: --cgroup-base, or <own>/ward
 *
 * where <own> is the cgroup the launcher runs in (never the hierarchy's
 * root itself, and nothing outside the base is ever written, except the
 * cgroup2 self-move of a delegated scope, see ward_cg_create). The cgroup2
 * directory, when there is one, is where init is created
 * (clone3 CLONE_INTO_CGROUP), the network allow-list is attached, and from
 * which the sandbox is killed (cgroup.kill) and its CPU time read
 * (cpu.stat); v1 directories get init by a write to cgroup.procs while
 * init is still held on its sync pipe.
 *
 * The run id, run-<pid>-<start time>, names the supervisor: a directory
 * whose supervisor is gone (same pid, other start time, or no such pid) is
 * stale, and the next launcher removes it if it is empty.
 */
#ifndef WARD_CGROUP_H
#define WARD_CGROUP_H

#include "facts.h"
#include "policy.h"
#include "privilege.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* One mounted hierarchy. */
struct ward_cg_hier {
	int version;		/* 1 or 2 */
	uint32_t ctrls;		/* WARD_CG_BITs it holds (v2: the root's
				   cgroup.controllers) */
	char mnt[WARD_CG_PATH]; /* its mount point */
	char own[WARD_CG_PATH]; /* the launcher's cgroup, "/..." */
};

struct ward_cg_host {
	struct ward_cg_hier hier[WARD_CG_MAXHIER];
	int nhier;
	int v2;			  /* index of the cgroup2 hierarchy, or -1 */
	int where[WARD_CG_NCTRL]; /* index of the controller's hierarchy */
};

/* Read the mounts and the launcher's own cgroups (normally
 * "/proc/self/mountinfo" and "/proc/self/cgroup"). A host without any
 * cgroup mount is not an error: every where[] is -1. */
int ward_cg_detect(const char *mountinfo, const char *self_cgroup,
		   struct ward_cg_host *h, ward_err *err);

/* What a run needs. */
struct ward_cg_request {
	uint32_t need;	  /* controllers the policy's limits need */
	bool need_v2;	  /* a cgroup2 directory (the network's programs,
			     required) */
	bool broker_dir;  /* the broker's cgroup2 directory, where there is
			     cgroup2 (root mode, an allow-list) */
	const char *base; /* --cgroup-base (a cgroup path), or NULL */
	enum ward_mode mode;
	uid_t uid; /* the caller's */
};

/* Which controllers the policy's limits need (memory and swap: memory;
 * pids; cpu). */
uint32_t ward_cg_needed(const struct ward_policy *p);

/* The run id of this process: run-<pid>-<start time in clock ticks>. */
int ward_cg_run_id(char *buf, size_t len, ward_err *err);

/* Does the supervisor named by a run directory's name still run? (False
 * for a name that is not a run id: such a directory is never touched.)
 * procfs: normally "/proc". */
bool ward_cg_owner_alive(const char *procfs, const char *name, bool *is_run);

/* Decide the directories (no file system change). Refuses what cannot be
 * had, before anything exists: a controller the host lacks, or, rootless,
 * a hierarchy where the caller has no delegated or prepared base (the
 * message says how to get one). cg->active is false when nothing is
 * needed. */
int ward_cg_plan(const struct ward_cg_host *h, const struct ward_cg_request *rq,
		 struct ward_cgroup *cg, ward_err *err);

/* Remove stale empty run directories of dead supervisors from the bases,
 * create the bases (cgroup2: controllers enabled for their children) and
 * the run's directories, open them. On failure what was created is
 * removed again. */
int ward_cg_create(struct ward_cgroup *cg, ward_err *err);

/* Write the limits into the run's directories and record each in
 * cg->applied. proc_swaps: normally "/proc/swaps" (a host without swap
 * enforces `swap 0` by itself when v1 has no swap accounting). */
int ward_cg_set_limits(struct ward_cgroup *cg, const struct ward_limits *l,
		       const char *proc_swaps, ward_err *err);

/* The limit writers, one directory each (also for the unit tests, against
 * a fake cgroupfs directory). host_swap: whether the host has swap (only
 * matters on v1 without memsw). On success *applied gets the files
 * written. */
int ward_cg_write_limits(int dirfd, int version, uint32_t ctrls,
			 const struct ward_limits *l, bool host_swap,
			 struct ward_cgroup *applied, ward_err *err);

/* Put pid (init, still held) into every v1 directory. */
int ward_cg_attach_v1(struct ward_cgroup *cg, pid_t pid, ward_err *err);

/* Kill every process in the run's cgroups: cgroup.kill on cgroup2; on v1
 * freeze, SIGKILL every pid in cgroup.procs, thaw (or, without a freezer,
 * SIGKILL until empty). The caller also kills init, which takes the pid
 * namespace with it. Best effort, never fails. */
void ward_cg_kill(struct ward_cgroup *cg);

/* Kill the pids listed in dirfd's cgroup.procs; returns how many. */
int ward_cg_kill_listed(int dirfd);

/* v1 freezer: "FROZEN" or "THAWED" into freezer.state (and, for FROZEN,
 * wait until the kernel says so, at most ~100 ms). */
int ward_cg_freeze(int dirfd, bool frozen);

void ward_cg_read_stats(const struct ward_cgroup *cg, struct ward_cg_stats *st);

/* The same from single directories (unit tests): memory, pids, cpu
 * directory descriptors of a version each, -1 when absent. */
void ward_cg_read_stats_at(int mem_fd, int mem_v, int pids_fd, int cpu_fd,
			   int cpu_v, struct ward_cg_stats *st);

/* The cpu controller's throttling counters (cpu.stat: v2 nr_throttled,
 * throttled_usec; v1 nr_throttled, throttled_time in ns) into st. */
void ward_cg_read_throttle(int cpu_fd, int version, struct ward_cg_stats *st);

/* pids.current now (for a sampled peak), or -1. */
long ward_cg_pids_current(const struct ward_cgroup *cg);

/* A descriptor that becomes ready when the OOM killer kills in the run's
 * memory cgroup (cgroup2: memory.events, poll for POLLPRI; v1: an eventfd
 * registered for memory.oom_control, POLLIN), or -1 when there is no
 * memory controller (err filled on a failure). */
int ward_cg_oom_watch(const struct ward_cgroup *cg, ward_err *err);

/* The poll() events to wait for on that descriptor: POLLPRI (cgroup2),
 * POLLIN (v1). */
short ward_cg_oom_events(const struct ward_cgroup *cg);

/* After watch_fd was ready: did the OOM killer kill in the run? (Reads
 * watch_fd, which arms it again.) */
bool ward_cg_oom_killed(const struct ward_cgroup *cg, int watch_fd);

/* Remove the run's directories; each is checked empty first (its
 * cgroup.procs read), killed again and retried for a while if not.
 * Closes the descriptors. */
void ward_cg_remove(struct ward_cgroup *cg, struct ward_cg_cleanup *res);

/* Close the descriptors (after remove or on an early exit). */
void ward_cg_close(struct ward_cgroup *cg);

#endif
