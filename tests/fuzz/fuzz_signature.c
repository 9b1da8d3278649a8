/* SPDX-License-Identifier: MIT */
/*
 * fuzz_signature.c: libFuzzer target for the signature envelope and the
 * public key file (common/signature.c), which the launcher reads before
 * the blob is parsed.
 *
 * Each input is read three ways: as a signature file, which must never be
 * accepted (the fuzzer has no secret key, so an accepted input would be a
 * forgery); as an XOR mask over a good signature of a fixed key, which must
 * be accepted exactly when the mask is 120 zero bytes (every bit counts,
 * nothing may follow); and as a public key file.
 *
 * fuzz-sources: core
 */
#include "sha256.h"
#include "signature.h"

#include <sodium/crypto_sign_ed25519.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ward_pubkey key;
static uint8_t digest[32], good[WARD_SIG_LEN];

/* The good signature, made here as wardc sign makes one (cmd_sign.c). */
static void init(void)
{
	uint8_t seed[32], pk[32], sk[64];

	memset(seed, 7, sizeof(seed));
	crypto_sign_ed25519_seed_keypair(pk, sk, seed);
	memcpy(key.key, pk, 32);
	ward_key_id(pk, key.id);
	ward_sha256("policy\n", 7, digest);
	memcpy(good, WARD_SIG_MAGIC, 8);
	good[8] = WARD_SIG_VERSION;
	good[10] = WARD_SIG_ED25519;
	memcpy(good + 16, key.id, 8);
	memcpy(good + 24, digest, 32);
	crypto_sign_ed25519_detached(good + 56, NULL, good, 56, sk);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	uint8_t *s;
	struct ward_pubkey pk;
	ward_err err;
	size_t who;
	int ok;

	if (!ready) {
		init();
		ready = 1;
	}
	if (ward_sig_verify(data, size, digest, &key, 1, &who, &err) == 0 &&
	    (size != WARD_SIG_LEN || memcmp(data, good, size)))
		abort(); /* a signature no secret key made */
	s = malloc(size ? size : 1);
	if (!s)
		return 0;
	for (size_t i = 0; i < size; i++)
		s[i] = data[i] ^ (i < WARD_SIG_LEN ? good[i] : 0);
	ok = ward_sig_verify(s, size, digest, &key, 1, &who, &err) == 0;
	{
		int zero = size == WARD_SIG_LEN;
		for (size_t i = 0; zero && i < size; i++)
			zero = !data[i];
		if (ok != zero)
			abort(); /* a changed signature accepted, or the good
				    one refused */
	}
	free(s);
	(void)ward_pubkey_parse(data, size, &pk, &err);
	return 0;
}
