/* SPDX-License-Identifier: MIT */
/*
 * supervise.c: see supervise.h.
 */
#include "supervise.h"

#include "exitcode.h"
#include "launch.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static void on_message(struct ward_outcome *o, const struct ward_msg *m)
{
	/* The first failure is the cause; later ones are its echoes. */
	if (o->end == WARD_END_SETUP || o->end == WARD_END_EXEC)
		return;
	switch (m->kind) {
	case WARD_MSG_SETUP_FAILED:
	case WARD_MSG_EXEC_FAILED:
		o->end = m->kind == WARD_MSG_SETUP_FAILED ? WARD_END_SETUP
							  : WARD_END_EXEC;
		o->err.code = m->code;
		snprintf(o->err.msg, sizeof(o->err.msg), "%.*s",
			 (int)sizeof(m->text), m->text);
		break;
	case WARD_MSG_TARGET_STATUS:
		o->end = WARD_END_STATUS;
		o->status = m->code;
		break;
	}
}

/* Read init's messages to the end. Called once init has ended: by then
 * every process of its pid namespace is gone, so no writer is left and
 * the pipe ends at once. */
static void drain(int fd, struct ward_outcome *o)
{
	struct ward_msg m;
	ssize_t n;

	while ((n = read(fd, &m, sizeof(m))) != 0) {
		if (n == (ssize_t)sizeof(m))
			on_message(o, &m);
		else if (n < 0 && errno != EINTR)
			break;
	}
}

int ward_supervise(struct ward_child *c, int sigfd, struct ward_outcome *o,
		   ward_err *err)
{
	/* init's messages are not polled: they are only read once it has
	 * ended, which saves the supervisor a wake-up per run. */
	enum { INIT, SIG };
	struct pollfd pfd[] = {
	    [INIT] = {c->pidfd, POLLIN, 0},
	    [SIG] = {sigfd, POLLIN, 0},
	};

	memset(o, 0, sizeof(*o));
	while (pfd[INIT].fd >= 0) {
		if (poll(pfd, ARRAY_LEN(pfd), -1) < 0) {
			if (errno == EINTR)
				continue;
			return ward_fail(err, errno, "poll");
		}
		if (pfd[INIT].revents) {
			siginfo_t si = {0};

			if (waitid((idtype_t)P_PIDFD, (id_t)c->pidfd, &si,
				   WEXITED) < 0)
				return ward_fail(err, errno, "waitid init");
			o->init_code = si.si_code;
			o->init_status = si.si_status;
			pfd[INIT].fd = -1;
		}
		if (pfd[SIG].revents) {
			struct signalfd_siginfo ssi;

			if (read(sigfd, &ssi, sizeof(ssi)) == sizeof(ssi) &&
			    pfd[INIT].fd >= 0)
				syscall(SYS_pidfd_send_signal, c->pidfd,
					(int)ssi.ssi_signo, NULL, 0);
		}
	}
	drain(c->msg_rd, o);
	close(c->msg_rd);
	close(c->pidfd);
	close(c->sync_wr);
	c->msg_rd = c->pidfd = c->sync_wr = -1;
	return 0;
}

int ward_exit_code(const struct ward_outcome *o)
{
	switch (o->end) {
	case WARD_END_STATUS:
		if (WIFSIGNALED(o->status))
			return WARD_EXIT_SIGNAL_BASE + WTERMSIG(o->status);
		return WEXITSTATUS(o->status);
	case WARD_END_EXEC:
		return o->err.code == ENOENT ? WARD_EXIT_NOT_FOUND
					     : WARD_EXIT_CANNOT_EXEC;
	case WARD_END_SETUP:
	case WARD_END_UNKNOWN:
		break;
	}
	return WARD_EXIT_REFUSED;
}
