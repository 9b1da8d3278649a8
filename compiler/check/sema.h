/* SPDX-License-Identifier: MIT */
/*
 * sema.h: the semantic checker. It gives meaning to the syntax trees of a
 * policy and everything it uses: names resolved, constants evaluated, groups
 * expanded, values typed and range-checked, conflicts reported, the mount
 * table ordered, and the result laid out as a struct ward_policy. Code
 * generation completes it (what the net section implies, the seccomp
 * program) and the blob writer takes it as it is.
 */
#ifndef WARD_SEMA_H
#define WARD_SEMA_H

#include "diag.h"
#include "load.h"
#include "policy.h"
#include "source.h"

#include <stdbool.h>

struct ward_pool;

/* The file that a net section's pinned hosts become: code generation
 * writes it, and the checker refuses an entry of the policy in its way. */
#define WARD_HOSTS_PATH	 "/etc/hosts"
#define WARD_RESOLV_PATH "/etc/resolv.conf" /* with names (5.11) */

struct ward_sema_opts {
	uint32_t arch; /* WARD_ARCH_*: the target */
};

/*
 * Where each part of the compiled policy came from, for tools that point at
 * the source (lint, SARIF). A location whose file is WARD_NO_FILE has no
 * place in the source (a default, or the root mount).
 */
struct ward_provenance {
	struct ward_loc policy;		/* the `policy` statement */
	struct ward_loc default_action; /* `syscalls default ...` */
	struct ward_loc user, group, hostname, capabilities, workdir;
	struct ward_loc memfd;	  /* `memfd exec|noexec;` in fs */
	struct ward_loc landlock; /* `landlock MODE;` in fs */
	struct ward_loc *env;	  /* per policy.env[i] */
	struct ward_loc *mounts;  /* per policy.mounts[i] (the entry) */
	bool *mount_size_default; /* per mount: a read-write slot sized by
				     the built-in default (lint W107) */
	struct ward_loc limits[WARD_LIM_COUNT];
	struct ward_loc net;	    /* `net none` or the first `net { }` */
	struct ward_loc *net_rules; /* per policy.net.rules[i] (the allow) */
	struct ward_loc *net_names; /* per policy.net.names[i] (the allow) */
	/* Per policy.rules.syscalls[i]: the rule that gave its fallback (a
	 * direct rule, else the strongest group rule), and the first
	 * conditional rule. */
	struct ward_loc *syscall_fallback;
	struct ward_loc *syscall_cond;
};

/* The checked policy. Everything is owned by pool. */
struct ward_checked {
	struct ward_pool *pool;
	bool is_policy;		   /* the main file has a `policy` statement */
	struct ward_policy policy; /* valid when is_policy and no errors;
				      what the net section implies and
				      seccomp are left to code generation */
	struct ward_provenance where;
};

/* Check a loaded unit. Returns 0 when no error was reported (warnings
 * allowed), -1 otherwise; the diagnostics are in diags. *out is filled in
 * both cases and must be released with ward_checked_free. */
int ward_sema(const struct ward_unit *unit, const struct ward_sources *src,
	      struct ward_diags *diags, const struct ward_sema_opts *opts,
	      struct ward_checked *out);
void ward_checked_free(struct ward_checked *c);

/* SHA-256 over what the sources of a unit say, as the blob's meta section
 * records it: for each file in load order, the length of its canonical
 * serialisation (lang/ast_canon.h) as 8 bytes little-endian, then the
 * serialisation. Independent of where the files were found, of layout,
 * comments and spellings: `wardc fmt` never changes it. */
void ward_source_digest(const struct ward_unit *unit,
			const struct ward_sources *src, uint8_t out[32]);

#endif
