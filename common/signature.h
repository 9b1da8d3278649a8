/* SPDX-License-Identifier: MIT */
/*
 * signature.h: Ed25519 signatures of compiled blobs, detached (BLOB.sig, 120
 * bytes), and the key files (docs/spec.md 2.8 has both formats). Verifying
 * is here, for the launcher (before the blob is parsed) and wardc; making
 * keys and signing are wardc's (compiler/cli/cmd_sign.c).
 */
#ifndef WARD_SIGNATURE_H
#define WARD_SIGNATURE_H

#include "util.h"

#include <stddef.h>
#include <stdint.h>

#define WARD_SIG_MAGIC	     "WARDSIGN"
#define WARD_SIG_VERSION     1
#define WARD_SIG_ED25519     1
#define WARD_SIG_SIGNED_LEN  56 /* what the signature covers */
#define WARD_SIG_LEN	     120
#define WARD_KEY_ID_LEN	     8
#define WARD_PUBKEY_LEN	     32
#define WARD_SIG_TRUSTED_MAX 16 /* --trusted-key given at most this often */

/* The public key file: one line, this prefix and 64 hex digits.
 * The secret key file: the other prefix and the 32-byte seed in hex. */
#define WARD_PUBKEY_PREFIX "ward-ed25519-public "
#define WARD_SECKEY_PREFIX "ward-ed25519-secret "
#define WARD_KEYFILE_LEN   (20 + 64 + 1) /* prefix, hex, newline */

struct ward_pubkey {
	uint8_t key[WARD_PUBKEY_LEN];
	uint8_t id[WARD_KEY_ID_LEN];
};

struct ward_sig {
	uint8_t key_id[WARD_KEY_ID_LEN];
	uint8_t blob_digest[32];
	uint8_t sig[64];
};

/* The key id of a public key, and its 16 hex digits. */
void ward_key_id(const uint8_t key[WARD_PUBKEY_LEN],
		 uint8_t id[WARD_KEY_ID_LEN]);
void ward_key_id_hex(const uint8_t id[WARD_KEY_ID_LEN], char out[17]);

/* Read a key file's text (prefix: WARD_PUBKEY_PREFIX or _SECKEY_) into its
 * 32 bytes: exactly WARD_KEYFILE_LEN bytes. */
int ward_keyfile_parse(const uint8_t *text, size_t len, const char *prefix,
		       uint8_t out[32], ward_err *err);
/* A public key from its file's text, with its id. */
int ward_pubkey_parse(const uint8_t *text, size_t len, struct ward_pubkey *pk,
		      ward_err *err);

/* Check a signature file's frame (length, magic, version, algorithm,
 * reserved) and fill *out. */
int ward_sig_parse(const uint8_t *buf, size_t len, struct ward_sig *out,
		   ward_err *err);

/* Verify the signature file buf against a blob's file digest and the
 * trusted keys: parsed, signed by one of keys (by its id), for this blob,
 * and the Ed25519 signature holds. On success *signer is the key's index.
 * Each refusal has its own message (docs/spec.md 2.8). */
int ward_sig_verify(const uint8_t *buf, size_t len,
		    const uint8_t blob_digest[32],
		    const struct ward_pubkey *keys, size_t nkeys,
		    size_t *signer, ward_err *err);

#endif
