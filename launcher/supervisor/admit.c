/* SPDX-License-Identifier: MIT */
/*
 * admit.c: see admit.h.
 */
#include "admit.h"

#include "admission.h"
#include "drop.h"
#include "exitcode.h"
#include "hardening.h"
#include "queue.h"
#include "workspace.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define NS_PER_MS 1000000u

/* ------------------------------------------------------------ the holder */

/* The holder's life, in the child: the privileges go first, before it
 * opens anything of the queue or reads the settings. */
static _Noreturn void holder_main(const struct ward_admit_args *args,
				  const struct ward_priv *priv, int sock,
				  pid_t parent)
{
	/* Root mode: the run's host ids, which no other process of the
	 * host has (privilege.h); they need nothing but to read the
	 * queue's files. */
	const struct ward_drop d = {
	    .change_ids = args->root,
	    .uid = priv->host_uid,
	    .gid = priv->host_gid,
	    .parent = parent,
	    .allow = ward_holder_syscalls,
	    .nallow = ward_holder_nsyscalls,
	};
	const int keep[] = {sock};
	ward_err err = {0};

	if (ward_close_fds_except(keep, ARRAY_LEN(keep), &err) < 0 ||
	    ward_drop_privileges(&d, &err) < 0) {
		static struct ward_admit_answer m = {.kind =
							 WARD_ADMIT_REFUSED};
		char buf[WARD_ERR_MSG_MAX + 64];

		snprintf(m.text, sizeof(m.text), "the queue's holder: %s",
			 ward_err_str(&err, buf, sizeof(buf)));
		if (write(sock, &m, sizeof(m)) < 0)
			_exit(2);
		_exit(1);
	}
	_exit(ward_admission_hold(args, sock));
}

static void reap(struct ward_admission *a)
{
	if (a->holder > 0) {
		kill(a->holder, SIGKILL);
		while (waitpid(a->holder, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (a->sock >= 0)
		close(a->sock);
	a->holder = 0;
	a->sock = -1;
}

static int fork_holder(struct ward_admission *a, struct ward_admit_args *args,
		       const struct ward_priv *priv, ward_err *err)
{
	char own_base[PATH_MAX] = "";
	pid_t parent = getpid();
	int sv[2];

	/* The directory of a rootless caller's own queue, should the host's
	 * not be readable (the holder chooses: admission.c). */
	if (!args->root)
		ward_workspace_default_base(false, own_base, sizeof(own_base));
	args->own_base = own_base;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return ward_fail(err, errno, "socketpair for the queue");
	a->holder = fork();
	if (a->holder < 0) {
		a->holder = 0;
		close(sv[0]);
		close(sv[1]);
		return ward_fail(err, errno, "fork the queue's holder");
	}
	if (a->holder == 0)
		holder_main(args, priv, sv[1], parent);
	close(sv[1]);
	a->sock = sv[0];
	return 0;
}

/* A signal to ward while it waits: the wait ends, the holder goes. */
static int interrupted(struct ward_admission *a, int sigfd, uint64_t since,
		       ward_err *err)
{
	struct signalfd_siginfo si;
	int sig;

	if (read(sigfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return ward_fail(err, errno, "read the signals");
	sig = (int)si.ssi_signo;
	reap(a);
	a->q.used = true; /* (in line since JOINED, when it came) */
	a->q.interrupted = sig;
	a->q.waited_ms =
	    (ward_now_ns() - (a->q.ticket_ns ? a->q.ticket_ns : since)) /
	    NS_PER_MS;
	a->exit_code = WARD_EXIT_SIGNAL_BASE + sig;
	return ward_fail(err, 0, "interrupted in the queue (SIG%s)",
			 sigabbrev_np(sig));
}

/* The holder's answer, checked before the report takes it: a place in a
 * queue, nothing more. 0: admitted (or no ceiling); -1: refused or a bad
 * answer (err says which). */
static int take_answer(struct ward_admission *a, struct ward_admit_answer *m,
		       ward_err *err)
{
	const struct ward_queue *h = &m->q;

	if ((m->kind != WARD_ADMIT_ADMITTED && m->kind != WARD_ADMIT_REFUSED &&
	     m->kind != WARD_ADMIT_JOINED) ||
	    !memchr(h->dir, '\0', sizeof(h->dir)) ||
	    h->ceiling > WARD_ADMIT_MAX ||
	    (m->kind == WARD_ADMIT_ADMITTED && h->used &&
	     (h->slot < 0 || (unsigned)h->slot >= h->ceiling ||
	      h->admitted_ns < h->ticket_ns)))
		return ward_fail(err, 0, "the queue's holder: a bad answer");
	a->q = *h;
	if (m->kind != WARD_ADMIT_REFUSED)
		return 0;
	if (h->timed_out)
		a->exit_code = WARD_EXIT_QUEUE_TIMEOUT;
	m->text[sizeof(m->text) - 1] = '\0';
	/* It may name a path: printed on the caller's terminal. */
	for (char *s = m->text; *s; s++)
		if (!isprint((unsigned char)*s))
			*s = '?';
	return ward_fail(err, 0, "%s", m->text);
}

/* The holder's answer (after its JOINED, kept for the report), or a
 * signal of ward's first. */
static int hear_holder(struct ward_admission *a, int sigfd, ward_err *err)
{
	static struct ward_admit_answer m;
	struct pollfd pfd[2] = {{a->sock, POLLIN, 0}, {sigfd, POLLIN, 0}};
	const uint64_t since = ward_now_ns();
	ssize_t n;

	for (;;) {
		if (poll(pfd, sigfd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return ward_fail(err, errno, "poll the queue");
		}
		if (sigfd >= 0 && (pfd[1].revents & POLLIN))
			return interrupted(a, sigfd, since, err);
		if (!pfd[0].revents)
			continue;
		do
			n = recv(a->sock, &m, sizeof(m), 0);
		while (n < 0 && errno == EINTR);
		if (n != (ssize_t)sizeof(m))
			return ward_fail(err, 0, "the queue's holder ended");
		if (take_answer(a, &m, err) < 0)
			return -1;
		if (m.kind != WARD_ADMIT_JOINED)
			return 0;
	}
}

/* --max-sandboxes 0 (or WARD_MAX_SANDBOXES=0): no holder is made at all,
 * for the callers that admit runs themselves. Any other value is the
 * holder's to read (and refuse). */
static bool turned_off(const char *max_sandboxes)
{
	const char *env = getenv("WARD_MAX_SANDBOXES");
	const char *v = max_sandboxes	? max_sandboxes
			: env && env[0] ? env
					: "";

	return !strcmp(v, "0");
}

int ward_admit(struct ward_admission *a, const char *max_sandboxes,
	       const char *queue_timeout, const char *queue_dir,
	       const struct ward_priv *priv, int sigfd, ward_err *err)
{
	struct ward_admit_args args = {max_sandboxes, queue_timeout, queue_dir,
				       priv->mode == WARD_MODE_ROOT, NULL};
	const char *dir = queue_dir ? queue_dir : WARD_ADMIT_DIR;
	int rc;

	a->exit_code = WARD_EXIT_REFUSED;
	if (turned_off(max_sandboxes))
		return a->exit_code = 0;
	/* Root's queue is in a directory only root may write: made here,
	 * the one step of admission that runs as root; it reads nothing.
	 * (A path that is no queue's is the holder's to refuse.) */
	if ((args.root && ward_queue_path_ok(dir) &&
	     ward_queue_ensure(dir, true, err) < 0) ||
	    fork_holder(a, &args, priv, err) < 0)
		return -1;
	rc = hear_holder(a, sigfd, err);
	if (rc < 0 || !a->q.used)
		reap(a);
	if (rc < 0)
		return -1;
	a->exit_code = 0;
	return 0;
}

void ward_admission_release(struct ward_admission *a)
{
	if (a->holder > 0)
		kill(a->holder, SIGKILL);
	if (a->sock >= 0)
		close(a->sock);
	a->sock = -1;
}

void ward_admission_reap(struct ward_admission *a)
{
	reap(a);
}
