/* SPDX-License-Identifier: MIT */
/*
 * sema_internal.h: what the parts of the checker share. sema.c walks the
 * files and owns the symbol tables and typed values; sema_identity.c,
 * sema_fs.c, sema_net.c, sema_limits.c and sema_syscalls.c each check one
 * kind of section and lay out their part of the policy.
 */
#ifndef WARD_SEMA_INTERNAL_H
#define WARD_SEMA_INTERNAL_H

#include "pool.h"
#include "sema.h"
#include "symtab.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>

/* The type of an evaluated value (spec 1.6). */
enum ward_type {
	T_ERROR = 0, /* already reported: stay quiet */
	T_INT,
	T_SIZE,
	T_DURATION,
	T_CPU,
	T_STRING,
	T_PATH,
	T_ADDR
};

struct tval {
	enum ward_type type;
	uint64_t u;
	const char *str; /* STRING, PATH */
	size_t len;
	uint8_t family, bytes[16];
	int prefix;
};

struct sym_const {
	const struct ward_stmt *stmt;
	int state; /* 0 unresolved, 1 resolving, 2 done */
	struct tval val;
};

struct sym_group {
	const struct ward_stmt *stmt;
	int state;		 /* 0 unexpanded, 1 expanding, 2 done */
	struct ward_vec members; /* struct group_member, after expansion */
};

struct sym_host {
	const struct ward_stmt *stmt;
};

/* A syscall reached through a group, with its number on the target (or -1
 * when it does not exist there). */
struct group_member {
	const char *name;
	int32_t nr;
};

/* A statement that set a once-only thing, for "first set here" notes. */
struct seen {
	const struct ward_stmt *stmt;
	struct ward_loc loc;
};

struct sema {
	struct ward_pool *pool;
	const struct ward_unit *unit;
	const struct ward_sources *src;
	struct ward_diags *d;
	uint32_t arch; /* WARD_ARCH_* */
	const char *arch_name;

	struct ward_symtab consts; /* name -> struct sym_const */
	struct ward_symtab groups; /* "@name" -> struct sym_group */
	struct ward_symtab hosts;  /* name -> struct sym_host */
	const char **builtin; /* built-in constant names, for suggestions */
	size_t nbuiltin;
	const char *group_stack[64]; /* groups being expanded, for cycles */
	size_t ngroup_stack;
	const char **sysnames; /* syscall names, for suggestions */
	size_t nsysnames;

	const struct ward_stmt *policy_stmt;

	/* Statements by section, in load order. */
	struct ward_vec identity_items; /* const struct ward_stmt * */
	struct ward_vec env_items;
	struct ward_vec fs_items;
	struct ward_vec net_items;
	struct ward_vec limit_items;
	struct ward_vec rules;
	const struct ward_stmt *net_none;
	const struct ward_stmt *net_block;
	const struct ward_stmt *default_stmt; /* the syscalls block with it */

	struct ward_policy *out;
	struct ward_provenance *where;
};

/* No place in the source. */
static inline struct ward_loc sema_noloc(void)
{
	return (struct ward_loc){.file = WARD_NO_FILE};
}

/* Values (sema.c). Each reports its own errors and returns a T_ERROR value
 * after one; `what` names the place in messages ("the memory limit"). */
struct tval sema_eval(struct sema *s, const struct ward_value *v);
bool sema_int(struct sema *s, const struct ward_value *v, const char *what,
	      uint64_t *out);
bool sema_size(struct sema *s, const struct ward_value *v, const char *what,
	       uint64_t *out);
bool sema_duration(struct sema *s, const struct ward_value *v, const char *what,
		   uint64_t *out);
bool sema_cpu(struct sema *s, const struct ward_value *v, const char *what,
	      uint64_t *out);
bool sema_string(struct sema *s, const struct ward_value *v, const char *what,
		 const char **str, size_t *len);
/* An absolute, normalised path (relative allowed when rel_ok). */
bool sema_path(struct sema *s, const struct ward_value *v, const char *what,
	       bool rel_ok, const char **out);
bool sema_addr(struct sema *s, const struct ward_value *v, const char *what,
	       struct tval *out);
/* mode digits are octal whatever their spelling (spec 1.2). */
bool sema_mode(struct sema *s, const struct ward_value *v, uint32_t *out);
bool sema_range(struct sema *s, struct ward_loc loc, const char *what,
		uint64_t v, uint64_t lo, uint64_t hi, const char *unit);

/* "first set here" bookkeeping for once-only things. */
bool sema_once(struct sema *s, const struct ward_stmt **slot,
	       const struct ward_stmt *st, const char *what);

/* Sections. */
void sema_identity(struct sema *s);
void sema_env(struct sema *s);
void sema_fs(struct sema *s);
void sema_net(struct sema *s);
void sema_limits(struct sema *s);
void sema_syscalls(struct sema *s);
/* The `export` sections (sema_export.c), after sema_fs: their slots are
 * looked up in the mount table. */
void sema_export(struct sema *s);
/* After every section, on a policy without errors (it reads the whole
 * mount table): no entry where the pinned hosts' /etc/hosts must go. */
void sema_net_hosts(struct sema *s);
/* Check every group definition (also in fragments). */
void sema_check_groups(struct sema *s);

/* Human names for error messages. */
const char *sema_type_name(enum ward_type t);

#endif
