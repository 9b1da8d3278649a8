/* SPDX-License-Identifier: MIT */
/*
 * broker.h: the one handler of the sandbox's seccomp notifications
 * (docs/spec.md 4.6 and 5.6), in a process with no privilege.
 *
 * The supervisor forks it before the sandbox exists, moves it into a cgroup
 * of its own in root mode (where the network's cgroup programs are
 * attached, so that they filter every socket it makes), drops every
 * privilege (launcher/core/drop.c, with the seccomp allow-list below), and
 * hands it the target's listener once init has it. For each notification
 * the broker runs the blob's seccomp program on the notification's struct
 * seccomp_data to learn what the program asked (policy.h, enum
 * ward_notify), and:
 *
 *   kill       tells the supervisor, which kills the sandbox; never answers
 *   errno      answers with the errno, and records the call
 *   net errno  the same, recorded as a network attempt
 *   connect    performs the connect itself, on its own copy of the address:
 *              to an allowed destination through a socket it makes in the
 *              network namespace ward started in, installed in the target
 *              in place of the target's (SECCOMP_IOCTL_NOTIF_ADDFD); any
 *              other, on the target's own socket, in the sandbox's empty
 *              namespace, or refused
 *   sendto     a datagram to an allowed destination, the same; otherwise
 *              the kernel's own call (which cannot leave the sandbox)
 *   observe    a recording blob's (docs/spec.md 4.9): logs the call and
 *              the arguments the data bits name, then lets the kernel run
 *              it as it is (SECCOMP_USER_NOTIF_FLAG_CONTINUE: the program
 *              already allowed it whatever its arguments, so nothing is
 *              decided here); refused when the run is not recording
 *
 * It never parses anything of the sandbox's but a socket address
 * (sockaddr.c), answers every notification in bounded time (a connect in
 * progress waits in a bounded table, not in the broker), and holds a flood
 * back: beyond a rate it stops reading notifications for a while, and the
 * sandbox's calls wait in the kernel. Its records are bounded (records.h)
 * and go to the supervisor once the sandbox is gone.
 */
#ifndef WARD_BROKER_H
#define WARD_BROKER_H

#include "broker_facts.h"
#include "facts.h"
#include "policy.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ward_broker_ctx {
	const struct ward_policy *policy; /* the supervisor's, as forked */
	bool root_mode;			  /* ward runs as root */
	int sup;			  /* SOCK_SEQPACKET to the supervisor */
	int record_fd; /* --record FILE (a recording blob), else -1 */
	int events_fd; /* ward session's: each refusal (denial_event.h); -1 */
	int dns_upstream; /* names: to the host's resolver (dns.h); -1 */
};

/* The broker's life, privileges already dropped. Returns its process's
 * exit status. */
int ward_broker_run(const struct ward_broker_ctx *c);

/* Its seccomp allow-list (launcher/core/drop.h): the syscalls, and the
 * ioctl requests (only the listener's). */
extern const int ward_broker_syscalls[];
extern const size_t ward_broker_nsyscalls;
extern const uint32_t ward_broker_ioctls[];
extern const size_t ward_broker_nioctls;

#endif
