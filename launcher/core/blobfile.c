/* SPDX-License-Identifier: MIT */
/*
 * blobfile.c: never read policy from anywhere the sandbox (or anyone but the
 * caller and root) can write (firejail CVE-2017-5180). The file is opened
 * once; the checks and the read use that descriptor.
 */
#include "blobfile.h"

#include "sha256.h"
#include "signature.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <string.h>
#include <sys/stat.h>

static int trusted(const struct stat *st, const struct ward_priv *priv,
		   const char *what, const char *path, ward_err *err)
{
	bool sticky_dir = S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX);

	if (st->st_uid != priv->caller_uid && st->st_uid != 0)
		return ward_fail(err, 0,
				 "%s %s is owned by uid %u: it must be owned "
				 "by you (uid %u) or root",
				 what, path, st->st_uid, priv->caller_uid);
	if (priv->mode == WARD_MODE_ROOT && st->st_uid == priv->host_uid)
		return ward_fail(err, 0,
				 "%s %s is owned by the sandbox's host uid %u",
				 what, path, st->st_uid);
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !sticky_dir)
		return ward_fail(err, 0,
				 "%s %s is writable by group or others (mode "
				 "%04o): chmod go-w it",
				 what, path, st->st_mode & 07777);
	return 0;
}

static int check_parent(const char *path, const struct ward_priv *priv,
			const char *what, ward_err *err)
{
	_cleanup_free_ char *copy = strdup(path);
	struct stat st;
	const char *dir;

	if (!copy)
		return ward_fail(err, ENOMEM, "%s", path);
	dir = dirname(copy);
	if (stat(dir, &st) < 0)
		return ward_fail(err, errno, "stat %s", dir);
	return trusted(&st, priv, what, dir, err);
}

static int read_all(int fd, size_t hint, size_t max, uint8_t **buf, size_t *len,
		    const char *path, ward_err *err)
{
	size_t cap = hint + 1, n = 0;
	_cleanup_free_ uint8_t *p = malloc(cap);

	if (!p)
		return ward_fail(err, ENOMEM, "read %s", path);
	for (;;) {
		ssize_t r;

		if (n == cap) {
			uint8_t *q;

			if (cap > max)
				return ward_fail(err, EFBIG, "read %s", path);
			q = realloc(p, cap * 2);
			if (!q)
				return ward_fail(err, ENOMEM, "read %s", path);
			p = q;
			cap *= 2;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return ward_fail(err, errno, "read %s", path);
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*buf = steal_pointer(&p);
	*len = n;
	return 0;
}

/* Open path once, check it and its directory (trusted) and read it. */
static int load_trusted(const char *path, const struct ward_priv *priv,
			const char *what, const char *dir_what, size_t max,
			uint8_t **buf, size_t *len, ward_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;

	if (fd < 0)
		return ward_fail(err, errno, "open %s", path);
	if (fstat(fd, &st) < 0)
		return ward_fail(err, errno, "stat %s", path);
	if (!S_ISREG(st.st_mode))
		return ward_fail(err, 0, "%s is not a regular file", path);
	if ((uint64_t)st.st_size > max)
		return ward_fail(err, EFBIG, "%s", path);
	if (trusted(&st, priv, what, path, err) < 0 ||
	    check_parent(path, priv, dir_what, err) < 0)
		return -1;
	return read_all(fd, (size_t)st.st_size, max, buf, len, path, err);
}

int ward_blobfile_load(const char *path, const struct ward_priv *priv,
		       const char *expect_hex, uint8_t **buf, size_t *len,
		       uint8_t digest[32], ward_err *err)
{
	char hex[65];

	if (load_trusted(path, priv, "the policy", "the policy's directory",
			 WARD_BLOBFILE_MAX, buf, len, err) < 0)
		return -1;
	ward_sha256(*buf, *len, digest);
	ward_hex(digest, 32, hex);
	if (expect_hex[0] && strcmp(hex, expect_hex)) {
		free(steal_pointer(buf));
		return ward_fail(err, 0,
				 "%s: digest mismatch: the file's SHA-256 is "
				 "%s, --expect-digest says %s",
				 path, hex, expect_hex);
	}
	return 0;
}

int ward_blobfile_verify(const char *path, const char *const *key_paths,
			 size_t nkeys, const struct ward_priv *priv,
			 const uint8_t digest[32], char signer[17],
			 ward_err *err)
{
	struct ward_pubkey keys[WARD_SIG_TRUSTED_MAX];
	_cleanup_free_ char *sig_path = NULL;
	_cleanup_free_ uint8_t *sig = NULL;
	size_t len, k;
	ward_err e = {0};

	/* Both are small: the parsers take only their exact lengths. */
	for (size_t i = 0; i < nkeys && i < WARD_SIG_TRUSTED_MAX; i++) {
		_cleanup_free_ uint8_t *text = NULL;

		if (load_trusted(key_paths[i], priv, "the trusted key",
				 "its directory", 256, &text, &len, &e) < 0 ||
		    ward_pubkey_parse(text, len, &keys[i], &e) < 0)
			return ward_fail(err, e.code, "--trusted-key %s: %s",
					 key_paths[i], e.msg);
	}
	if (asprintf(&sig_path, "%s.sig", path) < 0)
		return ward_fail(err, ENOMEM, "%s", path);
	if (load_trusted(sig_path, priv, "the signature", "its directory", 256,
			 &sig, &len, err) < 0)
		return err->code != ENOENT
			   ? -1
			   : ward_fail(err, 0,
				       "%s is unsigned (there is no %s) and "
				       "--trusted-key runs only signed blobs",
				       path, sig_path);
	if (ward_sig_verify(sig, len, digest, keys, nkeys, &k, &e) < 0)
		return ward_fail(err, 0, "%s: %s", sig_path, e.msg);
	ward_key_id_hex(keys[k].id, signer);
	return 0;
}
