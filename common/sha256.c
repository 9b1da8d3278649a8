/* SPDX-License-Identifier: MIT */
/*
 * sha256.c: thin wrappers over libsodium's SHA-256.
 *
 * sodium_init() is deliberately not called: SHA-256 has a single portable
 * implementation in libsodium and needs no initialisation, while
 * sodium_init() would set up the random generator, which may open
 * /dev/urandom in the launcher for nothing.
 */
#include "sha256.h"

void ward_sha256(const void *data, size_t len, uint8_t out[32])
{
	crypto_hash_sha256(out, data, len);
}

void ward_sha256_init(struct ward_sha256 *h)
{
	crypto_hash_sha256_init(&h->st);
}

void ward_sha256_update(struct ward_sha256 *h, const void *data, size_t len)
{
	crypto_hash_sha256_update(&h->st, data, len);
}

void ward_sha256_final(struct ward_sha256 *h, uint8_t out[32])
{
	crypto_hash_sha256_final(&h->st, out);
}

void ward_hex(const uint8_t *bytes, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 0xf];
	}
	out[2 * n] = '\0';
}
