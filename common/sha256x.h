/* SPDX-License-Identifier: MIT */
/*
 * sha256x.h: SHA-256 with the CPU's SHA extensions where it has them
 * (x86_64 SHA-NI: about four times libsodium's portable code), else
 * libsodium's (sha256.h). For the unprivileged side's digests of whole
 * files (the program the target exec'd, the --input snapshots: a 7 MB
 * python3 is 4 ms instead of 17), which the run report waits for; the
 * privileged core keeps sha256.h alone.
 */
#ifndef WARD_SHA256X_H
#define WARD_SHA256X_H

#include "sha256.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ward_sha256x {
	bool ni;
	struct ward_sha256 soft; /* !ni */
	uint32_t state[8];	 /* ni */
	uint8_t buf[64];
	size_t nbuf;
	uint64_t total;
};

void ward_sha256x_init(struct ward_sha256x *h);
void ward_sha256x_update(struct ward_sha256x *h, const void *data, size_t len);
void ward_sha256x_final(struct ward_sha256x *h, uint8_t out[32]);

/* Whether this CPU takes the SHA-NI path (for tests). */
bool ward_sha256x_ni(void);

#endif
