/* SPDX-License-Identifier: MIT */
/*
 * facts.h: the data of one run, as the privileged part of the launcher
 * knows it and hands it to the unprivileged part -- the one seam between
 * the two (README, "Layout"; docs/spec.md 3.1).
 *
 * The supervisor (launcher/supervisor, root in root mode) and the courier
 * (launcher/unprivileged, never privileged) are the same program: the
 * courier is a fork of the supervisor, made before the sandbox exists.
 * Everything the courier needs that exists before the fork it has in its
 * own copy of memory; what the supervisor learns later (how init ended,
 * the cgroup's counters, the network denials, the workspace's removal) it
 * sends as struct ward_facts, byte for byte (but for the room its last
 * parts leave unused), on a pipe. No pointer in these
 * structs is followed by the courier except those into the program's
 * constant strings, which a fork does not move.
 *
 * Data only flows this way. The courier sends the supervisor fixed-size
 * struct ward_courier_msg and nothing else; the supervisor acts on the
 * kind and never parses what the sandbox wrote. What only the report
 * needs and the privileged side does not produce stays out of this file:
 * the broker's records (launcher/unprivileged/broker_facts.h) are carried
 * through the supervisor as bytes.
 */
#ifndef WARD_FACTS_H
#define WARD_FACTS_H

#include "policy.h"
#include "util.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns: one clock for every process of a run (ward makes
 * no time namespace), so the marks of the supervisor, the target and the
 * courier compare. */
static inline uint64_t ward_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------ cgroups */

enum ward_cg_ctrl {
	WARD_CG_MEMORY,
	WARD_CG_PIDS,
	WARD_CG_CPU,
	WARD_CG_CPUACCT, /* v1 only: CPU time when there is no cgroup2 */
	WARD_CG_FREEZER, /* v1 only: kill without cgroup.kill */
	WARD_CG_NCTRL
};
#define WARD_CG_BIT(c) (1u << (c))

/* "memory", "pids", ... (cgroup.c) */
const char *ward_cg_ctrl_name(enum ward_cg_ctrl c);

#define WARD_CG_MAXHIER 16
#define WARD_CG_PATH	1024

/* One directory of the run. */
struct ward_cg_dir {
	int version;
	uint32_t ctrls;			  /* controllers used through it */
	char mnt[WARD_CG_PATH];		  /* the hierarchy's mount point */
	char base[WARD_CG_PATH];	  /* ward's base, a cgroup path */
	char path[2 * WARD_CG_PATH + 64]; /* the run's directory */
	int fd;				  /* the run's directory, or -1 */
	bool created;
	bool selfmove; /* v2, rootless default: move ward into a leaf first */
};

/* A limit written to a cgroup file, for the report. */
struct ward_cg_applied {
	enum ward_limit limit;
	uint64_t value;
	char where[96]; /* "cgroup v1 memory.limit_in_bytes" */
};

#define WARD_CG_MAXAPPLIED 8

struct ward_cgroup {
	bool active; /* the run has cgroups at all */
	char run_id[48];
	struct ward_cg_dir dir[WARD_CG_MAXHIER];
	int ndirs;
	int v2;			    /* index in dir[] of cgroup2, or -1 */
	int broker;		    /* index + 1 in dir[] of the broker's
				       cgroup2 directory; 0: none */
	int by_ctrl[WARD_CG_NCTRL]; /* index in dir[] per controller, -1 */
	bool swap_by_host; /* swap 0 holds because the host has no swap */
	struct ward_cg_applied applied[WARD_CG_MAXAPPLIED];
	int napplied;
	pid_t courier; /* ward's courier, 0: none yet. It is in ward's own
			  cgroup too, and moves with ward (the rootless
			  self-move into a leaf of a delegated cgroup) */
	pid_t holder;  /* the admission holder, 0: none; the same */
};

/* Peaks and counters, each with the file it came from. */
struct ward_cg_stats {
	bool have_mem_peak;
	uint64_t mem_peak;
	const char *mem_peak_src;
	bool have_cpu;
	uint64_t cpu_user_usec, cpu_sys_usec;
	const char *cpu_src;
	bool have_pids_peak;
	uint64_t pids_peak;
	const char *pids_peak_src;
	bool have_oom;
	uint64_t oom_kills;    /* processes the OOM killer killed */
	uint64_t mem_max_hits; /* times the limit was hit (v2 memory.events
				  max, v1 memory.failcnt) */
	const char *oom_src;
	bool have_pids_events;
	uint64_t pids_max_hits; /* forks refused (pids.events max) */
	bool have_throttle;	/* the cpu quota's own counters */
	uint64_t nr_throttled;	/* periods in which the quota ran out */
	uint64_t throttled_usec;
};

/* What the removal of the run's cgroups found. */
struct ward_cg_cleanup {
	bool removed;	     /* every directory removed */
	unsigned procs_left; /* processes found at the last check */
};

/* ------------------------------------------------------------ the run */

/* The target's credentials, read by the target itself just before its
 * execve (after the seccomp program is installed), not copied from the
 * policy. */
#define WARD_MEASURED_GROUPS 32
struct ward_measured {
	uint32_t uid[3], gid[3]; /* real, effective, saved (inside) */
	int32_t ngroups;	 /* supplementary groups; -1: not read */
	uint32_t groups[WARD_MEASURED_GROUPS];
	uint64_t cap_eff, cap_prm, cap_inh, cap_bnd, cap_amb;
	int32_t no_new_privs; /* prctl PR_GET_NO_NEW_PRIVS */
	int32_t securebits;   /* prctl PR_GET_SECUREBITS */
	int32_t seccomp;      /* 2: the kernel took the filter */
	int32_t dumpable;     /* prctl PR_GET_DUMPABLE */
	int32_t landlock;     /* the Landlock ABI init applied; 0: the
				 policy says off; -errno: prefer met a kernel
				 without Landlock */
	uint64_t exec_ns;     /* CLOCK_MONOTONIC, just before the seccomp
				 install and execve: the end of setup */
};

enum ward_end {
	WARD_END_UNKNOWN = 0, /* init ended without a word */
	WARD_END_STATUS,      /* the target ran and ended: status */
	WARD_END_SETUP,	      /* setup failed: err */
	WARD_END_EXEC	      /* the program could not be run: err */
};

/* Why the supervisor ended the run itself (the first reason wins). */
enum ward_stop {
	WARD_STOP_NONE = 0,
	WARD_STOP_TIMEOUT, /* wall */
	WARD_STOP_OUTPUT,  /* a stream passed its ceiling */
	WARD_STOP_SECCOMP, /* a kill rule matched */
	WARD_STOP_SIGNAL,  /* ward got SIGTERM, SIGINT or SIGHUP */
	WARD_STOP_COURIER, /* the courier died: nothing could leave */
	WARD_STOP_OOM,	   /* the OOM killer killed in the run: all of it */
	WARD_STOP_BROKER,  /* the broker died: no notification could be
			      answered */
	WARD_STOP_HOLDER   /* the admission holder died: the slot is free,
			      the run may not go on past the ceiling */
};

/* The syscall a kill rule stopped. */
struct ward_violation {
	bool seen;
	bool nr_known; /* false: the notification went away unread */
	int32_t nr;
	uint32_t arch;
	const char *name; /* NULL when neither table knows it (named by
			     the courier, ward_violation_name) */
};

struct ward_outcome {
	enum ward_end end;
	int status;    /* WARD_END_STATUS: the target's wait status */
	ward_err err;  /* WARD_END_SETUP, WARD_END_EXEC */
	int init_code; /* init's si_code (CLD_EXITED, CLD_KILLED...) */
	int init_status;
	enum ward_stop stop;
	int stop_signal; /* WARD_STOP_SIGNAL: ward's signal */
	bool term_sent;	 /* the grace SIGTERM went to the target */
	bool backstop;	 /* init's backstop timer ended the run
			    (WARD_MSG_BACKSTOP): the supervisor did not */
	struct ward_violation seccomp;
	bool have_rusage;
	struct rusage rusage; /* init and everything it reaped */
	uint64_t wall_ms;     /* from the release of init to its end */
	long pids_sampled;    /* the most pids.current seen, or -1 */
	bool measured;	      /* the target's credentials arrived */
	struct ward_measured id;
};

/* A network denial, already spelled (net.h: ward_net_denial_str). */
struct ward_report_denial {
	char what[96];
	uint64_t count;
};

#define WARD_FACTS_DENIALS 64

/* ------------------------------------------------------------ the broker */

/*
 * The broker (launcher/unprivileged/broker.c, docs/spec.md 4.6 and part 5):
 * an unprivileged fork of the supervisor that answers every seccomp
 * notification of the sandbox. What it recorded (the calls it refused,
 * the network attempts, the DNS queries: launcher/unprivileged/
 * broker_facts.h) only the report needs: the supervisor carries it from
 * the broker to the courier as bytes it never reads, so only the room for
 * it is known here (broker_facts.h checks that the records fit).
 */
#define WARD_BROKER_RECORDS_MAX (120 * 1024)
struct ward_broker_carried {
	bool records; /* the broker's records came: len bytes of them */
	uint32_t len;
	_Alignas(8) unsigned char bytes[WARD_BROKER_RECORDS_MAX];
};

/* From the broker to the supervisor, one SOCK_SEQPACKET message each: the
 * supervisor acts on the kind alone (and names the killed call from nr and
 * arch, which the kernel gave the broker). WARD_B_RECORDS carries the
 * records after the header, which the supervisor passes on to the courier
 * without reading them. */
enum ward_broker_kind {
	WARD_B_READY = 1,   /* set up, privileges dropped: go */
	WARD_B_REFUSE = 2,  /* text: why the run cannot start */
	WARD_B_KILL = 3,    /* a kill rule matched: kill the sandbox */
	WARD_B_RECORDS = 4, /* after WARD_S_END: the records */
};

struct ward_broker_msg {
	uint32_t kind;
	int32_t nr;	   /* WARD_B_KILL: the syscall */
	uint32_t arch;	   /* its AUDIT_ARCH_* */
	uint32_t nr_known; /* 0: the notification went away unread */
	char text[WARD_ERR_MSG_MAX];
};

/* From the supervisor to the broker, one byte each: GO once it is in its
 * cgroup, LISTENER with the sandbox's listener (SCM_RIGHTS), END once
 * nothing of the sandbox is left (the broker then sends its records and
 * exits). */
#define WARD_S_GO	'g'
#define WARD_S_LISTENER 'L' /* as ward_send_fd sends it */
#define WARD_S_END	'e'
#define WARD_S_DNS	'D' /* the DNS stub's socket, after the listener */

/* ------------------------------------------------------------ workspace */

struct ward_rm_stats {
	uint64_t removed;   /* entries unlinked, directories included */
	uint64_t flattened; /* directories moved up to bound the depth */
	uint64_t chmodded;  /* directories made writable to be emptied */
};

/* The run's workspace (docs/spec.md 6.3): made by the supervisor, emptied
 * by the courier, its empty directories removed by the supervisor. */
struct ward_workspace {
	char id[32];	     /* "ws-" and 16 hex digits: the directory name */
	char base[PATH_MAX]; /* absolute */
	char base_fs[24];    /* what backs the base: "tmpfs", "ext4"... */
	char path[PATH_MAX]; /* base/id */
	int base_fd, fd;     /* -1 when not open */
	uid_t uid;	     /* the sandbox's host ids: owner of everything */
	gid_t gid;	     /* in it */
	bool keep;	     /* --keep-workspace: not removed */
	struct timespec created, destroyed; /* CLOCK_REALTIME; 0: not yet */
	bool removed;			    /* all of it is gone */
	unsigned reclaimed; /* stale workspaces of dead wards removed */
	struct ward_rm_stats rm;
	char error[WARD_ERR_MSG_MAX]; /* why the removal failed, or "" */
};

/* ------------------------------------------------------------ admission */

/* The run's place in the host's queue of sandboxes (admit.h; docs/
 * spec.md 3.10). */
struct ward_queue {
	bool used;	      /* a ceiling applied (not --max-sandboxes 0) */
	unsigned ceiling;     /* sandboxes at once, in this queue */
	uint64_t timeout_ms;  /* the longest the run would wait */
	bool host_wide;	      /* the host's directory, not the caller's own */
	char dir[256];	      /* the queue's directory */
	int slot;	      /* the slot held, or -1 */
	uint64_t ticket_ns;   /* CLOCK_MONOTONIC when it joined: its place */
	uint64_t admitted_ns; /* when it got its slot, 0: never */
	uint64_t waited_ms;
	bool timed_out;	 /* refused: no slot within timeout_ms */
	int interrupted; /* the signal that ended the wait, or 0 */
};

/* ------------------------------------------------------------ timings */

/* When each step of the supervisor ended (CLOCK_MONOTONIC ns; 0: not
 * reached), for the report's per-step timings (docs/spec.md 4.8). The
 * target's own mark is in ward_measured.exec_ns. */
struct ward_timings {
	uint64_t start;	   /* main() */
	uint64_t prepared; /* refusals done: blob, checks, workspace, slots */
	uint64_t admitted; /* a sandbox slot held */
	uint64_t courier;  /* the courier forked (READY is heard in spawn) */
	uint64_t created;  /* cgroups, limits, net programs */
	uint64_t released; /* init made, mapped, in its cgroups; courier and
			    * broker READY; released */
	uint64_t ended;	   /* init ended (the supervision loop's end) */
	uint64_t finished; /* killed, counted, cgroups removed */
};

/* ------------------------------------------------------------ messages */

/* What the supervisor tells the courier once nothing of the sandbox is
 * left and the workspace is removed. */
struct ward_facts {
	int exit_code;	 /* ward's own exit status */
	bool spawned;	 /* init was created */
	bool supervised; /* the loop ran: outcome is meaningful */
	bool have_error; /* ward refused or failed: error says why */
	char error[WARD_ERR_MSG_MAX + 128];
	char run_id[48];		    /* "" before one was made */
	struct timespec created, destroyed; /* CLOCK_REALTIME; 0: unknown */
	struct ward_outcome outcome;
	struct ward_cg_stats stats;
	struct ward_cg_cleanup cleanup;
	bool net_checked; /* the cgroup programs ran: denials were read */
	uint32_t ndenials;
	struct ward_report_denial denials[WARD_FACTS_DENIALS];
	/* The supervisor's half of the workspace's removal. */
	bool ws_removed;
	uint64_t ws_rm_removed; /* the empty directories it removed */
	struct timespec ws_destroyed;
	char ws_error[WARD_ERR_MSG_MAX];
	struct ward_queue queue;
	struct ward_timings t;
	bool have_cg; /* the run had cgroups: cg follows on the pipe */
	/* Last, and on the pipe only as far as they hold something: cg when
	 * have_cg, the broker's records as far as their len. Most runs need
	 * a few hundred bytes of their 190 KiB, and each page written first
	 * costs a fault, in the supervisor and again in the courier (tens
	 * of µs each in a VM). */
	struct ward_cgroup cg;
	struct ward_broker_carried broker; /* what the broker recorded */
};

/* Where the parts of the facts start, in the order they are sent. */
#define WARD_FACTS_HEAD	   offsetof(struct ward_facts, cg)
#define WARD_FACTS_CARRIER offsetof(struct ward_broker_carried, bytes)

/* From the courier to the supervisor, one write each (smaller than
 * PIPE_BUF, so never split). */
enum ward_courier_kind {
	WARD_C_READY = 1,   /* the writable slots are snapshotted: go */
	WARD_C_REFUSE = 2,  /* text: why the run cannot start */
	WARD_C_OUTPUT = 3,  /* a stream passed its ceiling: kill */
	WARD_C_EMPTIED = 4, /* exports done, the workspace emptied */
};

struct ward_courier_msg {
	uint32_t kind;
	char text[WARD_ERR_MSG_MAX];
};

/* From init to the courier, on a socket of their own (the supervisor
 * never sees it): each writable mount of the sandbox, with a descriptor of
 * its root (a tmpfs: the courier measures it, and fills and empties a
 * read-write slot's), then the end of the list. A read-write slot's is
 * filled at once: init waits for the courier's one byte
 * (WARD_HAND_FILLED, or WARD_HAND_FAILED) before it mounts anything
 * more. Last, once the target has exec'd: the program file it opened
 * just before its execve, for the report's digest (courier.c), and init
 * closes the socket. */
enum ward_hand_kind {
	WARD_HAND_MOUNT = 1,   /* index: the mount table's entry; with a fd */
	WARD_HAND_END = 2,     /* index: 0 */
	WARD_HAND_PROGRAM = 3, /* index: errno of the open (0: with a fd);
				  path: the program as the target found it */
};

struct ward_hand_msg {
	uint32_t kind;
	uint32_t index;
};

/* WARD_HAND_PROGRAM: the message, then the path (sent up to its NUL). */
struct ward_hand_program {
	struct ward_hand_msg m;
	char path[PATH_MAX];
};

#define WARD_HAND_FILLED 'F'
#define WARD_HAND_FAILED 'X'

/* From the supervisor to the courier: one byte once nothing of the
 * sandbox is left (whether it ever ran), then struct ward_facts once the
 * workspace is removed. */
#define WARD_S_GONE_RAN 'R' /* the sandbox ran: diff and export */
#define WARD_S_GONE_NOT 'N' /* refused before it ran */

#endif
