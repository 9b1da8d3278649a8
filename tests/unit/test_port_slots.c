/* SPDX-License-Identifier: MIT */
/* Unit tests of a network value's port slots (common/port_slots.c), which
 * the compiler writes every value with and the launcher adds ward
 * --upstream-proxy's port by: ranges that overlap or touch become one,
 * the slots hold them sorted with the unused ones (lo 1, hi 0) last, and
 * what is written reads back the same. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "port_slots.h"
#include "util.h"

static void merge_overlapping_and_adjacent(void **state)
{
	struct ward_port_range r[] = {
	    {443, 443}, {80, 80}, {81, 90}, {85, 100}, {444, 444}, {1000, 2000},
	};

	(void)state;
	assert_int_equal(ward_ports_merge(r, 6), 3);
	assert_int_equal(r[0].lo, 80);
	assert_int_equal(r[0].hi, 100);
	assert_int_equal(r[1].lo, 443);
	assert_int_equal(r[1].hi, 444);
	assert_int_equal(r[2].lo, 1000);
	assert_int_equal(r[2].hi, 2000);
}

static void apart_stays_apart(void **state)
{
	struct ward_port_range r[] = {{10, 10}, {12, 12}};

	(void)state;
	assert_int_equal(ward_ports_merge(r, 2), 2);
}

static void written_reads_back(void **state)
{
	uint8_t slots[WARD_NET_PORT_SLOTS * WARD_NET_SLOT_SIZE];
	struct ward_port_range in[] = {{22, 22}, {8000, 8080}}, out[16];

	(void)state;
	ward_ports_write(slots, in, 2);
	/* little-endian, as the blob and the programs read them */
	assert_int_equal(slots[0], 22);
	assert_int_equal(slots[1], 0);
	assert_int_equal(ward_le16(slots + 2 * WARD_NET_SLOT_SIZE), 1);
	assert_int_equal(ward_le16(slots + 2 * WARD_NET_SLOT_SIZE + 2), 0);
	assert_int_equal(ward_ports_read(slots, out), 2);
	assert_int_equal(out[1].lo, 8000);
	assert_int_equal(out[1].hi, 8080);
	ward_ports_write(slots, NULL, 0);
	assert_int_equal(ward_ports_read(slots, out), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(merge_overlapping_and_adjacent),
	    cmocka_unit_test(apart_stays_apart),
	    cmocka_unit_test(written_reads_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
