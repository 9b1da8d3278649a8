/* SPDX-License-Identifier: MIT */
/* Unit tests of the broker's records on their way to the courier
 * (launcher/unprivileged/broker_facts.c): packed, they hold the entries in
 * use and no more, and come back as they left; a length that does not add
 * up (short, long, a count past its array) is taken as no records at all,
 * and the entries past a count are never written. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "broker_facts.h"

#include <stdio.h>
#include <string.h>

static struct ward_broker_facts in, out;
static struct ward_broker_carried carried;

/* in, packed into carried as the broker sends it after its header. */
static void pack(void)
{
	struct iovec iov[WARD_BROKER_FACTS_IOV];
	int n = ward_broker_facts_iov(&in, iov);

	carried.records = true;
	carried.len = 0;
	for (int i = 0; i < n; i++) {
		assert_true(carried.len + iov[i].iov_len <=
			    sizeof(carried.bytes));
		memcpy(carried.bytes + carried.len, iov[i].iov_base,
		       iov[i].iov_len);
		carried.len += (uint32_t)iov[i].iov_len;
	}
}

static int setup(void **state)
{
	(void)state;
	memset(&in, 0, sizeof(in));
	memset(&out, 0, sizeof(out));
	memset(&carried, 0, sizeof(carried));
	in.ran = in.records = true;
	in.notified = 7;
	in.throttled = 1;
	in.nsys = 2;
	in.sys_dropped = 3;
	in.sys[0].nr = 101;
	in.sys[1].nr = 102;
	in.nnet = 1;
	in.net[0].port = 443;
	in.ndns = 1;
	snprintf(in.dns[0].name, sizeof(in.dns[0].name), "pypi.org");
	snprintf(in.error, sizeof(in.error), "stopped");
	return 0;
}

static void round_trip(void **state)
{
	(void)state;
	pack();
	/* The entries in use, not the struct's 100 KiB. */
	assert_true(carried.len < 2 * sizeof(in.dns[0]) + sizeof(in.error) +
				      sizeof(in.sys) / 8);
	assert_true(ward_broker_facts_take(&carried, &out));
	assert_true(out.records && out.ran);
	assert_int_equal(out.notified, 7);
	assert_int_equal(out.throttled, 1);
	assert_int_equal(out.nsys, 2);
	assert_int_equal(out.sys_dropped, 3);
	assert_int_equal(out.sys[0].nr, 101);
	assert_int_equal(out.sys[1].nr, 102);
	assert_int_equal(out.nnet, 1);
	assert_int_equal(out.net[0].port, 443);
	assert_int_equal(out.ndns, 1);
	assert_string_equal(out.dns[0].name, "pypi.org");
	assert_string_equal(out.error, "stopped");
}

/* Nothing recorded: the fixed fields alone. */
static void empty(void **state)
{
	(void)state;
	in.nsys = in.nnet = in.ndns = 0;
	pack();
	assert_true(ward_broker_facts_take(&carried, &out));
	assert_int_equal(out.nsys + out.nnet + out.ndns, 0);
	assert_int_equal(out.notified, 7);
}

static void refused_when_it_does_not_add_up(void **state)
{
	(void)state;
	pack();
	/* short by a byte */
	carried.len--;
	assert_false(ward_broker_facts_take(&carried, &out));
	assert_false(out.records);
	assert_int_equal(out.nsys + out.nnet + out.ndns, 0);
	/* a byte too many */
	carried.len += 2;
	assert_false(ward_broker_facts_take(&carried, &out));
	/* none came */
	carried.len--;
	carried.records = false;
	assert_false(ward_broker_facts_take(&carried, &out));
	/* a count past its array: its entries cannot all be there */
	in.nsys = WARD_RECORD_SYSCALLS + 1;
	pack();
	carried.len = 0;
	carried.records = true;
	{
		uint32_t big = WARD_RECORD_SYSCALLS + 1;

		/* the fixed part as it would come, the count too large */
		memcpy(carried.bytes, &in,
		       offsetof(struct ward_broker_facts, sys));
		memcpy(carried.bytes + offsetof(struct ward_broker_facts, nsys),
		       &big, sizeof(big));
		carried.len = offsetof(struct ward_broker_facts, sys) +
			      (uint32_t)sizeof(in.sys) + sizeof(in.sys[0]);
	}
	assert_false(ward_broker_facts_take(&carried, &out));
	assert_int_equal(out.nsys, 0);
}

/* The courier's copy is static and only the counts say what is in it:
 * taking does not write past them (no page of the arrays is touched that
 * holds no entry). */
static void entries_past_a_count_untouched(void **state)
{
	(void)state;
	pack();
	out.sys[5].nr = 4242;
	out.dns[3].name[0] = 'x';
	assert_true(ward_broker_facts_take(&carried, &out));
	assert_int_equal(out.sys[5].nr, 4242);
	assert_int_equal(out.dns[3].name[0], 'x');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(round_trip, setup),
	    cmocka_unit_test_setup(empty, setup),
	    cmocka_unit_test_setup(refused_when_it_does_not_add_up, setup),
	    cmocka_unit_test_setup(entries_past_a_count_untouched, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
