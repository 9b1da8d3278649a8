/* SPDX-License-Identifier: MIT */
/*
 * lint_internal.h: what the lint rules share with the engine. A rule's
 * check reads the checked policy, its provenance and the syntax trees, and
 * reports findings with lint_add(); the engine (lint.c) does the rest:
 * suppressions, fingerprints, order, score.
 */
#ifndef WARD_LINT_INTERNAL_H
#define WARD_LINT_INTERNAL_H

#include "lint.h"
#include "load.h"
#include "policy.h"
#include "pool.h"
#include "sema.h"

#include <stdbool.h>
#include <stdint.h>

struct lint_ctx {
	struct ward_pool *pool;
	const struct ward_unit *unit;
	const struct ward_sources *src;
	const struct ward_policy *p;
	const struct ward_provenance *w;
	bool is_policy;
	struct ward_vec findings; /* struct lint_finding * */
};

static inline bool lint_has_place(struct ward_loc l)
{
	return l.file != WARD_NO_FILE;
}

/* Report a finding of rule r at loc. subject names what it is about
 * ("/work", "ptrace"), so that two findings of one rule on one statement
 * keep distinct fingerprints. The finding stays valid; set ->help to give
 * a fix of its own. */
struct lint_finding *lint_add(struct lint_ctx *c, const struct lint_rule *r,
			      struct ward_loc loc, const char *subject,
			      const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Where to point at something a policy lacks: the first statement of kind
 * `section` in the main file, else the `policy` statement. */
struct ward_loc lint_missing_loc(const struct lint_ctx *c,
				 enum ward_stmt_kind section);

/* Where mount i was written, or no place when none was kept. */
struct ward_loc lint_mount_loc(const struct lint_ctx *c, uint32_t i);

/* Call fn on every statement of kind `kind`, at any depth, in every file. */
void lint_each_stmt(struct lint_ctx *c, const struct lint_rule *r,
		    enum ward_stmt_kind kind,
		    void (*fn)(struct lint_ctx *c, const struct lint_rule *r,
			       const struct ward_stmt *st));

/* "`a`, `b` and `c`" from n names, in the pool. */
const char *lint_name_list(struct ward_pool *pool, const char *const *names,
			   size_t n);

/* lint_suppress.c: the innermost statement whose span holds loc (NULL if
 * none), whether a statement kind is a section (`fs { ... }`), and the
 * suppression pass over c->findings. */
const struct ward_stmt *lint_innermost(const struct ward_unit *unit,
				       struct ward_loc loc);
bool lint_is_section(enum ward_stmt_kind kind);
void lint_apply_suppressions(struct lint_ctx *c);

/* -------------------------------------------------- the rules' checks */

/* lint_fs.c */
lint_check_fn lint_fs_root_bind, lint_fs_sensitive_bind, lint_fs_writable_bind,
    lint_fs_write_exec, lint_fs_tmpfs_memory, lint_fs_memfd_exec,
    lint_fs_slot_size, lint_fs_landlock_off;

/* lint_syscalls.c */
lint_check_fn lint_sys_default_allow, lint_sys_default_eperm,
    lint_sys_default_trap, lint_sys_default_kill, lint_sys_log_rule,
    lint_sys_family, lint_sys_clone_ns, lint_sys_personality, lint_sys_ioctl,
    lint_sys_hot_path;

/* lint_net.c */
lint_check_fn lint_net_world, lint_net_wide, lint_net_private,
    lint_net_metadata, lint_net_raw_addr, lint_net_dns, lint_net_ports,
    lint_net_wildcard, lint_net_answers;

/* lint_limits.c */
lint_check_fn lint_lim_memory, lint_lim_oom_process, lint_lim_pids,
    lint_lim_wall, lint_lim_output, lint_lim_swap, lint_lim_cpu, lint_lim_core,
    lint_lim_dead;

/* lint_syscalls.c: whether a full policy lets `name` be called, by a rule,
 * the default or under some condition. */
bool lint_sys_may_call(const struct lint_ctx *c, const char *name);

/* lint_export.c */
lint_check_fn lint_export_total, lint_export_active, lint_export_missing;

/* lint_identity.c */
lint_check_fn lint_id_root, lint_id_caps, lint_id_admin_caps,
    lint_env_secret_value, lint_env_secret_inherit, lint_env_inherit_path,
    lint_id_hostname, lint_id_named;

#endif
