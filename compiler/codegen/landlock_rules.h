/* SPDX-License-Identifier: MIT */
/*
 * landlock_rules.h: the mount table's intent as a Landlock rule set
 * (docs/spec.md 1.7.3 `landlock`, 2.5 type 13).
 *
 * One rule per mount destination, in mount order, with the rights the
 * mount table leaves there: read on everything (the root is read-only once
 * built), write and create on read-write mounts, execute on exec mounts,
 * device ioctls in /dev. Landlock adds the rights of every rule above a
 * path, so a mount narrower than one above it (a read-only slot inside a
 * read-write tmpfs) cannot be narrowed again: ward_landlock_wider names
 * those for explain. Pure functions of the mount table, shared by the
 * compiler and the tests' blob maker.
 */
#ifndef WARD_LANDLOCK_RULES_H
#define WARD_LANDLOCK_RULES_H

#include "policy.h"

/* What a read-write mount allows: everything but devices (nodev) and
 * execution. */
#define WARD_LL_RW                                                             \
	(WARD_LL_FS_READ_FILE | WARD_LL_FS_READ_DIR | WARD_LL_FS_WRITE_FILE |  \
	 WARD_LL_FS_REMOVE_DIR | WARD_LL_FS_REMOVE_FILE |                      \
	 WARD_LL_FS_MAKE_DIR | WARD_LL_FS_MAKE_REG | WARD_LL_FS_MAKE_SOCK |    \
	 WARD_LL_FS_MAKE_FIFO | WARD_LL_FS_MAKE_SYM | WARD_LL_FS_REFER |       \
	 WARD_LL_FS_TRUNCATE)
#define WARD_LL_RO (WARD_LL_FS_READ_FILE | WARD_LL_FS_READ_DIR)

/* Fill ll's rules (rules: room for 3 * nmounts; cat joins a directory and
 * a name, in the caller's memory) and its handled rights, scopes and ABI
 * from the mount table; mode is left as it is. */
void ward_landlock_derive(
    struct ward_landlock *ll, struct ward_landlock_rule *rules,
    const struct ward_mount *mounts, uint32_t nmounts,
    char *(*cat)(void *ctx, const char *dir, const char *name), void *ctx);

/* The rights that rules above rules[i] add to it (0: it narrows what is
 * above it, as the mount table does); *above: the first such rule. */
uint64_t ward_landlock_wider(const struct ward_landlock *ll, uint32_t i,
			     uint32_t *above);

#endif
