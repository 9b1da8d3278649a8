/* SPDX-License-Identifier: MIT */
/*
 * ward: apply a compiled policy and run a program in it.
 *
 * This file is the supervisor's flat, ordered list of steps:
 *
 *   prepare    everything that can be refused is refused here, before any
 *              process or cgroup exists: usage, privilege, the files ward
 *              writes for the caller, the blob file and its digest, the
 *              blob's contents, what the host can enforce (cgroups
 *              included), the workspace, the slots
 *   queue      a slot among the host's sandboxes, in turn (admit.c): the
 *              holder, a fork that drops every privilege, waits in the
 *              queue and holds the slot; the ceiling is host-wide, the
 *              wait has a timeout
 *   courier    the target's pipes, then the courier (courier.c): a fork
 *              that drops every privilege and handles all that comes out
 *              of the sandbox; it checks and snapshots the writable slots
 *              and says READY, or why not (heard in spawn: it gets ready
 *              while the sandbox is made)
 *   create     the run's cgroups and their limits, the seccomp listener's
 *              socket
 *   spawn      one clone3() makes init (init.c) in its cgroup2 directory;
 *              its v1 cgroups are joined while it is still held, the
 *              broker is made, init is released to build the sandbox, and
 *              a second byte lets it start the target once the courier and
 *              the broker are both ready
 *   supervise  the loop (supervise.c): exit, signals, wall time, the
 *              courier's word, seccomp kills
 *   finish     on every path: kill what is left, read the counters, remove
 *              the cgroups
 *   deliver    tell the courier the sandbox is gone; it diffs, exports and
 *              empties the workspace; then the workspace's empty
 *              directories are removed here and the facts go to the
 *              courier, which writes the report
 *
 * The supervisor never reads what the sandbox wrote: not its streams, not
 * its files, not their names (docs/spec.md 3.1). The order and the reason
 * for it are in docs/spec.md part 3; the report in part 4.
 */
#include "admit.h"
#include "blob_read.h"
#include "blobfile.h"
#include "broker_proc.h"
#include "cgroup.h"
#include "check.h"
#include "cli.h"
#include "courier.h"
#include "drop.h"
#include "exec.h"
#include "exitcode.h"
#include "facts.h"
#include "hardening.h"
#include "launch.h"
#include "net.h"
#include "ns.h"
#include "outputs.h"
#include "privilege.h"
#include "reclaim.h"
#include "session.h"
#include "sha256.h"
#include "supervise.h"
#include "upstream.h"
#include "workspace.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

struct run {
	struct ward_cli cli;
	struct ward_priv priv;
	bool have_priv;
	uint8_t *buf;
	size_t len;
	char digest_hex[65];
	char signer[17]; /* the trusted key's id, "" when not verified */
	struct ward_blob blob;
	bool have_blob;
	struct ward_launch l;
	struct ward_outputs outs;
	int stdin_fd, sigfd;
	int pipe_rd[2], pipe_wr[2]; /* the target's stdout and stderr */
	bool have_pipes;
	int notify_rd; /* the supervisor's end of the listener's socket */
	int oom_fd;    /* ward_cg_oom_watch, or -1 */
	int ids_fd;    /* root mode: the lock on this run's host ids, or -1 */
	struct ward_cgroup cg;
	struct ward_net_state net;
	struct ward_broker_proc broker; /* answers the seccomp notifications */
	struct ward_child child;
	bool spawned, supervised;
	struct ward_cg_cleanup cleanup;
	pid_t courier;		      /* 0 before it is made */
	int to_courier, from_courier; /* our ends of its pipes */
	bool told_gone;		      /* the courier has its GONE byte */
	bool emptied;		      /* and its EMPTIED came already */
	struct ward_facts facts;      /* what the courier is told at the end */
	struct ward_admission adm;    /* the run's slot among the host's */
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void run_free(struct run *r)
{
	if (r->have_blob)
		ward_blob_release(&r->blob);
	free(r->buf);
	free(r->l.slots);
	free(r->l.envp);
	ward_outputs_free(&r->outs);
	ward_cli_free(&r->cli);
	close_fd(&r->stdin_fd);
	close_fd(&r->sigfd);
	for (int i = 0; i < 2; i++) {
		close_fd(&r->pipe_rd[i]);
		close_fd(&r->pipe_wr[i]);
	}
	close_fd(&r->notify_rd);
	close_fd(&r->oom_fd);
	close_fd(&r->ids_fd);
	close_fd(&r->l.notify_wr);
	close_fd(&r->l.hand_wr);
	close_fd(&r->to_courier);
	close_fd(&r->from_courier);
	ward_cg_close(&r->cg);
}

/* Descriptors 0, 1 and 2 must be open, or the pipes made later could take
 * their numbers. */
static int ensure_stdio(ward_err *err)
{
	for (int fd = 0; fd < 3; fd++) {
		int n;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		n = open("/dev/null", O_RDWR | O_NOCTTY);
		if (n != fd)
			return ward_fail(err, errno, "open /dev/null as fd %d",
					 fd);
	}
	return 0;
}

static int load_blob(struct run *r, ward_err *err)
{
	uint8_t digest[32];

	if (ward_blobfile_load(r->cli.blob_path, &r->priv, r->cli.expect_digest,
			       &r->buf, &r->len, digest, err) < 0)
		return -1;
	ward_hex(digest, sizeof(digest), r->digest_hex);
	/* Signed profiles: verified before the blob is parsed, so that only
	 * a trusted key's blob reaches the reader. */
	if (r->cli.ntrusted &&
	    ward_blobfile_verify(r->cli.blob_path, r->cli.trusted_keys,
				 r->cli.ntrusted, &r->priv, digest, r->signer,
				 err) < 0)
		return -1;
	if (ward_blob_read(r->buf, r->len, ward_native_arch(), &r->blob, err) <
	    0)
		return -1;
	r->have_blob = true;
	return 0;
}

static int open_stdin(struct run *r, ward_err *err)
{
	const char *path = r->cli.stdin_path ? r->cli.stdin_path : "/dev/null";

	if (!strcmp(path, "-")) {
		r->l.stdio[0] = 0;
		return 0;
	}
	r->stdin_fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (r->stdin_fd < 0)
		return ward_fail(err, errno, "--stdin %s", path);
	r->l.stdio[0] = r->stdin_fd;
	return 0;
}

/* Signals that must reach the target go through the supervisor's loop. */
static int catch_signals(struct run *r, ward_err *err)
{
	sigset_t set;

	/* A write to a pipe whose reader is gone (init died, the courier
	 * died) is an error to handle, not a reason to die. The target
	 * gets SIGPIPE back. */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return ward_fail(err, errno, "sigprocmask");
	r->sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (r->sigfd < 0)
		return ward_fail(err, errno, "signalfd");
	return 0;
}

/* Which cgroups the run needs and where they go; refused here (rootless
 * without delegation, a controller the host lacks) before anything
 * exists. */
static int plan_cgroups(struct run *r, ward_err *err)
{
	const struct ward_policy *p = &r->blob.policy;
	struct ward_cg_host host;
	struct ward_cg_request rq = {
	    .need = ward_cg_needed(p),
	    /* NET: the allow-list's programs go on the broker's cgroup2
	     * directory in root mode; required when the broker alone
	     * cannot hold the list (net.h). */
	    .need_v2 = p->net.mode == WARD_NET_ALLOWLIST &&
		       r->priv.mode == WARD_MODE_ROOT &&
		       (p->requirements & WARD_REQ_NET_BPF),
	    .broker_dir = p->net.mode == WARD_NET_ALLOWLIST &&
			  r->priv.mode == WARD_MODE_ROOT,
	    .base = r->cli.cgroup_base,
	    .mode = r->priv.mode,
	    .uid = r->priv.caller_uid,
	};

	if (!rq.need && !rq.need_v2 && !rq.broker_dir) {
		r->cg.v2 = -1;
		for (int c = 0; c < WARD_CG_NCTRL; c++)
			r->cg.by_ctrl[c] = -1;
		return 0;
	}
	if (ward_cg_detect("/proc/self/mountinfo", "/proc/self/cgroup", &host,
			   err) < 0)
		return -1;
	return ward_cg_plan(&host, &rq, &r->cg, err);
}

static int prepare(struct run *r, ward_err *err)
{
	const struct ward_policy *p;
	mode_t mask;

	if (ward_priv_detect(&r->priv, r->cli.host_uid, r->cli.host_gid, err) <
	    0)
		return -1;
	/* Root mode: ids of its own for this run, unless the caller chose. */
	if (r->cli.host_uid < 0 && r->cli.host_gid < 0 &&
	    ward_priv_run_ids(&r->priv, WARD_RUN_ID_LOCK, &r->ids_fd, err) < 0)
		return -1;
	r->have_priv = true;
	if (ward_outputs_open_files(&r->outs, &r->cli, err) < 0 ||
	    load_blob(r, err) < 0)
		return -1;
	p = &r->blob.policy;
	/* A recording blob lets every call but the dangerous ones through:
	 * only a run that asked to record runs it (docs/spec.md 4.9). */
	if (!(p->requirements & WARD_REQ_RECORD) != !r->cli.record_path)
		return ward_fail(err, 0,
				 r->cli.record_path
				     ? "--record: the blob has no recording "
				       "program (compile it with `wardc "
				       "compile --record`)"
				     : "the blob is a recording variant "
				       "(`wardc compile --record`): it runs "
				       "only with --record FILE");
	if (ward_check_policy(p, err) < 0 ||
	    ward_priv_check_groups(
		&r->priv, p->requirements & WARD_REQ_HOST_GROUPS, err) < 0)
		return -1;
	/* NET: can this host and mode enforce the allow-list? */
	if (p->net.mode != WARD_NET_NONE &&
	    (ward_net_check_host(&p->net, p->requirements, r->priv.mode, err) <
		 0 ||
	     ward_net_check_proxy(&p->net, ward_proxy_text(), err) < 0))
		return -1;
	/* The workspace's slots join the caller's before they are matched. */
	if (ward_outputs_prepare(&r->outs, p, &r->cli, &r->priv, err) < 0)
		return -1;
	if (r->outs.have_ws)
		r->outs.ws.reclaimed = ward_reclaim(
		    r->outs.ws.base_fd, r->priv.mode == WARD_MODE_ROOT);
	r->l.slots = calloc(p->nmounts, sizeof(*r->l.slots));
	if (!r->l.slots)
		return ward_fail(err, ENOMEM, "slots");
	if (ward_check_slots(p, &r->cli, r->l.slots, err) < 0 ||
	    ward_outputs_lend_slots(&r->outs, p, &r->cli, &r->priv, err) < 0)
		return -1;
	r->l.envp = ward_build_env(p, environ, err);
	if (!r->l.envp || open_stdin(r, err) < 0 || plan_cgroups(r, err) < 0 ||
	    catch_signals(r, err) < 0)
		return -1;
	r->l.policy = p;
	r->l.priv = r->priv;
	r->l.argv = r->cli.argv;
	mask = umask(0);
	umask(mask);
	r->l.umask = mask;
	r->l.cgroup_fd = -1;
	/* Root's supplementary groups would follow init into the sandbox,
	 * where they could not be dropped any more (setgroups is denied). */
	if (r->priv.mode == WARD_MODE_ROOT && setgroups(0, NULL) < 0)
		return ward_fail(err, errno, "setgroups");
	r->facts.t.prepared = ward_now_ns();
	return 0;
}

/* Everything that can be refused was: now wait, in turn, for one of the
 * host's sandbox slots (admit.c). The holder keeps it until the sandbox
 * is gone (finish); in ward's own cgroup, it moves with ward. */
static int admit(struct run *r, ward_err *err)
{
	if (ward_admit(&r->adm, r->cli.max_sandboxes, r->cli.queue_timeout,
		       r->cli.queue_dir, &r->priv, r->sigfd, err) < 0)
		return -1;
	r->cg.holder = r->adm.holder;
	r->facts.t.admitted = ward_now_ns();
	return 0;
}

/* The target's stdout and stderr: pipes the courier reads (never ward's
 * own descriptors, so no terminal reaches the sandbox). */
static int make_pipes(struct run *r, ward_err *err)
{
	static const char *const names[2] = {"stdout", "stderr"};

	for (int i = 0; i < 2; i++) {
		int fds[2];

		if (pipe2(fds, O_CLOEXEC) < 0)
			return ward_fail(err, errno, "pipe for %s", names[i]);
		r->pipe_rd[i] = fds[0];
		r->pipe_wr[i] = fds[1];
		r->l.stdio[1 + i] = fds[1];
		if (fcntl(fds[0], F_SETFL, O_NONBLOCK) < 0)
			return ward_fail(err, errno, "O_NONBLOCK");
		/* A pipe's inode is its maker's, 0600: the sandbox user could
		 * not reopen its own stdout as /dev/stdout (`echo x >
		 * /dev/stderr` in a script: EACCES). Writing is all it gains;
		 * /proc/PID/fd of the sandbox is closed to other users. */
		if (fchmod(fds[1], 0622) < 0)
			return ward_fail(err, errno, "fchmod the %s pipe",
					 names[i]);
	}
	r->have_pipes = true;
	return 0;
}

/* ---------------------------------------------------------------- courier */

/* The courier's life, in the child: the privileges go first. */
static _Noreturn void courier_main(struct run *r, struct ward_courier *c,
				   pid_t parent)
{
	/* Before the ids were checked (a refusal of them), root's courier
	 * is nobody. */
	const bool root =
	    r->have_priv ? r->priv.mode == WARD_MODE_ROOT : geteuid() == 0;
	const struct ward_drop d = {
	    .change_ids = root,
	    .uid = r->have_priv ? r->priv.host_uid : WARD_DEFAULT_HOST_ID,
	    .gid = r->have_priv ? r->priv.host_gid : WARD_DEFAULT_HOST_ID,
	    .parent = parent,
	};
	const int keep[] = {c->report_fd,
			    c->hand,
			    r->pipe_rd[0],
			    r->pipe_rd[1],
			    r->outs.stdout_fd,
			    r->outs.stderr_fd,
			    r->outs.export_fd,
			    r->outs.manifest_fd,
			    c->ws ? c->ws->fd : -1,
			    c->to_sup,
			    c->from_sup,
			    c->events_fd};
	ward_err err = {0};

	/* (the holder's socket is closed with the rest: only the
	 * supervisor ends the holder) */
	if (ward_close_fds_except(keep, ARRAY_LEN(keep), &err) < 0 ||
	    ward_drop_privileges(&d, &err) < 0) {
		struct ward_courier_msg m = {.kind = WARD_C_REFUSE};
		char buf[WARD_ERR_MSG_MAX + 64];

		snprintf(m.text, sizeof(m.text), "the courier: %s",
			 ward_err_str(&err, buf, sizeof(buf)));
		if (write(c->to_sup, &m, sizeof(m)) < 0)
			_exit(2);
		_exit(1);
	}
	/* From here on nothing is privileged: the courier's own state. */
	ward_channel_init(&c->ch);
	c->ch.export_fd = r->outs.export_fd;
	c->ch.manifest_fd = r->outs.manifest_fd;
	if (c->have_out) {
		ward_output_init(&c->out, &c->policy->limits,
				 r->outs.stdout_fd >= 0 ? r->outs.stdout_fd : 1,
				 r->outs.stderr_fd >= 0 ? r->outs.stderr_fd
							: 2);
		c->out.s[0].rd = r->pipe_rd[0];
		c->out.s[1].rd = r->pipe_rd[1];
	}
	_exit(ward_courier_run(c));
}

/* A message of the courier's, as ward may print it: a name of the
 * sandbox's may be in it, and reaches the caller's terminal. */
static void printable(char *s)
{
	for (; *s; s++)
		if (!isprint((unsigned char)*s))
			*s = '?';
}

static int start_courier(struct run *r, bool will_run, ward_err *err)
{
	static struct ward_courier c;
	static struct ward_channel_arg *args, *inputs;
	const struct ward_policy *p = r->have_blob ? &r->blob.policy : NULL;
	int to[2], from[2], hand[2] = {-1, -1};
	pid_t parent = getpid();

	args = calloc(r->cli.nslots ? r->cli.nslots : 1, sizeof(*args));
	if (!args)
		return ward_fail(err, ENOMEM, "the courier");
	inputs = calloc(r->cli.ninputs ? r->cli.ninputs : 1, sizeof(*inputs));
	if (!inputs)
		return ward_fail(err, ENOMEM, "the courier");
	for (size_t i = 0; i < r->cli.nslots; i++)
		args[i] = (struct ward_channel_arg){r->cli.slots[i].name,
						    r->cli.slots[i].path};
	for (size_t i = 0; i < r->cli.ninputs; i++)
		inputs[i] = (struct ward_channel_arg){r->cli.inputs[i].name,
						      r->cli.inputs[i].path};
	/* Field by field, not a compound literal: c is zero already (it is
	 * static and made once), and assigning the whole would write all of
	 * its 137 KiB, mostly the courier's stream buffers, each page then
	 * copied again on the courier's first write after the fork. */
	c.policy = p;
	c.digest_hex = r->digest_hex[0] ? r->digest_hex : NULL;
	c.signer = r->signer[0] ? r->signer : NULL;
	c.mode = r->have_priv ? ward_mode_name(r->priv.mode) : NULL;
	c.host_uid = r->priv.host_uid;
	c.host_gid = r->priv.host_gid;
	/* What init, a clone of this process, will hold: rootless the
	 * caller's groups (refused unless the policy keeps them), as root
	 * none (cleared above). The courier may not ask: getgroups is not in
	 * its filter. */
	c.nhost_groups = getgroups(ARRAY_LEN(c.host_groups), c.host_groups);
	c.will_run = will_run;
	c.verbose = r->cli.verbose;
	c.seccomp_listener = p && (p->requirements & WARD_REQ_SECCOMP_NOTIFY);
	c.slots = args;
	c.nslots = r->cli.nslots;
	c.argv = r->cli.argv;
	c.inputs = inputs;
	c.ninputs = r->cli.ninputs;
	c.report_fd = r->outs.report_fd;
	c.have_out = r->have_pipes && p;
	c.ws = r->outs.have_ws ? &r->outs.ws : NULL;
	/* init hands the courier the sandbox's writable mounts here. */
	if (will_run &&
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, hand) < 0)
		return ward_fail(err, errno, "socketpair for the courier");
	c.hand = hand[0];
	c.events_fd = r->cli.events_fd;
	r->l.hand_wr = hand[1];
	if (pipe2(to, O_CLOEXEC) < 0)
		return ward_fail(err, errno, "pipe to the courier");
	if (pipe2(from, O_CLOEXEC) < 0) {
		close(to[0]);
		close(to[1]);
		return ward_fail(err, errno, "pipe from the courier");
	}
	c.from_sup = to[0];
	c.to_sup = from[1];
	r->courier = fork();
	if (r->courier < 0) {
		r->courier = 0;
		ward_fail(err, errno, "fork the courier");
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		return -1;
	}
	if (r->courier == 0)
		courier_main(r, &c, parent);
	close(to[0]);
	close(from[1]);
	if (hand[0] >= 0)
		close(hand[0]);
	r->to_courier = to[1];
	r->from_courier = from[0];
	/* Only the courier reads the streams. */
	close_fd(&r->pipe_rd[0]);
	close_fd(&r->pipe_rd[1]);
	r->facts.t.courier = ward_now_ns();
	return 0;
}

/* One message of the courier's (blocking); 0 at its end. */
static int hear_courier(struct run *r, struct ward_courier_msg *m)
{
	ssize_t n;

	do
		n = read(r->from_courier, m, sizeof(*m));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(*m))
		return 0;
	m->text[sizeof(m->text) - 1] = '\0';
	printable(m->text);
	return 1;
}

/* The courier has checked and snapshotted the writable slots. Heard
 * while init is held (spawn), so that its privilege drop and the snapshot
 * overlap the namespaces' creation; nothing of the sandbox runs before. */
static int courier_ready(struct run *r, ward_err *err)
{
	struct ward_courier_msg m;

	if (!hear_courier(r, &m))
		return ward_fail(err, 0, "the courier ended before the run");
	if (m.kind == WARD_C_REFUSE)
		return ward_fail(err, 0, "%s", m.text);
	if (m.kind != WARD_C_READY)
		return ward_fail(err, 0, "the courier said %u", m.kind);
	return 0;
}

/* ---------------------------------------------------------------- run */

/* ward --upstream-proxy, for the programs of the broker's cgroup: the
 * one destination they let its sockets reach beside the policy's
 * (net.h). */
static bool proxy_also(const struct ward_policy *p, struct ward_net_also *x)
{
	socklen_t len;

	if (!ward_proxy_on() || !p->net.nnames)
		return false;
	ward_net_also_of(ward_proxy_addr(&len), x);
	return true;
}

static int create(struct run *r, ward_err *err)
{
	const struct ward_policy *p = &r->blob.policy;
	struct ward_net_also also;

	clock_gettime(CLOCK_REALTIME, &r->facts.created);
	/* Rootless in a delegated cgroup2, the courier moves with ward. */
	r->cg.courier = r->courier;
	if (r->cg.active) {
		if (ward_cg_create(&r->cg, err) < 0 ||
		    ward_cg_set_limits(&r->cg, &p->limits, "/proc/swaps", err) <
			0)
			return -1;
		if (r->cg.v2 >= 0)
			r->l.cgroup_fd = r->cg.dir[r->cg.v2].fd;
		/* An OOM kill anywhere in the run ends all of it, unless the
		 * policy says the victim alone. */
		if (ward_limit_is_set(&p->limits, WARD_LIM_MEMORY) &&
		    !ward_oom_process(&p->limits) &&
		    (r->oom_fd = ward_cg_oom_watch(&r->cg, err)) < 0)
			return -1;
	}
	/* NET: the programs are attached to the broker's cgroup2
	 * directory (root mode), which exists now, before the broker is
	 * in it and before any process of the sandbox; with names through
	 * an upstream proxy, the proxy is one more destination of theirs. */
	if (p->net.mode == WARD_NET_ALLOWLIST && r->cg.broker &&
	    ward_net_setup_also(&p->net, r->cg.dir[r->cg.broker - 1].fd,
				proxy_also(p, &also) ? &also : NULL, &r->net,
				err) < 0)
		return -1;

	if (p->requirements & WARD_REQ_SECCOMP_NOTIFY) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) <
		    0)
			return ward_fail(err, errno, "socketpair");
		r->notify_rd = sv[0];
		r->l.notify_wr = sv[1];
	}
	r->facts.t.created = ward_now_ns();
	return 0;
}

/* A spawned init that must not go on (init's own reason, if it had one,
 * is not the run's: what refused it is). */
static int abort_init(struct run *r)
{
	ward_err init_err = {0};

	ward_spawn_abort(&r->child, &init_err);
	r->spawned = false;
	return -1;
}

static int spawn(struct run *r, ward_err *err)
{
	const struct ward_policy *p = &r->blob.policy;
	bool broker_wait = false;
	int rc = ward_spawn(&r->l, &r->child, err);

	/* init has its copies; the pipes must end when the sandbox does --
	 * or now, when there is no sandbox: the courier drains them to
	 * their end before it hears how the run ended. */
	close_fd(&r->pipe_wr[0]);
	close_fd(&r->pipe_wr[1]);
	close_fd(&r->l.notify_wr);
	close_fd(&r->l.hand_wr);
	if (rc < 0)
		return -1;
	r->spawned = true;
	/* v1 has no CLONE_INTO_CGROUP: init joins its cgroups while it is
	 * held, before it creates the target. */
	if (r->cg.active && ward_cg_attach_v1(&r->cg, r->child.pid, err) < 0) {
		ward_spawn_abort(&r->child, err);
		r->spawned = false;
		return -1;
	}
	/* BROKER: every notification's answer (kills, recorded refusals,
	 * the sockets of an allow-list), unprivileged; made while init is
	 * held, since it may join init's user namespace (broker_proc.h):
	 * one that does is ready before the release. */
	if (p->requirements & WARD_REQ_SECCOMP_NOTIFY) {
		if (ward_broker_start(
			p, &r->priv,
			r->cg.broker ? r->cg.dir[r->cg.broker - 1].fd : -1,
			r->child.pid, r->outs.record_fd, r->cli.events_fd,
			&r->broker, err) < 0)
			return abort_init(r);
		broker_wait = true;
	}
	if (broker_wait && ward_broker_joins(p, &r->priv)) {
		if (ward_broker_ready(&r->broker, err) < 0)
			return abort_init(r);
		broker_wait = false;
	}
	/* Marked before the release, not after: once released, init can
	 * reach the target's own mark (the report's "exec") before this
	 * process runs again, on a loaded machine (exec was then null). */
	r->facts.t.released = ward_now_ns();
	if (ward_release(&r->child, err) < 0) {
		r->spawned = false;
		return -1;
	}
	/* init builds the sandbox while the courier (started before create)
	 * and the broker get ready; the target starts only when both are
	 * (a refusal of either still ends the run before it runs). */
	if (courier_ready(r, err) < 0 ||
	    (broker_wait && ward_broker_ready(&r->broker, err) < 0))
		return abort_init(r);
	ward_start(&r->child);
	return 0;
}

static bool write_all(int fd, const void *buf, size_t len);

/* The courier learns that nothing of the sandbox is left, once (see
 * deliver). */
static bool tell_gone(struct run *r)
{
	char gone = r->spawned ? WARD_S_GONE_RAN : WARD_S_GONE_NOT;

	if (r->told_gone)
		return true;
	r->told_gone = true;
	return write_all(r->to_courier, &gone, 1);
}

/* init is alone and ending: nothing of the sandbox is left (supervise.h),
 * so the courier may diff and export while the kernel takes the
 * namespaces down. */
static void sandbox_gone(void *arg)
{
	struct run *r = arg;

	if (r->courier && !tell_gone(r))
		fprintf(stderr, "ward: the courier ended early\n");
}

static int supervise(struct run *r, ward_err *err)
{
	const struct ward_limits *l = &r->blob.policy.limits;
	struct ward_watch w = {
	    .child = &r->child,
	    .sigfd = r->sigfd,
	    .wall_ms = ward_limit_is_set(l, WARD_LIM_WALL)
			   ? l->value[WARD_LIM_WALL]
			   : 0,
	    .grace_ms = ward_limit_is_set(l, WARD_LIM_GRACE)
			    ? l->value[WARD_LIM_GRACE]
			    : 0,
	    .courier = r->from_courier,
	    .holder = r->adm.sock,
	    .oom = r->oom_fd,
	    .notify_sock = r->notify_rd,
	    .dns_stub = r->l.policy->net.nnames != 0,
	    .broker = r->broker.pid ? &r->broker : NULL,
	    .cg = &r->cg,
	    .alone = sandbox_gone,
	    .arg = r,
	};
	int rc = ward_supervise(&w, &r->facts.outcome, err);

	r->notify_rd = -1; /* closed by the loop */
	r->emptied = w.emptied;
	r->supervised = true;
	r->facts.t.ended = ward_now_ns();
	return rc;
}

/* NET: the denials the cgroup programs counted (root mode, cgroup2),
 * spelled for the report. */
static void read_denials(struct run *r)
{
	struct ward_net_denial *d = NULL;
	struct ward_facts *f = &r->facts;
	size_t n = 0;
	ward_err err = {0};

	if (r->blob.policy.net.mode != WARD_NET_ALLOWLIST || !r->spawned ||
	    r->net.denied_fd < 0 || ward_net_denials(&r->net, &d, &n, &err) < 0)
		return;
	f->net_checked = true;
	for (size_t i = 0; i < n && i < WARD_FACTS_DENIALS; i++) {
		ward_net_denial_str(&d[i], f->denials[i].what,
				    sizeof(f->denials[i].what));
		f->denials[i].count = d[i].count;
		f->ndenials++;
	}
	free(d);
}

/* On every path once something exists: nothing of the sandbox outlives
 * this. */
static void finish(struct run *r)
{
	/* Supervised to its end, init has been reaped, and with it every
	 * process of its pid namespace: the courier may diff and export now,
	 * while the broker ends and the cgroups go. (On the other paths it
	 * hears it in deliver, after the kill below.) */
	if (r->supervised && r->courier && !tell_gone(r))
		fprintf(stderr, "ward: the courier ended early\n");
	if (r->spawned && !r->supervised) {
		/* The loop could not run: kill and reap. */
		struct ward_watch w = {.child = &r->child, .cg = &r->cg};

		ward_kill_sandbox(&w);
		waitpid(r->child.pid, NULL, 0);
	}
	/* BROKER: nothing is left to notify; its records, and it is gone
	 * before its cgroup is removed (without one, it is reaped last). */
	ward_broker_end(&r->broker, &r->facts.broker, r->cg.broker != 0);
	/* The streams end for the courier with the last writer, and so
	 * does init's socket (there may never have been an init). */
	close_fd(&r->pipe_wr[0]);
	close_fd(&r->pipe_wr[1]);
	close_fd(&r->l.hand_wr);
	if (r->cg.active)
		ward_cg_read_stats(&r->cg, &r->facts.stats);
	read_denials(r);
	ward_net_teardown(&r->net);
	if (r->cg.active)
		ward_cg_remove(&r->cg, &r->facts.cleanup);
	clock_gettime(CLOCK_REALTIME, &r->facts.destroyed);
	/* Nothing of the sandbox is left: the next run may start. */
	ward_admission_release(&r->adm);
	r->facts.t.finished = ward_now_ns();
}

/* ---------------------------------------------------------------- deliver */

static void print_err(const char *what, const ward_err *err)
{
	char buf[WARD_ERR_MSG_MAX + 128];

	fprintf(stderr, "ward: %s%s\n", what,
		ward_err_str(err, buf, sizeof(buf)));
}

static bool write_all(int fd, const void *buf, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = write(fd, (const char *)buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		off += (size_t)n;
	}
	return true;
}

/* Until the courier says EMPTIED (or ends). A signal to ward meanwhile
 * ends the wait: the courier is then killed, and what it had not yet
 * delivered is lost (as a caller that stops reading ward's stdout asks). */
static bool courier_emptied(struct run *r)
{
	if (r->emptied)
		return true;
	for (;;) {
		struct pollfd pfd[2] = {{r->from_courier, POLLIN, 0},
					{r->sigfd, POLLIN, 0}};
		struct ward_courier_msg m;

		if (poll(pfd, r->sigfd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		if (pfd[1].revents) {
			kill(r->courier, SIGKILL);
			return false;
		}
		if (!hear_courier(r, &m))
			return false;
		if (m.kind == WARD_C_EMPTIED)
			return true;
	}
}

/* The end of every run: the courier learns that nothing of the sandbox is
 * left, exports and empties the workspace; then the workspace's empty
 * directories go, and the facts, from which the courier writes the
 * report. */
static void deliver(struct run *r, int code, const ward_err *failure)
{
	struct ward_facts *f = &r->facts;
	ward_err err = {0};
	int status;

	/* A refusal with no report to write and nothing to remove needs
	 * no courier: no process is made at all. */
	if (!r->courier && r->outs.report_fd < 0 && !r->outs.have_ws &&
	    !r->cli.verbose)
		return;
	if (!r->courier && start_courier(r, false, &err) < 0) {
		print_err("no report: ", &err);
		return;
	}
	if (!tell_gone(r) || !courier_emptied(r)) {
		fprintf(stderr, "ward: the courier ended early: no report\n");
		goto wait;
	}
	ward_outputs_restore(&r->outs);
	if (r->outs.have_ws) {
		uint64_t before = r->outs.ws.rm.removed;

		ward_workspace_remove(&r->outs.ws, &err);
		f->ws_removed = r->outs.ws.removed;
		f->ws_rm_removed = r->outs.ws.rm.removed - before;
		f->ws_destroyed = r->outs.ws.destroyed;
		memcpy(f->ws_error, r->outs.ws.error, sizeof(f->ws_error));
	}
	f->exit_code = code;
	f->spawned = r->spawned;
	f->supervised = r->supervised;
	if (failure) {
		f->have_error = true;
		ward_err_str(failure, f->error, sizeof(f->error));
	}
	f->have_cg = r->cg.active;
	f->queue = r->adm.q;
	if (r->cg.active)
		snprintf(f->run_id, sizeof(f->run_id), "%s", r->cg.run_id);
	else if (r->supervised)
		/* Without a cgroup the run id is still the supervisor's. */
		ward_cg_run_id(f->run_id, sizeof(f->run_id), NULL);
	/* (the cgroups straight from the run's: f->cg is the courier's) */
	if (!write_all(r->to_courier, f, WARD_FACTS_HEAD) ||
	    (f->have_cg && !write_all(r->to_courier, &r->cg, sizeof(r->cg))) ||
	    !write_all(r->to_courier, &f->broker,
		       WARD_FACTS_CARRIER + f->broker.len))
		fprintf(stderr, "ward: the courier ended early: no report\n");
wait:
	close_fd(&r->to_courier);
	while (waitpid(r->courier, &status, 0) < 0 && errno == EINTR)
		;
}

/* A program missing inside the sandbox may well be on the host: say what
 * the sandbox sees instead (the mount table's destinations). */
static const ward_err *not_found(struct run *r, ward_err *tmp)
{
	const struct ward_policy *p = &r->blob.policy;
	const char *prog = r->cli.argv[0];
	char seen[300] = "";
	size_t off = 0;
	struct stat st;

	for (uint32_t i = 1; i < p->nmounts && off < sizeof(seen); i++) {
		const struct ward_mount *m = &p->mounts[i];

		if (m->kind == WARD_MNT_BIND || m->kind == WARD_MNT_SLOT ||
		    m->kind == WARD_MNT_TMPFS)
			off += (size_t)snprintf(seen + off, sizeof(seen) - off,
						"%s%s", off ? " " : "", m->dst);
	}
	ward_fail(tmp, 0,
		  "%s; the sandbox sees only its policy's mounts (%s)%s",
		  r->facts.outcome.err.msg, off ? seen : "none",
		  prog[0] == '/' && stat(prog, &st) == 0
		      ? ", and none of them brings in this path, which is on "
			"the host"
		      : "");
	tmp->code = ENOENT;
	return tmp;
}

/* What the outcome says, when it is a failure of ward's or of the exec. */
static const ward_err *outcome_error(struct run *r, ward_err *tmp)
{
	const struct ward_outcome *o = &r->facts.outcome;

	if (o->stop == WARD_STOP_COURIER) {
		ward_fail(tmp, 0,
			  "the courier, which reads the sandbox's output, "
			  "ended during the run: the sandbox was killed");
		return tmp;
	}
	if (o->stop == WARD_STOP_HOLDER) {
		ward_fail(tmp, 0,
			  "the queue's holder, which holds the run's sandbox "
			  "slot, ended during the run: the sandbox was killed");
		return tmp;
	}
	if (o->stop == WARD_STOP_BROKER) {
		ward_fail(tmp, 0,
			  "the broker, which answers the sandbox's seccomp "
			  "notifications, ended during the run: the sandbox "
			  "was killed");
		return tmp;
	}
	switch (o->end) {
	case WARD_END_EXEC:
		if (o->err.code == ENOENT)
			return not_found(r, tmp);
		return &o->err;
	case WARD_END_SETUP:
		return &o->err;
	case WARD_END_UNKNOWN:
		if (o->stop != WARD_STOP_NONE)
			break; /* ward killed it: the report says why */
		ward_fail(tmp, 0, "init ended without a report (%s %d)",
			  o->init_code == CLD_EXITED ? "exit status" : "signal",
			  o->init_status);
		return tmp;
	case WARD_END_STATUS:
		break;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct run r;
	const ward_err *failure = NULL;
	ward_err err = {0}, tmp = {0};
	int code;

	if (argc > 1 && !strcmp(argv[1], "session"))
		return ward_session_main(argc - 1, argv + 1); /* unprivileged */
	/* A write to a pipe whose reader is gone is an error to handle. */
	signal(SIGPIPE, SIG_IGN);
	r.facts.t.start = ward_now_ns();
	r.stdin_fd = r.sigfd = r.notify_rd = r.oom_fd = r.ids_fd = -1;
	r.adm.sock = -1;
	r.l.notify_wr = r.l.hand_wr = -1;
	r.to_courier = r.from_courier = -1;
	r.broker.sock = -1;
	for (int i = 0; i < 2; i++)
		r.pipe_rd[i] = r.pipe_wr[i] = -1;
	ward_net_state_init(&r.net);
	ward_outputs_init(&r.outs);
	if (ensure_stdio(&err) < 0 ||
	    ward_cli_parse(argc, argv, &r.cli, &err) < 0) {
		print_err("", &err);
		fprintf(stderr, "Try 'ward --help' for more information.\n");
		ward_cli_free(&r.cli);
		return WARD_EXIT_REFUSED;
	}
	if (r.cli.help || r.cli.version) {
		if (r.cli.help)
			ward_cli_usage(stdout);
		else
			printf("ward %s\n", WARD_VERSION);
		ward_cli_free(&r.cli);
		return 0;
	}
	/* Set before the broker is made, which inherits it (http_proxy.h). */
	if (r.cli.upstream_proxy &&
	    ward_proxy_set(r.cli.upstream_proxy, &err) < 0) {
		print_err("", &err);
		fprintf(stderr, "Try 'ward --help' for more information.\n");
		ward_cli_free(&r.cli);
		return WARD_EXIT_REFUSED;
	}
	if (prepare(&r, &err) < 0 || admit(&r, &err) < 0 ||
	    make_pipes(&r, &err) < 0 || start_courier(&r, true, &err) < 0 ||
	    create(&r, &err) < 0 || spawn(&r, &err) < 0 ||
	    supervise(&r, &err) < 0) {
		/* 124 for a queue timeout, 128 + N for a signal in the
		 * queue. */
		code = r.adm.exit_code ? r.adm.exit_code : WARD_EXIT_REFUSED;
		failure = &err;
		print_err("", &err);
		finish(&r);
	} else {
		finish(&r);
		code = ward_exit_code(&r.facts.outcome);
		failure = outcome_error(&r, &tmp);
		if (failure)
			print_err("", failure);
	}
	deliver(&r, code, failure);
	/* The helpers finish has let go of, once the courier is done. */
	ward_broker_reap(&r.broker);
	ward_admission_reap(&r.adm);
	run_free(&r);
	return code;
}
