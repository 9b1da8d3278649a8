/* SPDX-License-Identifier: MIT */
/*
 * lint_fs.c: the rules about the mount table (W1xx).
 */
#include "describe.h"
#include "lint_internal.h"
#include "units.h"

#include <string.h>

/* Host paths that hand out more than files (see W102's explanation). A
 * bind of one of them, of a path under one, or of an ancestor of one is
 * sensitive. */
static const char *const sensitive[] = {
    /* the first of a directory's entries is the one a finding names when
     * the whole directory is bound */
    "/etc/shadow",
    "/etc/gshadow",
    "/etc/sudoers",
    "/etc/sudoers.d",
    "/etc/ssh",
    "/etc/ssl/private",
    "/etc/kubernetes",
    "/etc/docker",
    "/var/run",
    "/var/lib/docker",
    "/var/lib/containerd",
    "/var/lib/kubelet",
    "/var/log",
    "/var/tmp",
    "/run",
    "/proc",
    "/sys",
    "/dev",
    "/boot",
    "/home",
    "/root",
    "/tmp",
};

/* a is b or below it */
static bool under(const char *a, const char *b)
{
	size_t n = strlen(b);
	return strncmp(a, b, n) == 0 && (a[n] == 0 || a[n] == '/');
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && strcmp(s + n - m, tail) == 0;
}

/* The sensitive path that src is, is under or holds; NULL if none. */
static const char *sensitive_hit(const char *src, bool *holds)
{
	*holds = false;
	for (size_t i = 0; i < sizeof(sensitive) / sizeof(sensitive[0]); i++)
		if (under(src, sensitive[i]))
			return sensitive[i];
	for (size_t i = 0; i < sizeof(sensitive) / sizeof(sensitive[0]); i++)
		if (under(sensitive[i], src)) {
			*holds = true;
			return sensitive[i];
		}
	if (ends_with(src, ".sock"))
		return src;
	return NULL;
}

void lint_fs_root_bind(struct lint_ctx *c, const struct lint_rule *r)
{
	for (uint32_t i = 1; i < c->p->nmounts; i++) {
		const struct ward_mount *m = &c->p->mounts[i];
		if (m->kind != WARD_MNT_BIND || strcmp(m->src, "/") != 0)
			continue;
		lint_add(c, r, lint_mount_loc(c, i), m->dst,
			 "the host's root directory is bound at %s (%s)",
			 m->dst,
			 m->flags & WARD_MNT_F_RW ? "writable" : "read-only");
	}
}

void lint_fs_sensitive_bind(struct lint_ctx *c, const struct lint_rule *r)
{
	for (uint32_t i = 1; i < c->p->nmounts; i++) {
		const struct ward_mount *m = &c->p->mounts[i];
		bool holds;
		const char *hit;

		if (m->kind != WARD_MNT_BIND || strcmp(m->src, "/") == 0)
			continue;
		hit = sensitive_hit(m->src, &holds);
		if (!hit)
			continue;
		if (hit == m->src)
			lint_add(c, r, lint_mount_loc(c, i), m->src,
				 "%s is a socket of the host: binding it "
				 "hands its daemon to the sandbox",
				 m->src);
		else if (holds)
			lint_add(c, r, lint_mount_loc(c, i), m->src,
				 "the host's %s is bound, and %s with it",
				 m->src, hit);
		else
			lint_add(c, r, lint_mount_loc(c, i), m->src,
				 "the host's %s is bound (it is %s%s)", m->src,
				 strcmp(m->src, hit) == 0 ? "" : "under ", hit);
	}
}

void lint_fs_writable_bind(struct lint_ctx *c, const struct lint_rule *r)
{
	for (uint32_t i = 1; i < c->p->nmounts; i++) {
		const struct ward_mount *m = &c->p->mounts[i];
		if (m->kind != WARD_MNT_BIND || !(m->flags & WARD_MNT_F_RW))
			continue;
		lint_add(c, r, lint_mount_loc(c, i), m->dst,
			 "the host's %s is bound writable at %s", m->src,
			 m->dst);
	}
}

void lint_fs_write_exec(struct lint_ctx *c, const struct lint_rule *r)
{
	for (uint32_t i = 1; i < c->p->nmounts; i++) {
		const struct ward_mount *m = &c->p->mounts[i];
		bool rw;

		if (m->kind != WARD_MNT_BIND && m->kind != WARD_MNT_TMPFS &&
		    m->kind != WARD_MNT_SLOT)
			continue;
		rw = m->kind == WARD_MNT_TMPFS || (m->flags & WARD_MNT_F_RW);
		if (!rw || !(m->flags & WARD_MNT_F_EXEC))
			continue;
		lint_add(c, r, lint_mount_loc(c, i), m->dst,
			 "%s (%s) is both writable and executable", m->dst,
			 describe_mount_kind(m->kind));
	}
}

void lint_fs_memfd_exec(struct lint_ctx *c, const struct lint_rule *r)
{
	if (!(c->p->exec & WARD_EXEC_MEMFD))
		return;
	lint_add(c, r, c->w->memfd, "memfd",
		 "`memfd exec`: the sandbox may execute memfds, files it "
		 "writes in memory that no noexec mount covers");
}

void lint_fs_landlock_off(struct lint_ctx *c, const struct lint_rule *r)
{
	if (c->p->landlock.mode != WARD_LANDLOCK_OFF)
		return;
	lint_add(c, r, c->w->landlock, "landlock",
		 "`landlock off`: the mount table is the only file layer");
}

void lint_fs_slot_size(struct lint_ctx *c, const struct lint_rule *r)
{
	for (uint32_t i = 1; c->w->mount_size_default && i < c->p->nmounts;
	     i++) {
		const struct ward_mount *m = &c->p->mounts[i];

		if (!c->w->mount_size_default[i])
			continue;
		lint_add(c, r, lint_mount_loc(c, i), m->src,
			 "the read-write slot `%s` has no size: it gets "
			 "ward's default, %s",
			 m->src, ward_size_str(c->pool, m->size));
	}
}

void lint_fs_tmpfs_memory(struct lint_ctx *c, const struct lint_rule *r)
{
	const struct ward_limits *l = &c->p->limits;
	uint64_t mem, sum;

	if (!ward_limit_is_set(l, WARD_LIM_MEMORY))
		return;
	mem = l->value[WARD_LIM_MEMORY];
	sum = 0;
	for (uint32_t i = 1; i < c->p->nmounts; i++) {
		const struct ward_mount *m = &c->p->mounts[i];
		uint64_t total = 0;

		if (m->kind != WARD_MNT_TMPFS)
			continue;
		if (sum + m->size <= mem) {
			sum += m->size;
			continue;
		}
		/* the mount that tips the sum over the limit */
		for (uint32_t k = 1; k < c->p->nmounts; k++)
			if (c->p->mounts[k].kind == WARD_MNT_TMPFS)
				total += c->p->mounts[k].size;
		lint_add(c, r, lint_mount_loc(c, i), m->dst,
			 "the tmpfs mounts hold up to %s together, more than "
			 "the memory limit of %s",
			 ward_size_str(c->pool, total),
			 ward_size_str(c->pool, mem));
		return;
	}
}
