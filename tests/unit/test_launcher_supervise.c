/* SPDX-License-Identifier: MIT */
/* Unit tests of the supervisor's loop, exit codes and report
 * (launcher/supervisor/supervise.c, launcher/unprivileged/report.c), and of the
 * process-wide hardening steps that can run outside a sandbox
 * (launcher/core/hardening.c). */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "exitcode.h"
#include "hardening.h"
#include "launch.h"
#include "report.h"
#include "supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

/* A stand-in for init: sends the given messages, then exits with code. */
static void run_fake_init(const struct ward_msg *msgs, int n, int code,
			  struct ward_outcome *o)
{
	struct ward_child c = {0};
	int msg[2], sync[2], sigfd;
	sigset_t set;
	ward_err err = {0};

	assert_int_equal(pipe2(msg, O_CLOEXEC), 0);
	assert_int_equal(pipe2(sync, O_CLOEXEC), 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	assert_true(sigfd >= 0);
	c.pid = fork();
	if (c.pid == 0) {
		for (int i = 0; i < n; i++)
			ward_msg_send(msg[1], msgs[i].kind, msgs[i].code,
				      msgs[i].text);
		_exit(code);
	}
	close(msg[1]);
	close(sync[0]);
	c.msg_rd = msg[0];
	c.sync_wr = sync[1];
	c.pidfd = (int)syscall(SYS_pidfd_open, c.pid, 0);
	assert_true(c.pidfd >= 0);
	struct ward_watch w = {.child = &c,
			       .sigfd = sigfd,
			       .courier = -1,
			       .holder = -1,
			       .oom = -1,
			       .notify_sock = -1};
	assert_int_equal(ward_supervise(&w, o, &err), 0);
	assert_int_equal(c.msg_rd, -1);
	close(sigfd);
}

static void outcomes(void **state)
{
	const struct ward_msg exited = {WARD_MSG_TARGET_STATUS, 3 << 8, ""};
	const struct ward_msg killed = {WARD_MSG_TARGET_STATUS, SIGKILL, ""};
	const struct ward_msg setup = {WARD_MSG_SETUP_FAILED, EPERM,
				       "mount at /usr"};
	const struct ward_msg noent = {WARD_MSG_EXEC_FAILED, ENOENT, "prog"};
	const struct ward_msg acces = {WARD_MSG_EXEC_FAILED, EACCES, "prog"};
	struct ward_msg two[2];
	struct ward_outcome o;

	run_fake_init(&exited, 1, 0, &o);
	assert_int_equal(o.end, WARD_END_STATUS);
	assert_int_equal(ward_exit_code(&o), 3);
	assert_int_equal(o.init_code, CLD_EXITED);

	run_fake_init(&killed, 1, 0, &o);
	assert_int_equal(ward_exit_code(&o), 128 + SIGKILL);

	run_fake_init(&setup, 1, 125, &o);
	assert_int_equal(o.end, WARD_END_SETUP);
	assert_int_equal(o.err.code, EPERM);
	assert_string_equal(o.err.msg, "mount at /usr");
	assert_int_equal(ward_exit_code(&o), WARD_EXIT_REFUSED);

	run_fake_init(&noent, 1, 127, &o);
	assert_int_equal(ward_exit_code(&o), WARD_EXIT_NOT_FOUND);
	run_fake_init(&acces, 1, 126, &o);
	assert_int_equal(ward_exit_code(&o), WARD_EXIT_CANNOT_EXEC);

	/* The first failure is the cause: a status after it is its echo. */
	two[0] = noent;
	two[1] = exited;
	run_fake_init(two, 2, 0, &o);
	assert_int_equal(o.end, WARD_END_EXEC);

	/* An init that says nothing is a launcher failure. */
	run_fake_init(NULL, 0, 9, &o);
	assert_int_equal(o.end, WARD_END_UNKNOWN);
	assert_int_equal(o.init_status, 9);
	assert_int_equal(ward_exit_code(&o), WARD_EXIT_REFUSED);
}

static void report(void **state)
{
	struct ward_report r = {
	    .policy_name = "py\"thon",
	    .digest_hex = "ab",
	    .mode = "rootless",
	    .reason = "launcher_error",
	    .flags = 1u << WARD_R_LAUNCHER_ERROR,
	    .exit_code = 125,
	    .target_exit = -1,
	    .error = "bad\nline\\",
	};
	char buf[4096] = "";
	ward_err err = {0};
	FILE *f = tmpfile();

	assert_non_null(f);
	assert_int_equal(ward_report_write(fileno(f), &r, &err), 0);
	rewind(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	/* A refusal before anything ran: every part is there, null (the
	 * kernel is known all the same). */
	struct utsname u;
	char want[4096];

	assert_int_equal(uname(&u), 0);
	snprintf(
	    want, sizeof(want),
	    "{\"report_version\": 1, \"ward_version\": \"" WARD_VERSION
	    "\", \"run_id\": null, \"policy\": {\"name\": \"py\\\"thon\", "
	    "\"digest\": \"ab\", \"signed_by\": null}, \"mode\": \"rootless\", "
	    "\"run\": {\"argv\": "
	    "null, \"argv_truncated\": false, \"kernel\": {\"release\": "
	    "\"%s\", \"version\": \"%s\", \"machine\": \"%s\"}, \"mounts\": "
	    "null, \"program\": null, \"inputs\": [], \"network\": null}, "
	    "\"created\": null, "
	    "\"destroyed\": null, \"reason\": \"launcher_error\", \"flags\": "
	    "[\"launcher_error\"], \"exit_code\": 125, \"target_exit\": null, "
	    "\"signal\": null, \"signal_name\": null, \"error\": "
	    "\"bad\\nline\\\\\", \"cgroup\": null, \"identity\": null, "
	    "\"limits\": null, \"peaks\": null, \"oom\": null, "
	    "\"pids_refused\": null, \"output\": null, \"denials\": "
	    "{\"seccomp\": [], \"seccomp_dropped\": null, \"network\": "
	    "null, \"network_dropped\": null}, \"network\": null, "
	    "\"cleanup\": null, \"queue\": null, \"timings_us\": null, "
	    "\"workspace\": null, \"files\": null, \"export\": null}\n",
	    u.release, u.version, u.machine);
	assert_string_equal(buf, want);
	fclose(f);
}

static int child_status(pid_t pid)
{
	int st;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void close_fds(void **state)
{
	pid_t pid = fork();

	if (pid == 0) {
		int keep[] = {6, 2, 40};
		ward_err err = {0};

		dup2(0, 5);
		dup2(0, 6);
		dup2(0, 9);
		dup2(0, 40);
		dup2(0, 41);
		if (ward_close_fds_except(keep, 3, &err) < 0)
			_exit(10);
		_exit((fcntl(5, F_GETFD) < 0) + 2 * (fcntl(6, F_GETFD) >= 0) +
		      4 * (fcntl(9, F_GETFD) < 0) +
		      8 * (fcntl(40, F_GETFD) >= 0) +
		      16 * (fcntl(41, F_GETFD) < 0) +
		      32 * (fcntl(2, F_GETFD) >= 0));
	}
	assert_int_equal(child_status(pid), 63);
}

static void rlimits(void **state)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct ward_limits l = {0};
		struct rlimit n, cpu, core, fsz;
		ward_err err = {0};

		l.set = 1u << WARD_LIM_NOFILE | 1u << WARD_LIM_CPUTIME;
		l.value[WARD_LIM_NOFILE] = 64;
		l.value[WARD_LIM_CPUTIME] = 1500; /* ms: 2 s, rounded up */
		getrlimit(RLIMIT_FSIZE, &fsz);
		if (ward_set_rlimits(&l, &err) < 0)
			_exit(10);
		getrlimit(RLIMIT_NOFILE, &n);
		getrlimit(RLIMIT_CPU, &cpu);
		getrlimit(RLIMIT_CORE, &core);
		if (n.rlim_cur != 64 || n.rlim_max != 64)
			_exit(11);
		if (cpu.rlim_cur != 2 || cpu.rlim_max != 2)
			_exit(12);
		if (core.rlim_cur != 0 || core.rlim_max != 0)
			_exit(13);
		getrlimit(RLIMIT_FSIZE, &n); /* not set: untouched */
		if (n.rlim_cur != fsz.rlim_cur)
			_exit(14);
		/* Above the hard limit: refused, not lowered quietly. */
		l.value[WARD_LIM_NOFILE] = 65;
		if (geteuid() != 0 && ward_set_rlimits(&l, &err) == 0)
			_exit(15);
		_exit(0);
	}
	assert_int_equal(child_status(pid), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(outcomes),
	    cmocka_unit_test(report),
	    cmocka_unit_test(close_fds),
	    cmocka_unit_test(rlimits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
