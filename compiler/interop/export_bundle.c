/* SPDX-License-Identifier: MIT */
/*
 * export_bundle.c: `wardc export --format oci --bundle DIR POLICY --
 * PROGRAM [ARGS]`: an OCI bundle that crun and runc run as it is written
 * (docs/export.md, section 2):
 *
 *   DIR/config.json   export_oci.c's config, with process.args, the slots'
 *                     host paths and root.path "rootfs";
 *   DIR/rootfs/       read-only for the container: a mount point for every
 *                     mount of the config (a directory, or an empty file
 *                     where the bind's source is a file: runtimes do not
 *                     create mount points in a read-only root, and crun
 *                     makes a missing one a directory), and the policy's
 *                     `file`, `symlink` and `dir` entries;
 *   DIR/slots/NAME/   the host directory of each slot not given with
 *                     --slot; a writable one is owned by the host id the
 *                     sandbox user maps to, so that it can write there.
 *
 * Everything is made below one directory fd, component by component with
 * O_NOFOLLOW: a symlink the policy puts in the rootfs is never followed
 * onto the host. A DIR that holds a config.json or a rootfs already is
 * refused: a bundle is written once.
 */
#include "export.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUNDLE_MODE 0755

/* Open the directory at rel (no leading '/') below dirfd, making the
 * missing components (mode 0755) and following no symlink. */
static int open_dirs(int dirfd, const char *rel, ward_err *err)
{
	_cleanup_free_ char *copy = strdup(rel);
	int fd = dup(dirfd);
	char *save = NULL;

	if (!copy || fd < 0) {
		if (fd >= 0)
			close(fd);
		return ward_fail(err, ENOMEM, "bundle: %s", rel);
	}
	for (char *c = strtok_r(copy, "/", &save); c;
	     c = strtok_r(NULL, "/", &save)) {
		int next;

		if (mkdirat(fd, c, BUNDLE_MODE) < 0 && errno != EEXIST) {
			int e = errno;
			close(fd);
			return ward_fail(err, e, "bundle: mkdir %s", rel);
		}
		next = openat(fd, c,
			      O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			int e = errno;
			close(fd);
			return ward_fail(err, e,
					 "bundle: %s (a component "
					 "is not a directory)",
					 rel);
		}
		close(fd);
		fd = next;
	}
	return fd;
}

/* Split "/a/b/c" into the parent "a/b" (in buf) and the leaf "c". */
static const char *split(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;

	while (*path == '/' && n > 0) {
		path++;
		n--;
	}
	if (n >= size)
		n = size - 1;
	memcpy(buf, path, n);
	buf[n] = 0;
	return slash ? slash + 1 : path;
}

/* A mount point at dst: a directory, or an empty file (as_file). */
static int mount_point(int root, const char *dst, bool as_file, ward_err *err)
{
	char parent[PATH_MAX];
	const char *leaf = split(dst, parent, sizeof(parent));
	_cleanup_close_ int dir = -1;
	int fd;

	if (!as_file) {
		fd = open_dirs(root, dst + 1, err);
		if (fd < 0)
			return -1;
		close(fd);
		return 0;
	}
	dir = open_dirs(root, parent, err);
	if (dir < 0)
		return -1;
	fd = openat(dir, leaf, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		    0644);
	if (fd < 0)
		return ward_fail(err, errno, "bundle: mount point %s", dst);
	close(fd);
	return 0;
}

/* The policy's file entry: its content, its mode, owned by root. */
static int write_entry(int root, const struct ward_mount *m, ward_err *err)
{
	char parent[PATH_MAX];
	const char *leaf = split(m->dst, parent, sizeof(parent));
	_cleanup_close_ int dir = open_dirs(root, parent, err);
	_cleanup_close_ int fd = -1;
	uint64_t done = 0;

	if (dir < 0)
		return -1;
	fd = openat(dir, leaf,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return ward_fail(err, errno, "bundle: file %s", m->dst);
	while (done < m->data_len) {
		ssize_t n = write(fd, m->data + done, m->data_len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ward_fail(err, n < 0 ? errno : EIO,
					 "bundle: write %s", m->dst);
		done += (uint64_t)n;
	}
	if (fchmod(fd, m->mode) < 0)
		return ward_fail(err, errno, "bundle: chmod %s", m->dst);
	return 0;
}

static int make_symlink(int root, const struct ward_mount *m, ward_err *err)
{
	char parent[PATH_MAX];
	const char *leaf = split(m->dst, parent, sizeof(parent));
	_cleanup_close_ int dir = open_dirs(root, parent, err);

	if (dir < 0)
		return -1;
	if (symlinkat(m->src, dir, leaf) < 0)
		return ward_fail(err, errno, "bundle: symlink %s", m->dst);
	return 0;
}

static int make_dir(int root, const struct ward_mount *m, ward_err *err)
{
	_cleanup_close_ int fd = open_dirs(root, m->dst + 1, err);
	char proc[64];

	if (fd < 0)
		return -1;
	/* an O_PATH fd takes no fchmod: through its /proc name */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (chmod(proc, m->mode) < 0)
		return ward_fail(err, errno, "bundle: chmod %s", m->dst);
	return 0;
}

/* Whether dst lies below the destination of a mount of the config: what
 * the rootfs holds there is hidden by the mount. */
static const char *hidden_by(const struct doc *mounts, const char *dst)
{
	for (const struct doc *m = mounts->first; m; m = m->next)
		for (const struct doc *f = m->first; f; f = f->next) {
			size_t n;
			if (strcmp(f->key, "destination"))
				continue;
			n = strlen(f->s);
			if (!strncmp(dst, f->s, n) && dst[n] == '/')
				return f->s;
		}
	return NULL;
}

static const char *field(const struct doc *m, const char *key)
{
	for (const struct doc *f = m->first; f; f = f->next)
		if (!strcmp(f->key, key))
			return f->s;
	return "";
}

static const struct doc *member(const struct doc *m, const char *key)
{
	for (const struct doc *f = m->first; f; f = f->next)
		if (!strcmp(f->key, key))
			return f;
	return NULL;
}

static int make_rootfs(int root, const struct ward_policy *pol,
		       const struct doc *mounts, struct ward_notes *notes,
		       ward_err *err)
{
	/* mount points first, then what the policy puts in the root */
	for (const struct doc *m = mounts->first; m; m = m->next) {
		struct stat st;
		bool as_file = !strcmp(field(m, "type"), "bind") &&
			       stat(field(m, "source"), &st) == 0 &&
			       !S_ISDIR(st.st_mode);
		if (mount_point(root, field(m, "destination"), as_file, err) <
		    0)
			return -1;
	}
	for (int pass = 0; pass < 3; pass++)
		for (uint32_t i = 1; i < pol->nmounts; i++) {
			const struct ward_mount *m = &pol->mounts[i];
			const char *under;
			int rc = 0;

			if ((pass == 0 && m->kind != WARD_MNT_DIR) ||
			    (pass == 1 && m->kind != WARD_MNT_FILE) ||
			    (pass == 2 && m->kind != WARD_MNT_SYMLINK))
				continue;
			under = hidden_by(mounts, m->dst);
			if (under) {
				ward_note(
				    notes,
				    "fs: %s is below the mount at %s: the "
				    "rootfs holds it where the container "
				    "does not see it",
				    m->dst, under);
				continue;
			}
			if (pass == 0)
				rc = make_dir(root, m, err);
			else if (pass == 1)
				rc = write_entry(root, m, err);
			else
				rc = make_symlink(root, m, err);
			if (rc < 0)
				return -1;
		}
	return 0;
}

/* Every --slot NAME=PATH names a slot of the policy. */
static int check_slots(const struct ward_policy *pol, const char *const *given,
		       size_t ngiven, ward_err *err)
{
	for (size_t g = 0; g < ngiven; g++) {
		const char *eq = strchr(given[g], '=');
		bool known = false;
		if (!eq || eq == given[g] || !eq[1])
			return ward_fail(err, 0, "--slot %s: give NAME=PATH",
					 given[g]);
		for (uint32_t i = 1; i < pol->nmounts; i++)
			known |= pol->mounts[i].kind == WARD_MNT_SLOT &&
				 strlen(pol->mounts[i].src) ==
				     (size_t)(eq - given[g]) &&
				 !strncmp(pol->mounts[i].src, given[g],
					  (size_t)(eq - given[g]));
		if (!known)
			return ward_fail(err, 0,
					 "--slot %s: the policy has no slot "
					 "of that name",
					 given[g]);
	}
	return 0;
}

/* The slots' host paths: as given ("NAME=PATH", made absolute), else
 * DIR/slots/NAME, made here. */
static int slot_paths(struct ward_pool *p, const struct ward_policy *pol,
		      const char *dir, int dirfd, struct ward_oci_opts *o,
		      const char *const *given, size_t ngiven,
		      struct ward_notes *notes, ward_err *err)
{
	const char **names =
	    ward_pool_array(p, pol->nmounts + 1, sizeof(*names));
	const char **paths =
	    ward_pool_array(p, pol->nmounts + 1, sizeof(*paths));
	size_t n = 0;

	for (uint32_t i = 1; i < pol->nmounts; i++) {
		const struct ward_mount *m = &pol->mounts[i];
		const char *path = NULL;
		size_t len;

		if (m->kind != WARD_MNT_SLOT)
			continue;
		len = strlen(m->src);
		for (size_t g = 0; g < ngiven && !path; g++)
			if (!strncmp(given[g], m->src, len) &&
			    given[g][len] == '=')
				path = given[g] + len + 1;
		if (path) {
			char *abs = realpath(path, NULL);
			if (!abs)
				return ward_fail(err, errno, "--slot %s=%s",
						 m->src, path);
			path = ward_pool_strdup(p, abs);
			free(abs);
		} else {
			_cleanup_close_ int fd = -1;
			char rel[PATH_MAX];

			snprintf(rel, sizeof(rel), "slots/%s", m->src);
			fd = open_dirs(dirfd, rel, err);
			if (fd < 0)
				return -1;
			/* the sandbox user writes a writable one; only root
			 * can give it away */
			if ((m->flags & WARD_MNT_F_RW) && geteuid() != 0)
				ward_note(
				    notes,
				    "bundle: %s/%s is yours: the sandbox "
				    "user (host %u) cannot write it until "
				    "root gives it to that id",
				    dir, rel, WARD_OCI_HOST_ID);
			else if ((m->flags & WARD_MNT_F_RW) &&
				 fchownat(fd, "", WARD_OCI_HOST_ID,
					  WARD_OCI_HOST_ID, AT_EMPTY_PATH) < 0)
				return ward_fail(err, errno,
						 "bundle: chown %s/%s", dir,
						 rel);
			path = ward_pool_printf(p, "%s/%s", dir, rel);
		}
		names[n] = m->src;
		paths[n++] = path;
	}
	o->slot_names = names;
	o->slot_paths = paths;
	o->nslots = n;
	return 0;
}

/* Runtimes reach the bundle as the container's root, host id
 * WARD_OCI_HOST_ROOT_ID: each directory above it must let others search
 * it. */
static void reachable_note(const char *dir, struct ward_notes *notes)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s", dir);
	for (char *slash = strrchr(path, '/'); slash && slash != path;
	     slash = strrchr(path, '/')) {
		struct stat st;
		*slash = 0;
		if (stat(path, &st) == 0 && !(st.st_mode & S_IXOTH)) {
			ward_note(notes,
				  "bundle: %s is not searchable by others: the "
				  "runtime, as the container's root (host %u), "
				  "cannot reach the bundle; move it",
				  path, WARD_OCI_HOST_ROOT_ID);
			return;
		}
	}
}

static int write_config(int dirfd, const struct doc *cfg, ward_err *err)
{
	char *buf = NULL;
	size_t len = 0, done = 0;
	FILE *f = open_memstream(&buf, &len);
	_cleanup_close_ int fd = -1;
	int rc;

	if (!f)
		return ward_fail(err, errno, "bundle: config.json");
	rc = doc_print_json(cfg, f);
	if (fclose(f) != 0 || rc < 0) {
		free(buf);
		return ward_fail(err, ENOMEM, "bundle: config.json");
	}
	fd = openat(dirfd, "config.json",
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	while (fd >= 0 && done < len) {
		ssize_t n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	free(buf);
	if (fd < 0 || done < len || fsync(fd) < 0)
		return ward_fail(err, errno ? errno : EIO,
				 "bundle: write config.json");
	return 0;
}

int ward_export_bundle(struct ward_pool *p, const struct ward_policy *pol,
		       const char *dir, struct ward_oci_opts *o,
		       const char *const *slots, size_t nslots,
		       struct ward_notes *notes, ward_err *err)
{
	_cleanup_close_ int dirfd = -1;
	_cleanup_close_ int root = -1;
	_cleanup_free_ char *abs = NULL;
	const struct doc *cfg;
	const struct doc *mounts;

	if (check_slots(pol, slots, nslots, err) < 0)
		return -2;
	if (mkdir(dir, BUNDLE_MODE) < 0 && errno != EEXIST)
		return ward_fail(err, errno, "bundle: mkdir %s", dir), -2;
	abs = realpath(dir, NULL);
	if (!abs)
		return ward_fail(err, errno, "bundle: %s", dir), -2;
	dirfd = open(abs, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0)
		return ward_fail(err, errno, "bundle: %s", abs), -2;
	if (faccessat(dirfd, "config.json", F_OK, AT_SYMLINK_NOFOLLOW) == 0 ||
	    faccessat(dirfd, "rootfs", F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		return ward_fail(err, EEXIST,
				 "bundle: %s holds a bundle already (a "
				 "config.json or a rootfs): give a new "
				 "directory",
				 abs),
		       -2;
	if (slot_paths(p, pol, abs, dirfd, o, slots, nslots, notes, err) < 0)
		return -2;
	o->bundle = true;
	/* the only failure that is the policy's: it cannot be translated */
	cfg = ward_export_oci(p, pol, o, notes, err);
	if (!cfg)
		return -1;
	mounts = member(cfg, "mounts");
	root = open_dirs(dirfd, "rootfs", err);
	if (root < 0 || make_rootfs(root, pol, mounts, notes, err) < 0)
		return -2;
	reachable_note(abs, notes);
	return write_config(dirfd, cfg, err) < 0 ? -2 : 0;
}
