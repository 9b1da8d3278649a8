/* SPDX-License-Identifier: MIT */
/* Unit tests of admission control (launcher/supervisor/admit.c, the
 * holder's launcher/unprivileged/admission.c, launcher/lib/queue.c):
 * where the ceiling and the timeout come from (option, environment,
 * default), what is refused, and the queue itself in a directory of the
 * test's own: the slots are taken and freed, a full queue times out, a
 * queue is made whole; through a forked holder, a slot is held until the
 * holder is released, and a timeout is 124. The e2e suite
 * (tests/e2e/admission.sh) watches real runs. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "admission.h"
#include "admit.h"
#include "exitcode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];
/* The holder keeps the caller's ids (the test's own, whoever runs it). */
static const struct ward_priv rootless = {.mode = WARD_MODE_ROOTLESS};

static int setup(void **state)
{
	char tmpl[] = "/tmp/ward-admit-test.XXXXXX";

	(void)state;
	if (!mkdtemp(tmpl))
		return -1;
	snprintf(dir, sizeof(dir), "%s/q", tmpl);
	unsetenv("WARD_MAX_SANDBOXES");
	unsetenv("WARD_QUEUE_TIMEOUT");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%.*s'",
		 (int)(strrchr(dir, '/') - dir), dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void defaults(void **state)
{
	struct ward_admission a;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	ward_err err = {0};

	(void)state;
	assert_int_equal(ward_queue_config(&a.q, NULL, NULL, NULL, true, &err),
			 0);
	assert_true(a.q.used);
	assert_int_equal(a.q.ceiling, n * 3 / 2 ? n * 3 / 2 : 1);
	assert_int_equal(a.q.timeout_ms, WARD_QUEUE_TIMEOUT_MS);
	assert_string_equal(a.q.dir, WARD_ADMIT_DIR);
	/* rootless: chosen when the run is admitted */
	assert_int_equal(ward_queue_config(&a.q, NULL, NULL, NULL, false, &err),
			 0);
	assert_string_equal(a.q.dir, "");
}

static void option_then_environment(void **state)
{
	struct ward_admission a;
	ward_err err = {0};

	(void)state;
	setenv("WARD_MAX_SANDBOXES", "7", 1);
	setenv("WARD_QUEUE_TIMEOUT", "1.5s", 1);
	assert_int_equal(ward_queue_config(&a.q, NULL, NULL, NULL, true, &err),
			 0);
	assert_int_equal(a.q.ceiling, 7);
	assert_int_equal(a.q.timeout_ms, 1500);
	assert_int_equal(
	    ward_queue_config(&a.q, "2", "250ms", NULL, true, &err), 0);
	assert_int_equal(a.q.ceiling, 2);
	assert_int_equal(a.q.timeout_ms, 250);
	/* 0: no ceiling at all */
	assert_int_equal(ward_queue_config(&a.q, "0", NULL, NULL, true, &err),
			 0);
	assert_false(a.q.used);
	/* ... and then no holder is made */
	{
		struct ward_admission b = {.sock = -1};

		assert_int_equal(
		    ward_admit(&b, "0", NULL, NULL, &rootless, -1, &err), 0);
		assert_int_equal(b.holder, 0);
		assert_false(b.q.used);
	}
}

static void refusals(void **state)
{
	struct ward_admission a;
	ward_err err = {0};

	(void)state;
	assert_int_equal(ward_queue_config(&a.q, "x", NULL, NULL, true, &err),
			 -1);
	assert_non_null(strstr(err.msg, "--max-sandboxes"));
	assert_int_equal(ward_queue_config(&a.q, "257", NULL, NULL, true, &err),
			 -1);
	assert_int_equal(
	    ward_queue_config(&a.q, NULL, "soon", NULL, true, &err), -1);
	assert_non_null(strstr(err.msg, "--queue-timeout"));
	setenv("WARD_MAX_SANDBOXES", "-1", 1);
	assert_int_equal(ward_queue_config(&a.q, NULL, NULL, NULL, true, &err),
			 -1);
	assert_non_null(strstr(err.msg, "WARD_MAX_SANDBOXES"));
	unsetenv("WARD_MAX_SANDBOXES");
	assert_int_equal(
	    ward_queue_config(&a.q, NULL, NULL, "relative", true, &err), -1);
}

/* Two slots, in this process: two takers in, the third times out, one
 * out lets the third in. */
static void slots_taken_and_freed(void **state)
{
	struct ward_admission a[3];
	struct stat st;
	char path[128];
	int fd[3];
	ward_err err = {0};

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_int_equal(
		    ward_queue_config(&a[i].q, "2", "100ms", dir, true, &err),
		    0);
	/* (root's supervisor makes the queue; a rootless holder its own) */
	assert_int_equal(ward_queue_ensure(dir, true, &err), 0);
	assert_true((fd[0] = ward_queue_take(&a[0].q, false, "", -1, &err)) >=
		    0);
	/* made whole: every slot and the queue, readable by all */
	snprintf(path, sizeof(path), "%s/slot-%d", dir, WARD_ADMIT_MAX - 1);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_true((fd[1] = ward_queue_take(&a[1].q, false, "", -1, &err)) >=
		    0);
	assert_int_not_equal(a[0].q.slot, a[1].q.slot);
	assert_int_equal(ward_queue_take(&a[2].q, false, "", -1, &err), -1);
	assert_true(a[2].q.timed_out);
	assert_true(a[2].q.waited_ms >= 100);
	assert_non_null(strstr(err.msg, "queue timeout"));
	close(fd[0]);
	assert_int_equal(
	    ward_queue_config(&a[2].q, "2", "100ms", dir, true, &err), 0);
	assert_true((fd[2] = ward_queue_take(&a[2].q, false, "", -1, &err)) >=
		    0);
	assert_int_equal(a[2].q.slot, a[0].q.slot);
	assert_true(a[2].q.admitted_ns >= a[2].q.ticket_ns);
	close(fd[1]);
	close(fd[2]);
}

/* One slot, through forked holders: the first holds it until it is
 * released, so the second times out with 124 and its holder is gone;
 * once the first is released the slot is free again. A setting the
 * holder refuses is 125 with its reason. */
static void holder_holds_until_released(void **state)
{
	struct ward_admission a = {.sock = -1}, b = {.sock = -1};
	ward_err err = {0};

	(void)state;
	assert_int_equal(ward_admit(&a, "1", "100ms", dir, &rootless, -1, &err),
			 0);
	assert_true(a.holder > 0);
	assert_true(a.sock >= 0);
	assert_true(a.q.used);
	assert_int_equal(a.q.slot, 0);
	assert_string_equal(a.q.dir, dir);
	assert_int_equal(ward_admit(&b, "1", "100ms", dir, &rootless, -1, &err),
			 -1);
	assert_true(b.q.timed_out);
	assert_int_equal(b.exit_code, WARD_EXIT_QUEUE_TIMEOUT);
	assert_int_equal(b.holder, 0);
	assert_non_null(strstr(err.msg, "queue timeout"));
	/* Released, the holder is killed, not waited for: the slot is free
	 * once the kernel has ended it, which the next in line waits for
	 * (not for a reap). */
	ward_admission_release(&a);
	assert_true(a.holder > 0);
	assert_int_equal(a.sock, -1);
	memset(&err, 0, sizeof(err));
	assert_int_equal(ward_admit(&b, "1", "5s", dir, &rootless, -1, &err),
			 0);
	assert_int_equal(b.q.slot, 0);
	ward_admission_reap(&a);
	assert_int_equal(a.holder, 0);
	ward_admission_reap(&a); /* idempotent */
	ward_admission_release(&b);
	ward_admission_reap(&b);
	memset(&err, 0, sizeof(err));
	assert_int_equal(ward_admit(&b, "x", NULL, dir, &rootless, -1, &err),
			 -1);
	assert_int_equal(b.exit_code, WARD_EXIT_REFUSED);
	assert_non_null(strstr(err.msg, "--max-sandboxes"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(defaults, setup, teardown),
	    cmocka_unit_test_setup_teardown(option_then_environment, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(refusals, setup, teardown),
	    cmocka_unit_test_setup_teardown(slots_taken_and_freed, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(holder_holds_until_released, setup,
					    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
