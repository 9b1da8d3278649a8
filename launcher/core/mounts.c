/* SPDX-License-Identifier: MIT */
/*
 * mounts.c: the mount table, applied in the blob's order and nothing else.
 *
 * Everything is done through descriptors, with the new mount API:
 *
 *   - sources (binds, slots, /dev nodes) are opened once, as O_PATH
 *     descriptors, before the first mount, and checked (type; a slot must
 *     still be the object the supervisor checked). They are never looked up
 *     by path again (flatpak CVE-2024-42472).
 *   - destinations are resolved under the new root with openat2()
 *     RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS: a
 *     symlink anywhere on the way is an error, so nothing planted in a
 *     writable directory can lead a mount or a file out of the new root.
 *   - missing mount points are created only on the tmpfs mounts ward made
 *     (the root, the policy's tmpfs, /dev): ward never creates a file or a
 *     directory on the host.
 *   - mounts are made detached (fsmount, open_tree), given their flags
 *     (mount_setattr, recursively for binds) and only then attached with
 *     move_mount: no mount is ever visible with weaker flags.
 */
#include "mounts.h"

#include "blob.h"
#include "facts.h"
#include "fdpass.h"
#include "mount_hide.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>

static const char *const dev_nodes[] = {"null",	  "zero",    "full",
					"random", "urandom", "tty"};
#define NDEV ARRAY_LEN(dev_nodes)

struct ward_mounts {
	const struct ward_launch *l;
	const struct ward_policy *p;
	int rootfd;    /* the new root's mount */
	int *src;      /* per entry: a bind or slot source, or -1 */
	bool *src_dir; /* per entry: the source is a directory */
	int dev[NDEV]; /* the host's device nodes */
	dev_t *own;    /* st_dev of every tmpfs ward made */
	size_t nown, maxown;
	int *late_ro; /* /dev mounts, made read-only with the root */
	size_t nlate;
	int scratch; /* the masks' tmpfs (mount_hide.c), made when needed */
	bool scratch_dir; /* SCRATCH_DIR made in the new root */
	bool scratch_on;  /* and the masks' tmpfs attached there */
	int layer; /* the overlays' empty layer: the same, kept detached */
	uint32_t *filling; /* slots handed whose FILLED is still to come */
	uint32_t nfilling, nfilled;
	ward_err *err;
};

#define ATTR_ALWAYS (MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV)

/* Binds read-only unless rw, noexec unless exec; always nosuid, nodev. */
static unsigned attrs_of(uint32_t flags)
{
	return ATTR_ALWAYS | (flags & WARD_MNT_F_RW ? 0 : MOUNT_ATTR_RDONLY) |
	       (flags & WARD_MNT_F_EXEC ? 0 : MOUNT_ATTR_NOEXEC);
}

static int in_root(int dirfd, const char *path, uint64_t flags)
{
	struct open_how how = {
	    .flags = flags | O_CLOEXEC,
	    .resolve =
		RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/* May ward create dst in dirfd? Only on a tmpfs it made itself. */
static int own_fs(struct ward_mounts *c, int dirfd, const char *dst)
{
	struct stat st;

	if (fstat(dirfd, &st) < 0)
		return ward_fail(c->err, errno, "stat the directory of %s",
				 dst);
	for (size_t i = 0; i < c->nown; i++)
		if (c->own[i] == st.st_dev)
			return 0;
	return ward_fail(c->err, 0,
			 "cannot create %s: its directory is not on a tmpfs of "
			 "the sandbox, and ward never creates files on the "
			 "host (create it there, or put a tmpfs above it)",
			 dst);
}

static int add_own(struct ward_mounts *c, int mntfd, const char *dst)
{
	struct stat st;

	if (fstat(mntfd, &st) < 0)
		return ward_fail(c->err, errno, "stat the tmpfs at %s", dst);
	if (c->nown < c->maxown)
		c->own[c->nown++] = st.st_dev;
	return 0;
}

/* A new detached mount of a kernel file system: opts are key, value pairs
 * (a NULL value sets a flag), NULL-terminated. */
static int fs_new(struct ward_mounts *c, const char *type,
		  const char *const *opts, unsigned attrs, const char *dst)
{
	_cleanup_close_ int fs = fsopen(type, FSOPEN_CLOEXEC);
	int mnt;

	if (fs < 0)
		return ward_fail(c->err, errno, "fsopen %s for %s", type, dst);
	for (; opts && opts[0]; opts += 2)
		if (fsconfig(fs,
			     opts[1] ? FSCONFIG_SET_STRING : FSCONFIG_SET_FLAG,
			     opts[0], opts[1], 0) < 0)
			return ward_fail(c->err, errno, "%s %s=%s for %s", type,
					 opts[0], opts[1] ? opts[1] : "", dst);
	if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return ward_fail(c->err, errno, "create %s for %s", type, dst);
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, attrs);
	if (mnt < 0)
		return ward_fail(c->err, errno, "fsmount %s for %s", type, dst);
	return mnt;
}

/* A tmpfs whose root belongs to the sandbox user (init is that user by
 * now, so this only says it out loud). */
static int new_tmpfs(struct ward_mounts *c, uint64_t size, uint32_t mode,
		     unsigned attrs, const char *dst)
{
	char sz[24], md[16], uid[16], gid[16];
	const char *opts[] = {"size", sz,    "mode", md,   "uid",
			      uid,    "gid", gid,    NULL, NULL};
	int mnt;

	snprintf(sz, sizeof(sz), "%llu", (unsigned long long)size);
	snprintf(md, sizeof(md), "%o", mode & 07777);
	snprintf(uid, sizeof(uid), "%u", c->p->identity.uid);
	snprintf(gid, sizeof(gid), "%u", c->p->identity.gid);
	mnt = fs_new(c, "tmpfs", opts, attrs, dst);
	if (mnt >= 0 && add_own(c, mnt, dst) < 0) {
		close(mnt);
		return -1;
	}
	return mnt;
}

/* A detached copy of the mount tree at src, with attrs set on every mount
 * of it. */
static int bind_tree(struct ward_mounts *c, int src, unsigned attrs,
		     unsigned recursive, const char *dst)
{
	struct mount_attr a = {.attr_set = attrs};
	int t = open_tree(src, "",
			  OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH |
			      recursive);

	if (t < 0)
		return ward_fail(c->err, errno, "open_tree for %s", dst);
	if (mount_setattr(t, "", AT_EMPTY_PATH | recursive, &a, sizeof(a)) <
	    0) {
		close(t);
		return ward_fail(c->err, errno, "mount_setattr for %s", dst);
	}
	return t;
}

static int attach(struct ward_mounts *c, int mnt, int dstfd, const char *dst)
{
	if (move_mount(mnt, "", dstfd, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return ward_fail(c->err, errno, "mount at %s", dst);
	return 0;
}

static int make_file(int dirfd, const char *name, uint32_t mode)
{
	int fd =
	    openat(dirfd, name,
		   O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, mode);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int fail_open(struct ward_mounts *c, const char *what, const char *dst)
{
	if (errno == ELOOP || errno == EXDEV)
		return ward_fail(c->err, errno,
				 "open %s%s in the new root (a symlink on the "
				 "way is never followed)",
				 what, dst);
	return ward_fail(c->err, errno, "open %s%s in the new root", what, dst);
}

/* One directory down from fd (which it closes), created on ward's own
 * tmpfs when missing. */
static int step_down(struct ward_mounts *c, int fd, const char *name,
		     const char *dst)
{
	_cleanup_close_ int dir = fd;
	int next = in_root(dir, name, O_PATH | O_DIRECTORY);

	if (next >= 0 || errno != ENOENT)
		return next;
	if (own_fs(c, dir, dst) < 0)
		return -2;
	if (mkdirat(dir, name, 0755) < 0 && errno != EEXIST)
		return -1;
	return in_root(dir, name, O_PATH | O_DIRECTORY);
}

/* The directory that holds dst, opened under the new root (missing
 * directories created on ward's own tmpfs); *name: dst's last part. */
static int open_parent(struct ward_mounts *c, const char *dst,
		       const char **name)
{
	const char *slash = strrchr(dst, '/');
	char part[WARD_BLOB_PATH_MAX + 1];
	int fd;

	*name = slash + 1;
	if ((size_t)(slash - dst) >= sizeof(part))
		return ward_fail(c->err, ENAMETOOLONG, "%s", dst);
	memcpy(part, dst, (size_t)(slash - dst));
	part[slash - dst] = '\0';
	fd = in_root(c->rootfd, part[0] ? part : "/", O_PATH | O_DIRECTORY);
	if (fd < 0 && errno == ENOENT) {
		/* Walk down from the root, creating what is missing. */
		fd = in_root(c->rootfd, "/", O_PATH | O_DIRECTORY);
		for (char *p = part + 1, *e; fd >= 0 && *p; p = e) {
			e = strchrnul(p, '/');
			if (*e)
				*e++ = '\0';
			fd = step_down(c, fd, p, dst);
		}
	}
	if (fd == -2)
		return -1;
	if (fd < 0)
		return fail_open(c, "the directory of ", dst);
	return fd;
}

/* dst's mount point (a directory, or a file for a file bind), created on
 * ward's own tmpfs when missing. */
static int mountpoint(struct ward_mounts *c, const char *dst, bool dir)
{
	const char *name;
	_cleanup_close_ int parent = open_parent(c, dst, &name);
	struct stat st;
	int fd;

	if (parent < 0)
		return -1;
	fd = in_root(parent, name, O_PATH | (dir ? O_DIRECTORY : 0));
	if (fd < 0 && errno == ENOENT) {
		if (own_fs(c, parent, dst) < 0)
			return -1;
		if (dir ? mkdirat(parent, name, 0755)
			: make_file(parent, name, 0444))
			return ward_fail(c->err, errno, "create %s", dst);
		fd = in_root(parent, name, O_PATH | (dir ? O_DIRECTORY : 0));
	}
	if (fd < 0)
		return fail_open(c, "", dst);
	if (!dir && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		return ward_fail(c->err, 0,
				 "%s exists in the new root and is not a "
				 "regular file",
				 dst);
	}
	return fd;
}

/* The masks' tmpfs is attached at this directory of the new root while
 * the mount table is built: before Linux 6.15, open_tree(OPEN_TREE_CLONE)
 * refuses (EINVAL) a mount outside the caller's mount namespace, and a
 * detached one is in none (Debian 12's 6.1 refused every run: tests/vm).
 * scratch_end takes it away before the root is made read-only. */
#define SCRATCH_DIR WARD_SCRATCH_DIR

static int scratch(struct ward_mounts *c)
{
	_cleanup_close_ int mnt = -1, at = -1;
	const size_t n = strlen(SCRATCH_DIR);

	if (c->scratch >= 0)
		return c->scratch;
	/* A policy mount there would be taken away with it. */
	for (uint32_t i = 1; i < c->p->nmounts; i++) {
		const char *d = c->p->mounts[i].dst;

		if (d[0] == '/' && !strncmp(d + 1, SCRATCH_DIR, n) &&
		    (d[1 + n] == '\0' || d[1 + n] == '/'))
			return ward_fail(c->err, 0,
					 "%s: /%s is ward's while it builds "
					 "the mount table",
					 d, SCRATCH_DIR);
	}
	mnt = ward_hide_scratch(c->err);
	if (mnt < 0)
		return -1;
	if (mkdirat(c->rootfd, SCRATCH_DIR, 0700) < 0)
		return ward_fail(c->err, errno, "mkdir /%s in the new root",
				 SCRATCH_DIR);
	c->scratch_dir = true;
	at = in_root(c->rootfd, SCRATCH_DIR, O_PATH | O_DIRECTORY);
	if (at < 0 ||
	    move_mount(mnt, "", at, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return ward_fail(c->err, errno, "attach the masks' tmpfs");
	c->scratch_on = true;
	c->scratch = steal_fd(&mnt);
	return c->scratch;
}

/* The masks are clones of it: the tmpfs itself goes, and its directory
 * (umount2 takes a path: SCRATCH_DIR from the new root, the cwd). */
static int scratch_end(struct ward_mounts *c)
{
	if (c->scratch_on &&
	    (fchdir(c->rootfd) < 0 || umount2(SCRATCH_DIR, MNT_DETACH) < 0))
		return ward_fail(c->err, errno, "detach the masks' tmpfs");
	c->scratch_on = false;
	if (c->scratch_dir &&
	    unlinkat(c->rootfd, SCRATCH_DIR, AT_REMOVEDIR) < 0)
		return ward_fail(c->err, errno, "remove /%s from the new root",
				 SCRATCH_DIR);
	c->scratch_dir = false;
	return 0;
}

/* A read-only directory slot is an overlay of itself, so that mountinfo
 * does not name its host path (mount_hide.c); where the kernel cannot
 * (before 6.7), a bind, which does. */
static int slot_tree(struct ward_mounts *c, uint32_t i,
		     const struct ward_mount *m)
{
	int t;

	if (m->kind != WARD_MNT_SLOT || !c->src_dir[i] ||
	    (m->flags & WARD_MNT_F_RW))
		return -2;
	/* Detached, so that mountinfo names the layer "/d" (d_path of a
	 * detached mount's root is "/"), not a place in the new root. */
	if (c->layer < 0)
		c->layer = ward_hide_scratch(c->err);
	if (c->layer < 0)
		return -1;
	t = ward_hide_slot(c->src[i], c->layer, attrs_of(m->flags), m->dst,
			   c->err);
	return t;
}

static int do_bind(struct ward_mounts *c, uint32_t i,
		   const struct ward_mount *m)
{
	_cleanup_close_ int dst = -1, t = -1;

	if (c->src[i] < 0)
		return 0; /* optional and absent on this host */
	dst = mountpoint(c, m->dst, c->src_dir[i]);
	if (dst < 0)
		return -1;
	t = slot_tree(c, i, m);
	if (t == -2)
		t = bind_tree(c, c->src[i], attrs_of(m->flags), AT_RECURSIVE,
			      m->dst);
	if (t < 0)
		return -1;
	return attach(c, t, dst, m->dst);
}

/* The courier's FILLED for the slots handed so far (their replies come in
 * the order they were handed). */
static int filled(struct ward_mounts *c)
{
	for (; c->nfilled < c->nfilling; c->nfilled++) {
		char reply = 0;
		ssize_t n;

		do
			n = read(c->l->hand_wr, &reply, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1 || reply != WARD_HAND_FILLED)
			return ward_fail(
			    c->err, 0,
			    "the courier could not fill the read-write slot "
			    "at %s (the report says why)",
			    c->p->mounts[c->filling[c->nfilled]].dst);
	}
	return 0;
}

/* Does a later entry of the mount table go below entry i? */
static bool mounted_below(const struct ward_mounts *c, uint32_t i)
{
	const char *d = c->p->mounts[i].dst;
	size_t n = strlen(d);

	for (uint32_t j = i + 1; j < c->p->nmounts; j++)
		if (!strncmp(c->p->mounts[j].dst, d, n) &&
		    (c->p->mounts[j].dst[n] == '/' || n == 1))
			return true;
	return false;
}

/* Hand the courier a directory of the root of the tmpfs mnt (entry i of
 * the mount table): it measures every writable mount, and fills and
 * empties a read-write slot's. Best effort for a measurement (a courier
 * that is gone is the supervisor's to notice); not for a slot, which the
 * courier fills at once. Its FILLED is awaited before anything is mounted
 * below the slot (such a mount must meet what the host directory holds),
 * else at the end of the table: the courier fills while init mounts the
 * rest, and no slot is left unfilled when the target may start. */
static int hand(struct ward_mounts *c, int mnt, uint32_t i, bool slot)
{
	const struct ward_hand_msg msg = {WARD_HAND_MOUNT, i};
	_cleanup_close_ int root = -1;

	if (c->l->hand_wr < 0)
		return slot ? ward_fail(c->err, 0, "no courier for a slot") : 0;
	root = openat(mnt, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 ||
	    ward_send_msg(c->l->hand_wr, &msg, sizeof(msg), root) < 0)
		return slot ? ward_fail(c->err, errno, "hand %s to the courier",
					c->p->mounts[i].dst)
			    : 0;
	if (!slot)
		return 0;
	c->filling[c->nfilling++] = i;
	return mounted_below(c, i) ? filled(c) : 0;
}

static int do_tmpfs(struct ward_mounts *c, uint32_t i,
		    const struct ward_mount *m)
{
	_cleanup_close_ int dst = mountpoint(c, m->dst, true), mnt = -1;

	if (dst < 0)
		return -1;
	mnt = new_tmpfs(c, m->size, m->mode, attrs_of(m->flags | WARD_MNT_F_RW),
			m->dst);
	if (mnt < 0 || attach(c, mnt, dst, m->dst) < 0)
		return -1;
	return hand(c, mnt, i, false);
}

/* A read-write directory slot is a tmpfs of its size, not the host
 * directory: what the run writes stays in memory charged to its cgroup,
 * bounded by that size, and only the courier copies it to the host, after
 * the run (the copy in is the courier's too, before the target runs). So
 * no run puts more on the host's disk than its policy says, and mountinfo
 * names no host path. A read-write file slot stays a bind: its one file
 * is bounded by the `filesize` limit (ward_check_policy requires one). */
static int do_rw_slot(struct ward_mounts *c, uint32_t i,
		      const struct ward_mount *m)
{
	_cleanup_close_ int dst = -1, mnt = -1;

	if (!c->src_dir[i])
		return do_bind(c, i, m);
	dst = mountpoint(c, m->dst, true);
	if (dst < 0)
		return -1;
	mnt = new_tmpfs(c, m->size, 0700, attrs_of(m->flags), m->dst);
	if (mnt < 0 || attach(c, mnt, dst, m->dst) < 0)
		return -1;
	return hand(c, mnt, i, true);
}

/* The end of the list: the courier stops listening. */
static void hand_end(struct ward_mounts *c)
{
	const struct ward_hand_msg msg = {WARD_HAND_END, 0};

	/* Best effort: a courier that is gone is the supervisor's to
	 * notice. */
	if (c->l->hand_wr >= 0)
		(void)ward_send_msg(c->l->hand_wr, &msg, sizeof(msg), -1);
}

static int do_proc(struct ward_mounts *c, const struct ward_mount *m)
{
	_cleanup_close_ int dst = mountpoint(c, m->dst, true), mnt = -1;

	if (dst < 0)
		return -1;
	mnt = fs_new(c, "proc", NULL, ATTR_ALWAYS | MOUNT_ATTR_NOEXEC, m->dst);
	if (mnt < 0 || attach(c, mnt, dst, m->dst) < 0)
		return -1;
	/* Once attached: the masks are mounts on it (mount_hide.c). */
	if (scratch(c) < 0)
		return -1;
	return ward_proc_mask(mnt, c->scratch, m->dst, c->err);
}

/* A mount of a new file system at name in dirfd (created there). */
static int mount_in(struct ward_mounts *c, int dirfd, const char *name,
		    uint32_t mode, int mnt, const char *what)
{
	_cleanup_close_ int m = mnt, dst = -1;

	if (m < 0)
		return -1;
	if (mkdirat(dirfd, name, mode) < 0)
		return ward_fail(c->err, errno, "mkdir %s", what);
	dst = in_root(dirfd, name, O_PATH | O_DIRECTORY);
	if (dst < 0)
		return ward_fail(c->err, errno, "open %s", what);
	return attach(c, m, dst, what);
}

/* A minimal /dev: the host's harmless character devices bound in (the only
 * mounts without nodev: they are device nodes), a private devpts, shm, the
 * sandbox's own IPC namespace's mqueue (Landlock checks mq_open against a
 * path: without a mount of it, the blob's rules could not allow it), and
 * the usual links. Read-only once populated. */
static int do_dev(struct ward_mounts *c, const struct ward_mount *m)
{
	static const char *const pts_opts[] = {
	    "newinstance", NULL,   "ptmxmode", "0666",
	    "mode",	   "0620", NULL,       NULL};
	static const char *const links[][2] = {
	    {"ptmx", "pts/ptmx"},	   {"fd", "/proc/self/fd"},
	    {"stdin", "/proc/self/fd/0"},  {"stdout", "/proc/self/fd/1"},
	    {"stderr", "/proc/self/fd/2"},
	};
	_cleanup_close_ int dst = mountpoint(c, m->dst, true), dev = -1;

	if (dst < 0)
		return -1;
	dev = new_tmpfs(c, WARD_DEV_SIZE, 0755, ATTR_ALWAYS | MOUNT_ATTR_NOEXEC,
			m->dst);
	if (dev < 0 || attach(c, dev, dst, m->dst) < 0)
		return -1;
	for (size_t i = 0; i < NDEV; i++) {
		_cleanup_close_ int node = -1, t = -1;

		if (make_file(dev, dev_nodes[i], 0666) < 0 ||
		    (node = in_root(dev, dev_nodes[i], O_PATH)) < 0)
			return ward_fail(c->err, errno, "create %s/%s", m->dst,
					 dev_nodes[i]);
		t = bind_tree(c, c->dev[i],
			      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, 0, m->dst);
		if (t < 0 || attach(c, t, node, dev_nodes[i]) < 0)
			return -1;
	}
	if (mount_in(c, dev, "pts", 0755,
		     fs_new(c, "devpts", pts_opts,
			    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, "/dev/pts"),
		     "/dev/pts") < 0 ||
	    mount_in(c, dev, "shm", 01777,
		     new_tmpfs(c, WARD_SHM_SIZE, 01777,
			       ATTR_ALWAYS | MOUNT_ATTR_NOEXEC, "/dev/shm"),
		     "/dev/shm") < 0 ||
	    mount_in(c, dev, "mqueue", 01777,
		     fs_new(c, "mqueue", NULL, ATTR_ALWAYS | MOUNT_ATTR_NOEXEC,
			    "/dev/mqueue"),
		     "/dev/mqueue") < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_LEN(links); i++)
		if (symlinkat(links[i][1], dev, links[i][0]) < 0)
			return ward_fail(c->err, errno, "symlink %s/%s", m->dst,
					 links[i][0]);
	/* Read-only at the end, so that later entries may still mount
	 * below it. */
	c->late_ro[c->nlate++] = steal_fd(&dev);
	return 0;
}

static int write_all(int fd, const uint8_t *p, uint64_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n > (1u << 30) ? (1u << 30) : n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (uint64_t)w;
	}
	return 0;
}

/* A file with inline content. On the root tmpfs it is written in place
 * (the root becomes read-only); anywhere else (a writable tmpfs, or over a
 * file of a bind) it is written to a staging file on the root, bound
 * read-only at dst, and the staging name removed. */
static int do_file(struct ward_mounts *c, uint32_t i,
		   const struct ward_mount *m)
{
	const char *name;
	_cleanup_close_ int parent = open_parent(c, m->dst, &name), fd = -1;
	_cleanup_close_ int dst = -1, t = -1;
	struct stat pst, rst;
	char stage[32];

	if (parent < 0)
		return -1;
	if (fstat(parent, &pst) < 0 || fstat(c->rootfd, &rst) < 0)
		return ward_fail(c->err, errno, "stat for %s", m->dst);
	if (pst.st_dev == rst.st_dev) {
		fd =
		    openat(parent, name,
			   O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW,
			   m->mode);
		if (fd < 0 || write_all(fd, m->data, m->data_len) < 0)
			return ward_fail(c->err, errno, "write %s", m->dst);
		return 0;
	}
	snprintf(stage, sizeof(stage), ".ward-file-%u", i);
	fd =
	    openat(c->rootfd, stage,
		   O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, m->mode);
	if (fd < 0 || write_all(fd, m->data, m->data_len) < 0)
		return ward_fail(c->err, errno, "write %s", m->dst);
	dst = mountpoint(c, m->dst, false);
	if (dst < 0)
		return -1;
	t = bind_tree(c, fd,
		      ATTR_ALWAYS | MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOEXEC, 0,
		      m->dst);
	if (t < 0 || attach(c, t, dst, m->dst) < 0)
		return -1;
	if (unlinkat(c->rootfd, stage, 0) < 0)
		return ward_fail(c->err, errno, "unlink the staging file of %s",
				 m->dst);
	return 0;
}

static int do_symlink(struct ward_mounts *c, const struct ward_mount *m)
{
	const char *name;
	_cleanup_close_ int parent = open_parent(c, m->dst, &name);

	if (parent < 0 || own_fs(c, parent, m->dst) < 0)
		return -1;
	if (symlinkat(m->src, parent, name) < 0)
		return ward_fail(c->err, errno, "symlink %s", m->dst);
	return 0;
}

static int do_dir(struct ward_mounts *c, const struct ward_mount *m)
{
	const char *name;
	_cleanup_close_ int parent = open_parent(c, m->dst, &name), fd = -1;

	if (parent < 0)
		return -1;
	fd = in_root(parent, name, O_PATH | O_DIRECTORY);
	if (fd >= 0)
		return 0;
	if (errno != ENOENT)
		return fail_open(c, "", m->dst);
	if (own_fs(c, parent, m->dst) < 0)
		return -1;
	if (mkdirat(parent, name, m->mode) < 0)
		return ward_fail(c->err, errno, "mkdir %s", m->dst);
	return 0;
}

static int apply(struct ward_mounts *c, uint32_t i)
{
	const struct ward_mount *m = &c->p->mounts[i];

	switch (m->kind) {
	case WARD_MNT_SLOT:
		if (m->flags & WARD_MNT_F_RW)
			return do_rw_slot(c, i, m);
		return do_bind(c, i, m);
	case WARD_MNT_BIND:
		return do_bind(c, i, m);
	case WARD_MNT_TMPFS:
		return do_tmpfs(c, i, m);
	case WARD_MNT_PROC:
		return do_proc(c, m);
	case WARD_MNT_DEV:
		return do_dev(c, m);
	case WARD_MNT_FILE:
		return do_file(c, i, m);
	case WARD_MNT_SYMLINK:
		return do_symlink(c, m);
	case WARD_MNT_DIR:
		return do_dir(c, m);
	}
	return ward_fail(c->err, 0, "mount %s: unknown kind %u", m->dst,
			 m->kind);
}

static int open_source(struct ward_mounts *c, uint32_t i)
{
	const struct ward_mount *m = &c->p->mounts[i];
	const struct ward_slot_src *s = &c->l->slots[i];
	bool slot = m->kind == WARD_MNT_SLOT;
	const char *path = slot ? s->path : m->src;
	struct stat st;

	/* A slot's last component is not followed (see check.c). */
	c->src[i] = open(path, O_PATH | O_CLOEXEC | (slot ? O_NOFOLLOW : 0));
	if (c->src[i] < 0) {
		if (errno == ENOENT && (m->flags & WARD_MNT_F_OPTIONAL))
			return 0;
		return ward_fail(c->err, errno, "%s %s for %s",
				 slot ? "slot" : "bind", path, m->dst);
	}
	if (fstat(c->src[i], &st) < 0)
		return ward_fail(c->err, errno, "stat %s", path);
	if (slot && (st.st_dev != s->dev || st.st_ino != s->ino))
		return ward_fail(
		    c->err, 0, "slot %s: %s was replaced after it was checked",
		    m->src, path);
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
		return ward_fail(c->err, 0,
				 "%s %s: not a directory or a regular file",
				 slot ? "slot" : "bind", path);
	c->src_dir[i] = S_ISDIR(st.st_mode);
	return 0;
}

static int open_sources(struct ward_mounts *c)
{
	bool dev = false;

	for (uint32_t i = 0; i < c->p->nmounts; i++) {
		uint32_t k = c->p->mounts[i].kind;

		if ((k == WARD_MNT_BIND || k == WARD_MNT_SLOT) &&
		    open_source(c, i) < 0)
			return -1;
		dev |= k == WARD_MNT_DEV;
	}
	for (size_t i = 0; dev && i < NDEV; i++) {
		char path[32];
		struct stat st;

		snprintf(path, sizeof(path), "/dev/%s", dev_nodes[i]);
		c->dev[i] = open(path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
		if (c->dev[i] < 0 || fstat(c->dev[i], &st) < 0)
			return ward_fail(c->err, errno, "open %s", path);
		if (!S_ISCHR(st.st_mode))
			return ward_fail(c->err, 0, "%s is not a device", path);
	}
	return 0;
}

/* The new root: a tmpfs stacked on "/" of this (private) namespace, so no
 * scratch directory is needed and nothing outlives the namespace. */
static int make_root(struct ward_mounts *c)
{
	const struct ward_mount *r = &c->p->mounts[0];

	c->rootfd = new_tmpfs(c, r->size, r->mode,
			      attrs_of(r->flags | WARD_MNT_F_RW), "/");
	if (c->rootfd < 0)
		return -1;
	if (move_mount(c->rootfd, "", AT_FDCWD, "/", MOVE_MOUNT_F_EMPTY_PATH) <
	    0)
		return ward_fail(c->err, errno, "mount the new root");
	return 0;
}

static int enter_root(struct ward_mounts *c)
{
	struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};

	for (size_t i = 0; i < c->nlate; i++)
		if (mount_setattr(c->late_ro[i], "", AT_EMPTY_PATH, &ro,
				  sizeof(ro)) < 0)
			return ward_fail(c->err, errno,
					 "remount /dev read-only");
	if (mount_setattr(c->rootfd, "", AT_EMPTY_PATH, &ro, sizeof(ro)) < 0)
		return ward_fail(c->err, errno, "remount / read-only");
	/* pivot_root(".", "."): the old root ends up stacked on the new one
	 * and is detached at once; no directory for it is needed. */
	if (fchdir(c->rootfd) < 0 || syscall(SYS_pivot_root, ".", ".") < 0)
		return ward_fail(c->err, errno, "pivot_root");
	if (umount2(".", MNT_DETACH) < 0)
		return ward_fail(c->err, errno, "detach the old root");
	if (chdir("/") < 0)
		return ward_fail(c->err, errno, "chdir /");
	return 0;
}

void ward_mounts_free(struct ward_mounts *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; c->src && i < c->p->nmounts; i++)
		if (c->src[i] >= 0)
			close(c->src[i]);
	for (size_t i = 0; i < NDEV; i++)
		if (c->dev[i] >= 0)
			close(c->dev[i]);
	if (c->rootfd >= 0)
		close(c->rootfd);
	if (c->scratch >= 0)
		close(c->scratch);
	if (c->layer >= 0)
		close(c->layer);
	for (size_t i = 0; i < c->nlate; i++)
		close(c->late_ro[i]);
	free(c->late_ro);
	free(c->filling);
	free(c->src);
	free(c->src_dir);
	free(c->own);
	free(c);
}

struct ward_mounts *ward_mounts_open(const struct ward_launch *l, ward_err *err)
{
	const struct ward_policy *p = l->policy;
	struct ward_mounts *c = calloc(1, sizeof(*c));

	if (!c)
		return ward_fail(err, ENOMEM, "mount table"), NULL;
	*c = (struct ward_mounts){
	    .l = l,
	    .p = p,
	    .rootfd = -1,
	    .scratch = -1,
	    .layer = -1,
	    .dev = {-1, -1, -1, -1, -1, -1},
	    .maxown = 3 * (size_t)p->nmounts + 2,
	    .err = err,
	};
	c->src = calloc(p->nmounts, sizeof(*c->src));
	c->src_dir = calloc(p->nmounts, sizeof(*c->src_dir));
	c->own = calloc(c->maxown, sizeof(*c->own));
	c->late_ro = calloc(p->nmounts, sizeof(*c->late_ro));
	c->filling = calloc(p->nmounts, sizeof(*c->filling));
	if (!c->src || !c->src_dir || !c->own || !c->late_ro || !c->filling) {
		ward_mounts_free(c);
		return ward_fail(err, ENOMEM, "mount table"), NULL;
	}
	for (uint32_t i = 0; i < p->nmounts; i++)
		c->src[i] = -1;
	/* Private first: nothing we mount propagates to the host, nothing
	 * the host mounts later appears inside, and pivot_root needs it. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		ward_fail(err, errno, "make / private");
		ward_mounts_free(c);
		return NULL;
	}
	if (open_sources(c) < 0) {
		ward_mounts_free(c);
		return NULL;
	}
	return c;
}

int ward_mounts_build(struct ward_mounts *c, ward_err *err)
{
	c->err = err;
	if (make_root(c) < 0)
		return -1;
	for (uint32_t i = 1; i < c->p->nmounts; i++)
		if (apply(c, i) < 0)
			return -1;
	if (filled(c) < 0)
		return -1;
	hand_end(c);
	if (scratch_end(c) < 0)
		return -1;
	return enter_root(c);
}
