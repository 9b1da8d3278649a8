/* SPDX-License-Identifier: MIT */
/*
 * fuzz_blob.c: libFuzzer target for the blob reader.
 *
 * Each input is read twice: as it is, and with its length field and content
 * digest fixed up (when it is long enough to have a header), since the
 * digest check would otherwise stop nearly every input at the front door
 * and the section parsers would never be reached.
 *
 * Besides memory errors, it checks one property: a blob the reader accepts
 * is canonical. When it holds exactly the eight sections the writer writes,
 * writing the policy read from it must give back the same bytes; so no
 * byte of an accepted blob is slack where data could hide.
 *
 * fuzz-sources: lang core compiler
 */
#include "blob.h"
#include "blob_read.h"
#include "blob_write.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_one(const uint8_t *buf, size_t len)
{
	struct ward_blob b;
	ward_err err;
	uint8_t *again = NULL;
	size_t n = 0;

	if (ward_blob_read(buf, len, 0, &b, &err) < 0)
		return;
	if (b.has_rules && ward_le16(buf + WARD_BLOB_OFF_NSECT) == 8) {
		if (ward_blob_write(&b.policy, &again, &n, &err) < 0)
			abort(); /* accepted, yet the writer refuses it */
		if (n != len || memcmp(again, buf, len) != 0)
			abort(); /* accepted, yet not canonical */
		free(again);
	}
	ward_blob_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy, digest[32];

	read_one(data, size);
	if (size < WARD_BLOB_HDR_SIZE || !(copy = malloc(size)))
		return 0;
	memcpy(copy, data, size);
	for (int i = 0; i < 8; i++)
		copy[WARD_BLOB_OFF_LENGTH + i] =
		    (uint8_t)((uint64_t)size >> (8 * i));
	ward_blob_content_digest(copy, size, digest);
	memcpy(copy + WARD_BLOB_OFF_DIGEST, digest, 32);
	read_one(copy, size);
	free(copy);
	return 0;
}
