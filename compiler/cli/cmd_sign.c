/* SPDX-License-Identifier: MIT */
/*
 * cmd_sign.c: `wardc keygen -o NAME` and `wardc sign -k SECRETKEY BLOB`,
 * the signing half of signed profiles (docs/spec.md 2.8); verifying is
 * common/signature.c's, which the launcher runs. A signature is detached
 * (BLOB.sig), so signing never changes the blob or its digest.
 */
#include "blob_read.h"
#include "commands.h"
#include "sha256.h"
#include "signature.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium/core.h>
#include <sodium/crypto_sign_ed25519.h>
#include <sodium/utils.h>
#include <string.h>
#include <sys/stat.h>

/* A key file's line: prefix and the 32 bytes in hex. */
static void key_line(const char *prefix, const uint8_t key[32],
		     char out[WARD_KEYFILE_LEN + 1])
{
	size_t n = strlen(prefix);

	memcpy(out, prefix, n);
	ward_hex(key, 32, out + n);
	out[n + 64] = '\n';
	out[n + 65] = '\0';
}

/* Create path (it must not exist: a key is never overwritten) with mode
 * and write s into it. */
static int write_new(const char *path, const char *s, mode_t mode)
{
	_cleanup_close_ int fd =
	    open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	size_t len = strlen(s);

	if (fd < 0 || fchmod(fd, mode) < 0 ||
	    write(fd, s, len) != (ssize_t)len || fsync(fd) < 0) {
		int e = errno;
		if (fd >= 0)
			unlink(path);
		errno = e;
		return -1;
	}
	return 0;
}

int cmd_keygen(struct wardc_args *a)
{
	uint8_t pk[32], sk[64], id[WARD_KEY_ID_LEN];
	char line[WARD_KEYFILE_LEN + 1], idhex[17];
	_cleanup_free_ char *pub = NULL;

	if (!a->output || a->nfiles) {
		fprintf(stderr, "wardc keygen: give -o NAME (writes NAME and "
				"NAME.pub), nothing else\n");
		return WARDC_USAGE;
	}
	if (sodium_init() < 0 || asprintf(&pub, "%s.pub", a->output) < 0) {
		fprintf(stderr, "wardc keygen: cannot initialise libsodium\n");
		return WARDC_USAGE;
	}
	crypto_sign_ed25519_keypair(pk, sk);
	/* The secret key file holds the seed, sk's first half. */
	key_line(WARD_SECKEY_PREFIX, sk, line);
	sodium_memzero(sk, sizeof(sk));
	if (write_new(a->output, line, 0600) < 0) {
		fprintf(stderr, "wardc keygen: cannot create %s: %s\n",
			a->output, strerror(errno));
		sodium_memzero(line, sizeof(line));
		return WARDC_USAGE;
	}
	sodium_memzero(line, sizeof(line));
	key_line(WARD_PUBKEY_PREFIX, pk, line);
	if (write_new(pub, line, 0644) < 0) {
		fprintf(stderr, "wardc keygen: cannot create %s: %s\n", pub,
			strerror(errno));
		unlink(a->output);
		return WARDC_USAGE;
	}
	ward_key_id(pk, id);
	ward_key_id_hex(id, idhex);
	printf("key id %s\n  secret key %s (mode 0600: keep it private)\n  "
	       "public key %s (give it to ward --trusted-key)\n",
	       idhex, a->output, pub);
	return WARDC_OK;
}

int wardc_sig_make(const uint8_t sk[64], const uint8_t pk[32],
		   const uint8_t blob_digest[32], uint8_t out[WARD_SIG_LEN])
{
	memset(out, 0, WARD_SIG_LEN);
	memcpy(out, WARD_SIG_MAGIC, 8);
	out[8] = WARD_SIG_VERSION; /* u16 little-endian */
	out[10] = WARD_SIG_ED25519;
	ward_key_id(pk, out + 16);
	memcpy(out + 24, blob_digest, 32);
	return crypto_sign_ed25519_detached(out + WARD_SIG_SIGNED_LEN, NULL,
					    out, WARD_SIG_SIGNED_LEN, sk);
}

/* The secret key file: private to its owner, then its seed. */
static int load_secret(const char *path, uint8_t pk[32], uint8_t sk[64])
{
	_cleanup_free_ uint8_t *text = NULL;
	uint8_t seed[32];
	struct stat st;
	ward_err err = {0};
	size_t len;
	int rc;

	if (stat(path, &st) < 0 ||
	    ward_read_file(path, 4096, &text, &len) < 0) {
		fprintf(stderr, "wardc sign: cannot read %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	if (st.st_mode & 077) {
		fprintf(stderr,
			"wardc sign: the secret key %s can be read by others "
			"(mode %04o): chmod 600 it\n",
			path, st.st_mode & 07777);
		return -1;
	}
	rc = ward_keyfile_parse(text, len, WARD_SECKEY_PREFIX, seed, &err);
	sodium_memzero(text, len);
	if (rc < 0) {
		fprintf(stderr, "wardc sign: %s: %s\n", path, err.msg);
		return -1;
	}
	crypto_sign_ed25519_seed_keypair(pk, sk, seed);
	sodium_memzero(seed, sizeof(seed));
	return 0;
}

int cmd_sign(struct wardc_args *a)
{
	uint8_t pk[32], sk[64], sig[WARD_SIG_LEN], digest[32];
	_cleanup_free_ uint8_t *buf = NULL;
	_cleanup_free_ char *out = NULL;
	struct ward_blob blob;
	ward_err err = {0};
	char msg[WARD_ERR_MSG_MAX], idhex[17];
	size_t len;
	int rc;

	if (!a->key || a->nfiles != 1) {
		fprintf(stderr, "wardc sign: give -k SECRETKEY and one blob\n");
		return WARDC_USAGE;
	}
	if (ward_read_file(a->files[0], 64u << 20, &buf, &len) < 0) {
		fprintf(stderr, "wardc sign: cannot read %s: %s\n", a->files[0],
			strerror(errno));
		return WARDC_USAGE;
	}
	/* Only a blob the launcher would read is worth a signature. */
	if (ward_blob_read(buf, len, 0, &blob, &err) < 0) {
		fprintf(stderr, "wardc sign: %s: %s\n", a->files[0],
			ward_err_str(&err, msg, sizeof(msg)));
		return WARDC_POLICY_ERROR;
	}
	ward_blob_release(&blob);
	if (load_secret(a->key, pk, sk) < 0)
		return WARDC_USAGE;
	ward_sha256(buf, len, digest);
	rc = wardc_sig_make(sk, pk, digest, sig);
	sodium_memzero(sk, sizeof(sk));
	if (rc < 0)
		return WARDC_USAGE;
	if (a->output)
		out = strdup(a->output);
	else if (asprintf(&out, "%s.sig", a->files[0]) < 0)
		out = NULL;
	if (!out || ward_write_file_atomic(out, sig, sizeof(sig), 0644) < 0) {
		fprintf(stderr, "wardc sign: cannot write %s: %s\n",
			out ? out : "the signature", strerror(errno));
		return WARDC_USAGE;
	}
	ward_key_id_hex(sig + 16, idhex);
	printf("signed %s with key %s: %s\n", a->files[0], idhex, out);
	return WARDC_OK;
}

int wardc_signature_of(const char *blob_path, const uint8_t digest[32],
		       struct wardc_signature *s)
{
	_cleanup_free_ uint8_t *buf = NULL;
	_cleanup_free_ char *path = NULL;
	struct ward_sig sig;
	ward_err err = {0};
	size_t len;

	memset(s, 0, sizeof(*s));
	if (asprintf(&path, "%s.sig", blob_path) < 0)
		return -1;
	snprintf(s->file, sizeof(s->file), "%s", path);
	if (ward_read_file(path, 4096, &buf, &len) < 0) {
		s->status = errno == ENOENT ? WARDC_SIG_NONE : WARDC_SIG_BAD;
		snprintf(s->detail, sizeof(s->detail), "%s", strerror(errno));
		return 0;
	}
	if (ward_sig_parse(buf, len, &sig, &err) < 0) {
		s->status = WARDC_SIG_BAD;
		snprintf(s->detail, sizeof(s->detail), "%s", err.msg);
		return 0;
	}
	ward_key_id_hex(sig.key_id, s->key_id);
	s->status = memcmp(sig.blob_digest, digest, 32) ? WARDC_SIG_STALE
							: WARDC_SIG_SIGNED;
	if (s->status == WARDC_SIG_STALE)
		snprintf(s->detail, sizeof(s->detail),
			 "the blob was changed after it was signed");
	return 0;
}
