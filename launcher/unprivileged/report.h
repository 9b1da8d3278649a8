/* SPDX-License-Identifier: MIT */
/*
 * report.h: the run report (--report FILE), JSON, version 1; its schema is
 * docs/spec.md part 4. Also the short human summary
 * of `ward -v`.
 *
 * Every part that did not happen is null (no cgroup: "cgroup": null; a
 * refusal before any process: no identity, no output...), never left out,
 * so that a reader always finds every key.
 */
#ifndef WARD_REPORT_H
#define WARD_REPORT_H

#include "broker_facts.h"
#include "facts.h"
#include "json.h"
#include "output.h"
#include "policy.h"
#include "slotfs.h"
#include "util.h"
#include "verdict.h"

#include <time.h>

#define WARD_REPORT_VERSION 1

struct ward_channel;
struct ward_evidence;

struct ward_report {
	const char *run_id;	 /* NULL before one was made */
	const char *policy_name; /* NULL when the blob was not read */
	const char *digest_hex;	 /* the blob file's SHA-256, or NULL */
	const char *signer; /* the trusted key's id (--trusted-key), or NULL */
	const char *mode;   /* "root", "rootless", or NULL */
	const struct ward_policy *policy; /* NULL when not read */
	uid_t host_uid;			  /* the sandbox's host ids */
	gid_t host_gid;
	/* The supplementary groups the sandbox holds as the host numbers
	 * them (inside they show as the overflow gid): rootless, the
	 * caller's, which a user namespace cannot drop (`groups keep`);
	 * as root none (cleared). nhost_groups -1: not known. */
	const gid_t *host_groups;
	int nhost_groups;
	struct timespec created, destroyed; /* CLOCK_REALTIME; 0: unknown */
	const char *reason;		    /* ward_reason_name() */
	uint32_t flags;			    /* WARD_R_BITs */
	int exit_code;			    /* ward's own exit status */
	int target_exit;		    /* -1 unless the target exited */
	int signal;			    /* 0 unless it died of a signal */
	const char *error;		    /* NULL, or why ward failed */
	/* Set once the sandbox ran (NULL/false otherwise). */
	bool started;	       /* init was created */
	bool applied;	       /* init's setup completed: identity... */
	bool seccomp_listener; /* kill rules reported by the supervisor */
	const struct ward_cgroup *cg;		/* NULL or inactive: none */
	const struct ward_cg_stats *stats;	/* NULL: no cgroup */
	const struct ward_outcome *outcome;	/* NULL: never supervised */
	const struct ward_violation *violation; /* the seccomp kill, named */
	const struct ward_verdict *verdict;	/* NULL: refused */
	const struct ward_output *output;	/* NULL: no pipes */
	const struct ward_cg_cleanup *cleanup;	/* NULL: no cgroup */
	const struct ward_report_denial *net;	/* network denials */
	size_t nnet;
	bool net_checked; /* the cgroup programs ran: denials were read */
	/* What the broker recorded (NULL, or records false: nothing). */
	const struct ward_broker_facts *broker;
	/* The output channel (channel.h): workspace, file diff, export;
	 * NULL: all three null. */
	const struct ward_channel *channel;
	const struct ward_workspace *ws;  /* NULL: no workspace */
	const struct ward_slotfs *mounts; /* the writable mounts, measured */
	size_t nmounts;
	/* For audit and replay: the target's command line (NULL-terminated;
	 * NULL: not known) and the host paths given to the slots. */
	char *const *argv;
	const struct ward_evidence *ev; /* digests (evidence.h), or NULL */
	const struct ward_channel_arg *slots;
	size_t nslots;
	/* Admission and the steps' timings (facts.h). */
	const struct ward_queue *queue; /* NULL: no ceiling applied */
	const struct ward_timings *t;	/* NULL: no timings */
	uint64_t exec_ns;		/* the target's mark, or 0 */
	uint64_t done_ns;		/* when the report was made */
};

int ward_report_write(int fd, const struct ward_report *r, ward_err *err);

/* The name of the syscall a kill rule stopped, or NULL. */
const char *ward_violation_name(const struct ward_policy *p,
				const struct ward_violation *v);

/* A few lines for people, on f (ward -v). */
void ward_report_summary(FILE *f, const struct ward_report *r);

#endif
