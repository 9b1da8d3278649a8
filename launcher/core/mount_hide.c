/* SPDX-License-Identifier: MIT */
/*
 * mount_hide.c: see mount_hide.h.
 *
 * /proc. A sandbox's own proc instance still shows the host's kernel: its
 * command line, kallsyms' names, the boot id, timers and scheduler state of
 * every host task (timer_list, sched_debug), keys (keys, key-users). The
 * list of what is masked is moby's, and more (common/proc_mask.h). Masks
 * are binds of an empty file or directory of a tmpfs of ward's own,
 * read-only, made after the proc mount (the sandbox's processes cannot
 * unmount them: that needs CAP_SYS_ADMIN in their namespace, which they
 * do not have, and they cannot mount a fresh proc either, since a masked
 * proc is no "fully visible" one).
 *
 * mountinfo. The fourth field of /proc/PID/mountinfo is a mount's root:
 * the path of its root dentry from its file system's root. For a bind of
 * a host directory, open_tree(OPEN_TREE_CLONE) and move_mount included, of
 * a clone of a clone too (measured on Linux 6.18), that is the directory's
 * host path ("/home/alice/data /input ro,..."): no mount API changes it,
 * because it is the dentry's path, not the mount's. An overlay mount has a
 * root of its own ("/"), and since Linux 6.7 its layers can be given as
 * descriptors ("lowerdir+"), which it names by d_path: for the root of a
 * detached mount, "/". So a read-only directory slot is mounted as an
 * overlay of a detached copy of itself over an empty directory, and
 * mountinfo shows "/ /input ro,... - overlay none ro,lowerdir+=/,
 * lowerdir+=/d". The price: the overlay caches lookups, so a name the
 * caller adds to the host directory during the run may not appear inside
 * (overlayfs leaves changes under a mounted overlay undefined; it never
 * writes to a layer of a read-only overlay). A writable slot cannot be: an
 * overlay writes into its upper layer through a work directory on the same
 * mount, which ward would have to create beside the caller's directory.
 * It is a tmpfs of its own instead (do_rw_slot, mounts.c: issue 15's size
 * bound), filled and copied back by the courier, and shows "/" as well.
 */
#include "mount_hide.h"

#include "proc_mask.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define ATTR_MASK                                                              \
	(MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |            \
	 MOUNT_ATTR_NOEXEC)

static int under(int dirfd, const char *path, uint64_t flags)
{
	struct open_how how = {
	    .flags = flags | O_CLOEXEC,
	    .resolve =
		RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

int ward_hide_scratch(ward_err *err)
{
	_cleanup_close_ int fs = fsopen("tmpfs", FSOPEN_CLOEXEC), mnt = -1;
	_cleanup_close_ int f = -1;
	struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};

	if (fs < 0 || fsconfig(fs, FSCONFIG_SET_STRING, "size", "4k", 0) < 0 ||
	    fsconfig(fs, FSCONFIG_SET_STRING, "mode", "0555", 0) < 0 ||
	    fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return ward_fail(err, errno, "the masks' tmpfs");
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, ATTR_MASK & ~MOUNT_ATTR_RDONLY);
	if (mnt < 0)
		return ward_fail(err, errno, "fsmount the masks' tmpfs");
	f = openat(mnt, "f", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0444);
	if (f < 0 || mkdirat(mnt, "d", 0555) < 0)
		return ward_fail(err, errno, "the masks' file and directory");
	close(steal_fd(&f)); /* open for writing, it would keep the mount rw */
	if (mount_setattr(mnt, "", AT_EMPTY_PATH, &ro, sizeof(ro)) < 0)
		return ward_fail(err, errno, "the masks' tmpfs read-only");
	return steal_fd(&mnt);
}

/* Bind what (a path in the mount from, "" for its root) over at, a
 * descriptor of the place, with attrs (0: the flags of from, which a clone
 * keeps). */
static int bind_over(int from, const char *what, int at, unsigned recursive,
		     unsigned attrs, const char *name, ward_err *err)
{
	struct mount_attr a = {.attr_set = attrs};
	_cleanup_close_ int t =
	    open_tree(from, what,
		      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | recursive |
			  (what[0] ? 0 : AT_EMPTY_PATH));

	if (t < 0)
		return ward_fail(err, errno, "open_tree for %s", name);
	if (attrs &&
	    mount_setattr(t, "", AT_EMPTY_PATH | recursive, &a, sizeof(a)) < 0)
		return ward_fail(err, errno, "mount_setattr for %s", name);
	if (move_mount(t, "", at, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return ward_fail(err, errno, "mount over %s", name);
	return 0;
}

/* path under the proc mount, or -1 with errno ENOENT if this kernel has
 * none. */
static int place(int procmnt, const char *path, const char *dst, ward_err *err)
{
	int fd = under(procmnt, path, O_PATH | O_NOFOLLOW);

	if (fd < 0 && errno != ENOENT)
		ward_fail(err, errno, "open %s/%s", dst, path);
	return fd;
}

int ward_proc_mask(int procmnt, int scratch, const char *dst, ward_err *err)
{
	/* The masks are clones of the masks' tmpfs, whose mount has
	 * ATTR_MASK already (ward_hide_scratch): a clone keeps its source's
	 * mount flags, so none is set again (one call less per mask). */
	/* Read-only first: the masks below /proc/sys go on top of its
	 * read-only copy (a bind made later of the same place would hide
	 * them). */
	for (size_t i = 0; i < ARRAY_LEN(ward_proc_readonly); i++) {
		const char *p = ward_proc_readonly[i];
		_cleanup_close_ int at = place(procmnt, p, dst, err);

		if (at < 0 && errno == ENOENT)
			continue;
		if (at < 0 || bind_over(procmnt, p, at, AT_RECURSIVE, ATTR_MASK,
					p, err) < 0)
			return -1;
	}
	for (size_t i = 0; i < ARRAY_LEN(ward_proc_masked_files); i++) {
		const char *p = ward_proc_masked_files[i];
		_cleanup_close_ int at = place(procmnt, p, dst, err);

		if (at < 0 && errno == ENOENT)
			continue;
		if (at < 0 || bind_over(scratch, "f", at, 0, 0, p, err) < 0)
			return -1;
	}
	for (size_t i = 0; i < ARRAY_LEN(ward_proc_masked_dirs); i++) {
		const char *p = ward_proc_masked_dirs[i];
		_cleanup_close_ int at = place(procmnt, p, dst, err);

		if (at < 0 && errno == ENOENT)
			continue;
		if (at < 0 || bind_over(scratch, "d", at, 0, 0, p, err) < 0)
			return -1;
	}
	return 0;
}

int ward_hide_slot(int src, int scratch, unsigned attrs, const char *dst,
		   ward_err *err)
{
	_cleanup_close_ int fs = fsopen("overlay", FSOPEN_CLOEXEC);
	_cleanup_close_ int lower = -1, empty = -1;
	int mnt;

	if (fs < 0)
		return errno == ENODEV
			   ? -2
			   : ward_fail(err, errno, "fsopen overlay for %s",
				       dst);
	/* A detached copy: its root is the slot, and d_path of it is "/".
	 * Without its submounts: an overlay layer does not cross mounts. */
	lower = open_tree(src, "",
			  OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (lower < 0)
		return ward_fail(err, errno, "open_tree for %s", dst);
	empty = openat(scratch, "d", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (empty < 0)
		return ward_fail(err, errno, "the empty layer for %s", dst);
	/* EINVAL: no "lowerdir+" (before 6.7); EOPNOTSUPP: an overlayfs
	 * without the new mount API takes no descriptors (before 6.5). */
	if (fsconfig(fs, FSCONFIG_SET_FD, "lowerdir+", NULL, lower) < 0)
		return errno == EINVAL || errno == EOPNOTSUPP
			   ? -2
			   : ward_fail(err, errno, "overlay layer for %s", dst);
	if (fsconfig(fs, FSCONFIG_SET_FD, "lowerdir+", NULL, empty) < 0 ||
	    fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return ward_fail(err, errno, "overlay for %s", dst);
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, attrs | MOUNT_ATTR_RDONLY);
	if (mnt < 0)
		return ward_fail(err, errno, "fsmount overlay for %s", dst);
	return mnt;
}
