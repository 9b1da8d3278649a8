/* SPDX-License-Identifier: MIT */
/*
 * blob_read.h: validate a policy blob and give back the policy it holds.
 *
 * The reader checks everything (framing, digest, every field and its range,
 * see docs/spec.md part 2) before it returns, so a caller acts on nothing
 * until the whole blob is known to be well-formed. On success the policy's
 * strings and file contents point into the caller's buffer, which must
 * outlive the ward_blob; only the arrays are allocated.
 */
#ifndef WARD_BLOB_READ_H
#define WARD_BLOB_READ_H

#include "policy.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ward_blob {
	struct ward_policy policy; /* points into the caller's buffer */
	uint16_t format_version;
	uint8_t content_digest[32]; /* the digest stored in (and verified
				       against) the blob */
	uint8_t file_digest[32];    /* SHA-256 of the whole file, what
				       sha256sum prints, what
				       `ward --expect-digest` compares */
	bool has_rules;		    /* the optional rules section was present */
	/* The allocated arrays are those of policy; ward_blob_release frees
	 * them. */
};

/* Validate buf[0..len) and fill *out. expected_arch: an AUDIT_ARCH_* value
 * the blob must be compiled for, or 0 to accept any known one. Returns 0, or
 * -1 with err filled ("blob: ..."), in which case *out holds nothing to
 * release (releasing it anyway is harmless). */
int ward_blob_read(const uint8_t *buf, size_t len, uint32_t expected_arch,
		   struct ward_blob *out, ward_err *err);
void ward_blob_release(struct ward_blob *b);

/* The digest a blob stores: SHA-256 over bytes [0, 32) and [64, len), that
 * is, the whole file except the digest field itself. len >= 64. */
void ward_blob_content_digest(const uint8_t *buf, size_t len, uint8_t out[32]);

/* A mount kind's name in the format's words ("bind", "tmpfs", ...), "?" for
 * a number the format does not have. */
const char *ward_mount_kind_name(uint32_t kind);

/* The lowest Landlock ABI that knows these rights (WARD_LL_FS_*) and
 * scopes (WARD_LL_SCOPE_*): 1..6. */
uint32_t ward_landlock_min_abi(uint64_t fs, uint64_t scoped);

#endif
