/* SPDX-License-Identifier: MIT */
/*
 * sha256.h: SHA-256 through libsodium, one-shot and incremental, and the
 * lower-case hex spelling that sha256sum prints.
 */
#ifndef WARD_SHA256_H
#define WARD_SHA256_H

#include <sodium/crypto_hash_sha256.h>
#include <stddef.h>
#include <stdint.h>

#define WARD_SHA256_LEN 32

struct ward_sha256 {
	crypto_hash_sha256_state st;
};

void ward_sha256(const void *data, size_t len, uint8_t out[32]);
void ward_sha256_init(struct ward_sha256 *h);
void ward_sha256_update(struct ward_sha256 *h, const void *data, size_t len);
void ward_sha256_final(struct ward_sha256 *h, uint8_t out[32]);

/* n bytes as 2n lower-case hex digits and a NUL: out holds 2n+1 bytes. */
void ward_hex(const uint8_t *bytes, size_t n, char *out);

#endif
