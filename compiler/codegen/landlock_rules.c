/* SPDX-License-Identifier: MIT */
/*
 * landlock_rules.c: the Landlock rule set of a mount table (see the header).
 */
#include "landlock_rules.h"

#include <string.h>

/* The rights the launcher leaves at one mount destination (mounts.c):
 * binds and slots are read-only unless rw; a tmpfs is read-write; proc is
 * read-write (no creation there); /dev is read-only but for its device
 * nodes (written, ioctl'd) and its writable shm; every mount is noexec
 * unless exec. The root is read-only once the table is built. */
static uint64_t access_of(const struct ward_mount *m, bool root)
{
	uint64_t x = (m->flags & WARD_MNT_F_EXEC) ? WARD_LL_FS_EXECUTE : 0;

	if (root)
		return WARD_LL_RO | x;
	switch (m->kind) {
	case WARD_MNT_FILE: /* a read-only, noexec bind of a file */
		return WARD_LL_FS_READ_FILE;
	case WARD_MNT_TMPFS:
		return WARD_LL_RW | x;
	case WARD_MNT_PROC:
		return WARD_LL_RO | WARD_LL_FS_WRITE_FILE | WARD_LL_FS_TRUNCATE;
	case WARD_MNT_DEV:
		return WARD_LL_RO | WARD_LL_FS_WRITE_FILE |
		       WARD_LL_FS_TRUNCATE | WARD_LL_FS_IOCTL_DEV;
	default:
		return ((m->flags & WARD_MNT_F_RW) ? WARD_LL_RW : WARD_LL_RO) |
		       x;
	}
}

void ward_landlock_derive(
    struct ward_landlock *ll, struct ward_landlock_rule *rules,
    const struct ward_mount *mounts, uint32_t nmounts,
    char *(*cat)(void *ctx, const char *dir, const char *name), void *ctx)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < nmounts; i++) {
		const struct ward_mount *m = &mounts[i];

		/* A symlink has no rights of its own (Landlock checks
		 * where it leads); a `dir` is a directory of its parent's
		 * mount, with its rights. */
		if (m->kind == WARD_MNT_SYMLINK || m->kind == WARD_MNT_DIR)
			continue;
		rules[n++] = (struct ward_landlock_rule){
		    .access = access_of(m, i == 0),
		    .flags = m->kind == WARD_MNT_BIND &&
				     (m->flags & WARD_MNT_F_OPTIONAL)
				 ? WARD_LL_R_OPTIONAL
				 : 0,
		    .path = m->dst,
		};
		/* shm is a tmpfs; ioctl-dev as /dev has it, which on a
		 * nodev mount reaches no device, so that the rule adds to
		 * what is above it and takes nothing away. */
		if (m->kind == WARD_MNT_DEV) {
			rules[n++] = (struct ward_landlock_rule){
			    .access = WARD_LL_RW | WARD_LL_FS_IOCTL_DEV,
			    .path = cat(ctx, m->dst, "shm"),
			};
			/* POSIX message queues: mq_open opens a file there */
			rules[n++] = (struct ward_landlock_rule){
			    .access = WARD_LL_RW | WARD_LL_FS_IOCTL_DEV,
			    .path = cat(ctx, m->dst, "mqueue"),
			};
		}
	}
	ll->rules = rules;
	ll->nrules = n;
	/* Every right the kernel may know, granted or not: MAKE_CHAR and
	 * MAKE_BLOCK never are. Both scopes: signals and abstract unix
	 * sockets stay inside the sandbox, as its pid and network
	 * namespaces already keep them. */
	ll->handled_fs = WARD_LL_FS_ALL;
	ll->scoped = WARD_LL_SCOPE_ALL;
	ll->abi = 6;
}

/* Is a an ancestor of (or the same path as) b? Both normalised. */
static bool beneath(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (!strcmp(a, "/"))
		return true;
	return !strncmp(a, b, n) && (b[n] == '/' || b[n] == '\0');
}

uint64_t ward_landlock_wider(const struct ward_landlock *ll, uint32_t i,
			     uint32_t *above)
{
	uint64_t more = 0;

	for (uint32_t k = 0; k < ll->nrules; k++) {
		uint64_t extra;

		if (k == i || !beneath(ll->rules[k].path, ll->rules[i].path) ||
		    !strcmp(ll->rules[k].path, ll->rules[i].path))
			continue;
		extra = ll->rules[k].access & ~ll->rules[i].access;
		/* On a file, only what a file can be given counts. */
		if (!(ll->rules[i].access & ~WARD_LL_FS_FILE))
			extra &= WARD_LL_FS_FILE;
		if (extra && !more)
			*above = k;
		more |= extra;
	}
	return more;
}
