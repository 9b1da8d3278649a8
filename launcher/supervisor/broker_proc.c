/* SPDX-License-Identifier: MIT */
/*
 * broker_proc.c: see broker_proc.h.
 */
#include "broker_proc.h"

#include "broker.h"
#include "drop.h"
#include "fdpass.h"
#include "hardening.h"
#include "upstream.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* How long the broker may take to get ready, and to send its records. */
#define BROKER_WAIT_MS 5000

/* Root mode, an allow-list: into the sandbox's user namespace (see
 * broker_proc.h), still root outside it, the groups cleared first (the
 * namespace denies setgroups). */
static int join_userns(pid_t init, ward_err *err)
{
	char path[64];
	_cleanup_close_ int fd = -1;

	if (setgroups(0, NULL) < 0)
		return ward_fail(err, errno, "setgroups");
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)init);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWUSER) < 0)
		return ward_fail(err, errno,
				 "join the sandbox's user namespace");
	return 0;
}

bool ward_broker_joins(const struct ward_policy *p,
		       const struct ward_priv *priv)
{
	return priv->mode == WARD_MODE_ROOT &&
	       p->net.mode == WARD_NET_ALLOWLIST;
}

static _Noreturn void child(const struct ward_policy *p,
			    const struct ward_priv *priv, int sock, int up,
			    pid_t parent, pid_t init, int record_fd,
			    int events_fd)
{
	const bool join = ward_broker_joins(p, priv);
	static const uint32_t families[] = {AF_INET, AF_INET6};
	const struct ward_allow_arg args[] = {
	    {SYS_ioctl, 1, ward_broker_ioctls, ward_broker_nioctls},
	    {SYS_socket, 0, families, ARRAY_LEN(families)},
	};
	/* Root mode: the sandbox's host ids (its own user inside the
	 * sandbox's namespace, the same ids), which own what it makes and
	 * read its memory as its own. */
	const struct ward_drop d = {
	    .change_ids = priv->mode == WARD_MODE_ROOT,
	    .uid = join ? p->identity.uid : priv->host_uid,
	    .gid = join ? p->identity.gid : priv->host_gid,
	    .parent = parent,
	    .groups_cleared = join,
	    .allow = ward_broker_syscalls,
	    .nallow = ward_broker_nsyscalls,
	    .args = args,
	    .nargs = ARRAY_LEN(args),
	};
	const struct ward_broker_ctx ctx = {
	    .policy = p,
	    .root_mode = priv->mode == WARD_MODE_ROOT,
	    .sup = sock,
	    .record_fd = record_fd,
	    .events_fd = events_fd,
	    .dns_upstream = up,
	};
	/* the broker writes --record; asks the host's resolver on up */
	const int keep[] = {sock, record_fd, up, events_fd};
	ward_err err = {0};

	if (ward_close_fds_except(keep, ARRAY_LEN(keep), &err) < 0 ||
	    (join && join_userns(init, &err) < 0) ||
	    ward_drop_privileges(&d, &err) < 0) {
		struct ward_broker_msg m = {.kind = WARD_B_REFUSE};
		char buf[WARD_ERR_MSG_MAX + 64];

		snprintf(m.text, sizeof(m.text), "the broker: %s",
			 ward_err_str(&err, buf, sizeof(buf)));
		if (send(sock, &m, sizeof(m), MSG_NOSIGNAL) < 0)
			_exit(2);
		_exit(1);
	}
	_exit(ward_broker_run(&ctx));
}

static void reap(struct ward_broker_proc *b, bool kill_it)
{
	if (b->pid > 0) {
		if (kill_it)
			kill(b->pid, SIGKILL);
		while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (b->sock >= 0)
		close(b->sock);
	b->pid = 0;
	b->sock = -1;
}

/* One message of the broker's into iov (its n buffers), waiting up to
 * BROKER_WAIT_MS: its length, 0 at its end or when it took too long. */
static ssize_t hear_iov(struct ward_broker_proc *b, struct iovec *iov, int n)
{
	struct pollfd pfd = {b->sock, POLLIN, 0};
	struct msghdr mh = {.msg_iov = iov, .msg_iovlen = (size_t)n};
	ssize_t got;
	int r;

	do
		r = poll(&pfd, 1, BROKER_WAIT_MS);
	while (r < 0 && errno == EINTR);
	if (r <= 0)
		return 0;
	do
		got = recvmsg(b->sock, &mh, 0);
	while (got < 0 && errno == EINTR);
	return got < 0 ? 0 : got;
}

static ssize_t hear(struct ward_broker_proc *b, void *buf, size_t len)
{
	struct iovec iov = {buf, len};

	return hear_iov(b, &iov, 1);
}

int ward_broker_start(const struct ward_policy *p, const struct ward_priv *priv,
		      int cg_fd, pid_t init, int record_fd, int events_fd,
		      struct ward_broker_proc *b, ward_err *err)
{
	pid_t parent = getpid();
	int sv[2];
	char go = WARD_S_GO;

	b->pid = 0;
	b->sock = -1;
	/* Names: the broker's way to the host's resolver, made here, in
	 * ward's own cgroup: the programs of the broker's (root mode)
	 * judge the sandbox's connections, not the stub's queries. Through
	 * an upstream proxy the stub asks nobody (dns.h). */
	bool ask = p->net.nnames && !ward_proxy_on();
	_cleanup_close_ int up = ask ? ward_dns_upstream_open(err) : -1;

	if (ask && up < 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return ward_fail(err, errno, "socketpair for the broker");
	b->pid = fork();
	if (b->pid < 0) {
		b->pid = 0;
		close(sv[0]);
		close(sv[1]);
		return ward_fail(err, errno, "fork the broker");
	}
	if (b->pid == 0)
		child(p, priv, sv[1], up, parent, init, record_fd, events_fd);
	close(sv[1]);
	b->sock = sv[0];
	/* Before it makes a socket: in the directory the programs are
	 * attached to. */
	if (cg_fd >= 0) {
		char pid[24];
		_cleanup_close_ int fd =
		    openat(cg_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
		int n = snprintf(pid, sizeof(pid), "%d", (int)b->pid);

		if (fd < 0 || write(fd, pid, (size_t)n) != n) {
			ward_fail(err, errno,
				  "move the broker into its cgroup");
			reap(b, true);
			return -1;
		}
	}
	if (send(b->sock, &go, 1, MSG_NOSIGNAL) != 1) {
		reap(b, true);
		return ward_fail(err, 0, "the broker ended before the run");
	}
	return 0;
}

int ward_broker_ready(struct ward_broker_proc *b, ward_err *err)
{
	struct ward_broker_msg m = {0};

	if (hear(b, &m, sizeof(m)) != (ssize_t)sizeof(m)) {
		reap(b, true);
		return ward_fail(err, 0, "the broker ended before the run");
	}
	if (m.kind == WARD_B_REFUSE) {
		/* Its words reach the caller's terminal. */
		m.text[sizeof(m.text) - 1] = '\0';
		for (char *c = m.text; *c; c++)
			if (!isprint((unsigned char)*c))
				*c = '?';
		reap(b, true);
		return ward_fail(err, 0, "%s", m.text);
	}
	if (m.kind != WARD_B_READY) {
		reap(b, true);
		return ward_fail(err, 0, "the broker said %u", m.kind);
	}
	return 0;
}

int ward_broker_listen(struct ward_broker_proc *b, int listener)
{
	if (b->sock < 0)
		return -1;
	return ward_send_fd(b->sock, listener);
}

int ward_broker_give(struct ward_broker_proc *b, char what, int fd)
{
	if (b->sock < 0 || fd < 0)
		return -1;
	return ward_send_msg(b->sock, &what, 1, fd);
}

void ward_broker_end(struct ward_broker_proc *b, struct ward_broker_carried *f,
		     bool wait)
{
	struct ward_broker_msg m = {0};
	/* Straight into the carrier, which is touched only as far as the
	 * records go: they are a few hundred bytes after most runs, and each
	 * page first written costs a fault (tens of µs in a VM). */
	struct iovec iov[2] = {{&m, sizeof(m)}, {f->bytes, sizeof(f->bytes)}};
	char end = WARD_S_END;
	ssize_t n;

	if (b->pid <= 0 || b->sock < 0)
		return;
	/* Anything but its records (a late KILL) is skipped; the records
	 * are carried to the courier unread. */
	n = send(b->sock, &end, 1, MSG_NOSIGNAL) == 1 ? 1 : 0;
	while (n > 0) {
		n = hear_iov(b, iov, 2);
		if (n > (ssize_t)sizeof(m) && m.kind == WARD_B_RECORDS)
			break;
	}
	f->records = n > (ssize_t)sizeof(m);
	f->len = f->records ? (uint32_t)((size_t)n - sizeof(m)) : 0;
	if (wait || !f->records) {
		reap(b, !f->records);
		return;
	}
	close(b->sock);
	b->sock = -1;
}

void ward_broker_reap(struct ward_broker_proc *b)
{
	reap(b, true);
}
