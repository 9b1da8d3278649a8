/* SPDX-License-Identifier: MIT */
/*
 * exec.h: the target's environment and the program it runs.
 */
#ifndef WARD_EXEC_H
#define WARD_EXEC_H

#include "policy.h"
#include "util.h"

#include <stddef.h>

/* The environment the policy gives the target, as "NAME=value" strings in
 * a NULL-terminated array (one allocation: free() it). A variable with a
 * NULL value takes caller_env's value when it has one and is left out
 * otherwise; nothing else of caller_env is passed. */
char **ward_build_env(const struct ward_policy *p, char *const *caller_env,
		      ward_err *err);

/* The value of name in envp, or NULL. */
const char *ward_env_get(char *const *envp, const char *name);

/* Find prog as execvp(3) would, in path (the target's PATH, may be NULL):
 * a name with a '/' is taken as is; otherwise the first regular, executable
 * file in the PATH directories. Writes it to out. Returns 0, or -1 with
 * err->code ENOENT (nothing found: exit 127) or EACCES (found, but not
 * executable: exit 126). */
int ward_find_program(const char *prog, const char *path, char *out,
		      size_t outlen, ward_err *err);

#endif
