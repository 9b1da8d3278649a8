/* SPDX-License-Identifier: MIT */
/* Unit tests of signed profiles: the signature envelope and the public key
 * file (common/signature.c), and the launcher's check of a blob's detached
 * signature (launcher/core/blobfile.c, ward_blobfile_verify). Every test
 * case is a refusal a launcher that skipped verification would not make. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "blobfile.h"
#include "commands.h"
#include "sha256.h"
#include "signature.h"

#include <fcntl.h>
#include <sodium/crypto_sign_ed25519.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct pair {
	uint8_t pk[32], sk[64];
	struct ward_pubkey pub;
};

static struct pair k1, k2;
static uint8_t digest[32]; /* the blob's SHA-256 */
static uint8_t good[WARD_SIG_LEN];

static void make_pair(struct pair *p, uint8_t seed_byte)
{
	uint8_t seed[32];

	memset(seed, seed_byte, sizeof(seed));
	crypto_sign_ed25519_seed_keypair(p->pk, p->sk, seed);
	memcpy(p->pub.key, p->pk, 32);
	ward_key_id(p->pk, p->pub.id);
}

static int setup(void **state)
{
	make_pair(&k1, 1);
	make_pair(&k2, 2);
	ward_sha256("policy\n", 7, digest);
	return wardc_sig_make(k1.sk, k1.pk, digest, good);
}

/* Verify buf against digest with keys; return the message or "" on
 * success (and the signer then). */
static const char *verify(const uint8_t *buf, size_t len,
			  const struct ward_pubkey *keys, size_t n,
			  size_t *signer)
{
	static ward_err err;
	size_t k = 99;

	memset(&err, 0, sizeof(err));
	if (ward_sig_verify(buf, len, digest, keys, n, &k, &err) == 0) {
		if (signer)
			*signer = k;
		return "";
	}
	assert_int_equal(k, 99); /* no signer on a refusal */
	return err.msg;
}

static void layout(void **state)
{
	uint8_t d[32];

	/* The key id is the first 8 bytes of SHA-256(public key). */
	ward_sha256(k1.pk, 32, d);
	assert_memory_equal(k1.pub.id, d, 8);
	assert_memory_equal(good, "WARDSIGN", 8);
	assert_int_equal(ward_le16(good + 8), 1);
	assert_int_equal(ward_le16(good + 10), 1);
	assert_int_equal(ward_le32(good + 12), 0);
	assert_memory_equal(good + 16, k1.pub.id, 8);
	assert_memory_equal(good + 24, digest, 32);
	/* The signature is a plain Ed25519 one of bytes [0, 56). */
	assert_int_equal(
	    crypto_sign_ed25519_verify_detached(good + 56, good, 56, k1.pk), 0);
}

static void verifies(void **state)
{
	struct ward_pubkey both[2] = {k2.pub, k1.pub};
	uint8_t by2[WARD_SIG_LEN];
	size_t who;

	assert_string_equal(verify(good, sizeof(good), &k1.pub, 1, &who), "");
	assert_int_equal(who, 0);
	/* Key rotation: either of two trusted keys verifies. */
	assert_string_equal(verify(good, sizeof(good), both, 2, &who), "");
	assert_int_equal(who, 1);
	assert_int_equal(wardc_sig_make(k2.sk, k2.pk, digest, by2), 0);
	assert_string_equal(verify(by2, sizeof(by2), both, 2, &who), "");
	assert_int_equal(who, 0);
}

static void truncated_and_wrong_length(void **state)
{
	uint8_t longer[WARD_SIG_LEN + 8] = {0};

	memcpy(longer, good, sizeof(good));
	for (size_t n = 0; n < WARD_SIG_LEN; n += 7)
		assert_non_null(strstr(verify(good, n, &k1.pub, 1, NULL),
				       "a ward signature has 120"));
	assert_non_null(strstr(verify(good, WARD_SIG_LEN - 1, &k1.pub, 1, NULL),
			       "119 bytes"));
	assert_non_null(strstr(verify(longer, sizeof(longer), &k1.pub, 1, NULL),
			       "128 bytes, a ward signature has 120"));
}

static void frame(void **state)
{
	uint8_t s[WARD_SIG_LEN];

	memcpy(s, good, sizeof(s));
	s[0] = 'X';
	assert_non_null(
	    strstr(verify(s, sizeof(s), &k1.pub, 1, NULL), "bad magic"));
	memcpy(s, good, sizeof(s));
	s[8] = 2;
	assert_non_null(
	    strstr(verify(s, sizeof(s), &k1.pub, 1, NULL), "version 2"));
	memcpy(s, good, sizeof(s));
	s[10] = 2;
	assert_non_null(
	    strstr(verify(s, sizeof(s), &k1.pub, 1, NULL), "algorithm 2"));
	memcpy(s, good, sizeof(s));
	s[15] = 1;
	assert_non_null(strstr(verify(s, sizeof(s), &k1.pub, 1, NULL),
			       "reserved 16777216"));
}

static void wrong_key(void **state)
{
	uint8_t s[WARD_SIG_LEN];
	char id1[17], id2[17];
	const char *m;

	ward_key_id_hex(k1.pub.id, id1);
	ward_key_id_hex(k2.pub.id, id2);
	/* Signed by k1, only k2 trusted: named, with the trusted ids. */
	m = verify(good, sizeof(good), &k2.pub, 1, NULL);
	assert_non_null(strstr(m, "signed by key"));
	assert_non_null(strstr(m, id1));
	assert_non_null(strstr(m, "which is not a trusted key"));
	assert_non_null(strstr(m, id2));
	/* Signed by k2 but claiming k1's id: the id picks k1, whose key
	 * does not verify it. */
	assert_int_equal(wardc_sig_make(k2.sk, k2.pk, digest, s), 0);
	memcpy(s + 16, k1.pub.id, 8);
	m = verify(s, sizeof(s), &k1.pub, 1, NULL);
	assert_non_null(strstr(m, "does not verify with trusted key"));
	assert_non_null(strstr(m, id1));
	/* A trusted key whose id is right but whose bytes are another's. */
	{
		struct ward_pubkey forged = k1.pub;
		memcpy(forged.key, k2.pk, 32);
		assert_non_null(
		    strstr(verify(good, sizeof(good), &forged, 1, NULL),
			   "does not verify"));
	}
}

static void another_blob(void **state)
{
	uint8_t other[32], s[WARD_SIG_LEN];
	const char *m;

	/* A valid signature of another blob (one byte changed). */
	ward_sha256("policz\n", 7, other);
	assert_int_equal(wardc_sig_make(k1.sk, k1.pk, other, s), 0);
	m = verify(s, sizeof(s), &k1.pub, 1, NULL);
	assert_non_null(strstr(m, "the blob was changed after it was signed"));
}

/* Every bit of the 120 bytes matters, and which part it is in says which
 * refusal it gets. */
static void flipped_bits(void **state)
{
	uint8_t s[WARD_SIG_LEN];

	for (size_t bit = 0; bit < 8 * WARD_SIG_LEN; bit++) {
		const char *m, *want;
		size_t at = bit / 8;

		memcpy(s, good, sizeof(s));
		s[at] ^= (uint8_t)(1u << (bit % 8));
		m = verify(s, sizeof(s), &k1.pub, 1, NULL);
		want = at < 8	 ? "bad magic"
		       : at < 16 ? "only version 1"
		       : at < 24 ? "not a trusted key"
		       : at < 56 ? "changed after it was signed"
				 : "does not verify";
		if (!strstr(m, want))
			fail_msg("bit %zu: \"%s\", expected \"%s\"", bit, m,
				 want);
	}
}

static void key_files(void **state)
{
	char text[WARD_KEYFILE_LEN + 8];
	struct ward_pubkey pk;
	ward_err err = {0};
	size_t n;

	n = (size_t)snprintf(text, sizeof(text), "%s", WARD_PUBKEY_PREFIX);
	ward_hex(k1.pk, 32, text + n);
	strcat(text, "\n");
	n = strlen(text);
	assert_int_equal(n, WARD_KEYFILE_LEN);
	assert_int_equal(ward_pubkey_parse((uint8_t *)text, n, &pk, &err), 0);
	assert_memory_equal(pk.key, k1.pk, 32);
	assert_memory_equal(pk.id, k1.pub.id, 8);
	/* No newline, one byte more, a secret key's prefix, not hex. */
	assert_int_equal(ward_pubkey_parse((uint8_t *)text, n - 1, &pk, &err),
			 -1);
	assert_non_null(strstr(err.msg, "not a ward key file"));
	text[n] = '\n';
	assert_int_equal(ward_pubkey_parse((uint8_t *)text, n + 1, &pk, &err),
			 -1);
	memcpy(text, WARD_SECKEY_PREFIX, 20);
	assert_int_equal(ward_pubkey_parse((uint8_t *)text, n, &pk, &err), -1);
	memcpy(text, WARD_PUBKEY_PREFIX, 20);
	text[50] = 'g';
	assert_int_equal(ward_pubkey_parse((uint8_t *)text, n, &pk, &err), -1);
	assert_non_null(strstr(err.msg, "64 hex digits"));
	text[50] = ' ';
	assert_int_equal(ward_pubkey_parse((uint8_t *)text, n, &pk, &err), -1);
}

/* ------------------------------------------------ the launcher's check */

static char dir[64];

static void put(const char *name, const void *data, size_t len, mode_t mode)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
	chmod(path, mode);
}

static void pubfile(const char *name, const uint8_t pk[32], mode_t mode)
{
	char text[WARD_KEYFILE_LEN + 1];

	memcpy(text, WARD_PUBKEY_PREFIX, 20);
	ward_hex(pk, 32, text + 20);
	text[84] = '\n';
	put(name, text, WARD_KEYFILE_LEN, mode);
}

static int launcher_verify(const char *const *keys, size_t n, char signer[17],
			   ward_err *err)
{
	struct ward_priv p = {.mode = geteuid() ? WARD_MODE_ROOTLESS
						: WARD_MODE_ROOT,
			      .caller_uid = getuid(),
			      .caller_gid = getgid(),
			      .host_uid = 65534,
			      .host_gid = 65534};
	char blob[160];

	snprintf(blob, sizeof(blob), "%s/p.wardb", dir);
	return ward_blobfile_verify(blob, keys, n, &p, digest, signer, err);
}

static void launcher(void **state)
{
	char k1p[160], k2p[160], signer[17] = "", id1[17];
	const char *keys[2] = {k1p, k2p};
	ward_err err = {0};

	snprintf(dir, sizeof(dir), "/tmp/ward-sigtest-XXXXXX");
	assert_non_null(mkdtemp(dir));
	chmod(dir, 0755);
	snprintf(k1p, sizeof(k1p), "%s/k1.pub", dir);
	snprintf(k2p, sizeof(k2p), "%s/k2.pub", dir);
	pubfile("k1.pub", k1.pk, 0644);
	pubfile("k2.pub", k2.pk, 0644);
	put("p.wardb", "policy\n", 7, 0644);

	/* No p.wardb.sig: unsigned, said so. */
	assert_int_equal(launcher_verify(keys, 1, signer, &err), -1);
	assert_non_null(strstr(err.msg, "p.wardb is unsigned (there is no"));
	assert_int_equal(err.code, 0);

	put("p.wardb.sig", good, sizeof(good), 0644);
	assert_int_equal(launcher_verify(keys, 2, signer, &err), 0);
	ward_key_id_hex(k1.pub.id, id1);
	assert_string_equal(signer, id1);
	assert_int_equal(launcher_verify(keys + 1, 1, signer, &err), -1);
	assert_non_null(strstr(err.msg, "p.wardb.sig: signed by key"));

	/* A trusted key anyone could have replaced trusts anyone. */
	chmod(k1p, 0666);
	assert_int_equal(launcher_verify(keys, 2, signer, &err), -1);
	assert_non_null(strstr(err.msg, "--trusted-key"));
	assert_non_null(strstr(err.msg, "writable by group or others"));
	chmod(k1p, 0644);
	/* Not a key file: the secret key given by mistake. */
	put("k1.pub", "ward-ed25519-secret 00\n", 23, 0644);
	assert_int_equal(launcher_verify(keys, 1, signer, &err), -1);
	assert_non_null(strstr(err.msg, "not a ward key file"));
	/* A signature file of the wrong size. */
	pubfile("k1.pub", k1.pk, 0644);
	put("p.wardb.sig", good, 60, 0644);
	assert_int_equal(launcher_verify(keys, 1, signer, &err), -1);
	assert_non_null(strstr(err.msg, "60 bytes"));
	{
		char cmd[96];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(layout),
	    cmocka_unit_test(verifies),
	    cmocka_unit_test(truncated_and_wrong_length),
	    cmocka_unit_test(frame),
	    cmocka_unit_test(wrong_key),
	    cmocka_unit_test(another_blob),
	    cmocka_unit_test(flipped_bits),
	    cmocka_unit_test(key_files),
	    cmocka_unit_test(launcher),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
