/* SPDX-License-Identifier: MIT */
/*
 * workspace.c: the per-run workspace (workspace.h).
 */
#include "workspace.h"

#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

void ward_workspace_init(struct ward_workspace *ws)
{
	memset(ws, 0, sizeof(*ws));
	ws->base_fd = ws->fd = -1;
}

void ward_workspace_default_base(bool root, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;

	if (root) {
		snprintf(buf, len, "/run/ward");
		return;
	}
	/* The runtime directory of the session (pam_systemd makes it,
	 * 0700, ours, a tmpfs cleared at logout), when it is what it says. */
	if (xdg && xdg[0] == '/' && lstat(xdg, &st) == 0 &&
	    S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	    (st.st_mode & 0777) == 0700 &&
	    (size_t)snprintf(buf, len, "%s/ward", xdg) < len)
		return;
	snprintf(buf, len, "/tmp/ward-%u", (unsigned)geteuid());
}

/* What backs the base, for the report: the workspace holds the inputs'
 * copies and what the courier copies back, never more than the slots'
 * sizes (the sandbox writes into tmpfs mounts of its own). */
static void fs_name(int fd, char *buf, size_t len)
{
	static const struct {
		long magic;
		const char *name;
	} known[] = {
	    {0x01021994, "tmpfs"}, {0xef53, "ext4"},	    {0x58465342, "xfs"},
	    {0x9123683e, "btrfs"}, {0x794c7630, "overlay"}, {0x2fc12fc1, "zfs"},
	};
	struct statfs s;

	snprintf(buf, len, "unknown");
	if (fstatfs(fd, &s) < 0)
		return;
	for (size_t i = 0; i < ARRAY_LEN(known); i++)
		if ((long)s.f_type == known[i].magic) {
			snprintf(buf, len, "%s", known[i].name);
			return;
		}
	snprintf(buf, len, "0x%lx", (unsigned long)s.f_type);
}

/* The base: ours, a real directory, writable by nobody else, so that no
 * one can swap a workspace for something of theirs. */
static int open_base(struct ward_workspace *ws, const char *base, ward_err *err)
{
	bool root = geteuid() == 0;
	struct stat st;

	if (base[0] != '/')
		return ward_fail(
		    err, 0, "--workspace-base %s: not an absolute path", base);
	if (strlen(base) >= sizeof(ws->base) - 40)
		return ward_fail(err, ENAMETOOLONG, "--workspace-base %s",
				 base);
	if (mkdir(base, root ? 0711 : 0700) < 0 && errno != EEXIST)
		return ward_fail(err, errno, "make the workspace base %s",
				 base);
	ws->base_fd =
	    open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (ws->base_fd < 0)
		return ward_fail(err, errno,
				 "open the workspace base %s (a symlink is "
				 "not followed)",
				 base);
	if (fstat(ws->base_fd, &st) < 0)
		return ward_fail(err, errno, "stat %s", base);
	if (st.st_uid != geteuid())
		return ward_fail(err, 0,
				 "the workspace base %s belongs to uid %u, not "
				 "to us: choose another with --workspace-base",
				 base, (unsigned)st.st_uid);
	if (st.st_mode & 022)
		return ward_fail(err, 0,
				 "the workspace base %s is writable by others "
				 "(mode %04o): make it 0711 or 0700",
				 base, (unsigned)(st.st_mode & 07777));
	snprintf(ws->base, sizeof(ws->base), "%s", base);
	fs_name(ws->base_fd, ws->base_fs, sizeof(ws->base_fs));
	return 0;
}

/* -------------------------------------------------------------- reclaim */

/* A name ward_random_name made with prefix: prefix and 16 hex digits. */
static bool ws_name(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n) != 0 || strlen(name + n) != 16)
		return false;
	return strspn(name + n, "0123456789abcdef") == 16;
}

/* name, a directory of the base, if no ward holds it: opened and locked. */
static int lock_stale(int base_fd, const char *name, bool fresh_ok)
{
	_cleanup_close_ int fd = -1;
	struct timespec now;
	struct stat st;

	fd = ward_open_beneath(base_fd, name, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_uid != geteuid())
		return -1;
	/* A .new-ws-... is locked a moment after it is made: only an old
	 * one is surely a dead ward's. */
	clock_gettime(CLOCK_REALTIME, &now);
	if (!fresh_ok && now.tv_sec - st.st_mtim.tv_sec < WARD_WS_NEW_STALE_SEC)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		return -1; /* alive (EWOULDBLOCK), or cannot tell */
	if (faccessat(fd, WARD_WS_KEEP_MARK, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		return -1;
	return steal_fd(&fd);
}

size_t ward_workspace_stale(int base_fd, struct ward_stale_ws *out, size_t max)
{
	/* Live workspaces are candidates too (locked, skipped): look at more
	 * than we may take. */
	char names[WARD_WS_RECLAIM_SCAN][32];
	size_t n = 0, done = 0;
	_cleanup_close_ int dfd = -1;
	DIR *d;
	struct dirent *e;

	/* The names first, the locks with the stream closed. */
	dfd = openat(base_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || !(d = fdopendir(dfd)))
		return 0;
	dfd = -1; /* the stream owns it */
	while (n < WARD_WS_RECLAIM_SCAN && (e = readdir(d))) {
		if ((ws_name(e->d_name, WARD_WS_ID_PREFIX) ||
		     ws_name(e->d_name, WARD_WS_NEW_PREFIX)) &&
		    (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN))
			snprintf(names[n++], sizeof(names[0]), "%.31s",
				 e->d_name);
	}
	closedir(d);
	for (size_t i = 0; i < n && done < max; i++) {
		int fd = lock_stale(base_fd, names[i], names[i][0] != '.');
		if (fd < 0)
			continue;
		out[done].fd = fd;
		memcpy(out[done].name, names[i], sizeof(out[done].name));
		done++;
	}
	return done;
}

/* --------------------------------------------------------------- create */

int ward_workspace_create(struct ward_workspace *ws, const char *base,
			  uid_t uid, gid_t gid, bool keep, ward_err *err)
{
	char tmp[40];

	ward_workspace_init(ws);
	ws->uid = uid;
	ws->gid = gid;
	ws->keep = keep;
	if (open_base(ws, base, err) < 0)
		goto fail;
	if (ward_random_name(ws->id, sizeof(ws->id), WARD_WS_ID_PREFIX) < 0) {
		ward_fail(err, errno, "a workspace id");
		goto fail;
	}
	/* Made under a name no reclaimer takes for a minute, locked, then
	 * given its name: every ws-... is locked or a dead ward's. */
	snprintf(tmp, sizeof(tmp), ".new-%s", ws->id);
	if (mkdirat(ws->base_fd, tmp, 0700) < 0) {
		ward_fail(err, errno, "make the workspace %s/%s", ws->base,
			  tmp);
		ws->id[0] = '\0';
		goto fail;
	}
	/* (open_base keeps the base 40 bytes shorter than path) */
	if ((size_t)snprintf(ws->path, sizeof(ws->path), "%s/%.31s", ws->base,
			     ws->id) >= sizeof(ws->path)) {
		ward_fail(err, ENAMETOOLONG, "%s", ws->base);
		goto fail_tmp;
	}
	clock_gettime(CLOCK_REALTIME, &ws->created);
	ws->fd = ward_open_beneath(ws->base_fd, tmp, O_RDONLY | O_DIRECTORY, 0);
	/* Exactly this mode whatever the umask. Root mode: 0711, ours. init
	 * opens the slot directories below it before its id maps are
	 * written, when neither the sandbox's uid nor root's capabilities
	 * reach a 0700 directory of another owner; the name (64 random
	 * bits) is not listed anywhere (the base is 0711 too). Rootless:
	 * 0700, the caller's, which init is. */
	if (ws->fd < 0 || fchmod(ws->fd, geteuid() == 0 ? 0711 : 0700) < 0 ||
	    flock(ws->fd, LOCK_EX | LOCK_NB) < 0) {
		ward_fail(err, errno, "set up the workspace %s", ws->path);
		goto fail_tmp;
	}
	if (keep) {
		_cleanup_close_ int m = openat(
		    ws->fd, WARD_WS_KEEP_MARK,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (m < 0) {
			ward_fail(err, errno, "mark the workspace %s kept",
				  ws->path);
			goto fail_tmp;
		}
	}
	if (renameat(ws->base_fd, tmp, ws->base_fd, ws->id) < 0) {
		ward_fail(err, errno, "name the workspace %s", ws->path);
		goto fail_tmp;
	}
	return 0;
fail_tmp:
	/* Not named yet: remove it under its temporary name. */
	if (ws->fd >= 0)
		unlinkat(ws->fd, WARD_WS_KEEP_MARK, 0);
	unlinkat(ws->base_fd, tmp, AT_REMOVEDIR);
	ws->id[0] = '\0';
fail:;
	ward_err ignored;
	ward_workspace_remove(ws, &ignored);
	memset(&ws->destroyed, 0, sizeof(ws->destroyed));
	return -1;
}

int ward_workspace_slot(struct ward_workspace *ws, const char *name,
			bool writable, char *path, size_t len, ward_err *err)
{
	_cleanup_close_ int fd = -1;

	if (ws->fd < 0)
		return ward_fail(err, EBADF, "workspace slot %s", name);
	if (!*name || strchr(name, '/') || name[0] == '.')
		return ward_fail(err, EINVAL, "workspace slot %s", name);
	if (mkdirat(ws->fd, name, 0700) < 0)
		return ward_fail(err, errno, "make %s/%s", ws->path, name);
	fd = ward_open_beneath(ws->fd, name, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0 || fchmod(fd, writable ? 0700 : 0755) < 0 ||
	    (geteuid() == 0 && fchown(fd, ws->uid, ws->gid) < 0))
		return ward_fail(err, errno, "set up %s/%s", ws->path, name);
	if ((size_t)snprintf(path, len, "%s/%s", ws->path, name) >= len)
		return ward_fail(err, ENAMETOOLONG, "%s/%s", ws->path, name);
	return 0;
}

/* -------------------------------------------------------------- remove */

size_t ward_workspace_entries(int ws_fd, char (*names)[NAME_MAX + 1],
			      size_t max)
{
	_cleanup_close_ int dfd = -1;
	size_t n = 0;
	DIR *d;
	struct dirent *e;

	dfd = openat(ws_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || !(d = fdopendir(dfd)))
		return 0;
	dfd = -1; /* the stream owns it */
	while ((e = readdir(d)) && n < max)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			snprintf(names[n++], NAME_MAX + 1, "%s", e->d_name);
	closedir(d);
	return n;
}

/* Each entry the courier emptied, then the workspace itself: never a
 * descent into what the sandbox wrote (an entry that is not empty stays,
 * and so does the workspace, for a later ward to reclaim). */
static int remove_entries(struct ward_workspace *ws, ward_err *err)
{
	char names[WARD_WS_SLOTS_MAX][NAME_MAX + 1];
	size_t n = ward_workspace_entries(ws->fd, names, WARD_WS_SLOTS_MAX);
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		if (unlinkat(ws->fd, names[i], AT_REMOVEDIR) == 0 ||
		    (errno == ENOTDIR && unlinkat(ws->fd, names[i], 0) == 0)) {
			ws->rm.removed++;
			continue;
		}
		if (rc == 0)
			rc = ward_fail(err, errno, "remove %s/%s", ws->path,
				       names[i]);
	}
	return rc;
}

int ward_workspace_remove(struct ward_workspace *ws, ward_err *err)
{
	int rc = 0;

	if (ws->fd >= 0 && !ws->keep) {
		if (remove_entries(ws, err) < 0)
			rc = -1;
		else if (unlinkat(ws->base_fd, ws->id, AT_REMOVEDIR) < 0)
			rc = ward_fail(err, errno, "remove the workspace %s",
				       ws->path);
		else
			ws->removed = true;
		ws->rm.removed += ws->removed;
	} else if (ws->fd < 0 && ws->base_fd >= 0 && ws->id[0] && !ws->keep) {
		/* made, but not opened: empty */
		if (unlinkat(ws->base_fd, ws->id, AT_REMOVEDIR) == 0)
			ws->removed = true;
	}
	if (rc < 0)
		ward_err_str(err, ws->error, sizeof(ws->error));
	if (ws->fd >= 0 || ws->base_fd >= 0)
		clock_gettime(CLOCK_REALTIME, &ws->destroyed);
	if (ws->fd >= 0)
		close(ws->fd);
	if (ws->base_fd >= 0)
		close(ws->base_fd);
	ws->fd = ws->base_fd = -1;
	return rc;
}
