/* SPDX-License-Identifier: MIT */
/* Unit tests of the session protocol's parsers
 * (launcher/unprivileged/session_proto.c, docs/spec.md 7.2-7.6): frame
 * lengths at and past the cap, every request's field checks, the driver's
 * lines (lies and garbage refused), strict base64, the denials' scan. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "session_proto.h"

#include <stdlib.h>
#include <string.h>

static const char *len_of(uint32_t v, uint32_t *out)
{
	uint8_t h[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16),
			(uint8_t)(v >> 8), (uint8_t)v};

	return ward_sframe_len(h, out);
}

static void frame_lengths(void **state)
{
	uint32_t n;

	(void)state;
	assert_null(len_of(1, &n));
	assert_int_equal(n, 1);
	assert_null(len_of(WARD_SESSION_FRAME_MAX, &n));
	assert_string_equal(len_of(WARD_SESSION_FRAME_MAX + 1, &n),
			    "frame_too_large");
	assert_string_equal(len_of(64u << 20, &n), "frame_too_large");
	assert_string_equal(len_of(0xffffffffu, &n), "frame_too_large");
	assert_string_equal(len_of(0, &n), "malformed");
}

static void requests(void **state)
{
	struct ward_sreq rq;
	uint8_t exec[] = {1, 0, 0, 7, 0xd0, 0, 0, 0, 100, 'p', 'a', 's', 's'};
	uint8_t intr[] = {2, 0, 0, 0, 3};
	uint8_t *big = calloc(1, WARD_SESSION_CODE_MAX + 10);

	(void)state;
	assert_null(ward_sreq_parse(exec, sizeof(exec), &rq));
	assert_int_equal(rq.type, WARD_SQ_EXEC);
	assert_int_equal(rq.wall_ms, 2000);
	assert_int_equal(rq.max_output, 100);
	assert_int_equal(rq.code_len, 4);
	assert_memory_equal(rq.code, "pass", 4);
	assert_string_equal(ward_sreq_parse(exec, 8, &rq), "malformed");
	assert_null(ward_sreq_parse(intr, sizeof(intr), &rq));
	assert_int_equal(rq.cell, 3);
	assert_string_equal(ward_sreq_parse(intr, 4, &rq), "malformed");
	assert_null(ward_sreq_parse((const uint8_t *)"\x03", 1, &rq));
	assert_string_equal(ward_sreq_parse((const uint8_t *)"\x04x", 2, &rq),
			    "malformed");
	assert_string_equal(ward_sreq_parse((const uint8_t *)"\x09", 1, &rq),
			    "unknown_type");
	assert_string_equal(ward_sreq_parse(exec, 0, &rq), "malformed");
	assert_non_null(big);
	big[0] = 1;
	assert_string_equal(
	    ward_sreq_parse(big, WARD_SESSION_CODE_MAX + 10, &rq), "too_large");
	free(big);
}

static int dl(const char *s, struct ward_dline *d)
{
	return ward_dline_parse(s, strlen(s), d);
}

static void driver_lines(void **state)
{
	struct ward_dline d;

	(void)state;
	assert_int_equal(dl("ready", &d), 0);
	assert_int_equal(d.kind, WARD_DL_READY);
	assert_int_equal(dl("out 12 NDIK", &d), 0);
	assert_int_equal(d.kind, WARD_DL_OUT);
	assert_int_equal(d.cell, 12);
	assert_int_equal(d.field_len[0], 4);
	assert_int_equal(dl("figure 4 YS5wbmc=", &d), 0);
	assert_int_equal(d.kind, WARD_DL_FIGURE);
	assert_int_equal(dl("figure 4", &d), -1);
	assert_int_equal(dl("done 3 interrupted 1000 12000 - S2V5 - -", &d), 0);
	assert_string_equal(d.status, "interrupted");
	assert_int_equal(d.cpu_us, 1000);
	assert_int_equal(d.field_len[0], 0);
	assert_int_equal(d.field_len[1], 4);
	/* garbage, lies, and lines one field short or long */
	assert_int_equal(dl("", &d), -1);
	assert_int_equal(dl("ready now", &d), -1);
	assert_int_equal(dl("out x NDIK", &d), -1);
	assert_int_equal(dl("out 1 ND!K", &d), -1);
	assert_int_equal(dl("out 1 NDI", &d), -1);
	assert_int_equal(dl("out 1", &d), -1);
	assert_int_equal(dl("out 1 NDIK extra", &d), -1);
	assert_int_equal(dl("out  1 NDIK", &d), -1);
	assert_int_equal(dl("done 3 fine 1 1 - - - -", &d), -1);
	assert_int_equal(dl("done 3 ok 1 1 - - -", &d), -1);
	assert_int_equal(dl("done 3 ok 99999999999999999999 1 - - - -", &d),
			 -1);
	assert_int_equal(dl("\xff\x00 garbage", &d), -1);
	assert_int_equal(dl("exec 1 NDIK", &d), -1);
}

static void base64(void **state)
{
	uint8_t *b;
	size_t n;
	char *e = ward_b64_encode((const uint8_t *)"42\n", 3);

	(void)state;
	assert_string_equal(e, "NDIK");
	free(e);
	assert_int_equal(ward_b64_decode("NDIK", 4, &b, &n), 0);
	assert_int_equal(n, 3);
	assert_memory_equal(b, "42\n", 3);
	free(b);
	assert_int_equal(ward_b64_decode("NDI=", 4, &b, &n), 0);
	assert_int_equal(n, 2);
	free(b);
	assert_int_equal(ward_b64_decode("NDI", 3, &b, &n), -1);
	assert_int_equal(ward_b64_decode("N=IK", 4, &b, &n), -1);
	assert_int_equal(ward_b64_decode("ND K", 4, &b, &n), -1);
	assert_null(b);
}

static void denials(void **state)
{
	const char *rep =
	    "{\"x\": 1, \"denials\": {\"seccomp\": [{\"syscall\": \"mount\", "
	    "\"first\": \"2026-01-01T00:00:01.500Z\", \"args\": [\"0x1\"]}, "
	    "{\"syscall\": \"kexec_load\", \"first\": null}], "
	    "\"seccomp_dropped\": 0}}";
	const char *it = NULL, *obj, *first;
	size_t len, flen;

	(void)state;
	assert_int_equal(ward_sdenial_next(rep, &it, &obj, &len, &first, &flen),
			 1);
	assert_true(!strncmp(obj, "{\"syscall\": \"mount\"", 19));
	assert_int_equal(obj[len - 1], '}');
	assert_true(ward_stime_within(first, flen, "2026-01-01T00:00:01.000Z",
				      "2026-01-01T00:00:02.000Z"));
	assert_false(ward_stime_within(first, flen, "2026-01-01T00:00:02.000Z",
				       "2026-01-01T00:00:03.000Z"));
	assert_int_equal(ward_sdenial_next(rep, &it, &obj, &len, &first, &flen),
			 1);
	assert_null(first);
	assert_int_equal(ward_sdenial_next(rep, &it, &obj, &len, &first, &flen),
			 0);
	it = NULL;
	assert_int_equal(
	    ward_sdenial_next("{}", &it, &obj, &len, &first, &flen), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(frame_lengths), cmocka_unit_test(requests),
	    cmocka_unit_test(driver_lines),  cmocka_unit_test(base64),
	    cmocka_unit_test(denials),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
