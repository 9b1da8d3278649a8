/* SPDX-License-Identifier: MIT */
/*
 * blob_write.h: serialise a compiled policy as a blob (docs/spec.md part 2).
 */
#ifndef WARD_BLOB_WRITE_H
#define WARD_BLOB_WRITE_H

#include "policy.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>

/* Serialise *p into a new buffer (*out, *len; free() it). The output is a
 * function of *p alone: the same policy gives the same bytes. The blob is
 * read back with ward_blob_read before it is returned, so wardc never emits
 * a blob that the launcher would refuse; the reader's message says what is
 * wrong. Returns 0, or -1 with err filled. */
int ward_blob_write(const struct ward_policy *p, uint8_t **out, size_t *len,
		    ward_err *err);

/* The same without reading the result back: for tests and fuzz seeds that
 * need blobs the reader refuses. */
int ward_blob_write_unchecked(const struct ward_policy *p, uint8_t **out,
			      size_t *len, ward_err *err);

#endif
