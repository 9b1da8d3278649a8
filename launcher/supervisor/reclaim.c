/* SPDX-License-Identifier: MIT */
/*
 * reclaim.c: see reclaim.h.
 */
#include "reclaim.h"

#include "drop.h"
#include "fsutil.h"
#include "hardening.h"
#include "safefs.h"
#include "workspace.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Empty the directory name of ws_fd in a child with the ids of its owner:
 * whatever is in it, the child can read no more than the sandbox could. */
static bool empty_as_owner(int ws_fd, const char *name, bool root,
			   const struct stat *st)
{
	const struct ward_drop d = {
	    .change_ids = root,
	    .uid = st->st_uid,
	    .gid = st->st_gid,
	    .parent = getpid(),
	};
	int status;
	pid_t pid;

	/* Root mode: never as root; rootless: only what is ours. */
	if ((root && st->st_uid == 0) || (!root && st->st_uid != geteuid()))
		return false;
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		struct ward_rm_stats rm = {0};
		const int keep[] = {ws_fd};
		ward_err err;

		if (ward_close_fds_except(keep, 1, &err) < 0 ||
		    ward_drop_privileges(&d, &err) < 0)
			_exit(1);
		_exit(ward_rmtree_inside(ws_fd, name, &rm, &err) == 0 ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* One dead ward's workspace: ward made every entry of it (the sandbox
 * never sees the workspace itself, only the slots below it). */
static bool reclaim_one(int base_fd, const struct ward_stale_ws *s, bool root)
{
	char names[WARD_WS_SLOTS_MAX][NAME_MAX + 1];
	size_t n = ward_workspace_entries(s->fd, names, WARD_WS_SLOTS_MAX);
	bool ok = true;

	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (fstatat(s->fd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			ok = empty_as_owner(s->fd, names[i], root, &st) &&
			     unlinkat(s->fd, names[i], AT_REMOVEDIR) == 0 && ok;
		else
			ok = unlinkat(s->fd, names[i], 0) == 0 && ok;
	}
	return ok && unlinkat(base_fd, s->name, AT_REMOVEDIR) == 0;
}

unsigned ward_reclaim(int base_fd, bool root)
{
	struct ward_stale_ws stale[WARD_WS_RECLAIM_MAX];
	size_t n = ward_workspace_stale(base_fd, stale, ARRAY_LEN(stale));
	unsigned done = 0;

	for (size_t i = 0; i < n; i++) {
		done += reclaim_one(base_fd, &stale[i], root);
		close(stale[i].fd);
	}
	return done;
}
