/* SPDX-License-Identifier: MIT */
/*
 * notif.h: the seccomp listener and the notifying task, as the broker uses
 * them (seccomp_unotify(2)).
 *
 * The order that keeps the broker free of time-of-check/time-of-use gaps:
 *
 *   1. receive the notification (the kernel's copy of the registers);
 *   2. take what is needed of the task: a pidfd of it, a descriptor of
 *      its file (pidfd_getfd), one copy of the memory an argument points
 *      to (process_vm_readv), never read again;
 *   3. check that the notification is still valid: the task is then the
 *      one that made the call, still waiting, and every descriptor and
 *      byte taken in 2 was its own;
 *   4. act only on the copies, and answer.
 *
 * A task that dies, or is interrupted by a signal, makes its notification
 * invalid: an answer then fails with ENOENT, and nothing is done for it.
 */
#ifndef WARD_NOTIF_H
#define WARD_NOTIF_H

#include "util.h"

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* A notification, with room for a kernel's larger struct. */
struct ward_notif {
	union {
		struct seccomp_notif n;
		uint8_t bytes[512];
	} u;
};

/* The sizes the kernel uses; fails when it has no user notifications or
 * its structs are larger than ours. */
int ward_notif_check_sizes(ward_err *err);

/* Receive one notification: 0, -1 with errno (EINTR: try again; ENOENT:
 * the task went away before it was read). */
int ward_notif_recv(int listener, struct ward_notif *n);

/* Is the notification still waiting for an answer? */
bool ward_notif_valid(int listener, uint64_t id);

/* Answer: the call fails with e (> 0), or returns val (e == 0). Returns
 * 0 or -1 (errno ENOENT: it is gone). */
int ward_notif_answer(int listener, uint64_t id, int e, int64_t val);

/* Let the kernel run the call as it is (SECCOMP_USER_NOTIF_FLAG_CONTINUE):
 * only for calls whose arguments cannot widen anything whatever they are
 * rewritten to (the broker's callers say why for each). */
int ward_notif_continue(int listener, uint64_t id);

/* Put file src in the task's table at newfd, closing what was there
 * (SECCOMP_ADDFD_FLAG_SETFD), close-on-exec or not. 0 or -1. */
int ward_notif_install(int listener, uint64_t id, int src, int newfd,
		       bool cloexec);

/* A pidfd of the notifying thread (pid as the broker sees it), or -1. */
int ward_task_pidfd(pid_t tid);

/* A descriptor of the task's file fd (pidfd_getfd), or -1 with errno. */
int ward_task_getfd(int pidfd, int fd);

/* Is the task's descriptor fd close-on-exec? (its /proc fdinfo) */
bool ward_task_cloexec(pid_t tid, int fd);

/* Copy len bytes at addr of the task's memory into buf, once: 0, or -1
 * with errno (EFAULT for memory it does not have). */
int ward_task_read(pid_t tid, uint64_t addr, void *buf, size_t len);

#endif
