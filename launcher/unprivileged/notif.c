/* SPDX-License-Identifier: MIT */
/*
 * notif.c: see notif.h.
 */
#include "notif.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* pidfd_open(2) of a thread (Linux 6.9), for headers that predate it. */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

int ward_notif_check_sizes(ward_err *err)
{
	struct seccomp_notif_sizes sz;

	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sz) < 0)
		return ward_fail(err, errno,
				 "seccomp: this kernel has no user "
				 "notifications (Linux 5.0), which the "
				 "policy's kill rules, recorded refusals and "
				 "socket broker need");
	if (sz.seccomp_notif > sizeof(((struct ward_notif *)0)->u) ||
	    sz.seccomp_notif_resp > 256)
		return ward_fail(err, 0,
				 "seccomp: the kernel's notifications are "
				 "larger (%u, %u bytes) than this ward knows",
				 sz.seccomp_notif, sz.seccomp_notif_resp);
	return 0;
}

int ward_notif_recv(int listener, struct ward_notif *n)
{
	/* The kernel wants it zeroed. */
	memset(n, 0, sizeof(*n));
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &n->u) < 0 ? -1 : 0;
}

bool ward_notif_valid(int listener, uint64_t id)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

static int send_resp(int listener, struct seccomp_notif_resp *r)
{
	/* Room for a later kernel's larger struct, zeroed. */
	union {
		struct seccomp_notif_resp r;
		uint8_t bytes[256];
	} u;

	memset(&u, 0, sizeof(u));
	u.r = *r;
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &u) < 0 ? -1 : 0;
}

int ward_notif_answer(int listener, uint64_t id, int e, int64_t val)
{
	struct seccomp_notif_resp r = {
	    .id = id,
	    .error = e ? -e : 0,
	    .val = e ? 0 : val,
	};

	return send_resp(listener, &r);
}

int ward_notif_continue(int listener, uint64_t id)
{
	struct seccomp_notif_resp r = {
	    .id = id,
	    .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE,
	};

	return send_resp(listener, &r);
}

int ward_notif_install(int listener, uint64_t id, int src, int newfd,
		       bool cloexec)
{
	struct seccomp_notif_addfd a = {
	    .id = id,
	    .flags = SECCOMP_ADDFD_FLAG_SETFD,
	    .srcfd = (uint32_t)src,
	    .newfd = (uint32_t)newfd,
	    .newfd_flags = cloexec ? O_CLOEXEC : 0,
	};

	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &a) < 0 ? -1 : 0;
}

/* "Tgid:" of /proc/TID/status: the kernel's text, digits only. */
static pid_t tgid_of(pid_t tid)
{
	char path[64], buf[1024], *p, *end;
	_cleanup_close_ int fd = -1;
	ssize_t n;
	long v;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (n = read(fd, buf, sizeof(buf) - 1)) <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "\nTgid:\t");
	if (!p)
		return -1;
	errno = 0;
	v = strtol(p + 7, &end, 10);
	if (errno || end == p + 7 || *end != '\n' || v <= 0)
		return -1;
	return (pid_t)v;
}

int ward_task_pidfd(pid_t tid)
{
	long fd = syscall(SYS_pidfd_open, tid, PIDFD_THREAD);

	if (fd >= 0 || errno != EINVAL)
		return (int)fd;
	/* Before Linux 6.9 a pidfd names a thread group leader only; the
	 * descriptor table and the memory are the whole group's. */
	fd = syscall(SYS_pidfd_open, tid, 0);
	if (fd >= 0 || errno != EINVAL)
		return (int)fd;
	pid_t tgid = tgid_of(tid);
	if (tgid <= 0) {
		errno = ESRCH;
		return -1;
	}
	return (int)syscall(SYS_pidfd_open, tgid, 0);
}

int ward_task_getfd(int pidfd, int fd)
{
	return (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
}

bool ward_task_cloexec(pid_t tid, int fd)
{
	char path[64], buf[512], *p, *end;
	_cleanup_close_ int f = -1;
	unsigned long flags;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)tid, fd);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0 || (n = read(f, buf, sizeof(buf) - 1)) <= 0)
		return true; /* unknown: the socket must not leak at exec */
	buf[n] = '\0';
	p = strstr(buf, "flags:\t");
	if (!p)
		return true;
	errno = 0;
	flags = strtoul(p + 7, &end, 8);
	if (errno || end == p + 7)
		return true;
	return flags & O_CLOEXEC;
}

int ward_task_read(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = {buf, len};
	struct iovec remote = {(void *)(uintptr_t)addr, len};
	ssize_t n;

	if (!len)
		return 0;
	n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EFAULT; /* a part of it is not mapped */
		return -1;
	}
	return 0;
}
