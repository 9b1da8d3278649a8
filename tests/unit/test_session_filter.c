/* SPDX-License-Identifier: MIT */
/* Unit tests of the session server's own seccomp filter
 * (launcher/unprivileged/session_filter.c, docs/spec.md 7.1): from S's
 * position (a process that installed ward_session_srv_filter, as S does
 * before it reads a byte) opening a file by name, making a socket,
 * connecting, forking, exec, kill and ptrace are refused with EPERM, while
 * what S does (pipes, accept4 on a socket it was given, time) works; the
 * same calls in a process without the filter succeed (the control). */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Each forbidden call, one bit when it was NOT refused with EPERM; all:
 * also those that would leave the test (ptrace, exec, fork), which only a
 * filtered child makes. */
static int forbidden_calls(bool all)
{
	int bad = 0, fd;
	char *argv[] = {"/bin/true", NULL};
	struct sockaddr_un a = {.sun_family = AF_UNIX};

	fd = openat(AT_FDCWD, "/etc/passwd", O_RDONLY);
	if (!(fd < 0 && errno == EPERM))
		bad |= 1;
	fd = (int)syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
	if (!(fd < 0 && errno == EPERM))
		bad |= 2;
	if (!(syscall(SYS_connect, 0, &a, sizeof(a)) < 0 && errno == EPERM))
		bad |= 4;
	if (!(syscall(SYS_kill, getppid(), 0) < 0 && errno == EPERM))
		bad |= 8;
	if (!all)
		return bad;
	if (!(syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0) < 0 &&
	      errno == EPERM))
		bad |= 16;
	if (!(syscall(SYS_execve, argv[0], argv, NULL) < 0 && errno == EPERM))
		bad |= 32;
	if (!(syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0) < 0 && errno == EPERM))
		bad |= 64;
	return bad;
}

/* What S needs, one bit when it failed. */
static int needed_calls(int lfd)
{
	int bad = 0;
	struct timespec ts;
	char c = 'x';

	if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		bad |= 1;
	if (accept4(lfd, NULL, NULL, SOCK_CLOEXEC) >= 0 || errno != EAGAIN)
		bad |= 2;
	if (write(1, &c, 0) < 0)
		bad |= 4;
	return bad;
}

static int listening(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	struct sockaddr_un a = {.sun_family = AF_UNIX};

	assert_true(fd >= 0);
	/* autobind: an abstract name of the kernel's */
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(sa_family_t)),
			 0);
	assert_int_equal(listen(fd, 1), 0);
	return fd;
}

static int in_child(bool filtered, int lfd)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		if (filtered && ward_session_srv_filter() < 0)
			_exit(255);
		_exit(forbidden_calls(filtered) | needed_calls(lfd) << 7);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void filtered_refuses(void **state)
{
	int lfd = listening();

	/* every forbidden call refused, every needed one working */
	assert_int_equal(in_child(true, lfd), 0);
	close(lfd);
}

static void control_unfiltered(void **state)
{
	int lfd = listening();

	/* Without the filter, open, socket, connect (ENOTSOCK) and kill of
	 * the parent are not EPERM, and what S needs works as well: the
	 * observation sees a call that is let through. */
	assert_int_equal(in_child(false, lfd), 1 | 2 | 4 | 8);
	close(lfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(filtered_refuses),
	    cmocka_unit_test(control_unfiltered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
