/* SPDX-License-Identifier: MIT */
/*
 * record_gen.h: the rule table of a recording blob (`wardc compile
 * --record`, docs/spec.md 4.9), from a policy's own.
 *
 * A recording run keeps the policy's mounts, identity, limits and network
 * and swaps only its syscall rules for these:
 *
 *   the dangerous families (danger.h)      errno EPERM, recorded
 *   clone3                                 errno ENOSYS, recorded (its
 *                                          flags are out of sight; glibc
 *                                          falls back to clone)
 *   clone with a CLONE_NEW* flag           errno EPERM, recorded
 *   execve                                 allowed (the target's own
 *                                          comes before the broker has
 *                                          the listener)
 *   every other syscall ward knows         allowed through the broker,
 *                                          which logs it with the
 *                                          arguments a policy conditions
 *                                          on (WARD_VIA_OBSERVE, the mask
 *                                          in errno_nr), then lets it run
 *   a number ward does not know            the policy's default action
 */
#ifndef WARD_RECORD_GEN_H
#define WARD_RECORD_GEN_H

#include "policy.h"
#include "pool.h"
#include "util.h"

/* The arguments the record logs for a syscall: bit i = args[i]. */
uint32_t ward_record_arg_mask(const char *syscall, uint32_t arch);

/* Replace rules (the policy's) with the recording table, in pool. */
int ward_record_rules(struct ward_pool *pool, uint32_t arch,
		      struct ward_rules *rules, ward_err *err);

#endif
