/* SPDX-License-Identifier: MIT */
/*
 * supervise.c: see supervise.h.
 */
#include "supervise.h"

#include "exitcode.h"
#include "fdpass.h"
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>

static void on_message(struct ward_outcome *o, const struct ward_msg *m)
{
	if (m->kind == WARD_MSG_IDENTITY) {
		memcpy(&o->id, m->text, sizeof(o->id));
		o->measured = true;
		return;
	}
	if (m->kind == WARD_MSG_BACKSTOP) {
		o->backstop = true;
		return;
	}
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

static void signal_init(struct ward_child *c, int sig)
{
	if (c->pidfd >= 0)
		syscall(SYS_pidfd_send_signal, c->pidfd, sig, NULL, 0);
}

void ward_kill_sandbox(struct ward_watch *w)
{
	if (w->cg)
		ward_cg_kill(w->cg);
	signal_init(w->child, SIGKILL);
}

/* State of the loop besides the outcome. */
struct loop {
	struct ward_watch *w;
	struct ward_outcome *o;
	int tfd;	  /* the wall and grace timer */
	bool grace_armed; /* the timer now counts the grace */
	bool killed;
	int listener; /* held, never read: the broker reads its copy */
	bool broker_gone;
	bool init_done;
	bool sample_pids;
	bool msgs_done; /* init's message pipe at its end */
	bool alone_told;
};

static void arm(struct loop *L, uint64_t ms)
{
	struct itimerspec its = {0};

	if (L->tfd < 0)
		return;
	if (ms == 0)
		ms = 1; /* an all-zero value would disarm it */
	its.it_value.tv_sec = (time_t)(ms / 1000);
	its.it_value.tv_nsec = (long)(ms % 1000) * 1000000L;
	timerfd_settime(L->tfd, 0, &its, NULL);
}

static void disarm(struct loop *L)
{
	struct itimerspec its = {0};

	if (L->tfd >= 0)
		timerfd_settime(L->tfd, 0, &its, NULL);
}

static void stop_run(struct loop *L, enum ward_stop why)
{
	if (L->o->stop == WARD_STOP_NONE)
		L->o->stop = why;
	if (L->init_done || L->killed)
		return;
	ward_kill_sandbox(L->w);
	L->killed = true;
	disarm(L);
}

static void on_timer(struct loop *L)
{
	uint64_t ticks;

	if (read(L->tfd, &ticks, sizeof(ticks)) != sizeof(ticks) ||
	    L->init_done)
		return;
	if (L->grace_armed) {
		stop_run(L, L->o->stop ? L->o->stop : WARD_STOP_TIMEOUT);
		return;
	}
	/* The wall time is over: the run ends as a timeout whatever the
	 * target does in its grace. */
	if (L->o->stop == WARD_STOP_NONE)
		L->o->stop = WARD_STOP_TIMEOUT;
	if (L->w->grace_ms == 0) {
		stop_run(L, WARD_STOP_TIMEOUT);
		return;
	}
	/* init passes SIGTERM on to the target. */
	signal_init(L->w->child, SIGTERM);
	L->o->term_sent = true;
	L->grace_armed = true;
	arm(L, L->w->grace_ms);
}

static void on_signal(struct loop *L)
{
	struct signalfd_siginfo ssi;

	if (read(L->w->sigfd, &ssi, sizeof(ssi)) != sizeof(ssi))
		return;
	if (L->init_done)
		return;
	if (L->o->stop == WARD_STOP_NONE) {
		L->o->stop = WARD_STOP_SIGNAL;
		L->o->stop_signal = (int)ssi.ssi_signo;
	}
	/* A second signal, or one during a grace, does not wait. */
	if (L->grace_armed || L->w->grace_ms == 0) {
		stop_run(L, WARD_STOP_SIGNAL);
		return;
	}
	signal_init(L->w->child, (int)ssi.ssi_signo);
	L->o->term_sent = true;
	L->grace_armed = true;
	arm(L, L->w->grace_ms);
}

/* The broker's word: a fixed-size message whose kind alone is acted on.
 * Its end during the run means no notification can be answered any more:
 * the calls that wait for one keep waiting (the supervisor's own copy of
 * the listener keeps them from failing with ENOSYS) until the kill. */
static void on_broker(struct loop *L)
{
	struct ward_broker_msg m;
	struct ward_violation *v = &L->o->seccomp;
	ssize_t n = recv(L->w->broker->sock, &m, sizeof(m), MSG_DONTWAIT);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n == (ssize_t)sizeof(m) && m.kind == WARD_B_KILL) {
		/* A kill rule matched: the call never runs, the whole
		 * sandbox is killed, the call named (the kernel's numbers,
		 * through the broker). */
		if (!v->seen) {
			v->seen = true;
			v->nr_known = m.nr_known != 0;
			v->nr = m.nr;
			v->arch = m.arch;
		}
		stop_run(L, WARD_STOP_SECCOMP);
		return;
	}
	if (n > 0)
		return; /* nothing else is expected while the sandbox runs */
	L->broker_gone = true;
	stop_run(L, WARD_STOP_BROKER);
}

static void on_init_end(struct loop *L)
{
	siginfo_t si = {0};
	struct ward_child *c = L->w->child;

	/* waitid(2) with a rusage: the glibc wrapper has none. */
	if (syscall(SYS_waitid, P_PIDFD, c->pidfd, &si, WEXITED,
		    &L->o->rusage) == 0)
		L->o->have_rusage = true;
	else if (waitid((idtype_t)P_PIDFD, (id_t)c->pidfd, &si, WEXITED) < 0)
		return;
	L->o->init_code = si.si_code;
	L->o->init_status = si.si_status;
	L->init_done = true;
	disarm(L);
	if (L->listener >= 0) {
		close(L->listener);
		L->listener = -1;
	}
}

static void sample(struct loop *L)
{
	long n;

	if (!L->sample_pids || L->init_done)
		return;
	n = ward_cg_pids_current(L->w->cg);
	if (n > L->o->pids_sampled)
		L->o->pids_sampled = n;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

enum {
	P_INIT,
	P_SIG,
	P_TIMER,
	P_NSOCK,
	P_BROKER,
	P_COURIER,
	P_HOLDER,
	P_OOM,
	P_MSG,
	P_N
};

static void build(struct loop *L, struct pollfd *pfd)
{
	struct ward_watch *w = L->w;

	for (int i = 0; i < P_N; i++)
		pfd[i] = (struct pollfd){-1, POLLIN, 0};
	pfd[P_INIT].fd = L->init_done ? -1 : w->child->pidfd;
	pfd[P_SIG].fd = w->sigfd;
	pfd[P_TIMER].fd = L->tfd;
	pfd[P_NSOCK].fd = w->notify_sock;
	pfd[P_BROKER].fd = w->broker && !L->broker_gone ? w->broker->sock : -1;
	pfd[P_COURIER].fd = w->courier;
	pfd[P_HOLDER].fd = w->holder;
	pfd[P_OOM].fd = w->oom;
	if (w->oom >= 0 && w->cg)
		pfd[P_OOM].events = ward_cg_oom_events(w->cg);
	pfd[P_MSG].fd = L->msgs_done ? -1 : w->child->msg_rd;
}

/* One of init's messages while it runs (the rest are drained at its end). */
static void on_init_msg(struct loop *L)
{
	struct ward_msg m;
	ssize_t n = read(L->w->child->msg_rd, &m, sizeof(m));

	if (n < 0 && errno == EINTR)
		return;
	if (n != (ssize_t)sizeof(m)) {
		L->msgs_done = true;
		return;
	}
	on_message(L->o, &m);
	/* Not when ward stopped the run: then the kill decides. */
	if (m.kind == WARD_MSG_ALONE && L->w->alone && !L->alone_told &&
	    L->o->stop == WARD_STOP_NONE) {
		L->alone_told = true;
		L->w->alone(L->w->arg);
	}
}

/* The courier's word: a fixed-size message whose kind alone is acted on. */
static void on_courier(struct loop *L)
{
	struct ward_courier_msg m;
	ssize_t n = read(L->w->courier, &m, sizeof(m));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n == (ssize_t)sizeof(m) && m.kind == WARD_C_OUTPUT) {
		stop_run(L, WARD_STOP_OUTPUT);
		return;
	}
	/* The answer to a GONE told early (alone): the courier has nothing
	 * more to say until the facts; kept for deliver. */
	if (n == (ssize_t)sizeof(m) && m.kind == WARD_C_EMPTIED &&
	    L->alone_told) {
		L->w->emptied = true;
		L->w->courier = -1;
		return;
	}
	if (n > 0)
		return; /* nothing else is expected while the sandbox runs */
	/* Its end: no stream can be read or delivered any more. */
	L->w->courier = -1;
	stop_run(L, WARD_STOP_COURIER);
}

int ward_supervise(struct ward_watch *w, struct ward_outcome *o, ward_err *err)
{
	struct loop L = {.w = w, .o = o, .tfd = -1, .listener = -1};
	struct ward_child *c = w->child;
	uint64_t start = now_ms();
	int rc = 0;

	memset(o, 0, sizeof(*o));
	o->pids_sampled = -1;
	if (w->wall_ms || w->grace_ms) {
		L.tfd =
		    timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (L.tfd < 0) {
			ward_kill_sandbox(w);
			rc = ward_fail(err, errno, "timerfd_create");
		} else if (w->wall_ms) {
			arm(&L, w->wall_ms);
		}
	}
	/* Without pids.peak (before Linux 6.13... on some hosts) the peak
	 * is sampled at every wake-up and every 20 ms. */
	L.sample_pids = w->cg && w->cg->active &&
			w->cg->by_ctrl[WARD_CG_PIDS] >= 0 &&
			faccessat(w->cg->dir[w->cg->by_ctrl[WARD_CG_PIDS]].fd,
				  "pids.peak", F_OK, 0) != 0;
	while (!L.init_done) {
		struct pollfd pfd[P_N];
		int n;

		build(&L, pfd);
		n = poll(pfd, ARRAY_LEN(pfd), L.sample_pids ? 20 : -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = ward_fail(err, errno, "poll");
			ward_kill_sandbox(w);
			if (!L.init_done)
				on_init_end(&L);
			break;
		}
		sample(&L);
		if (pfd[P_INIT].revents) {
			on_init_end(&L);
			o->wall_ms = now_ms() - start;
		}
		if (pfd[P_SIG].revents)
			on_signal(&L);
		if (pfd[P_TIMER].revents)
			on_timer(&L);
		if (pfd[P_NSOCK].revents) {
			int stub;

			L.listener = ward_recv_fd(w->notify_sock);
			stub = L.listener >= 0 && w->dns_stub
				   ? ward_recv_fd(w->notify_sock)
				   : -1;
			close(w->notify_sock);
			w->notify_sock = -1;
			/* Without the broker nothing answers: a call the
			 * program sends to it would wait for ever. */
			if (L.listener >= 0 &&
			    (!w->broker ||
			     ward_broker_listen(w->broker, L.listener) < 0 ||
			     (w->dns_stub &&
			      ward_broker_give(w->broker, WARD_S_DNS, stub) <
				  0)))
				stop_run(&L, WARD_STOP_BROKER);
			if (stub >= 0)
				close(stub);
		}
		if (pfd[P_BROKER].revents)
			on_broker(&L);
		if (pfd[P_COURIER].revents)
			on_courier(&L);
		/* The holder has nothing to say: anything is its end. */
		if (pfd[P_HOLDER].revents) {
			w->holder = -1;
			stop_run(&L, WARD_STOP_HOLDER);
		}
		if (pfd[P_OOM].revents && w->cg &&
		    ward_cg_oom_killed(w->cg, w->oom))
			stop_run(&L, WARD_STOP_OOM);
		/* Last: a kill decided in this round comes first. */
		if (pfd[P_MSG].revents && !L.init_done)
			on_init_msg(&L);
	}
	if (L.tfd >= 0)
		close(L.tfd);
	if (L.listener >= 0)
		close(L.listener);
	if (w->notify_sock >= 0) {
		close(w->notify_sock);
		w->notify_sock = -1;
	}
	drain(c->msg_rd, o);
	close(c->msg_rd);
	close(c->pidfd);
	close(c->sync_wr);
	c->msg_rd = c->pidfd = c->sync_wr = -1;
	return rc;
}

int ward_exit_code(const struct ward_outcome *o)
{
	/* What the supervisor did decides first: a seccomp kill reads as
	 * the kernel's own would (SIGSYS), an interrupted ward as its
	 * signal. */
	if (o->stop == WARD_STOP_SECCOMP)
		return WARD_EXIT_SIGNAL_BASE + SIGSYS;
	if (o->stop == WARD_STOP_SIGNAL)
		return WARD_EXIT_SIGNAL_BASE + o->stop_signal;
	if (o->stop == WARD_STOP_COURIER || o->stop == WARD_STOP_BROKER ||
	    o->stop == WARD_STOP_HOLDER)
		return WARD_EXIT_REFUSED;
	/* The run was ended for the whole group (an OOM, a stream past its
	 * ceiling, init's own timer): 137 even if the target happened to
	 * exit on its own before the kill reached it, so that a run stopped
	 * at its output cap never reads as success. */
	if (o->stop == WARD_STOP_OOM || o->stop == WARD_STOP_OUTPUT ||
	    o->backstop)
		return WARD_EXIT_SIGNAL_BASE + SIGKILL;
	switch (o->end) {
	case WARD_END_STATUS:
		if (WIFSIGNALED(o->status))
			return WARD_EXIT_SIGNAL_BASE + WTERMSIG(o->status);
		return WEXITSTATUS(o->status);
	case WARD_END_EXEC:
		return o->err.code == ENOENT ? WARD_EXIT_NOT_FOUND
					     : WARD_EXIT_CANNOT_EXEC;
	case WARD_END_SETUP:
		break;
	case WARD_END_UNKNOWN:
		/* Killed by the supervisor (timeout, output) before init
		 * could report: the target died of SIGKILL with it. */
		if (o->stop != WARD_STOP_NONE)
			return WARD_EXIT_SIGNAL_BASE + SIGKILL;
		break;
	}
	return WARD_EXIT_REFUSED;
}
