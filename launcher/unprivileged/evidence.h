/* SPDX-License-Identifier: MIT */
/*
 * evidence.h: the digests of the run report's `run` block that take
 * reading files (docs/spec.md 4.2): the program file the target exec'd
 * and each --input snapshot; and the allow-list's digest.
 *
 * The courier computes them while the sandbox runs, a bounded step at a
 * time between its polls of the output streams (courier.c), so that
 * neither the launch nor the draining waits for them; what is left when
 * the streams end is done before the slots are copied back (a read-write
 * input's snapshot is then overwritten). Only when a report is asked for.
 * The courier has no privilege: what it reads, the sandbox's ids may read
 * (issue 14's rule: no root process reads sandbox-written data).
 */
#ifndef WARD_EVIDENCE_H
#define WARD_EVIDENCE_H

#include "channel.h"
#include "facts.h"
#include "policy.h"
#include "sha256x.h"
#include "treedigest.h"

#include <stdbool.h>
#include <stdio.h>

#define WARD_EV_INPUTS 64
/* The bytes of the program hashed per step: about a millisecond. */
#define WARD_EV_STEP (1024 * 1024)

struct ward_ev_input {
	const char *name, *host_path; /* the --input NAME=HOSTPATH */
	const char *snapshot;	      /* the workspace's copy; NULL: none */
	struct ward_tree_digest d;
	bool done, ok;
	char error[WARD_ERR_MSG_MAX];
};

struct ward_evidence {
	bool wanted;  /* a report is written */
	bool started; /* the target exec'd (or never will): inputs too */
	/* The program (init's WARD_HAND_PROGRAM). */
	bool have_program, program_done, program_ok;
	int program_fd;
	char program_path[PATH_MAX];
	struct ward_sha256x h;
	uint64_t program_bytes;
	uint8_t program_sha256[32];
	char program_error[WARD_ERR_MSG_MAX];
	struct ward_ev_input inputs[WARD_EV_INPUTS];
	size_t ninputs, next;
};

/* Before the run: the inputs, their snapshots found among slots. */
void ward_evidence_init(struct ward_evidence *ev, bool wanted,
			const struct ward_channel_arg *inputs, size_t ninputs,
			const struct ward_channel_arg *slots, size_t nslots);

/* init's message; fd: the program file or -1 (taken). */
void ward_evidence_program(struct ward_evidence *ev,
			   const struct ward_hand_program *m, int fd);

/* Whether a step is left to do; one step (a slice of the program, or one
 * input tree); all that is left. */
bool ward_evidence_pending(const struct ward_evidence *ev);
void ward_evidence_step(struct ward_evidence *ev);
void ward_evidence_finish(struct ward_evidence *ev);

/* The report's parts: "program" (exec'd: the target's execve succeeded),
 * "inputs", "network". */
void ward_evidence_put_program(FILE *f, const struct ward_evidence *ev,
			       bool execd);
void ward_evidence_put_inputs(FILE *f, const struct ward_evidence *ev);
void ward_evidence_put_network(FILE *f, const struct ward_policy *p);

#endif
