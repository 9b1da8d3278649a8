/* SPDX-License-Identifier: MIT */
/* Unit tests of the output pipes (launcher/unprivileged/output.c): caps per
 * stream and together, the ceiling, the digest of the whole stream, the tail,
 * the delivery of the kept head through real pipes; the report's JSON strings
 * (invalid UTF-8) and time stamps (launcher/unprivileged/report.c); and why a
 * run ended (launcher/unprivileged/verdict.c). */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "output.h"
#include "report.h"
#include "sha256.h"
#include "supervise.h"
#include "verdict.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct ward_limits caps(int64_t out, int64_t err, int64_t total)
{
	struct ward_limits l = {0};

	if (out >= 0) {
		l.set |= 1u << WARD_LIM_STDOUT;
		l.value[WARD_LIM_STDOUT] = (uint64_t)out;
	}
	if (err >= 0) {
		l.set |= 1u << WARD_LIM_STDERR;
		l.value[WARD_LIM_STDERR] = (uint64_t)err;
	}
	if (total >= 0) {
		l.set |= 1u << WARD_LIM_OUTPUT;
		l.value[WARD_LIM_OUTPUT] = (uint64_t)total;
	}
	return l;
}

static struct ward_output o; /* large: not on the stack */

static void caps_and_total(void **state)
{
	struct ward_limits l = caps(10, -1, 15);
	const uint8_t data[32] = "0123456789abcdefghijklmnopqrstu";

	ward_output_init(&o, &l, -1, -1);
	assert_int_equal(o.s[WARD_STDOUT].cap, 10);
	assert_int_equal(o.s[WARD_STDERR].cap, WARD_OUT_NONE);
	assert_int_equal(o.total_cap, 15);
	assert_int_equal(ward_output_account(&o, WARD_STDOUT, data, 8), 8);
	/* stdout's own cap: 2 more of 5 */
	assert_int_equal(ward_output_account(&o, WARD_STDOUT, data, 5), 2);
	/* stderr has no cap of its own, but together: 15 - 10 = 5 */
	assert_int_equal(ward_output_account(&o, WARD_STDERR, data, 10), 5);
	assert_int_equal(ward_output_account(&o, WARD_STDERR, data, 10), 0);
	assert_int_equal(o.s[WARD_STDOUT].total, 13);
	assert_int_equal(o.s[WARD_STDOUT].kept, 10);
	assert_int_equal(o.s[WARD_STDERR].total, 20);
	assert_int_equal(o.s[WARD_STDERR].kept, 5);
	assert_false(o.s[WARD_STDOUT].over_ceiling);

	/* no cap at all: everything is kept, there is no ceiling */
	l = caps(-1, -1, -1);
	ward_output_init(&o, &l, -1, -1);
	assert_int_equal(ward_output_account(&o, WARD_STDOUT, data, 32), 32);
	assert_int_equal(o.s[WARD_STDOUT].ceiling, WARD_OUT_NONE);

	/* a cap of 0 keeps nothing */
	l = caps(0, 0, -1);
	ward_output_init(&o, &l, -1, -1);
	assert_int_equal(ward_output_account(&o, WARD_STDERR, data, 32), 0);
}

static void ceilings(void **state)
{
	struct ward_limits l = caps(1024, 8 << 20, -1);
	static uint8_t chunk[1 << 20];

	ward_output_init(&o, &l, -1, -1);
	/* max(16 x the cap, 64 MiB) */
	assert_int_equal(o.s[WARD_STDOUT].ceiling, 64ull << 20);
	assert_int_equal(o.s[WARD_STDERR].ceiling, 128ull << 20);
	/* the total cap bounds a stream's ceiling too */
	l = caps(-1, 8 << 20, 1 << 20);
	ward_output_init(&o, &l, -1, -1);
	assert_int_equal(o.s[WARD_STDOUT].ceiling, 64ull << 20);
	assert_int_equal(o.s[WARD_STDERR].ceiling, 64ull << 20);
	/* past the ceiling, and not a byte before */
	for (int i = 0; i < 64; i++)
		ward_output_account(&o, WARD_STDOUT, chunk, sizeof(chunk));
	assert_false(o.s[WARD_STDOUT].over_ceiling);
	ward_output_account(&o, WARD_STDOUT, chunk, 1);
	assert_true(o.s[WARD_STDOUT].over_ceiling);
	assert_false(o.s[WARD_STDERR].over_ceiling);
	/* `stdout-at-cap kill`: the ceiling is the cap (or the total), the
	 * run ends one byte past it; stderr keeps its own rule */
	l = caps(1024, 8 << 20, -1);
	l.set |= 1u << WARD_LIM_STDOUT_AT_CAP;
	l.value[WARD_LIM_STDOUT_AT_CAP] = 1;
	ward_output_init(&o, &l, -1, -1);
	assert_int_equal(o.s[WARD_STDOUT].ceiling, 1024);
	assert_int_equal(o.s[WARD_STDERR].ceiling, 128ull << 20);
	ward_output_account(&o, WARD_STDOUT, chunk, 1024);
	assert_false(o.s[WARD_STDOUT].over_ceiling);
	ward_output_account(&o, WARD_STDOUT, chunk, 1);
	assert_true(o.s[WARD_STDOUT].over_ceiling);
	l = caps(-1, -1, 4096);
	l.set |= 1u << WARD_LIM_STDOUT_AT_CAP;
	l.value[WARD_LIM_STDOUT_AT_CAP] = 1;
	ward_output_init(&o, &l, -1, -1);
	assert_int_equal(o.s[WARD_STDOUT].ceiling, 4096);
	/* without any cap there is nothing to kill at */
	l = caps(-1, -1, -1);
	l.set |= 1u << WARD_LIM_STDOUT_AT_CAP;
	l.value[WARD_LIM_STDOUT_AT_CAP] = 1;
	ward_output_init(&o, &l, -1, -1);
	assert_int_equal(o.s[WARD_STDOUT].ceiling, WARD_OUT_NONE);
}

/* The digest is of the whole stream, whatever the chunks; the tail is its
 * last 4 KiB. */
static void digest_and_tail(void **state)
{
	struct ward_limits l = caps(100, -1, -1);
	static uint8_t all[50000];
	uint8_t want[32], tail[WARD_OUT_TAIL];
	size_t off = 0, n = 1;

	for (size_t i = 0; i < sizeof(all); i++)
		all[i] = (uint8_t)(i * 7 + i / 251);
	ward_output_init(&o, &l, -1, -1);
	/* a short stream: its tail is all of it */
	ward_output_account(&o, WARD_STDOUT, all, 10);
	assert_int_equal(ward_output_tail(&o.s[WARD_STDOUT], tail), 10);
	assert_memory_equal(tail, all, 10);
	ward_output_init(&o, &l, -1, -1);
	while (off < sizeof(all)) {
		if (n > sizeof(all) - off)
			n = sizeof(all) - off;
		ward_output_account(&o, WARD_STDOUT, all + off, n);
		off += n;
		n = n * 3 + 1; /* 1, 4, 13, ... 9841, and what is left */
	}
	ward_output_finish(&o);
	ward_sha256(all, sizeof(all), want);
	assert_memory_equal(o.s[WARD_STDOUT].digest, want, 32);
	assert_int_equal(ward_output_tail(&o.s[WARD_STDOUT], tail),
			 WARD_OUT_TAIL);
	assert_memory_equal(tail, all + sizeof(all) - WARD_OUT_TAIL,
			    WARD_OUT_TAIL);
	assert_int_equal(o.s[WARD_STDOUT].kept, 100);
	/* a chunk larger than the tail at once */
	ward_output_init(&o, &l, -1, -1);
	ward_output_account(&o, WARD_STDOUT, all, 7);
	ward_output_account(&o, WARD_STDOUT, all + 7, 9000);
	assert_int_equal(ward_output_tail(&o.s[WARD_STDOUT], tail),
			 WARD_OUT_TAIL);
	assert_memory_equal(tail, all + 9007 - WARD_OUT_TAIL, WARD_OUT_TAIL);
}

/* Through real pipes: the head reaches the destination, the rest is
 * drained, EOF ends the stream. */
static void pipes(void **state)
{
	struct ward_limits l = caps(5000, -1, -1);
	int src[2], dst[2];
	static uint8_t data[20000], got[20000];
	size_t have = 0;
	ssize_t n;
	pid_t pid;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)('a' + i % 26);
	assert_int_equal(pipe(src), 0);
	assert_int_equal(pipe(dst), 0);
	ward_output_init(&o, &l, dst[1], -1);
	assert_false(o.s[WARD_STDOUT].dest_file);
	o.s[WARD_STDOUT].rd = src[0];
	pid = fork();
	if (pid == 0) {
		close(src[0]);
		if (write(src[1], data, sizeof(data)) != sizeof(data))
			_exit(1);
		_exit(0);
	}
	close(src[1]);
	while (o.s[WARD_STDOUT].rd >= 0) {
		if (ward_output_can_read(&o, WARD_STDOUT))
			ward_output_read(&o, WARD_STDOUT);
		while (ward_output_pending(&o, WARD_STDOUT))
			ward_output_flush(&o, WARD_STDOUT);
	}
	close(dst[1]);
	while ((n = read(dst[0], got + have, sizeof(got) - have)) > 0)
		have += (size_t)n;
	close(dst[0]);
	assert_int_equal(have, 5000);
	assert_memory_equal(got, data, 5000);
	assert_int_equal(o.s[WARD_STDOUT].total, sizeof(data));
	waitpid(pid, NULL, 0);

	/* The caller's end closed: delivery stops, the draining does not. */
	assert_int_equal(pipe(src), 0);
	assert_int_equal(pipe(dst), 0);
	signal(SIGPIPE, SIG_IGN);
	ward_output_init(&o, &l, dst[1], -1);
	o.s[WARD_STDOUT].rd = src[0];
	close(dst[0]);
	assert_int_equal(write(src[1], data, 3000), 3000);
	close(src[1]);
	while (o.s[WARD_STDOUT].rd >= 0) {
		ward_output_read(&o, WARD_STDOUT);
		ward_output_flush(&o, WARD_STDOUT);
	}
	assert_int_equal(o.s[WARD_STDOUT].dest, -1);
	assert_int_equal(o.s[WARD_STDOUT].total, 3000);
	close(dst[1]);
	signal(SIGPIPE, SIG_DFL);
}

static char *json(const char *s, size_t n)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	ward_json_bytes(f, (const uint8_t *)s, n);
	fclose(f);
	return buf;
}

static void json_strings(void **state)
{
	struct timespec ts = {1764416401, 123456789};
	char buf[64];

	assert_string_equal(json("a\"b\\c\n\t\x01\x7f", 9),
			    "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\"");
	/* valid UTF-8 as it is: é, €, 𝄞 */
	assert_string_equal(json("\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e", 9),
			    "\"\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e\"");
	/* invalid bytes one by one (surrogateescape): a lone byte, a cut
	 * sequence, an overlong form, a surrogate, a NUL kept as \u0000 */
	assert_string_equal(json("x\xff", 2), "\"x\\udcff\"");
	assert_string_equal(json("\xe2\x82", 2), "\"\\udce2\\udc82\"");
	assert_string_equal(json("\xc0\xaf", 2), "\"\\udcc0\\udcaf\"");
	assert_string_equal(json("\xed\xa0\x80", 3),
			    "\"\\udced\\udca0\\udc80\"");
	assert_string_equal(json("a\0b", 3), "\"a\\u0000b\"");
	ward_rfc3339(&ts, buf, sizeof(buf));
	assert_string_equal(buf, "2025-11-29T11:40:01.123Z");
}

static struct ward_outcome status(int st)
{
	struct ward_outcome out = {.end = WARD_END_STATUS, .status = st};

	return out;
}

static void verdicts(void **state)
{
	struct ward_limits l = {0};
	struct ward_cg_stats st = {0};
	struct ward_outcome out;
	struct ward_verdict v;

	l.set = 1u << WARD_LIM_MEMORY | 1u << WARD_LIM_CPUTIME;
	l.value[WARD_LIM_MEMORY] = 64 << 20;
	l.value[WARD_LIM_CPUTIME] = 2000;

	out = status(3 << 8);
	ward_verdict(&out, NULL, &l, &v);
	assert_int_equal(v.reason, WARD_R_EXITED);
	assert_int_equal(v.flags, WARD_R_BIT(WARD_R_EXITED));

	/* OOM by the counter */
	out = status(SIGKILL);
	st.have_oom = true;
	st.oom_kills = 1;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_OOM_KILLED);
	assert_true(v.oom_counter);
	assert_false(v.oom_sigkill_peak);
	/* the counter silent: SIGKILL at the limit still tells */
	st.oom_kills = 0;
	st.have_mem_peak = true;
	st.mem_peak = (64 << 20) - 4096;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_OOM_KILLED);
	assert_false(v.oom_counter);
	assert_true(v.oom_sigkill_peak);
	/* ... but not a SIGKILL far below it */
	st.mem_peak = 1 << 20;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_SIGNALED);
	/* a child OOM-killed while the target exited: a flag */
	out = status(1 << 8);
	st.oom_kills = 2;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_EXITED);
	assert_true(v.flags & WARD_R_BIT(WARD_R_OOM_KILLED));
	st.oom_kills = 0;

	/* pids: a flag */
	st.have_pids_events = true;
	st.pids_max_hits = 7;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_EXITED);
	assert_int_equal(v.flags, WARD_R_BIT(WARD_R_EXITED) |
				      WARD_R_BIT(WARD_R_PIDS_LIMIT));
	st.pids_max_hits = 0;

	/* CPU time: SIGXCPU, or SIGKILL with the time used up */
	out = status(SIGXCPU);
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_CPU_TIME);
	out = status(SIGKILL);
	st.have_cpu = true;
	st.cpu_user_usec = 1900000;
	st.cpu_sys_usec = 100000;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_CPU_TIME);
	/* the kernel's tick count runs ahead of the scheduler's clock */
	st.cpu_user_usec = 1400000;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_CPU_TIME);
	st.cpu_user_usec = 1300000;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_SIGNALED);

	/* what the supervisor did comes first */
	out = (struct ward_outcome){.end = WARD_END_UNKNOWN,
				    .init_code = CLD_KILLED,
				    .init_status = SIGKILL,
				    .stop = WARD_STOP_TIMEOUT};
	ward_verdict(&out, NULL, &l, &v);
	assert_int_equal(v.reason, WARD_R_TIMEOUT);
	assert_int_equal(ward_exit_code(&out), 128 + SIGKILL);
	out.stop = WARD_STOP_SECCOMP;
	ward_verdict(&out, NULL, &l, &v);
	assert_int_equal(v.reason, WARD_R_SECCOMP_VIOLATION);
	assert_int_equal(ward_exit_code(&out), 128 + SIGSYS);
	out.stop = WARD_STOP_OUTPUT;
	ward_verdict(&out, NULL, &l, &v);
	assert_int_equal(v.reason, WARD_R_OUTPUT_LIMIT);
	/* stopped at its output cap, the target's own exit 0 is not success */
	{
		struct ward_outcome done = status(0);

		done.stop = WARD_STOP_OUTPUT;
		ward_verdict(&done, NULL, &l, &v);
		assert_int_equal(v.reason, WARD_R_OUTPUT_LIMIT);
		assert_int_equal(ward_exit_code(&done), 128 + SIGKILL);
	}
	out.stop = WARD_STOP_SIGNAL;
	out.stop_signal = SIGINT;
	ward_verdict(&out, NULL, &l, &v);
	assert_int_equal(v.reason, WARD_R_INTERRUPTED);
	assert_int_equal(ward_exit_code(&out), 128 + SIGINT);
	/* a timeout whose grace SIGTERM ended the target: its own status */
	out = status(SIGTERM);
	out.stop = WARD_STOP_TIMEOUT;
	ward_verdict(&out, NULL, &l, &v);
	assert_int_equal(v.reason, WARD_R_TIMEOUT);
	assert_int_equal(ward_exit_code(&out), 128 + SIGTERM);
	/* init killed without a word, and OOM: the OOM killer chose init */
	out = (struct ward_outcome){.end = WARD_END_UNKNOWN,
				    .init_code = CLD_KILLED,
				    .init_status = SIGKILL};
	st = (struct ward_cg_stats){.have_oom = true, .oom_kills = 1};
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_OOM_KILLED);
	out.init_status = SIGSEGV;
	st.oom_kills = 0;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_LAUNCHER_ERROR);
	assert_string_equal(ward_reason_name(WARD_R_SECCOMP_VIOLATION),
			    "seccomp_violation");
}

/* Near-limit flags: at or past 90% of a limit that did not end the run. */
static void near_limits(void **state)
{
	struct ward_limits l = {0};
	struct ward_cg_stats st = {.have_mem_peak = true,
				   .have_pids_peak = true};
	struct ward_outcome out = status(0);
	struct ward_verdict v;
	const uint32_t all = WARD_R_BIT(WARD_R_NEAR_MEMORY) |
			     WARD_R_BIT(WARD_R_NEAR_PIDS) |
			     WARD_R_BIT(WARD_R_NEAR_WALL);

	l.set =
	    1u << WARD_LIM_MEMORY | 1u << WARD_LIM_PIDS | 1u << WARD_LIM_WALL;
	l.value[WARD_LIM_MEMORY] = 100 << 20;
	l.value[WARD_LIM_PIDS] = 10;
	l.value[WARD_LIM_WALL] = 30000;
	/* just below 90% of each: nothing */
	st.mem_peak = (90ull << 20) - 4096;
	st.pids_peak = 8;
	out.wall_ms = 26999;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.flags, WARD_R_BIT(WARD_R_EXITED));
	/* at 90% of each: the three flags, the run still `exited` */
	st.mem_peak = 90ull << 20;
	st.pids_peak = 9;
	out.wall_ms = 27000;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.reason, WARD_R_EXITED);
	assert_int_equal(v.flags, WARD_R_BIT(WARD_R_EXITED) | all);
	assert_string_equal(ward_reason_name(WARD_R_NEAR_MEMORY),
			    "near_memory_limit");
	/* a limit that acted is not "near": OOM, refused forks, timeout */
	st.have_oom = true;
	st.oom_kills = 1;
	st.have_pids_events = true;
	st.pids_max_hits = 1;
	out.stop = WARD_STOP_TIMEOUT;
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.flags & all, 0);
	/* limits not set: no flag, whatever the peaks */
	l.set = 0;
	out = status(0);
	out.wall_ms = 1u << 30;
	st = (struct ward_cg_stats){.have_mem_peak = true,
				    .mem_peak = 1ull << 40};
	ward_verdict(&out, &st, &l, &v);
	assert_int_equal(v.flags, WARD_R_BIT(WARD_R_EXITED));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(caps_and_total),  cmocka_unit_test(ceilings),
	    cmocka_unit_test(digest_and_tail), cmocka_unit_test(pipes),
	    cmocka_unit_test(json_strings),    cmocka_unit_test(verdicts),
	    cmocka_unit_test(near_limits),
	};

	alarm(60);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
