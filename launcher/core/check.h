/* SPDX-License-Identifier: MIT */
/*
 * check.h: can this host, with this launcher, enforce everything the policy
 * asks for? Asked before any process is created; a "no" is a refusal that
 * says what is missing and what would make it possible (fail closed).
 */
#ifndef WARD_CHECK_H
#define WARD_CHECK_H

#include "allowlist.h" /* ward_native_arch */
#include "cli.h"
#include "launch.h"
#include "policy.h"
#include "util.h"

/* Requirements, network mode, limits, capabilities, seccomp program. */
int ward_check_policy(const struct ward_policy *p, ward_err *err);

/* Match the --slot arguments with the policy's slots: every declared slot
 * given, nothing else; each host path an existing directory or regular
 * file, not a symlink. Fills slots[i] for every mount entry i (a NULL path
 * for entries that are not slots). */
int ward_check_slots(const struct ward_policy *p, const struct ward_cli *cli,
		     struct ward_slot_src *slots, ward_err *err);

#endif
