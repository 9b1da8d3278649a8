/* SPDX-License-Identifier: MIT */
/* Unit tests of common/sha256x.c: the SHA-NI path gives libsodium's digest
 * for every length around the block and padding edges, fed whole or in
 * pieces of every size, and for the FIPS 180-2 vectors. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sha256x.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void x(const uint8_t *p, size_t n, size_t piece, uint8_t out[32])
{
	struct ward_sha256x h;

	ward_sha256x_init(&h);
	for (size_t off = 0; off < n; off += piece)
		ward_sha256x_update(&h, p + off,
				    n - off < piece ? n - off : piece);
	ward_sha256x_final(&h, out);
}

static void test_vectors(void **state)
{
	uint8_t d[32];
	char hex[65];

	(void)state;
	x((const uint8_t *)"abc", 3, 3, d);
	ward_hex(d, 32, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a39617"
				 "7a9cb410ff61f20015ad");
	x((const uint8_t *)"", 0, 1, d);
	ward_hex(d, 32, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b"
				 "934ca495991b7852b855");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomno"
			  "pnopq";
	x((const uint8_t *)two, strlen(two), 7, d);
	ward_hex(d, 32, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff"
				 "2167f6ecedd419db06c1");
}

static void test_against_libsodium(void **state)
{
	static uint8_t buf[3 << 20];
	uint8_t a[32], b[32];
	static const size_t pieces[] = {1, 3, 63, 64, 65, 4096, 1 << 20};

	(void)state;
	printf("sha256x: %s\n", ward_sha256x_ni() ? "SHA-NI" : "libsodium");
	srand(17);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand();
	for (size_t n = 0; n <= 300; n++) {
		ward_sha256(buf, n, a);
		for (size_t k = 0; k < 4; k++) {
			x(buf, n, pieces[k], b);
			assert_memory_equal(a, b, 32);
		}
	}
	ward_sha256(buf, sizeof(buf), a);
	for (size_t k = 0; k < sizeof(pieces) / sizeof(pieces[0]); k++) {
		x(buf, sizeof(buf), pieces[k], b);
		assert_memory_equal(a, b, 32);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vectors),
	    cmocka_unit_test(test_against_libsodium),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
