/* SPDX-License-Identifier: MIT */
/*
 * blobfile.h: read a policy blob from a file the sandbox cannot have
 * written, and check it is the reviewed one.
 */
#ifndef WARD_BLOBFILE_H
#define WARD_BLOBFILE_H

#include "privilege.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>

#define WARD_BLOBFILE_MAX (64u * 1024 * 1024)

/* Read the file at path into *buf (free() it), *len bytes, and its SHA-256
 * into digest. Refused: anything but a regular file; a file or a parent
 * directory owned by someone else than the caller or root, or writable by
 * group or others (a sticky directory excepted); in root mode, one owned by
 * the sandbox's host uid. expect_hex: "" or 64 lower-case hex digits the
 * digest must equal; compared before the blob is parsed. */
int ward_blobfile_load(const char *path, const struct ward_priv *priv,
		       const char *expect_hex, uint8_t **buf, size_t *len,
		       uint8_t digest[32], ward_err *err);

/* With --trusted-key: verify path's detached signature, path.sig
 * (docs/spec.md 2.8), against the blob's file digest and the public keys
 * in the files key_paths (nkeys <= WARD_SIG_TRUSTED_MAX; each read as the
 * policy is, since a key anyone could replace would trust anyone). Called
 * before the blob is parsed. On success signer holds the key id in hex. */
int ward_blobfile_verify(const char *path, const char *const *key_paths,
			 size_t nkeys, const struct ward_priv *priv,
			 const uint8_t digest[32], char signer[17],
			 ward_err *err);

#endif
