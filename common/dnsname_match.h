/* SPDX-License-Identifier: MIT */
/*
 * dnsname_match.h: does an allowed name match a name asked? Shared by the
 * compiler (lint, explain) and the launcher's DNS stub (unprivileged), so
 * that a wildcard means the same to both. Not part of the privileged core.
 */
#ifndef WARD_DNSNAME_MATCH_H
#define WARD_DNSNAME_MATCH_H

#include <stdbool.h>

/* Both normalised (lower case, no trailing dot). An exact pattern matches
 * itself; "*.SUFFIX" matches one or more labels before SUFFIX, never
 * SUFFIX itself. */
bool ward_dnsname_match(const char *pattern, const char *name);

#endif
