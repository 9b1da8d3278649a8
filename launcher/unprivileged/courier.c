/* SPDX-License-Identifier: MIT */
/*
 * courier.c: see courier.h.
 */
#include "courier.h"

#include "fdpass.h"
#include "inputs.h"
#include "report.h"
#include "verdict.h"
#include "workspace_empty.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
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

/* ------------------------------------------------------------ mounts */

/* The slot of mount entry i: its host path, from the slots the supervisor
 * matched. */
static const char *slot_host(const struct ward_courier *c, const char *name)
{
	for (size_t i = 0; i < c->nslots; i++)
		if (!strcmp(c->slots[i].name, name))
			return c->slots[i].path;
	return NULL;
}

/* A read-write slot's tmpfs, filled from the host as soon as init hands
 * it, before anything is mounted on it: a mount of the policy's under
 * the slot then meets what the host directory holds (a planted symlink
 * where a mountpoint should be is refused by init, as on the host). */
static void fill(struct ward_courier *c, struct ward_slotfs *m)
{
	char reply = WARD_HAND_FILLED;
	ward_err err = {0};

	if (ward_slotfs_fill(m, &err) < 0) {
		ward_err_str(&err, m->error, sizeof(m->error));
		reply = WARD_HAND_FAILED;
	}
	/* A reply that cannot be written is init's EOF: it gives up. */
	(void)!write(c->hand, &reply, 1);
}

/* One message of init's: a writable mount, the end of the list, or the
 * program file (the last). */
static void on_hand(struct ward_courier *c)
{
	const struct ward_policy *p = c->policy;
	static struct ward_hand_program prog;
	struct ward_hand_msg msg;
	ssize_t n;
	int fd;

	memset(&prog, 0, sizeof(prog));
	n = ward_recv_msg(c->hand, &prog, sizeof(prog) - 1, &fd);
	msg = prog.m;
	if (n == (ssize_t)sizeof(msg) && msg.kind == WARD_HAND_END && fd < 0) {
		c->mounts_done = true;
		return;
	}
	if (n > (ssize_t)sizeof(msg) && msg.kind == WARD_HAND_PROGRAM) {
		ward_evidence_program(&c->ev, &prog, fd);
		fd = -1;
	} else if (n == (ssize_t)sizeof(msg) && msg.kind == WARD_HAND_MOUNT &&
		   fd >= 0 && p && msg.index < p->nmounts &&
		   c->nmounts < WARD_COURIER_MOUNTS) {
		const struct ward_mount *pm = &p->mounts[msg.index];
		struct ward_slotfs *m = &c->mounts[c->nmounts++];

		*m = (struct ward_slotfs){.index = msg.index,
					  .dst = pm->dst,
					  .size = pm->size,
					  .fd = fd};
		if (pm->kind == WARD_MNT_SLOT) {
			m->name = pm->src;
			m->host = slot_host(c, pm->src);
		}
		if (m->host)
			fill(c, m);
		return;
	}
	if (fd >= 0)
		close(fd);
	/* The program, its socket's end, or anything else: nothing more
	 * comes, and the sandbox is set up (or gone): the inputs' turn. */
	close(c->hand);
	c->hand = -1;
	c->mounts_done = true;
	c->ev.started = true;
}

static void sample_all(struct ward_courier *c)
{
	for (size_t i = 0; i < c->nmounts; i++)
		ward_slotfs_sample(&c->mounts[i]);
}

/* ------------------------------------------------------------ streams */

static bool streams_done(const struct ward_output *out)
{
	for (int i = 0; i < 2; i++)
		if (out->s[i].rd >= 0 || ward_output_pending(out, i))
			return false;
	return true;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Drain, cap, digest and deliver both streams until every writer is gone
 * (the whole sandbox) and what was kept is delivered, taking init's
 * writable mounts meanwhile and reading their use. Delivery never blocks
 * the draining: kept bytes wait in a buffer. */
static void pump(struct ward_courier *c)
{
	struct ward_output *out = &c->out;
	bool told = false;
	uint64_t next = 0;

	while (!streams_done(out) || c->hand >= 0) {
		struct pollfd pfd[6];
		int timeout = -1;

		for (int i = 0; i < 2; i++) {
			pfd[i] = (struct pollfd){-1, POLLIN, 0};
			pfd[2 + i] = (struct pollfd){-1, POLLOUT, 0};
			if (ward_output_can_read(out, i))
				pfd[i].fd = out->s[i].rd;
			if (ward_output_pending(out, i) && !out->s[i].dest_file)
				pfd[2 + i].fd = out->s[i].dest;
		}
		pfd[4] = (struct pollfd){c->hand, POLLIN, 0};
		pfd[5] = (struct pollfd){c->events_fd, POLLIN, 0};
		if (c->nmounts) {
			uint64_t now = now_ms();
			if (now >= next) {
				sample_all(c);
				next = now + WARD_COURIER_SAMPLE_MS;
			}
			timeout = (int)(next - now);
		}
		/* A digest step after each poll while one is left. */
		if (ward_evidence_pending(&c->ev))
			timeout = 0;
		if (poll(pfd, 6, timeout) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[4].revents)
			on_hand(c);
		if (pfd[5].revents & POLLIN)
			ward_cell_diff_serve(c);
		else if (pfd[5].revents)
			c->events_fd = -1; /* S is gone */
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
		if (ward_evidence_pending(&c->ev))
			ward_evidence_step(&c->ev);
	}
	for (int i = 0; i < 2; i++)
		if (out->s[i].rd >= 0) {
			close(out->s[i].rd);
			out->s[i].rd = -1;
		}
	ward_output_finish(out);
}

/* After the run: the last reading, the slots back on the host, and the
 * trace of an EFBIG (a file that ends at `filesize`). */
static void mounts_after(struct ward_courier *c, bool ran)
{
	const struct ward_limits *l = c->policy ? &c->policy->limits : NULL;

	sample_all(c);
	for (size_t i = 0; ran && i < c->nmounts; i++) {
		struct ward_slotfs *m = &c->mounts[i];

		ward_slotfs_copy_back(m);
		if (l && ward_limit_is_set(l, WARD_LIM_FILESIZE))
			m->at_size = ward_slotfs_at_size(
			    m->fd, l->value[WARD_LIM_FILESIZE], m->at_size_path,
			    sizeof(m->at_size_path));
	}
}

/* ------------------------------------------------------------ report */

static void report(struct ward_courier *c, const struct ward_facts *f,
		   struct ward_workspace *ws)
{
	const struct ward_outcome *o = f->supervised ? &f->outcome : NULL;
	const struct ward_limits *lim = c->policy ? &c->policy->limits : NULL;
	struct ward_violation v = o ? o->seccomp : (struct ward_violation){0};
	static struct ward_broker_facts broker; /* large: not on the stack */
	struct ward_verdict verdict = {0};
	struct ward_report rep = {
	    .run_id = f->run_id[0] ? f->run_id : NULL,
	    .policy_name = c->policy ? c->policy->meta.policy_name : NULL,
	    .digest_hex = c->digest_hex,
	    .signer = c->signer,
	    .mode = c->mode,
	    .policy = c->policy,
	    .host_uid = c->host_uid,
	    .host_gid = c->host_gid,
	    .host_groups = c->host_groups,
	    .nhost_groups = c->nhost_groups,
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
	    .broker = &broker,
	    .channel = &c->ch,
	    .ws = ws,
	    .mounts = c->mounts,
	    .nmounts = c->nmounts,
	    .argv = c->argv,
	    .ev = &c->ev,
	    .slots = c->slots,
	    .nslots = c->nslots,
	    .error = f->have_error ? f->error : NULL,
	    .queue = f->queue.used ? &f->queue : NULL,
	    .t = &f->t,
	    .exec_ns = o && o->measured ? o->id.exec_ns : 0,
	};
	ward_err err = {0};

	ward_broker_facts_take(&f->broker, &broker);
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
		for (size_t i = 0; i < c->nmounts; i++) {
			if (c->mounts[i].full)
				verdict.flags |= WARD_R_BIT(WARD_R_DISK_FULL);
			if (c->mounts[i].at_size)
				verdict.flags |=
				    WARD_R_BIT(WARD_R_FILESIZE_LIMIT);
		}
		for (int i = 0; c->have_out && i < 2; i++)
			if (c->out.s[i].total > c->out.s[i].kept)
				verdict.flags |=
				    WARD_R_BIT(WARD_R_OUTPUT_TRUNCATED);
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

/* Every --input into its slot's directory of the workspace, read with our
 * ids (in root mode the run's: what they may not read is refused, with
 * the reason; root never reads it). Before the snapshot, so that the file
 * diff of a read-write input shows what the sandbox changed. */
static int copy_inputs(const struct ward_courier *c, ward_err *err)
{
	for (size_t i = 0; i < c->ninputs; i++) {
		if (!c->ws || c->ws->fd < 0)
			return ward_fail(err, EBADF, "--input %s: no workspace",
					 c->inputs[i].name);
		if (ward_input_copy(c->ws->fd, c->inputs[i].name,
				    c->inputs[i].path, NULL, err) < 0) {
			char msg[sizeof(err->msg)];

			if (err->code != EACCES || !c->mode ||
			    strcmp(c->mode, "root"))
				return -1;
			snprintf(msg, sizeof(msg), "%s", err->msg);
			return ward_fail(err, EACCES,
					 "%s (as root, an input is read with "
					 "the run's host ids, uid %u: it must "
					 "be readable by them)",
					 msg, (unsigned)c->host_uid);
		}
	}
	return 0;
}

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
	ward_evidence_init(&c->ev, c->report_fd >= 0 && c->will_run, c->inputs,
			   c->ninputs, c->slots, c->nslots);
	c->ch.diff = c->report_fd >= 0;
	if (c->will_run) {
		if (copy_inputs(c, &err) < 0 ||
		    ward_channel_snapshot(&c->ch, c->policy, c->slots,
					  c->nslots, &err) < 0) {
			char buf[WARD_ERR_MSG_MAX];
			say(c, WARD_C_REFUSE,
			    ward_err_str(&err, buf, sizeof(buf)));
		} else {
			say(c, WARD_C_READY, NULL);
		}
	}
	if (c->have_out || c->hand >= 0)
		pump(c);
	/* What was not digested during the run, before anything is
	 * copied back into a snapshot. */
	ward_evidence_finish(&c->ev);
	/* Nothing of the sandbox may be read before it is all gone. */
	if (!hear(c, &gone, 1))
		return 1;
	mounts_after(c, gone == WARD_S_GONE_RAN);
	if (gone == WARD_S_GONE_RAN && c->policy)
		ward_channel_finish(&c->ch, c->policy);
	if (c->ws && c->ws->fd >= 0 && !c->ws->keep &&
	    ward_workspace_empty(c->ws->fd, &ws.rm, &err) < 0)
		ward_err_str(&err, ws.error, sizeof(ws.error));
	say(c, WARD_C_EMPTIED, NULL);
	/* The facts' head, the cgroups if the run had some, as much of the
	 * broker's records as their length says (facts.h). */
	if (!hear(c, &facts, WARD_FACTS_HEAD) ||
	    (facts.have_cg && !hear(c, &facts.cg, sizeof(facts.cg))) ||
	    !hear(c, &facts.broker, WARD_FACTS_CARRIER) ||
	    facts.broker.len > sizeof(facts.broker.bytes) ||
	    !hear(c, facts.broker.bytes, facts.broker.len))
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
