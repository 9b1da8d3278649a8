/* SPDX-License-Identifier: MIT */
/*
 * ward: apply a compiled policy and run a program in it.
 *
 * This file is the supervisor's flat, ordered list of steps. Everything
 * that can be refused is refused here, before any process exists: usage,
 * privilege, the blob file and its digest, the blob's contents, what the
 * host can enforce, the slots. Then one clone3() makes init (init.c) and
 * the supervisor watches it (supervise.c). The order and the reason for it
 * are in docs/spec.md part 3.
 */
#include "blob_read.h"
#include "blobfile.h"
#include "check.h"
#include "cli.h"
#include "exec.h"
#include "exitcode.h"
#include "launch.h"
#include "ns.h"
#include "privilege.h"
#include "report.h"
#include "sha256.h"
#include "supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>

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
	int report_fd, stdin_fd, sigfd;
	struct ward_child child;
	struct ward_outcome out;
};

static void run_free(struct run *r)
{
	if (r->have_blob)
		ward_blob_release(&r->blob);
	free(r->buf);
	free(r->l.slots);
	free(r->l.envp);
	ward_cli_free(&r->cli);
	if (r->report_fd >= 0)
		close(r->report_fd);
	if (r->stdin_fd >= 0)
		close(r->stdin_fd);
	if (r->sigfd >= 0)
		close(r->sigfd);
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

/* Signals that must reach the target go through the supervisor's loop. */
static int catch_signals(struct run *r, ward_err *err)
{
	sigset_t set;

	/* A write to a pipe whose reader is gone (init died) is an error to
	 * handle, not a reason to die. The target gets SIGPIPE back. */
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

static int prepare(struct run *r, ward_err *err)
{
	const struct ward_policy *p;
	mode_t mask;

	if (ward_priv_detect(&r->priv, r->cli.host_uid, r->cli.host_gid, err) <
	    0)
		return -1;
	r->have_priv = true;
	if (r->cli.report_path) {
		r->report_fd =
		    open(r->cli.report_path,
			 O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
			 0644);
		if (r->report_fd < 0)
			return ward_fail(err, errno, "--report %s",
					 r->cli.report_path);
	}
	if (load_blob(r, err) < 0)
		return -1;
	p = &r->blob.policy;
	if (ward_check_policy(p, err) < 0)
		return -1;
	r->l.slots = calloc(p->nmounts, sizeof(*r->l.slots));
	if (!r->l.slots)
		return ward_fail(err, ENOMEM, "slots");
	if (ward_check_slots(p, &r->cli, r->l.slots, err) < 0)
		return -1;
	r->l.envp = ward_build_env(p, environ, err);
	if (!r->l.envp || open_stdin(r, err) < 0 || catch_signals(r, err) < 0)
		return -1;
	r->l.policy = p;
	r->l.priv = r->priv;
	r->l.argv = r->cli.argv;
	mask = umask(0);
	umask(mask);
	r->l.umask = mask;
	r->l.stdio[1] = 1;
	r->l.stdio[2] = 2;
	r->l.cgroup_fd = -1;
	/* Root's supplementary groups would follow init into the sandbox,
	 * where they could not be dropped any more (setgroups is denied). */
	if (r->priv.mode == WARD_MODE_ROOT && setgroups(0, NULL) < 0)
		return ward_fail(err, errno, "setgroups");
	return 0;
}

static void print_err(const char *what, const ward_err *err)
{
	char buf[WARD_ERR_MSG_MAX + 128];

	fprintf(stderr, "ward: %s%s\n", what,
		ward_err_str(err, buf, sizeof(buf)));
}

static void write_report(struct run *r, int code, const ward_err *failure)
{
	struct ward_report rep = {
	    .policy_name =
		r->have_blob ? r->blob.policy.meta.policy_name : NULL,
	    .digest_hex = r->digest_hex[0] ? r->digest_hex : NULL,
	    .mode = r->have_priv ? ward_mode_name(r->priv.mode) : NULL,
	    .reason = "launcher_error",
	    .exit_code = code,
	    .target_exit = -1,
	};
	char buf[WARD_ERR_MSG_MAX + 128];
	ward_err err = {0};

	if (r->report_fd < 0)
		return;
	if (failure)
		rep.error = ward_err_str(failure, buf, sizeof(buf));
	if (r->out.end == WARD_END_STATUS && WIFSIGNALED(r->out.status)) {
		rep.reason = "signaled";
		rep.signal = WTERMSIG(r->out.status);
	} else if (r->out.end == WARD_END_STATUS) {
		rep.reason = "exited";
		rep.target_exit = WEXITSTATUS(r->out.status);
	} else if (r->out.end == WARD_END_EXEC) {
		rep.reason = "exec_failed";
	}
	if (ward_report_write(r->report_fd, &rep, &err) < 0)
		print_err("", &err);
}

/* What the outcome says, when it is a failure of ward's or of the exec. */
static const ward_err *outcome_error(struct run *r, ward_err *tmp)
{
	switch (r->out.end) {
	case WARD_END_SETUP:
	case WARD_END_EXEC:
		return &r->out.err;
	case WARD_END_UNKNOWN:
		ward_fail(tmp, 0, "init ended without a report (%s %d)",
			  r->out.init_code == CLD_EXITED ? "exit status"
							 : "signal",
			  r->out.init_status);
		return tmp;
	case WARD_END_STATUS:
		break;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct run r = {.report_fd = -1, .stdin_fd = -1, .sigfd = -1};
	const ward_err *failure = NULL;
	ward_err err = {0}, tmp = {0};
	int code;

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
	if (prepare(&r, &err) < 0 || ward_spawn(&r.l, &r.child, &err) < 0 ||
	    ward_supervise(&r.child, r.sigfd, &r.out, &err) < 0) {
		code = WARD_EXIT_REFUSED;
		failure = &err;
		print_err("", &err);
	} else {
		code = ward_exit_code(&r.out);
		failure = outcome_error(&r, &tmp);
		if (failure)
			print_err("", failure);
	}
	write_report(&r, code, failure);
	run_free(&r);
	return code;
}
