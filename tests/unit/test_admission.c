/* SPDX-License-Identifier: MIT */
/* Unit tests of admission control (launcher/core/admission.c): where the
 * ceiling and the timeout come from (option, environment, default), what
 * is refused, and the queue itself in a directory of the test's own: the
 * slots are taken and freed, a full queue times out with 124, a queue is
 * made whole. The e2e suite (tests/e2e/admission.sh) watches real runs. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "admission.h"
#include "exitcode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

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
	assert_int_equal(
	    ward_admission_config(&a, NULL, NULL, NULL, true, &err), 0);
	assert_true(a.q.used);
	assert_int_equal(a.q.ceiling, n * 3 / 2 ? n * 3 / 2 : 1);
	assert_int_equal(a.q.timeout_ms, WARD_QUEUE_TIMEOUT_MS);
	assert_string_equal(a.q.dir, WARD_ADMIT_DIR);
	assert_int_equal(a.slot_fd, -1);
	/* rootless: chosen when the run is admitted */
	assert_int_equal(
	    ward_admission_config(&a, NULL, NULL, NULL, false, &err), 0);
	assert_string_equal(a.q.dir, "");
}

static void option_then_environment(void **state)
{
	struct ward_admission a;
	ward_err err = {0};

	(void)state;
	setenv("WARD_MAX_SANDBOXES", "7", 1);
	setenv("WARD_QUEUE_TIMEOUT", "1.5s", 1);
	assert_int_equal(
	    ward_admission_config(&a, NULL, NULL, NULL, true, &err), 0);
	assert_int_equal(a.q.ceiling, 7);
	assert_int_equal(a.q.timeout_ms, 1500);
	assert_int_equal(
	    ward_admission_config(&a, "2", "250ms", NULL, true, &err), 0);
	assert_int_equal(a.q.ceiling, 2);
	assert_int_equal(a.q.timeout_ms, 250);
	/* 0: no ceiling at all */
	assert_int_equal(ward_admission_config(&a, "0", NULL, NULL, true, &err),
			 0);
	assert_false(a.q.used);
	assert_int_equal(ward_admit(&a, true, -1, &err), 0);
}

static void refusals(void **state)
{
	struct ward_admission a;
	ward_err err = {0};

	(void)state;
	assert_int_equal(ward_admission_config(&a, "x", NULL, NULL, true, &err),
			 -1);
	assert_non_null(strstr(err.msg, "--max-sandboxes"));
	assert_int_equal(
	    ward_admission_config(&a, "257", NULL, NULL, true, &err), -1);
	assert_int_equal(
	    ward_admission_config(&a, NULL, "soon", NULL, true, &err), -1);
	assert_non_null(strstr(err.msg, "--queue-timeout"));
	setenv("WARD_MAX_SANDBOXES", "-1", 1);
	assert_int_equal(
	    ward_admission_config(&a, NULL, NULL, NULL, true, &err), -1);
	assert_non_null(strstr(err.msg, "WARD_MAX_SANDBOXES"));
	unsetenv("WARD_MAX_SANDBOXES");
	assert_int_equal(
	    ward_admission_config(&a, NULL, NULL, "relative", true, &err), -1);
}

/* Two slots: two runs in, the third times out (124), one out lets the
 * third in. */
static void slots_taken_and_freed(void **state)
{
	struct ward_admission a[3];
	struct stat st;
	char path[128];
	ward_err err = {0};

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_int_equal(
		    ward_admission_config(&a[i], "2", "100ms", dir, true, &err),
		    0);
	assert_int_equal(ward_admit(&a[0], true, -1, &err), 0);
	/* made whole: every slot and the queue, readable by all */
	snprintf(path, sizeof(path), "%s/slot-%d", dir, WARD_ADMIT_MAX - 1);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, geteuid() == 0 ? 0644 : 0600);
	assert_int_equal(ward_admit(&a[1], true, -1, &err), 0);
	assert_int_not_equal(a[0].q.slot, a[1].q.slot);
	assert_int_equal(ward_admit(&a[2], true, -1, &err), -1);
	assert_true(a[2].q.timed_out);
	assert_int_equal(a[2].exit_code, WARD_EXIT_QUEUE_TIMEOUT);
	assert_true(a[2].q.waited_ms >= 100);
	assert_non_null(strstr(err.msg, "queue timeout"));
	ward_admission_release(&a[0]);
	assert_int_equal(
	    ward_admission_config(&a[2], "2", "100ms", dir, true, &err), 0);
	assert_int_equal(ward_admit(&a[2], true, -1, &err), 0);
	assert_int_equal(a[2].q.slot, a[0].q.slot);
	assert_true(a[2].q.admitted_ns >= a[2].q.ticket_ns);
	ward_admission_release(&a[1]);
	ward_admission_release(&a[2]);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
