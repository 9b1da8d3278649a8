/* SPDX-License-Identifier: MIT */
/*
 * sema_fs.c: the `fs` section becomes the mount table.
 *
 * Every path is checked absolute and normalised, every destination unique,
 * nothing placed under a file, a symlink or proc, and the table is ordered
 * parents first (spec 1.7.3) so that the launcher can apply it as it is.
 * Entry 0 is always the root tmpfs.
 */
#include "sema_internal.h"

#include "blob.h"
#include "blob_read.h"

#include <string.h>

#define MAX_FS_ENTRIES	 4096
#define MAX_FILE_CONTENT (1024 * 1024)
#define ROOT_BASE_SIZE	 (1024 * 1024)

struct fs_entry {
	const struct ward_stmt *stmt;
	struct ward_loc dst_loc;
	struct ward_mount m;
	struct fs_entry *parent; /* nearest entry above it, if any */
	bool taken;
	bool size_default; /* a read-write slot sized by the built-in default */
};

/* ro/rw and exec/noexec as written, with the defaults of spec 1.7.3. */
static bool mount_opts(struct sema *s, const struct ward_stmt *st,
		       uint32_t kind, uint32_t *flags)
{
	unsigned o = st->opts;
	bool rw;
	bool exec;

	if ((o & WARD_OPT_RO) && (o & WARD_OPT_RW)) {
		ward_diag(s->d, WARD_SEV_ERROR, st->opts_loc,
			  "a mount cannot be both `ro` and `rw`");
		return false;
	}
	if ((o & WARD_OPT_EXEC) && (o & WARD_OPT_NOEXEC)) {
		ward_diag(s->d, WARD_SEV_ERROR, st->opts_loc,
			  "a mount cannot be both `exec` and `noexec`");
		return false;
	}
	if ((o & WARD_OPT_OPTIONAL) && kind != WARD_MNT_BIND) {
		ward_diag(s->d, WARD_SEV_ERROR, st->opts_loc,
			  "only a `bind` can be `optional`");
		return false;
	}
	if (kind == WARD_MNT_TMPFS && (o & WARD_OPT_RO)) {
		ward_diag(s->d, WARD_SEV_ERROR, st->opts_loc,
			  "a tmpfs is always writable: `ro` would leave it "
			  "empty");
		ward_diag_help(s->d, "use `dir` for an empty read-only "
				     "directory");
		return false;
	}
	rw = kind == WARD_MNT_TMPFS || (o & WARD_OPT_RW);
	if (kind == WARD_MNT_TMPFS)
		exec = o & WARD_OPT_EXEC;
	else
		exec = (o & WARD_OPT_EXEC) || (!rw && !(o & WARD_OPT_NOEXEC));
	*flags = (rw ? WARD_MNT_F_RW : 0) | (exec ? WARD_MNT_F_EXEC : 0) |
		 ((o & WARD_OPT_OPTIONAL) ? WARD_MNT_F_OPTIONAL : 0);
	return true;
}

static bool valid_slot_name(const char *n)
{
	size_t len = 0;

	if (!(*n >= 'a' && *n <= 'z'))
		return false;
	for (; *n; n++, len++)
		if (!((*n >= 'a' && *n <= 'z') || (*n >= '0' && *n <= '9') ||
		      *n == '_' || *n == '-'))
			return false;
	return len <= 64;
}

static bool symlink_target(struct sema *s, const struct ward_value *v,
			   const char **out)
{
	struct tval t = sema_eval(s, v);
	if (t.type == T_ERROR)
		return false;
	if (t.type != T_PATH && t.type != T_STRING) {
		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "a symlink target is a path, but `%s` is %s", v->text,
			  sema_type_name(t.type));
		return false;
	}
	if (t.len == 0 || t.len > 4095 || t.len != strlen(t.str)) {
		ward_diag(s->d, WARD_SEV_ERROR, v->loc,
			  "a symlink target must be 1 to 4095 bytes without "
			  "NUL");
		return false;
	}
	*out = t.str;
	return true;
}

/* A read-write slot is a tmpfs of a size during the run (a copy of its host
 * directory, copied back after it: docs/spec.md 3.5), so that a run puts
 * no more on the host's disk than its policy says: its own `size`, or the
 * `slot-size` limit, or WARD_SLOT_SIZE_DEFAULT (lint W107 says so). */
static bool slot_size(struct sema *s, const struct ward_stmt *st,
		      struct ward_mount *m, bool *by_default)
{
	const struct ward_limits *l = &s->out->limits;

	if (!(m->flags & WARD_MNT_F_RW)) {
		if (!st->size)
			return true;
		ward_diag(s->d, WARD_SEV_ERROR, st->size->loc,
			  "only a read-write slot has a size");
		ward_diag_help(s->d, "a read-only slot is the host directory "
				     "itself, and nothing is written to it");
		return false;
	}
	if (st->size) {
		if (!sema_size(s, st->size, "a slot's size", &m->size))
			return false;
		if (m->size < (1ull << 20)) {
			ward_diag(s->d, WARD_SEV_ERROR, st->size->loc,
				  "a slot's size is at least 1M");
			return false;
		}
		return true;
	}
	*by_default = !ward_limit_is_set(l, WARD_LIM_SLOT_SIZE);
	m->size =
	    *by_default ? WARD_SLOT_SIZE_DEFAULT : l->value[WARD_LIM_SLOT_SIZE];
	return true;
}

/* Fill e->m from its statement; false after an error. */
static bool check_entry(struct sema *s, struct fs_entry *e,
			struct ward_symtab *slots)
{
	const struct ward_stmt *st = e->stmt;
	struct ward_mount *m = &e->m;
	const struct ward_value *dstv = st->path;
	const char *what = "the destination";

	switch (st->kind) {
	case WARD_S_FS_BIND:
		m->kind = WARD_MNT_BIND;
		if (!sema_path(s, st->src, "the host path", false, &m->src))
			return false;
		if (!dstv) {
			dstv = st->src;
			m->dst = m->src;
		}
		break;
	case WARD_S_FS_TMPFS:
		m->kind = WARD_MNT_TMPFS;
		m->mode = 0755;
		if (!st->size ||
		    !sema_size(s, st->size, "a tmpfs size", &m->size))
			return false;
		if (m->size == 0) {
			ward_diag(s->d, WARD_SEV_ERROR, st->size->loc,
				  "a tmpfs needs a size above 0");
			return false;
		}
		break;
	case WARD_S_FS_PROC:
		m->kind = WARD_MNT_PROC;
		if (!dstv)
			m->dst = "/proc";
		break;
	case WARD_S_FS_DEV:
		m->kind = WARD_MNT_DEV;
		if (!dstv)
			m->dst = "/dev";
		break;
	case WARD_S_FS_FILE: {
		const char *data;
		size_t len;
		m->kind = WARD_MNT_FILE;
		m->mode = 0444;
		if (!sema_string(s, st->value, "a file's content", &data, &len))
			return false;
		if (len > MAX_FILE_CONTENT) {
			ward_diag(s->d, WARD_SEV_ERROR, st->value->loc,
				  "a file's inline content is limited to "
				  "1 MiB");
			return false;
		}
		m->data = (const uint8_t *)data;
		m->data_len = len;
		break;
	}
	case WARD_S_FS_SYMLINK:
		m->kind = WARD_MNT_SYMLINK;
		if (!symlink_target(s, st->src, &m->src))
			return false;
		break;
	case WARD_S_FS_SLOT:
		m->kind = WARD_MNT_SLOT;
		m->src = st->name;
		if (!valid_slot_name(st->name)) {
			ward_diag(s->d, WARD_SEV_ERROR, st->name_loc,
				  "`%s` is not a valid slot name", st->name);
			ward_diag_help(s->d, "use up to 64 lower-case letters, "
					     "digits, `_` and `-`, starting "
					     "with a letter");
			return false;
		}
		{
			struct fs_entry *first =
			    ward_symtab_put(slots, st->name, e);
			if (first) {
				ward_diag(s->d, WARD_SEV_ERROR, st->name_loc,
					  "slot `%s` is declared twice",
					  st->name);
				ward_diag_note(s->d, first->stmt->name_loc,
					       "first declared here");
				return false;
			}
		}
		break;
	case WARD_S_FS_DIR:
		m->kind = WARD_MNT_DIR;
		m->mode = 0755;
		break;
	default:
		return false;
	}
	if (st->mode && !sema_mode(s, st->mode, &m->mode))
		return false;
	if (!mount_opts(s, st, m->kind, &m->flags))
		return false;
	if (m->kind == WARD_MNT_SLOT && !slot_size(s, st, m, &e->size_default))
		return false;
	if (!m->dst && !sema_path(s, dstv, what, false, &m->dst))
		return false;
	e->dst_loc = dstv ? dstv->loc : st->kw_loc;
	if (strcmp(m->dst, "/") == 0) {
		ward_diag(s->d, WARD_SEV_ERROR, e->dst_loc,
			  "`/` is the sandbox's root, a read-only tmpfs the "
			  "launcher makes; it cannot be an entry");
		return false;
	}
	if (!strncmp(m->dst + 1, WARD_SCRATCH_DIR, strlen(WARD_SCRATCH_DIR)) &&
	    (m->dst[1 + strlen(WARD_SCRATCH_DIR)] == '\0' ||
	     m->dst[1 + strlen(WARD_SCRATCH_DIR)] == '/')) {
		ward_diag(s->d, WARD_SEV_ERROR, e->dst_loc,
			  "`/%s` is the launcher's while it builds the mount "
			  "table; it cannot be an entry",
			  WARD_SCRATCH_DIR);
		return false;
	}
	return true;
}

/* The nearest entry whose destination is an ancestor of e's. */
static struct fs_entry *nearest_parent(struct ward_pool *pool,
				       struct ward_symtab *dsts,
				       const char *dst)
{
	char *p = ward_pool_strdup(pool, dst);
	for (char *slash = strrchr(p, '/'); slash && slash != p;
	     slash = strrchr(p, '/')) {
		struct fs_entry *e;

		*slash = 0;
		e = ward_symtab_get(dsts, p);
		if (e)
			return e;
	}
	return NULL;
}

static bool placed_under(struct sema *s, struct fs_entry *e)
{
	for (struct fs_entry *a = e->parent; a; a = a->parent) {
		uint32_t k = a->m.kind;
		if (k != WARD_MNT_FILE && k != WARD_MNT_SYMLINK &&
		    k != WARD_MNT_PROC)
			continue;
		ward_diag(s->d, WARD_SEV_ERROR, e->dst_loc,
			  "`%s` lies under the %s entry `%s`", e->m.dst,
			  ward_mount_kind_name(k), a->m.dst);
		if (k == WARD_MNT_SYMLINK)
			ward_diag_help(s->d, "mount at the symlink's target "
					     "instead: the launcher never "
					     "follows a symlink in the new "
					     "root");
		ward_diag_note(s->d, a->dst_loc, "`%s` is declared here",
			       a->m.dst);
		return true;
	}
	return false;
}

/* The working directory must be a directory the mount table makes: an
 * entry's destination or a path under a bind, tmpfs or slot (whose host
 * content or the target itself provides it). */
static void check_workdir(struct sema *s, struct ward_symtab *dsts)
{
	const char *wd = s->out->identity.workdir;
	struct fs_entry *e;
	bool ok = false;

	if (!wd || strcmp(wd, "/") == 0)
		return;
	e = ward_symtab_get(dsts, wd);
	if (!e)
		e = nearest_parent(s->pool, dsts, wd);
	if (e) {
		switch (e->m.kind) {
		case WARD_MNT_BIND:
		case WARD_MNT_SLOT:
		case WARD_MNT_TMPFS:
			ok = true;
			break;
		case WARD_MNT_DIR:
		case WARD_MNT_DEV:
			ok = strcmp(e->m.dst, wd) == 0;
			break;
		default:
			break;
		}
	}
	if (ok)
		return;
	ward_diag(s->d, WARD_SEV_ERROR, s->where->workdir,
		  "the working directory `%s` is not a directory of the "
		  "mount table",
		  wd);
	ward_diag_help(s->d,
		       "add an fs entry for it, such as `tmpfs %s size "
		       "64M;` or `dir %s;`",
		       wd, wd);
}

/* `memfd exec;` or `memfd noexec;` (the default): may the sandbox execute
 * a memfd, a file with no mount, which the noexec of the writable mounts
 * does not reach (docs/spec.md 1.7.3). */
static void memfd_entry(struct sema *s, const struct ward_stmt *st,
			const struct ward_stmt **seen)
{
	unsigned o = st->opts;
	bool ex = o & WARD_OPT_EXEC, nx = o & WARD_OPT_NOEXEC;

	if (!sema_once(s, seen, st, "`memfd`"))
		return;
	s->where->memfd = st->kw_loc;
	if ((o & ~(unsigned)(WARD_OPT_EXEC | WARD_OPT_NOEXEC)) || ex == nx) {
		ward_diag(s->d, WARD_SEV_ERROR,
			  st->opts ? st->opts_loc : st->kw_loc,
			  "`memfd` takes one option: `exec` or `noexec`");
		ward_diag_help(s->d, "`memfd noexec;` is the default; `memfd "
				     "exec;` lets the sandbox run what it "
				     "writes into a memfd (a JIT that needs "
				     "it)");
		return;
	}
	if (ex)
		s->out->exec |= WARD_EXEC_MEMFD;
}

/* `landlock prefer;` (the default), `landlock require;` or `landlock off;`:
 * the mount table's intent again as a Landlock rule set, which the
 * launcher applies from inside (docs/spec.md 1.7.3). The rules themselves
 * are derived from the mount table by code generation (landlock_rules.c). */
static void landlock_entry(struct sema *s, const struct ward_stmt *st,
			   const struct ward_stmt **seen)
{
	static const char *const modes[] = {"off", "prefer", "require"};
	const char *hit;

	if (!sema_once(s, seen, st, "`landlock`"))
		return;
	s->where->landlock = st->kw_loc;
	for (uint32_t m = 0; m < ARRAY_LEN(modes); m++)
		if (!strcmp(st->name, modes[m])) {
			s->out->landlock.mode = m;
			if (m == WARD_LANDLOCK_REQUIRE)
				s->out->requirements |= WARD_REQ_LANDLOCK;
			return;
		}
	ward_diag(s->d, WARD_SEV_ERROR, st->name_loc,
		  "`landlock` takes `prefer`, `require` or `off`, not `%s`",
		  st->name);
	hit = ward_suggest(st->name, modes, ARRAY_LEN(modes));
	if (hit)
		ward_diag_help(s->d, "did you mean `%s`?", hit);
	else
		ward_diag_help(s->d,
			       "`prefer` (the default) applies what the "
			       "kernel's Landlock supports; `require` refuses "
			       "to run without all of it");
}

void sema_fs(struct sema *s)
{
	size_t n = s->fs_items.n;
	const struct ward_stmt **items = s->fs_items.items;
	struct fs_entry *entries;
	size_t good = 0;
	bool ok = true;
	struct ward_mount *out;
	struct ward_loc *where;
	size_t o = 1;
	struct ward_symtab dsts, slots;
	uint64_t root_size = ROOT_BASE_SIZE, tmpfs_total = 0;
	const struct ward_stmt *tmpfs_over = NULL, *memfd = NULL,
			       *landlock = NULL;

	if (n > MAX_FS_ENTRIES) {
		ward_diag(s->d, WARD_SEV_ERROR, items[MAX_FS_ENTRIES]->kw_loc,
			  "more than %d fs entries", MAX_FS_ENTRIES);
		n = MAX_FS_ENTRIES;
	}
	entries = ward_pool_array(s->pool, n + 1, sizeof(*entries));
	ward_symtab_init(&dsts, s->pool);
	ward_symtab_init(&slots, s->pool);

	s->where->memfd = sema_noloc();
	s->where->landlock = sema_noloc();
	s->out->landlock.mode = WARD_LANDLOCK_PREFER;
	for (size_t i = 0; i < n; i++) {
		struct fs_entry *e = &entries[good];
		struct fs_entry *first;

		if (items[i]->kind == WARD_S_FS_MEMFD) {
			memfd_entry(s, items[i], &memfd);
			continue;
		}
		if (items[i]->kind == WARD_S_FS_LANDLOCK) {
			landlock_entry(s, items[i], &landlock);
			continue;
		}
		memset(e, 0, sizeof(*e));
		e->stmt = items[i];
		if (!check_entry(s, e, &slots))
			continue;
		first = ward_symtab_put(&dsts, e->m.dst, e);
		if (first) {
			ward_diag(s->d, WARD_SEV_ERROR, e->dst_loc,
				  "`%s` is the destination of two entries",
				  e->m.dst);
			ward_diag_note(s->d, first->dst_loc,
				       "first used here (by a %s entry)",
				       ward_mount_kind_name(first->m.kind));
			continue;
		}
		if (e->m.kind == WARD_MNT_FILE)
			root_size += (e->m.data_len + 4095) & ~4095ull;
		if (e->m.kind == WARD_MNT_TMPFS ||
		    (e->m.kind == WARD_MNT_SLOT && e->m.size)) {
			uint64_t before = tmpfs_total;
			const struct ward_limits *l;

			tmpfs_total += e->m.size;
			if (tmpfs_total < before)
				tmpfs_total = UINT64_MAX;
			l = &s->out->limits;
			if (!tmpfs_over &&
			    ward_limit_is_set(l, WARD_LIM_MEMORY) &&
			    tmpfs_total > l->value[WARD_LIM_MEMORY])
				tmpfs_over = e->stmt;
		}
		good++;
	}

	/* Parents and what may not hold anything. */
	for (size_t i = 0; i < good; i++)
		entries[i].parent =
		    nearest_parent(s->pool, &dsts, entries[i].m.dst);
	for (size_t i = 0; i < good; i++)
		if (placed_under(s, &entries[i]))
			ok = false;

	if (tmpfs_over)
		ward_diag(s->d, WARD_SEV_WARNING, tmpfs_over->kw_loc,
			  "the tmpfs and read-write slot sizes add up to "
			  "more than the memory limit, which they count "
			  "against");

	/* Parents first; otherwise the written order: take, again and
	 * again, the first entry in written order whose parent is taken. */
	out = ward_pool_array(s->pool, good + 1, sizeof(*out));
	out[0] = (struct ward_mount){
	    .kind = WARD_MNT_TMPFS,
	    .flags = WARD_MNT_F_RW,
	    .dst = "/",
	    .size = root_size,
	    .mode = 0755,
	};
	where = ward_pool_array(s->pool, good + 1, sizeof(*where));
	where[0] = sema_noloc();
	s->where->mount_size_default =
	    ward_pool_array(s->pool, good + 1, sizeof(bool));
	while (ok && o < good + 1) {
		for (size_t i = 0; i < good; i++) {
			struct fs_entry *e = &entries[i];
			if (e->taken || (e->parent && !e->parent->taken))
				continue;
			e->taken = true;
			s->where->mount_size_default[o] = e->size_default;
			where[o] = e->stmt->kw_loc;
			out[o++] = e->m;
			break;
		}
	}
	s->where->mounts = where;
	s->out->mounts = out;
	s->out->nmounts = ok ? (uint32_t)(good + 1) : 1;
	if (ok)
		check_workdir(s, &dsts);
}
