/* SPDX-License-Identifier: MIT */
/*
 * courier.c: see courier.h.
 */
#include "courier.h"

#include "report.h"
#include "verdict.h"
#include "workspace_empty.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void say(const struct ward_courier *c, uint32_t kind, const char *text)
{
	struct ward_courier_msg m = {.kind = kind};
	ssize_t n;

	if (text)
		snprintf(m.text, sizeof(m.text), "%s", text);
	do
		n = write(c->to_sup, &m, sizeof(m));
	while (n < 0 && errno == EINTR);
}

/* Read exactly len bytes from the supervisor; false at EOF or error. */
static bool hear(const struct ward_courier *c, void *buf, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = read(c->from_sup, (char *)buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		off += (size_t)n;
	}
	return true;
}

/* ------------------------------------------------------------ streams */

static bool streams_done(const struct ward_output *out)
{
	for (int i = 0; i < 2; i++)
		if (out->s[i].rd >= 0 || ward_output_pending(out, i))
			return false;
	return true;
}

/* Drain, cap, digest and deliver both streams until every writer is gone
 * (the whole sandbox) and what was kept is delivered. Delivery never
 * blocks the draining: kept bytes wait in a buffer. */
static void pump(struct ward_courier *c)
{
	struct ward_output *out = &c->out;
	bool told = false;

	while (!streams_done(out)) {
		struct pollfd pfd[4];

		for (int i = 0; i < 2; i++) {
			pfd[i] = (struct pollfd){-1, POLLIN, 0};
			pfd[2 + i] = (struct pollfd){-1, POLLOUT, 0};
			if (ward_output_can_read(out, i))
				pfd[i].fd = out->s[i].rd;
			if (ward_output_pending(out, i) && !out->s[i].dest_file)
				pfd[2 + i].fd = out->s[i].dest;
		}
		if (poll(pfd, 4, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pfd[i].revents) {
				ward_output_read(out, i);
				if (out->s[i].over_ceiling && !told) {
					say(c, WARD_C_OUTPUT, NULL);
					told = true;
				}
				if (out->s[i].dest_file)
					ward_output_flush(out, i);
			}
			if (pfd[2 + i].revents)
				ward_output_flush(out, i);
		}
	}
	for (int i = 0; i < 2; i++)
		if (out->s[i].rd >= 0) {
			close(out->s[i].rd);
			out->s[i].rd = -1;
		}
	ward_output_finish(out);
}

/* ------------------------------------------------------------ report */

static void report(struct ward_courier *c, const struct ward_facts *f,
		   struct ward_workspace *ws)
{
	const struct ward_outcome *o = f->supervised ? &f->outcome : NULL;
	const struct ward_limits *lim = c->policy ? &c->policy->limits : NULL;
	struct ward_violation v = o ? o->seccomp : (struct ward_violation){0};
	struct ward_verdict verdict = {0};
	struct ward_report rep = {
	    .run_id = f->run_id[0] ? f->run_id : NULL,
	    .policy_name = c->policy ? c->policy->meta.policy_name : NULL,
	    .digest_hex = c->digest_hex,
	    .mode = c->mode,
	    .policy = c->policy,
	    .host_uid = c->host_uid,
	    .host_gid = c->host_gid,
	    .created = f->created,
	    .destroyed = f->destroyed,
	    .reason = "launcher_error",
	    .flags = WARD_R_BIT(WARD_R_LAUNCHER_ERROR),
	    .exit_code = f->exit_code,
	    .target_exit = -1,
	    .started = f->supervised,
	    .seccomp_listener = c->seccomp_listener,
	    .cg = &f->cg,
	    .stats = f->cg.active ? &f->stats : NULL,
	    .outcome = o,
	    .violation = &v,
	    .output = c->have_out && o ? &c->out : NULL,
	    .cleanup = f->cg.active ? &f->cleanup : NULL,
	    .net = f->denials,
	    .nnet = f->ndenials,
	    .net_checked = f->net_checked,
	    .channel = &c->ch,
	    .ws = ws,
	    .error = f->have_error ? f->error : NULL,
	    .queue = f->queue.used ? &f->queue : NULL,
	    .t = &f->t,
	    .exec_ns = o && o->measured ? o->id.exec_ns : 0,
	};
	ward_err err = {0};

	/* Refused in the queue: a reason of its own (exit status 124), or
	 * the signal that ended the wait. */
	if (!o && f->queue.timed_out) {
		rep.reason = ward_reason_name(WARD_R_QUEUE_TIMEOUT);
		rep.flags = WARD_R_BIT(WARD_R_QUEUE_TIMEOUT);
	} else if (!o && f->queue.interrupted) {
		rep.reason = ward_reason_name(WARD_R_INTERRUPTED);
		rep.flags = WARD_R_BIT(WARD_R_INTERRUPTED);
	}
	if (o && lim) {
		ward_verdict(o, f->cg.active ? &f->stats : NULL, lim, &verdict);
		v.name = ward_violation_name(c->policy, &v);
		rep.verdict = &verdict;
		rep.reason = ward_reason_name(verdict.reason);
		rep.flags = verdict.flags;
		rep.applied =
		    o->end == WARD_END_STATUS || o->end == WARD_END_EXEC ||
		    (o->end == WARD_END_UNKNOWN && o->stop != WARD_STOP_NONE);
		if (o->end == WARD_END_STATUS && WIFSIGNALED(o->status))
			rep.signal = WTERMSIG(o->status);
		else if (o->end == WARD_END_STATUS)
			rep.target_exit = WEXITSTATUS(o->status);
		else if (o->end == WARD_END_UNKNOWN &&
			 o->stop != WARD_STOP_NONE)
			rep.signal = SIGKILL;
	}
	rep.done_ns = ward_now_ns();
	if (c->report_fd >= 0 &&
	    ward_report_write(c->report_fd, &rep, &err) < 0) {
		char buf[WARD_ERR_MSG_MAX + 64];
		fprintf(stderr, "ward: %s\n",
			ward_err_str(&err, buf, sizeof(buf)));
	}
	if (c->verbose)
		ward_report_summary(stderr, &rep);
}

/* ------------------------------------------------------------ the run */

int ward_courier_run(struct ward_courier *c)
{
	static struct ward_facts facts; /* large: not on the stack */
	struct ward_workspace ws = {0};
	ward_err err = {0};
	char gone = 0;

	/* Signals to the caller's process group are the supervisor's to
	 * handle; ours must not cut the report short. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	if (c->ws)
		ws = *c->ws;
	c->ch.diff = c->report_fd >= 0;
	if (c->will_run) {
		if (ward_channel_snapshot(&c->ch, c->policy, c->slots,
					  c->nslots, &err) < 0) {
			char buf[WARD_ERR_MSG_MAX];
			say(c, WARD_C_REFUSE,
			    ward_err_str(&err, buf, sizeof(buf)));
		} else {
			say(c, WARD_C_READY, NULL);
		}
	}
	if (c->have_out)
		pump(c);
	/* Nothing of the sandbox may be read before it is all gone. */
	if (!hear(c, &gone, 1))
		return 1;
	if (gone == WARD_S_GONE_RAN && c->policy)
		ward_channel_finish(&c->ch, c->policy);
	if (c->ws && c->ws->fd >= 0 && !c->ws->keep &&
	    ward_workspace_empty(c->ws->fd, &ws.rm, &err) < 0)
		ward_err_str(&err, ws.error, sizeof(ws.error));
	say(c, WARD_C_EMPTIED, NULL);
	if (!hear(c, &facts, sizeof(facts)))
		return 1;
	if (c->ws) {
		ws.removed = facts.ws_removed;
		ws.destroyed = facts.ws_destroyed;
		ws.rm.removed += facts.ws_rm_removed;
		if (!ws.error[0])
			memcpy(ws.error, facts.ws_error, sizeof(ws.error));
	}
	report(c, &facts, c->ws ? &ws : NULL);
	ward_channel_free(&c->ch);
	return 0;
}
