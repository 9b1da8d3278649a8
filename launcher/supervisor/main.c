/* SPDX-License-Identifier: MIT */
/*
 * ward: apply a compiled policy and run a program in it.
 *
 * This file is the supervisor's flat, ordered list of steps:
 *
 *   prepare    everything that can be refused is refused here, before any
 *              process or cgroup exists: usage, privilege, the blob file
 *              and its digest, the blob's contents, what the host can
 *              enforce (cgroups included), the slots
 *   create     the run's cgroups and their limits, the output pipes, the
 *              seccomp listener's socket
 *   spawn      one clone3() makes init (init.c) in its cgroup2 directory;
 *              its v1 cgroups are joined while it is still held
 *   supervise  the loop (supervise.c): exit, signals, wall time, output,
 *              seccomp kills
 *   finish     on every path: kill what is left, read the counters, remove
 *              the cgroups, decide why the run ended; then the file diff,
 *              the exports and the workspace's removal (channel.c, once
 *              nothing of the sandbox is left); write the report
 *
 * The order and the reason for it are in docs/spec.md part 3; the report
 * in part 4.
 */
#include "blob_read.h"
#include "blobfile.h"
#include "cgroup.h"
#include "channel.h"
#include "check.h"
#include "cli.h"
#include "exec.h"
#include "exitcode.h"
#include "launch.h"
#include "net.h"
#include "ns.h"
#include "output.h"
#include "privilege.h"
#include "report.h"
#include "sha256.h"
#include "supervise.h"
#include "verdict.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
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
	struct ward_blob blob;
	bool have_blob;
	struct ward_launch l;
	int report_fd, stdin_fd, stdout_fd, stderr_fd, sigfd;
	int pipe_wr[2]; /* the target's ends of its stdout and stderr pipes */
	int notify_rd;	/* the supervisor's end of the listener's socket */
	struct ward_cgroup cg;
	struct ward_output out;
	bool have_out;
	struct ward_net_state net;
	struct ward_report_denial *denials;
	size_t ndenials;
	bool net_checked;
	struct ward_child child;
	bool spawned, supervised;
	struct ward_outcome outcome;
	struct ward_cg_stats stats;
	struct ward_cg_cleanup cleanup;
	struct ward_verdict verdict;
	struct timespec created, destroyed;
	struct ward_channel ch; /* workspace, file diff, exports */
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
	free(r->denials);
	ward_channel_free(&r->ch);
	ward_cli_free(&r->cli);
	close_fd(&r->report_fd);
	close_fd(&r->stdin_fd);
	close_fd(&r->stdout_fd);
	close_fd(&r->stderr_fd);
	close_fd(&r->sigfd);
	close_fd(&r->pipe_wr[0]);
	close_fd(&r->pipe_wr[1]);
	close_fd(&r->notify_rd);
	close_fd(&r->l.notify_wr);
	for (int i = 0; i < 2; i++)
		close_fd(&r->out.s[i].rd);
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

/* --report, --stdout, --stderr: opened first, so that a bad path is
 * refused before anything else is done. */
static int open_out(const char *opt, const char *path, int *fd, ward_err *err)
{
	if (!path)
		return 0;
	*fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		   0644);
	if (*fd < 0)
		return ward_fail(err, errno, "%s %s", opt, path);
	return 0;
}

/* Signals that must reach the target go through the supervisor's loop. */
static int catch_signals(struct run *r, ward_err *err)
{
	sigset_t set;

	/* A write to a pipe whose reader is gone (init died, or the
	 * caller's end of ward's stdout) is an error to handle, not a
	 * reason to die. The target gets SIGPIPE back. */
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
	    .need_v2 = p->net.mode == WARD_NET_ALLOWLIST,
	    .base = r->cli.cgroup_base,
	    .mode = r->priv.mode,
	    .uid = r->priv.caller_uid,
	};

	if (!rq.need && !rq.need_v2) {
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
	r->have_priv = true;
	if (open_out("--report", r->cli.report_path, &r->report_fd, err) < 0 ||
	    open_out("--stdout", r->cli.stdout_path, &r->stdout_fd, err) < 0 ||
	    open_out("--stderr", r->cli.stderr_path, &r->stderr_fd, err) < 0)
		return -1;
	if (load_blob(r, err) < 0)
		return -1;
	p = &r->blob.policy;
	if (ward_check_policy(p, err) < 0)
		return -1;
	/* NET: can this host and mode enforce the allow-list? */
	if (p->net.mode != WARD_NET_NONE &&
	    ward_net_check_host(&p->net, r->priv.mode, err) < 0)
		return -1;
	/* The workspace's slots join the caller's before they are matched. */
	if (ward_channel_prepare(&r->ch, p, &r->cli, &r->priv, err) < 0)
		return -1;
	r->l.slots = calloc(p->nmounts, sizeof(*r->l.slots));
	if (!r->l.slots)
		return ward_fail(err, ENOMEM, "slots");
	if (ward_check_slots(p, &r->cli, r->l.slots, err) < 0)
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
	return 0;
}

/* The target's stdout and stderr: pipes the supervisor reads (never ward's
 * own descriptors, so no terminal reaches the sandbox). */
static int make_pipes(struct run *r, ward_err *err)
{
	const struct ward_policy *p = &r->blob.policy;

	ward_output_init(&r->out, &p->limits,
			 r->stdout_fd >= 0 ? r->stdout_fd : 1,
			 r->stderr_fd >= 0 ? r->stderr_fd : 2);
	r->have_out = true;
	for (int i = 0; i < 2; i++) {
		int fds[2];

		if (pipe2(fds, O_CLOEXEC) < 0)
			return ward_fail(err, errno, "pipe for %s",
					 r->out.s[i].name);
		r->out.s[i].rd = fds[0];
		r->pipe_wr[i] = fds[1];
		r->l.stdio[1 + i] = fds[1];
		if (fcntl(fds[0], F_SETFL, O_NONBLOCK) < 0)
			return ward_fail(err, errno, "O_NONBLOCK");
	}
	return 0;
}

static int create(struct run *r, ward_err *err)
{
	const struct ward_policy *p = &r->blob.policy;

	clock_gettime(CLOCK_REALTIME, &r->created);
	if (r->cg.active) {
		if (ward_cg_create(&r->cg, err) < 0 ||
		    ward_cg_set_limits(&r->cg, &p->limits, "/proc/swaps", err) <
			0)
			return -1;
		if (r->cg.v2 >= 0)
			r->l.cgroup_fd = r->cg.dir[r->cg.v2].fd;
	}
	/* NET: the programs are attached to the run's cgroup2 directory,
	 * which exists now, before any process of the sandbox does. */
	if (p->net.mode == WARD_NET_ALLOWLIST &&
	    ward_net_setup(&p->net, r->l.cgroup_fd, &r->net, err) < 0)
		return -1;
	if (make_pipes(r, err) < 0)
		return -1;
	if (p->requirements & WARD_REQ_SECCOMP_NOTIFY) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) <
		    0)
			return ward_fail(err, errno, "socketpair");
		r->notify_rd = sv[0];
		r->l.notify_wr = sv[1];
	}
	return 0;
}

static int spawn(struct run *r, ward_err *err)
{
	if (ward_spawn(&r->l, &r->child, err) < 0)
		return -1;
	r->spawned = true;
	/* init has its copies; the pipes must end when the sandbox does. */
	close_fd(&r->pipe_wr[0]);
	close_fd(&r->pipe_wr[1]);
	close_fd(&r->l.notify_wr);
	/* v1 has no CLONE_INTO_CGROUP: init joins its cgroups while it is
	 * held, before it creates the target. */
	if (r->cg.active && ward_cg_attach_v1(&r->cg, r->child.pid, err) < 0) {
		ward_spawn_abort(&r->child, err);
		r->spawned = false;
		return -1;
	}
	if (ward_release(&r->child, err) < 0) {
		r->spawned = false;
		return -1;
	}
	return 0;
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
	    .out = &r->out,
	    .notify_sock = r->notify_rd,
	    .rules = &r->blob.policy.rules,
	    .cg = &r->cg,
	};
	int rc = ward_supervise(&w, &r->outcome, err);

	r->notify_rd = -1; /* closed by the loop */
	r->supervised = true;
	return rc;
}

/* NET: the denials the allow-list counted, spelled for the report. */
static void read_denials(struct run *r)
{
	struct ward_net_denial *d = NULL;
	size_t n = 0;
	ward_err err = {0};

	if (r->blob.policy.net.mode != WARD_NET_ALLOWLIST || !r->spawned ||
	    ward_net_denials(&r->net, &d, &n, &err) < 0)
		return;
	r->net_checked = true;
	r->denials = calloc(n ? n : 1, sizeof(*r->denials));
	if (!r->denials) {
		free(d);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		ward_net_denial_str(&d[i], r->denials[i].what,
				    sizeof(r->denials[i].what));
		r->denials[i].count = d[i].count;
	}
	r->ndenials = n;
	free(d);
}

/* On every path once something exists: nothing of the sandbox outlives
 * this. */
static void finish(struct run *r)
{
	if (r->spawned && !r->supervised) {
		/* The loop could not run: kill and reap. */
		struct ward_watch w = {.child = &r->child, .cg = &r->cg};

		ward_kill_sandbox(&w);
		waitpid(r->child.pid, NULL, 0);
	}
	if (r->have_out)
		ward_output_finish(&r->out);
	if (r->cg.active)
		ward_cg_read_stats(&r->cg, &r->stats);
	read_denials(r);
	ward_net_teardown(&r->net);
	if (r->cg.active)
		ward_cg_remove(&r->cg, &r->cleanup);
	clock_gettime(CLOCK_REALTIME, &r->destroyed);
	/* Nothing of the sandbox runs any more: its slots can be read. */
	ward_channel_finish(&r->ch, r->have_blob ? &r->blob.policy : NULL,
			    r->spawned);
}

static void print_err(const char *what, const ward_err *err)
{
	char buf[WARD_ERR_MSG_MAX + 128];

	fprintf(stderr, "ward: %s%s\n", what,
		ward_err_str(err, buf, sizeof(buf)));
}

static void report(struct run *r, int code, const ward_err *failure)
{
	const struct ward_outcome *o = r->supervised ? &r->outcome : NULL;
	struct ward_report rep = {
	    .run_id = r->cg.active ? r->cg.run_id : NULL,
	    .policy_name =
		r->have_blob ? r->blob.policy.meta.policy_name : NULL,
	    .digest_hex = r->digest_hex[0] ? r->digest_hex : NULL,
	    .mode = r->have_priv ? ward_mode_name(r->priv.mode) : NULL,
	    .policy = r->have_blob ? &r->blob.policy : NULL,
	    .priv = r->have_priv ? &r->priv : NULL,
	    .created = r->created,
	    .destroyed = r->destroyed,
	    .reason = "launcher_error",
	    .flags = WARD_R_BIT(WARD_R_LAUNCHER_ERROR),
	    .exit_code = code,
	    .target_exit = -1,
	    .started = r->supervised,
	    .seccomp_listener = r->have_blob && (r->blob.policy.requirements &
						 WARD_REQ_SECCOMP_NOTIFY),
	    .cg = &r->cg,
	    .stats = r->cg.active ? &r->stats : NULL,
	    .outcome = o,
	    .output = r->have_out && o ? &r->out : NULL,
	    .cleanup = r->cg.active ? &r->cleanup : NULL,
	    .net = r->denials,
	    .nnet = r->ndenials,
	    .net_checked = r->net_checked,
	    .channel = &r->ch,
	};
	char buf[WARD_ERR_MSG_MAX + 128], id[48];
	ward_err err = {0};

	/* Without a cgroup the run id is still the supervisor's. */
	if (!rep.run_id && r->supervised &&
	    ward_cg_run_id(id, sizeof(id), NULL) == 0)
		rep.run_id = id;
	if (failure)
		rep.error = ward_err_str(failure, buf, sizeof(buf));
	if (o) {
		rep.verdict = &r->verdict;
		rep.reason = ward_reason_name(r->verdict.reason);
		rep.flags = r->verdict.flags;
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
	if (r->report_fd >= 0 &&
	    ward_report_write(r->report_fd, &rep, &err) < 0)
		print_err("", &err);
	if (r->cli.verbose)
		ward_report_summary(stderr, &rep);
}

/* What the outcome says, when it is a failure of ward's or of the exec. */
static const ward_err *outcome_error(struct run *r, ward_err *tmp)
{
	switch (r->outcome.end) {
	case WARD_END_SETUP:
	case WARD_END_EXEC:
		return &r->outcome.err;
	case WARD_END_UNKNOWN:
		if (r->outcome.stop != WARD_STOP_NONE)
			break; /* ward killed it: the report says why */
		ward_fail(tmp, 0, "init ended without a report (%s %d)",
			  r->outcome.init_code == CLD_EXITED ? "exit status"
							     : "signal",
			  r->outcome.init_status);
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

	r.report_fd = r.stdin_fd = r.stdout_fd = r.stderr_fd = r.sigfd = -1;
	r.pipe_wr[0] = r.pipe_wr[1] = r.notify_rd = r.l.notify_wr = -1;
	r.out.s[0].rd = r.out.s[1].rd = -1;
	ward_net_state_init(&r.net);
	ward_channel_init(&r.ch);
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
	if (prepare(&r, &err) < 0 || create(&r, &err) < 0 ||
	    spawn(&r, &err) < 0 || supervise(&r, &err) < 0) {
		code = WARD_EXIT_REFUSED;
		failure = &err;
		print_err("", &err);
		finish(&r);
		if (r.supervised)
			ward_verdict(&r.outcome, r.cg.active ? &r.stats : NULL,
				     &r.blob.policy.limits, &r.verdict);
	} else {
		finish(&r);
		code = ward_exit_code(&r.outcome);
		failure = outcome_error(&r, &tmp);
		if (failure)
			print_err("", failure);
		ward_verdict(&r.outcome, r.cg.active ? &r.stats : NULL,
			     &r.blob.policy.limits, &r.verdict);
	}
	report(&r, code, failure);
	run_free(&r);
	return code;
}
