/* SPDX-License-Identifier: MIT */
/* Unit tests of the per-run workspace (launcher/core/workspace.c), its
 * removal in two halves -- emptied by an unprivileged child with the ids
 * of what is in it (launcher/unprivileged/workspace_empty.c, safefs.c:
 * ward_rmtree), then its empty directories removed by the caller -- against
 * what a sandbox can leave behind, the reclaim of dead wards' workspaces
 * (launcher/supervisor/reclaim.c), --input copies (the courier's,
 * launcher/unprivileged/inputs.c), and the file diff of a
 * slot (launcher/unprivileged/fsdiff.c). Trees are made the way a sandbox would
 * make them; every test checks, from outside, that the workspace is gone and
 * that what the tree pointed at is intact. Rootless mode is tested in a child
 * that drops to uid 65534. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "drop.h"
#include "fsdiff.h"
#include "inputs.h"
#include "reclaim.h"
#include "safefs.h"
#include "sha256.h"
#include "workspace.h"
#include "workspace_empty.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOBODY 65534

struct t {
	char top[64];	   /* a private directory for the test */
	char base[128];	   /* the workspace base */
	char outside[128]; /* what the sandbox's links point at */
};

static void put(const char *path, const char *data)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, strlen(data)), (ssize_t)strlen(data));
	close(fd);
}

static int setup(void **state)
{
	struct t *t = calloc(1, sizeof(*t));
	char p[256];

	snprintf(t->top, sizeof(t->top), "/tmp/ward-wstest.XXXXXX");
	assert_non_null(mkdtemp(t->top));
	assert_int_equal(chmod(t->top, 0755), 0);
	snprintf(t->base, sizeof(t->base), "%s/base", t->top);
	snprintf(t->outside, sizeof(t->outside), "%s/outside", t->top);
	assert_int_equal(mkdir(t->outside, 0755), 0);
	snprintf(p, sizeof(p), "%s/keep.txt", t->outside);
	put(p, "do not remove\n");
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct t *t = *state;
	int tmp = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ward_err err;

	assert_int_equal(ward_rmtree(tmp, t->top + 5, NULL, &err), 0);
	close(tmp);
	free(t);
	return 0;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void outside_intact(struct t *t)
{
	char p[256], buf[64] = "";
	struct stat st;
	int fd;

	snprintf(p, sizeof(p), "%s/keep.txt", t->outside);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_nlink, 1); /* the hard link went, not it */
	fd = open(p, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 14);
	close(fd);
	assert_string_equal(buf, "do not remove\n");
	assert_int_equal(count_entries(t->outside), 1);
}

/* What a sandbox could leave in a slot it writes (dirfd), as the uid it
 * runs as: every trick against a remover. */
static void hostile_tree(struct t *t, int dirfd, int levels)
{
	char p[256];
	int fd, deep;

	snprintf(p, sizeof(p), "%s/keep.txt", t->outside);
	assert_int_equal(symlinkat(p, dirfd, "link-to-file"), 0);
	assert_int_equal(symlinkat(t->outside, dirfd, "link-to-dir"), 0);
	assert_int_equal(symlinkat("../../../../../../..", dirfd, "up"), 0);
	/* a hard link only where the kernel allows it (as the owner) */
	if (geteuid() == 0 || geteuid() == NOBODY)
		(void)linkat(AT_FDCWD, p, dirfd, "hard-link", 0);
	assert_int_equal(mkfifoat(dirfd, "fifo", 0600), 0);
	if (geteuid() == 0)
		assert_int_equal(
		    mknodat(dirfd, "null", S_IFCHR | 0666, makedev(1, 3)), 0);
	/* a directory without any permission, with files inside */
	assert_int_equal(mkdirat(dirfd, "locked", 0700), 0);
	fd = openat(dirfd, "locked", O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(mkdirat(fd, "inner", 0700), 0);
	close(openat(fd, "inner/f", O_WRONLY | O_CREAT, 0));
	close(openat(fd, "f000", O_WRONLY | O_CREAT, 0));
	assert_int_equal(fchmodat(fd, "inner", 0, 0), 0);
	close(fd);
	assert_int_equal(fchmodat(dirfd, "locked", 0, 0), 0);
	/* read-only and search-only directories */
	assert_int_equal(mkdirat(dirfd, "ro", 0700), 0);
	close(openat(dirfd, "ro/x", O_WRONLY | O_CREAT, 0644));
	assert_int_equal(fchmodat(dirfd, "ro", 0500, 0), 0);
	/* deep nesting, made through descriptors: no path could name it */
	assert_int_equal(mkdirat(dirfd, "deep", 0700), 0);
	deep = openat(dirfd, "deep", O_RDONLY | O_DIRECTORY);
	for (int i = 0; i < levels; i++) {
		assert_int_equal(mkdirat(deep, "d", 0700), 0);
		int next = openat(deep, "d", O_RDONLY | O_DIRECTORY);
		assert_true(next >= 0);
		close(deep);
		deep = next;
	}
	assert_int_equal(symlinkat(t->outside, deep, "bottom-link"), 0);
	close(openat(deep, "bottom", O_WRONLY | O_CREAT, 0));
	close(deep);
}

/* ------------------------------------------------------------ lifecycle */

/* What ward does at the end of a run: the courier (a child with the
 * workspace's ids and no privilege) empties it, then the supervisor (this
 * process) removes its empty directories. */
static int ward_workspace_destroy(struct ward_workspace *ws, ward_err *err)
{
	int status;
	pid_t pid;

	if (ws->fd >= 0 && !ws->keep) {
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct ward_drop d = {.change_ids = geteuid() == 0,
					      .uid = ws->uid,
					      .gid = ws->gid,
					      .parent = getppid()};
			struct ward_rm_stats rm = {0};
			ward_err e;

			if (ward_drop_privileges(&d, &e) < 0 ||
			    ward_workspace_empty(ws->fd, &rm, &e) < 0)
				_exit(1);
			/* the count comes back as the exit status */
			_exit(rm.chmodded > 100 ? 100 : 2 + (int)rm.chmodded);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		if (WEXITSTATUS(status) == 1)
			return ward_fail(err, 0, "emptying failed");
		ws->rm.chmodded += (uint64_t)(WEXITSTATUS(status) - 2);
	}
	return ward_workspace_remove(ws, err);
}

static void create_and_destroy(void **state)
{
	struct t *t = *state;
	struct ward_workspace ws;
	char rw[PATH_MAX], ro[PATH_MAX], *json;
	struct stat st;
	size_t len;
	ward_err err;
	FILE *f;

	if (geteuid() != 0) {
		skip();
		return;
	}
	assert_int_equal(
	    ward_workspace_create(&ws, t->base, NOBODY, NOBODY, false, &err),
	    0);
	assert_int_equal(strncmp(ws.id, "ws-", 3), 0);
	assert_int_equal(strlen(ws.id), 3 + 16);
	assert_int_equal(stat(t->base, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0711);
	assert_int_equal(lstat(ws.path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* root mode: search only for the others (init, before its maps) */
	assert_int_equal(st.st_mode & 07777, 0711);
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(
	    ward_workspace_slot(&ws, "output", true, rw, sizeof(rw), &err), 0);
	assert_int_equal(stat(rw, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(st.st_uid, NOBODY);
	assert_int_equal(
	    ward_workspace_slot(&ws, "input", false, ro, sizeof(ro), &err), 0);
	assert_int_equal(stat(ro, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	/* the unprivileged courier removes it: its ids own everything */
	assert_int_equal(st.st_uid, NOBODY);
	/* a second slot of the same name is an error, not a reuse */
	assert_int_equal(
	    ward_workspace_slot(&ws, "output", true, rw, sizeof(rw), &err), -1);
	assert_int_equal(err.code, EEXIST);

	assert_int_equal(ward_workspace_destroy(&ws, &err), 0);
	assert_true(ws.removed);
	assert_int_equal(count_entries(t->base), 0);
	assert_true(ws.created.tv_sec > 0);
	assert_true(ws.destroyed.tv_sec >= ws.created.tv_sec);
	/* again: harmless */
	assert_int_equal(ward_workspace_destroy(&ws, &err), 0);

	f = open_memstream(&json, &len);
	ward_workspace_json(f, &ws);
	fclose(f);
	assert_non_null(strstr(json, ws.id));
	assert_non_null(strstr(json, "\"kept\":false,\"removed\":true"));
	assert_null(strstr(json, "\"destroyed\":null"));
	free(json);
}

/* The ids a workspace of the test gets: the sandbox's are never root's. */
static uid_t own_uid(void)
{
	return geteuid() == 0 ? NOBODY : geteuid();
}

static gid_t own_gid(void)
{
	return geteuid() == 0 ? NOBODY : getegid();
}

/* A hostile tree made as the sandbox would: with the workspace's ids. */
static void hostile_tree_as_sandbox(struct t *t, int dirfd, int levels)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 && (setgroups(0, NULL) < 0 ||
				       setresgid(NOBODY, NOBODY, NOBODY) ||
				       setresuid(NOBODY, NOBODY, NOBODY)))
			_exit(1);
		hostile_tree(t, dirfd, levels);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void destroys_a_hostile_tree(void **state)
{
	struct t *t = *state;
	struct ward_workspace ws;
	char rw[PATH_MAX];
	ward_err err;
	int fd;

	if (geteuid() != 0) {
		skip();
		return;
	}
	assert_int_equal(
	    ward_workspace_create(&ws, t->base, NOBODY, NOBODY, false, &err),
	    0);
	assert_int_equal(
	    ward_workspace_slot(&ws, "output", true, rw, sizeof(rw), &err), 0);
	fd = open(rw, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	hostile_tree_as_sandbox(t, fd, 3000);
	close(fd);
	/* and the slot itself made unusable */
	assert_int_equal(chmod(rw, 0), 0);
	assert_int_equal(ward_workspace_destroy(&ws, &err), 0);
	assert_true(ws.removed);
	assert_int_equal(count_entries(t->base), 0);
	outside_intact(t);
}

/* Rootless: the sandbox's files are the caller's; a directory it made
 * 0000 must be opened up (chmod through the inode) before it can go. */
static void destroys_rootless(void **state)
{
	struct t *t = *state;
	char home[160];
	pid_t pid;
	int status;

	if (geteuid() != 0) {
		skip();
		return;
	}
	snprintf(home, sizeof(home), "%s/home", t->top);
	assert_int_equal(mkdir(home, 0755), 0);
	assert_int_equal(chown(home, NOBODY, NOBODY), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct ward_workspace ws;
		char base[200], rw[PATH_MAX];
		ward_err err;
		int fd;

		if (setgroups(0, NULL) < 0 ||
		    setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY) || geteuid() != NOBODY)
			_exit(10);
		snprintf(base, sizeof(base), "%s/base", home);
		if (ward_workspace_create(&ws, base, NOBODY, NOBODY, false,
					  &err) < 0)
			_exit(11);
		if (ward_workspace_slot(&ws, "output", true, rw, sizeof(rw),
					&err) < 0)
			_exit(12);
		fd = open(rw, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		hostile_tree(t, fd, 200);
		close(fd);
		if (chmod(rw, 0) < 0)
			_exit(13);
		if (ward_workspace_destroy(&ws, &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			_exit(14);
		}
		if (!ws.removed || ws.rm.chmodded < 3)
			_exit(15);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	char base[200];
	snprintf(base, sizeof(base), "%s/base", home);
	assert_int_equal(count_entries(base), 0);
	outside_intact(t);
}

static void keep_workspace(void **state)
{
	struct t *t = *state;
	struct ward_workspace ws;
	char rw[PATH_MAX], *json;
	ward_err err;
	size_t len;
	FILE *f;

	assert_int_equal(ward_workspace_create(&ws, t->base, own_uid(),
					       own_gid(), true, &err),
			 0);
	assert_true(ws.keep);
	assert_int_equal(
	    ward_workspace_slot(&ws, "output", true, rw, sizeof(rw), &err), 0);
	assert_int_equal(ward_workspace_destroy(&ws, &err), 0);
	assert_false(ws.removed);
	assert_int_equal(access(rw, F_OK), 0);
	f = open_memstream(&json, &len);
	ward_workspace_json(f, &ws);
	fclose(f);
	assert_non_null(strstr(json, "\"destroyed\":null,\"kept\":true"));
	free(json);
}

/* A ward killed before it destroyed its workspace (its descriptors
 * closed by the kernel, nothing else done). */
static void die_without_destroy(struct ward_workspace *ws)
{
	close(ws->fd);
	close(ws->base_fd);
}

static void reclaims_dead_workspaces(void **state)
{
	struct t *t = *state;
	struct ward_workspace dead, kept, live, next;
	char rw[PATH_MAX], p[PATH_MAX];
	struct timespec old[2];
	ward_err err;
	int fd;

	/* dead: a hostile tree left in a slot; kept: --keep-workspace */
	assert_int_equal(ward_workspace_create(&dead, t->base, own_uid(),
					       own_gid(), false, &err),
			 0);
	assert_int_equal(
	    ward_workspace_slot(&dead, "output", true, rw, sizeof(rw), &err),
	    0);
	fd = open(rw, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	hostile_tree_as_sandbox(t, fd, 40);
	close(fd);
	die_without_destroy(&dead);
	assert_int_equal(ward_workspace_create(&kept, t->base, own_uid(),
					       own_gid(), true, &err),
			 0);
	kept.reclaimed = ward_reclaim(kept.base_fd, geteuid() == 0);
	assert_int_equal(kept.reclaimed, 1); /* dead, already */
	assert_int_equal(access(dead.path, F_OK), -1);
	die_without_destroy(&kept);
	assert_int_equal(ward_workspace_create(&live, t->base, own_uid(),
					       own_gid(), false, &err),
			 0);
	live.reclaimed = ward_reclaim(live.base_fd, geteuid() == 0);
	assert_int_equal(live.reclaimed, 0); /* not the kept one */

	/* a workspace being made by a ward that died a minute ago, one
	 * being made now, a symlink and a name ward never makes */
	snprintf(p, sizeof(p), "%s/.new-ws-00112233445566ff", t->base);
	assert_int_equal(mkdir(p, 0700), 0);
	old[0].tv_sec = old[1].tv_sec = time(NULL) - 2 * WARD_WS_NEW_STALE_SEC;
	old[0].tv_nsec = old[1].tv_nsec = 0;
	assert_int_equal(utimensat(AT_FDCWD, p, old, 0), 0);
	snprintf(p, sizeof(p), "%s/.new-ws-aabbccddeeff0011", t->base);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/ws-0123456789abcdef", t->base);
	assert_int_equal(symlink(t->outside, p), 0);
	snprintf(p, sizeof(p), "%s/ws-notours", t->base);
	assert_int_equal(mkdir(p, 0700), 0);

	assert_int_equal(ward_workspace_create(&next, t->base, own_uid(),
					       own_gid(), false, &err),
			 0);
	next.reclaimed = ward_reclaim(next.base_fd, geteuid() == 0);
	/* only the stale .new-ws-: live is locked, kept is marked */
	assert_int_equal(next.reclaimed, 1);
	assert_int_equal(access(live.path, F_OK), 0);
	assert_int_equal(access(kept.path, F_OK), 0);
	snprintf(p, sizeof(p), "%s/.new-ws-00112233445566ff", t->base);
	assert_int_equal(access(p, F_OK), -1);
	snprintf(p, sizeof(p), "%s/.new-ws-aabbccddeeff0011", t->base);
	assert_int_equal(access(p, F_OK), 0);
	snprintf(p, sizeof(p), "%s/ws-notours", t->base);
	assert_int_equal(access(p, F_OK), 0);
	outside_intact(t);

	/* once live's ward is gone, the next one takes it */
	die_without_destroy(&live);
	assert_int_equal(ward_reclaim(next.base_fd, geteuid() == 0), 1);
	assert_int_equal(access(live.path, F_OK), -1);
	assert_int_equal(ward_workspace_destroy(&next, &err), 0);
	outside_intact(t);
}

static void refuses_a_bad_base(void **state)
{
	struct t *t = *state;
	struct ward_workspace ws;
	char p[256];
	ward_err err;

	/* relative */
	assert_int_equal(
	    ward_workspace_create(&ws, "rel/base", 0, 0, false, &err), -1);
	/* a symlink to a directory of ours is not followed */
	snprintf(p, sizeof(p), "%s/link", t->top);
	assert_int_equal(symlink(t->outside, p), 0);
	assert_int_equal(ward_workspace_create(&ws, p, 0, 0, false, &err), -1);
	assert_true(err.code == ELOOP || err.code == ENOTDIR);
	/* writable by others */
	snprintf(p, sizeof(p), "%s/open", t->top);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(chmod(p, 0777), 0);
	assert_int_equal(ward_workspace_create(&ws, p, 0, 0, false, &err), -1);
	assert_non_null(strstr(err.msg, "writable by others"));
	/* someone else's */
	if (geteuid() == 0) {
		snprintf(p, sizeof(p), "%s/theirs", t->top);
		assert_int_equal(mkdir(p, 0700), 0);
		assert_int_equal(chown(p, NOBODY, NOBODY), 0);
		assert_int_equal(
		    ward_workspace_create(&ws, p, 0, 0, false, &err), -1);
		assert_non_null(strstr(err.msg, "belongs to uid 65534"));
		assert_int_equal(count_entries(p), 0);
	}
	assert_int_equal(count_entries(t->outside), 1);
}

static void default_base(void **state)
{
	(void)state;
	char buf[PATH_MAX], want[64];

	ward_workspace_default_base(true, buf, sizeof(buf));
	assert_string_equal(buf, "/run/ward");
	setenv("XDG_RUNTIME_DIR", "/nonexistent", 1);
	ward_workspace_default_base(false, buf, sizeof(buf));
	snprintf(want, sizeof(want), "/tmp/ward-%u", (unsigned)geteuid());
	assert_string_equal(buf, want);
	/* /tmp is not a private runtime directory (mode 1777) */
	setenv("XDG_RUNTIME_DIR", "/tmp", 1);
	ward_workspace_default_base(false, buf, sizeof(buf));
	assert_string_equal(buf, want);
	unsetenv("XDG_RUNTIME_DIR");
}

/* ---------------------------------------------------------------- input */

/* ward_input_copy as the courier makes it: in a process with the
 * workspace's ids (root: dropped to them), which own every copy. */
static int copy_as(const struct ward_workspace *ws, const char *name,
		   const char *src, struct ward_copy_stats *st, ward_err *err)
{
	struct {
		int rc;
		struct ward_copy_stats st;
		ward_err err;
	} r;
	int fds[2], status;
	pid_t pid;

	memset(&r, 0, sizeof(r));
	r.rc = -1;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		if (geteuid() == 0 &&
		    (setgroups(0, NULL) < 0 ||
		     setresgid(ws->gid, ws->gid, ws->gid) < 0 ||
		     setresuid(ws->uid, ws->uid, ws->uid) < 0))
			_exit(1);
		r.rc = ward_input_copy(ws->fd, name, src, &r.st, &r.err);
		_exit(write(fds[1], &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0
									 : 1);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &r, sizeof(r)), (ssize_t)sizeof(r));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (st)
		*st = r.st;
	*err = r.err;
	return r.rc;
}

/* The caller's tree, as the copier's ids may read it (root: given to
 * them; the modes are set again after, as chown clears setuid). */
static void give(const char *path)
{
	if (geteuid() == 0)
		assert_int_equal(lchown(path, NOBODY, NOBODY), 0);
}

static void copy_in(void **state)
{
	struct t *t = *state;
	struct ward_workspace ws;
	struct ward_copy_stats st = {0};
	char src[200], p[PATH_MAX + 64], ro[PATH_MAX], link[64];
	struct stat sb;
	ward_err err;

	snprintf(src, sizeof(src), "%s/src", t->top);
	assert_int_equal(mkdir(src, 0700), 0);
	snprintf(p, sizeof(p), "%s/data.csv", src);
	put(p, "a,b\n");
	assert_int_equal(chmod(p, 0600), 0);
	snprintf(p, sizeof(p), "%s/run.sh", src);
	put(p, "#!/bin/sh\n");
	assert_int_equal(chmod(p, 04711), 0);
	snprintf(p, sizeof(p), "%s/sub", src);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/sub/x.txt", src);
	put(p, "x\n");
	snprintf(p, sizeof(p), "%s/sub/link", src);
	assert_int_equal(symlink("../data.csv", p), 0);
	give(src);
	for (size_t i = 0; i < 5; i++) {
		static const char *const names[] = {"data.csv", "run.sh", "sub",
						    "sub/x.txt", "sub/link"};

		snprintf(p, sizeof(p), "%s/%s", src, names[i]);
		give(p);
	}
	snprintf(p, sizeof(p), "%s/run.sh", src);
	assert_int_equal(chmod(p, 04711), 0);

	assert_int_equal(ward_workspace_create(&ws, t->base, own_uid(),
					       own_gid(), false, &err),
			 0);
	assert_int_equal(
	    ward_workspace_slot(&ws, "input", false, ro, sizeof(ro), &err), 0);
	assert_int_equal(copy_as(&ws, "input", src, &st, &err), 0);
	assert_int_equal(st.files, 3);
	assert_int_equal(st.dirs, 1);
	assert_int_equal(st.links, 1);
	assert_int_equal(st.bytes, 4 + 10 + 2);
	snprintf(p, sizeof(p), "%s/data.csv", ro);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_mode & 07777,
			 0644); /* readable by the sandbox */
	snprintf(p, sizeof(p), "%s/run.sh", ro);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0755); /* no setuid */
	snprintf(p, sizeof(p), "%s/sub", ro);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0755);
	snprintf(p, sizeof(p), "%s/sub/link", ro);
	assert_int_equal(readlink(p, link, sizeof(link)), 11);
	/* a snapshot: later changes of the source do not reach it */
	snprintf(p, sizeof(p), "%s/data.csv", src);
	put(p, "changed\n");
	snprintf(p, sizeof(p), "%s/data.csv", ro);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_size, 4);

	/* one file: copied under its name */
	assert_int_equal(
	    ward_workspace_slot(&ws, "one", false, ro, sizeof(ro), &err), 0);
	snprintf(p, sizeof(p), "%s/sub/x.txt", src);
	assert_int_equal(copy_as(&ws, "one", p, NULL, &err), 0);
	snprintf(p, sizeof(p), "%s/x.txt", ro);
	assert_int_equal(access(p, R_OK), 0);

	/* a FIFO inside, or given: refused, never opened for reading */
	snprintf(p, sizeof(p), "%s/sub/pipe", src);
	assert_int_equal(mkfifo(p, 0600), 0);
	give(p);
	assert_int_equal(
	    ward_workspace_slot(&ws, "two", false, ro, sizeof(ro), &err), 0);
	alarm(20);
	assert_int_equal(copy_as(&ws, "two", src, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "FIFO"));
	assert_int_equal(copy_as(&ws, "two", p, NULL, &err), -1);
	alarm(0);
	/* a symlink given is not followed */
	snprintf(p, sizeof(p), "%s/sub/link", src);
	assert_int_equal(copy_as(&ws, "two", p, NULL, &err), -1);
	assert_int_equal(ward_workspace_destroy(&ws, &err), 0);
	assert_int_equal(count_entries(t->base), 0);
}

/* ----------------------------------------------------------------- diff */

static void file_diff(void **state)
{
	struct t *t = *state;
	struct ward_snap before, after;
	char slot[200], p[300], *json;
	ward_err err;
	size_t len;
	FILE *f;
	int fd;

	snprintf(slot, sizeof(slot), "%s/slot", t->top);
	assert_int_equal(mkdir(slot, 0755), 0);
	snprintf(p, sizeof(p), "%s/same.txt", slot);
	put(p, "same\n");
	snprintf(p, sizeof(p), "%s/edit.txt", slot);
	put(p, "old\n");
	snprintf(p, sizeof(p), "%s/gone.txt", slot);
	put(p, "bye\n");
	snprintf(p, sizeof(p), "%s/chmod.txt", slot);
	put(p, "x\n");
	snprintf(p, sizeof(p), "%s/link", slot);
	assert_int_equal(symlink("a", p), 0);
	fd = open(slot, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_int_equal(ward_snap_take(fd, &before, &err), 0);
	assert_int_equal(before.n, 5);

	/* the run */
	snprintf(p, sizeof(p), "%s/edit.txt", slot);
	put(p, "new\n"); /* same size, other content */
	snprintf(p, sizeof(p), "%s/gone.txt", slot);
	assert_int_equal(unlink(p), 0);
	snprintf(p, sizeof(p), "%s/chmod.txt", slot);
	assert_int_equal(chmod(p, 0600), 0);
	snprintf(p, sizeof(p), "%s/link", slot);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink("b", p), 0);
	snprintf(p, sizeof(p), "%s/new", slot);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/new/out.csv", slot);
	put(p, "1,2\n");
	snprintf(p, sizeof(p), "%s/pipe", slot);
	assert_int_equal(mkfifo(p, 0600), 0);
	give(p);
	alarm(20); /* a snapshot never opens the FIFO */
	assert_int_equal(ward_snap_take(fd, &after, &err), 0);
	alarm(0);
	close(fd);

	f = open_memstream(&json, &len);
	ward_snap_diff_json(f, "output", &before, &after);
	fclose(f);
	assert_non_null(strstr(json, "\"counts\":{\"added\":3,\"changed\":3,"
				     "\"deleted\":1}"));
	assert_non_null(strstr(json, "{\"path\":\"edit.txt\",\"what\":"
				     "[\"content\""));
	assert_non_null(strstr(json, "{\"path\":\"chmod.txt\",\"what\":"
				     "[\"mode\"]"));
	assert_non_null(strstr(json, "\"target\":\"b\""));
	assert_non_null(strstr(json, "\"deleted\":[{\"path\":\"gone.txt\""));
	/* sha256("1,2\n") */
	assert_non_null(strstr(json, "\"path\":\"new/out.csv\",\"kind\":"
				     "\"file\",\"size\":4,\"mode\":\"0644\","
				     "\"sha256\":\""));
	assert_non_null(strstr(json, "\"kind\":\"fifo\""));
	assert_null(strstr(json, "same.txt"));
	free(json);
	ward_snap_free(&before);
	ward_snap_free(&after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(create_and_destroy, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(destroys_a_hostile_tree, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(destroys_rootless, setup, teardown),
	    cmocka_unit_test_setup_teardown(keep_workspace, setup, teardown),
	    cmocka_unit_test_setup_teardown(reclaims_dead_workspaces, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(refuses_a_bad_base, setup,
					    teardown),
	    cmocka_unit_test(default_base),
	    cmocka_unit_test_setup_teardown(copy_in, setup, teardown),
	    cmocka_unit_test_setup_teardown(file_diff, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
