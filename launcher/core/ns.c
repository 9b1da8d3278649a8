/* SPDX-License-Identifier: MIT */
/*
 * ns.c: one clone3() from the supervisor creates init in every namespace;
 * a pipe holds init back until the supervisor has written its uid and gid
 * maps (in root mode only the supervisor can write them; rootless, it does
 * so too, for one code path), then the same pipe is init's lifeline.
 */
#include "ns.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static void explain(const struct ward_launch *l, ward_err *err)
{
	char why[400];
	size_t n = strlen(err->msg);

	if (l->priv.mode != WARD_MODE_ROOTLESS ||
	    !ward_userns_explain("/proc/sys", why, sizeof(why))[0])
		return;
	snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", why);
	err->code = 0;
}

/* Undo a spawn that failed after the clone. If init failed first, its
 * message says why, and is the better cause. */
static int reap_failed(struct ward_child *c, ward_err *err)
{
	struct ward_msg m;

	syscall(SYS_pidfd_send_signal, c->pidfd, SIGKILL, NULL, 0);
	waitpid(c->pid, NULL, 0);
	if (read(c->msg_rd, &m, sizeof(m)) == (ssize_t)sizeof(m) &&
	    m.kind == WARD_MSG_SETUP_FAILED)
		ward_fail(err, m.code, "%.*s", (int)sizeof(m.text), m.text);
	close(c->pidfd);
	close(c->msg_rd);
	close(c->sync_wr);
	return -1;
}

int ward_spawn(struct ward_launch *l, struct ward_child *child, ward_err *err)
{
	int sync[2], msg[2], pidfd = -1;
	struct clone_args args = {
	    .flags = WARD_CLONE_NS | CLONE_PIDFD,
	    .pidfd = (uint64_t)(uintptr_t)&pidfd,
	    .exit_signal = SIGCHLD,
	};
	long pid;

	if (l->cgroup_fd >= 0) {
		args.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (uint64_t)l->cgroup_fd;
	}
	if (pipe2(sync, O_CLOEXEC) < 0)
		return ward_fail(err, errno, "pipe");
	if (pipe2(msg, O_CLOEXEC) < 0) {
		close(sync[0]);
		close(sync[1]);
		return ward_fail(err, errno, "pipe");
	}
	l->sync_rd = sync[0];
	l->msg_wr = msg[1];
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0) {
		close(sync[1]);
		close(msg[0]);
		ward_init_main(l);
	}
	close(sync[0]);
	close(msg[1]);
	if (pid < 0) {
		close(sync[1]);
		close(msg[0]);
		ward_fail(err, errno, "clone3 into new namespaces");
		explain(l, err);
		return -1;
	}
	*child = (struct ward_child){(pid_t)pid, pidfd, msg[0], sync[1]};
	if (ward_priv_write_maps(&l->priv, child->pid, l->policy->identity.uid,
				 l->policy->identity.gid, err) < 0) {
		explain(l, err);
		return reap_failed(child, err);
	}
	return 0;
}

int ward_release(struct ward_child *child, ward_err *err)
{
	/* EPIPE (SIGPIPE is ignored) when init has already failed. */
	if (write(child->sync_wr, "g", 1) != 1) {
		ward_fail(err, errno, "start init");
		return reap_failed(child, err);
	}
	return 0;
}

void ward_start(struct ward_child *child)
{
	ssize_t n;

	do
		n = write(child->sync_wr, "g", 1);
	while (n < 0 && errno == EINTR);
}

int ward_spawn_abort(struct ward_child *child, ward_err *err)
{
	return reap_failed(child, err);
}
