/* Built-in constants of the policy language (AF_UNIX, O_CLOEXEC, EPERM,
 * CAP_SYS_ADMIN, ...), taken from the system headers when wardc is built
 * (tools/gen-consts.sh, tools/consts.list). Each target architecture has a
 * table of its own: a few values differ between x86_64 and aarch64
 * (O_DIRECTORY, O_NOFOLLOW, O_DIRECT, O_LARGEFILE, ...). */
#ifndef WARD_CONSTS_H
#define WARD_CONSTS_H

#include <stddef.h>
#include <stdint.h>

enum ward_const_status {
	WARD_CONST_OK,
	WARD_CONST_UNKNOWN,	  /* no target knows the name */
	WARD_CONST_NOT_ON_TARGET, /* another target knows it, this one not */
};

/* Looks NAME up for ARCH (a WARD_ARCH_* of policy.h); fills *value on
 * WARD_CONST_OK. */
enum ward_const_status ward_const_lookup(const char *name, uint32_t arch,
					 uint64_t *value);

/* The constants of ARCH, sorted by name (strcmp order), for did-you-mean and
 * `wardc constants [PREFIX]`. An unknown ARCH has none. */
size_t ward_const_count(uint32_t arch);
const char *ward_const_name(uint32_t arch, size_t i);
uint64_t ward_const_value(uint32_t arch, size_t i);

/* Error numbers (EPERM -> 1) and capabilities (CAP_SYS_ADMIN -> 21). Both
 * number the same on every supported target: x86_64 and aarch64 take errno
 * values from asm-generic/errno*.h and capabilities from
 * linux/capability.h, and test_consts checks that the two generated tables
 * agree. The lookups return -1 for an unknown name; the reverse ones return
 * NULL for an unknown number and prefer the canonical name over an alias
 * (EAGAIN, not EWOULDBLOCK). */
int ward_errno_lookup(const char *name);
const char *ward_errno_name(int nr);
int ward_cap_lookup(const char *name);
const char *ward_cap_name(int nr);

/* The generated tables' layout (written by tools/gen-consts.sh, read only by
 * consts.c). */
enum ward_const_kind {
	WARD_CONST_KIND_PLAIN,
	WARD_CONST_KIND_ERRNO,
	WARD_CONST_KIND_CAP,
};

struct ward_const_entry {
	const char *name;
	uint64_t value;
	uint8_t kind;  /* enum ward_const_kind */
	uint8_t alias; /* defined as another name of the table (EWOULDBLOCK) */
};

struct ward_const_table {
	uint32_t arch;
	const struct ward_const_entry *entries; /* sorted by name */
	size_t count;
};

extern const struct ward_const_table ward_const_tables[];
extern const size_t ward_const_ntables;

#endif
