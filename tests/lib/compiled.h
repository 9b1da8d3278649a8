/* SPDX-License-Identifier: MIT */
/*
 * compiled.h: a policy source compiled for x86_64 through the compiler's
 * own path (stdlib-policies/ on the search path) and read back with the
 * launcher's reader, for the tests that look at a real blob's policy.
 */
#ifndef WARD_TEST_COMPILED_H
#define WARD_TEST_COMPILED_H

#include "blob_read.h"

#include <stddef.h>
#include <stdint.h>

struct ward_test_compiled {
	uint8_t *buf;
	size_t len;
	struct ward_blob blob; /* points into buf */
};

/* Returns 0, or -1 with why in msg (diagnostics went to stderr); release
 * in both cases. */
int ward_test_compile(const char *src, struct ward_test_compiled *c, char *msg,
		      size_t msgsize);
void ward_test_compiled_release(struct ward_test_compiled *c);

#endif
