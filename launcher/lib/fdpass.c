/* SPDX-License-Identifier: MIT */
/*
 * fdpass.c: a small message and at most one descriptor over a unix socket
 * (SCM_RIGHTS): how init hands the target's seccomp listener to the
 * supervisor, and its writable mounts to the courier (fdpass.h).
 */
#include "fdpass.h"

#include <string.h>
#include <sys/socket.h>

int ward_send_msg(int sock, const void *data, size_t len, int fd)
{
	struct iovec iov = {(void *)data, len};
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	struct cmsghdr *c;

	memset(&u, 0, sizeof(u));
	if (fd >= 0) {
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof(u.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

ssize_t ward_recv_msg(int sock, void *data, size_t len, int *fd)
{
	struct iovec iov = {data, len};
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr mh = {.msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf)};
	struct cmsghdr *c;
	ssize_t n;

	*fd = -1;
	n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	if (n < 0)
		return -1;
	c = CMSG_FIRSTHDR(&mh);
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
	    c->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(fd, CMSG_DATA(c), sizeof(int));
	return n;
}

int ward_send_fd(int sock, int fd)
{
	return ward_send_msg(sock, "L", 1, fd);
}

int ward_recv_fd(int sock)
{
	char data = 0;
	int fd;

	if (ward_recv_msg(sock, &data, 1, &fd) != 1 && fd >= 0) {
		close(fd);
		return -1;
	}
	return fd;
}
