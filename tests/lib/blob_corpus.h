/* SPDX-License-Identifier: MIT */
/*
 * blob_corpus.h: sample policies and blob surgery for the blob tests and the
 * fuzz seed corpus.
 */
#ifndef WARD_TEST_BLOB_CORPUS_H
#define WARD_TEST_BLOB_CORPUS_H

#include "policy.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>

/* Little-endian stores, for editing blobs. */
static inline void ward_test_st16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static inline void ward_test_st32(uint8_t *p, uint32_t v)
{
	ward_test_st16(p, (uint16_t)v);
	ward_test_st16(p + 2, (uint16_t)(v >> 16));
}
static inline void ward_test_st64(uint8_t *p, uint64_t v)
{
	ward_test_st32(p, (uint32_t)v);
	ward_test_st32(p + 4, (uint32_t)(v >> 32));
}

/* The smallest valid policy: the root tmpfs, net none, a one-instruction
 * program, no rules. */
const struct ward_policy *ward_test_policy_minimal(void);
/* Every section and every field used, every mount kind, every limit. */
const struct ward_policy *ward_test_policy_rich(void);

/* Recompute a blob's length field and content digest after an edit. */
void ward_test_blob_fix(uint8_t *buf, size_t len);

/* Offset of section i's data (its directory entry says so), *len its
 * length. No checks: for well-formed blobs. */
size_t ward_test_blob_section(const uint8_t *buf, unsigned i, size_t *len);

/* Insert a section at directory index i (data: n bytes, padded to 8 with
 * zeros) or remove section i, re-laying out the offsets and fixing the
 * digest. The buffer is reallocated. Return 0 or -1 (ENOMEM). */
int ward_test_blob_insert(uint8_t **buf, size_t *len, unsigned i, uint32_t type,
			  uint32_t flags, const void *data, size_t n);
int ward_test_blob_remove(uint8_t **buf, size_t *len, unsigned i);

/* Write the fuzz seed corpus (valid and broken blobs) into dir, which must
 * exist. Returns the number of files written or -1. */
int ward_test_blob_write_corpus(const char *dir, ward_err *err);

#endif
