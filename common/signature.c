/* SPDX-License-Identifier: MIT */
/*
 * signature.c: the detached signature of a blob, checked in the order the
 * spec gives (docs/spec.md 2.8), each refusal with a message of its own.
 * The signature covers the signature file's first 56 bytes, which hold the
 * blob's SHA-256 and the key id: the blob itself is never parsed before
 * its signature holds.
 */
#include "signature.h"

#include "sha256.h"

#include <sodium/crypto_sign_ed25519.h>
#include <sodium/utils.h>
#include <string.h>

void ward_key_id(const uint8_t key[WARD_PUBKEY_LEN],
		 uint8_t id[WARD_KEY_ID_LEN])
{
	uint8_t d[32];

	ward_sha256(key, WARD_PUBKEY_LEN, d);
	memcpy(id, d, WARD_KEY_ID_LEN);
}

void ward_key_id_hex(const uint8_t id[WARD_KEY_ID_LEN], char out[17])
{
	ward_hex(id, WARD_KEY_ID_LEN, out);
}

int ward_keyfile_parse(const uint8_t *text, size_t len, const char *prefix,
		       uint8_t out[32], ward_err *err)
{
	const size_t n = strlen(prefix);
	size_t bin_len = 0;

	if (len != n + 65 || memcmp(text, prefix, n) || text[len - 1] != '\n' ||
	    sodium_hex2bin(out, 32, (const char *)text + n, 64, NULL, &bin_len,
			   NULL) != 0 ||
	    bin_len != 32)
		return ward_fail(err, 0,
				 "not a ward key file: expected one line, "
				 "\"%s\" and 64 hex digits",
				 prefix);
	return 0;
}

int ward_pubkey_parse(const uint8_t *text, size_t len, struct ward_pubkey *pk,
		      ward_err *err)
{
	if (ward_keyfile_parse(text, len, WARD_PUBKEY_PREFIX, pk->key, err) < 0)
		return -1;
	ward_key_id(pk->key, pk->id);
	return 0;
}

int ward_sig_parse(const uint8_t *buf, size_t len, struct ward_sig *out,
		   ward_err *err)
{
	if (len != WARD_SIG_LEN)
		return ward_fail(err, 0,
				 "signature: %zu bytes, a ward signature has "
				 "%d",
				 len, WARD_SIG_LEN);
	if (memcmp(buf, WARD_SIG_MAGIC, 8))
		return ward_fail(err, 0,
				 "signature: bad magic: not a ward signature");
	if (ward_le16(buf + 8) != WARD_SIG_VERSION ||
	    ward_le16(buf + 10) != WARD_SIG_ED25519 || ward_le32(buf + 12))
		return ward_fail(err, 0,
				 "signature: version %u, algorithm %u, "
				 "reserved %u: only version 1, Ed25519 (1), "
				 "reserved 0",
				 ward_le16(buf + 8), ward_le16(buf + 10),
				 ward_le32(buf + 12));
	memcpy(out->key_id, buf + 16, WARD_KEY_ID_LEN);
	memcpy(out->blob_digest, buf + 24, 32);
	memcpy(out->sig, buf + WARD_SIG_SIGNED_LEN, 64);
	return 0;
}

int ward_sig_verify(const uint8_t *buf, size_t len,
		    const uint8_t blob_digest[32],
		    const struct ward_pubkey *keys, size_t nkeys,
		    size_t *signer, ward_err *err)
{
	struct ward_sig s;
	char id[17], have[65], want[65];
	size_t k = 0;

	if (ward_sig_parse(buf, len, &s, err) < 0)
		return -1;
	ward_key_id_hex(s.key_id, id);
	while (k < nkeys && memcmp(keys[k].id, s.key_id, WARD_KEY_ID_LEN))
		k++;
	if (k == nkeys) {
		char list[WARD_SIG_TRUSTED_MAX * 17 + 1] = "";

		/* "id1 id2 ...": each id's NUL becomes the space after it. */
		for (size_t i = 0; i < nkeys && i < WARD_SIG_TRUSTED_MAX; i++) {
			ward_key_id_hex(keys[i].id, list + 17 * i);
			if (i + 1 < nkeys)
				list[17 * i + 16] = ' ';
		}
		return ward_fail(err, 0,
				 "signed by key %s, which is not a trusted "
				 "key (--trusted-key: %s)",
				 id, list);
	}
	if (memcmp(s.blob_digest, blob_digest, 32)) {
		ward_hex(blob_digest, 32, have);
		ward_hex(s.blob_digest, 32, want);
		return ward_fail(err, 0,
				 "the blob was changed after it was signed: "
				 "its SHA-256 is %s, the signature is for %s",
				 have, want);
	}
	if (crypto_sign_ed25519_verify_detached(s.sig, buf, WARD_SIG_SIGNED_LEN,
						keys[k].key) != 0)
		return ward_fail(err, 0,
				 "the signature does not verify with trusted "
				 "key %s: forged or damaged",
				 id);
	*signer = k;
	return 0;
}
