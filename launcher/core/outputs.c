/* SPDX-License-Identifier: MIT */
/*
 * outputs.c: see outputs.h.
 */
#include "outputs.h"

#include "workspace.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ward_outputs_init(struct ward_outputs *o)
{
	memset(o, 0, sizeof(*o));
	o->report_fd = o->stdout_fd = o->stderr_fd = -1;
	o->manifest_fd = o->export_fd = o->record_fd = -1;
	ward_workspace_init(&o->ws);
}

/* A file ward writes for the caller: never one that was there before
 * (someone else may have planted it to read or forge what ward writes,
 * where fs.protected_regular does not stop that), never a symlink. */
static int create_file(const char *opt, const char *path, bool replace, int *fd,
		       ward_err *err)
{
	struct stat st;

	if (!path)
		return 0;
	if (replace && lstat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
			return ward_fail(err, 0,
					 "%s %s: --replace removes only a "
					 "regular file of yours; this one is "
					 "not",
					 opt, path);
		if (unlink(path) < 0)
			return ward_fail(err, errno, "%s %s: remove it", opt,
					 path);
	}
	*fd = open(path,
		   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
		       O_NOCTTY,
		   0644);
	if (*fd >= 0)
		return 0;
	if (errno == EEXIST)
		return ward_fail(err, 0,
				 "%s %s: the file exists; ward writes only a "
				 "file it creates (give --replace to remove "
				 "one of yours first)",
				 opt, path);
	return ward_fail(err, errno, "%s %s", opt, path);
}

int ward_outputs_open_files(struct ward_outputs *o, const struct ward_cli *cli,
			    ward_err *err)
{
	/* "-" and /dev/stdout-like paths are the caller's own streams. */
	if (create_file("--report", cli->report_path, cli->replace,
			&o->report_fd, err) < 0 ||
	    create_file("--stdout", cli->stdout_path, cli->replace,
			&o->stdout_fd, err) < 0 ||
	    create_file("--stderr", cli->stderr_path, cli->replace,
			&o->stderr_fd, err) < 0 ||
	    create_file("--record", cli->record_path, cli->replace,
			&o->record_fd, err) < 0)
		return -1;
	return 0;
}

/* Root mode: fd's object belongs to the sandbox's host ids for the run
 * (their own: the sandbox and the courier write there with those ids
 * only). Takes fd. */
static int lend(struct ward_outputs *o, int fd, const char *what,
		const struct ward_priv *priv, ward_err *err)
{
	struct ward_lent *l = &o->lent[o->nlent];
	struct stat st;

	if (fd < 0)
		return ward_fail(err, errno, "%s", what);
	if (priv->mode != WARD_MODE_ROOT || o->nlent == WARD_LENT_MAX) {
		close(fd);
		return o->nlent == WARD_LENT_MAX && priv->mode == WARD_MODE_ROOT
			   ? ward_fail(err, 0, "%s: too many to lend", what)
			   : 0;
	}
	if (fstat(fd, &st) < 0) {
		close(fd);
		return ward_fail(err, errno, "%s", what);
	}
	if (st.st_uid == priv->host_uid && st.st_gid == priv->host_gid) {
		close(fd);
		return 0;
	}
	*l = (struct ward_lent){fd, st.st_uid, st.st_gid, st.st_mode & 07777};
	if (fchown(fd, priv->host_uid, priv->host_gid) < 0) {
		close(fd);
		return ward_fail(err, errno, "%s: lend it to uid %u", what,
				 (unsigned)priv->host_uid);
	}
	o->nlent++;
	return 0;
}

/* --export-dir: made if missing (its parent is the caller's), never a
 * symlink; lent for the run (the courier writes the exports). */
static int open_export_dir(struct ward_outputs *o, const char *dir,
			   const struct ward_policy *p,
			   const struct ward_priv *priv, ward_err *err)
{

	if (!p->nexports)
		return ward_fail(err, 0,
				 "--export-dir %s: the policy has no export "
				 "section: it exports nothing",
				 dir);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return ward_fail(err, errno, "--export-dir %s", dir);
	o->export_fd =
	    open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (o->export_fd < 0)
		return ward_fail(err, errno,
				 "--export-dir %s (a symlink is not followed)",
				 dir);
	return lend(o, dup(o->export_fd), dir, priv, err);
}

static const struct ward_mount *slot_mount(const struct ward_policy *p,
					   const char *name)
{
	for (uint32_t i = 0; i < p->nmounts; i++)
		if (p->mounts[i].kind == WARD_MNT_SLOT &&
		    !strcmp(p->mounts[i].src, name))
			return &p->mounts[i];
	return NULL;
}

static bool has_arg(const struct ward_cli *cli, const char *name)
{
	for (size_t i = 0; i < cli->nslots; i++)
		if (!strcmp(cli->slots[i].name, name))
			return true;
	return false;
}

/* A slot of the workspace: its path kept here, and given to the command
 * line's slots as if the caller had written --slot NAME=PATH. */
static int add_slot(struct ward_outputs *o, struct ward_cli *cli,
		    const char *name, bool writable, ward_err *err)
{
	void *v = realloc(o->paths, (o->npaths + 1) * sizeof(*o->paths));
	struct ward_slot_arg *s;

	if (!v)
		return ward_fail(err, ENOMEM, "workspace");
	o->paths = v;
	if (!(o->paths[o->npaths] = malloc(PATH_MAX)))
		return ward_fail(err, ENOMEM, "workspace");
	o->npaths++;
	if (ward_workspace_slot(&o->ws, name, writable, o->paths[o->npaths - 1],
				PATH_MAX, err) < 0)
		return -1;
	s = realloc(cli->slots, (cli->nslots + 1) * sizeof(*s));
	if (!s)
		return ward_fail(err, ENOMEM, "workspace");
	cli->slots = s;
	s[cli->nslots++] =
	    (struct ward_slot_arg){name, o->paths[o->npaths - 1]};
	return 0;
}

static bool needs_workspace(const struct ward_policy *p,
			    const struct ward_cli *cli)
{
	if (cli->ninputs > 0)
		return true;
	for (uint32_t i = 0; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];
		if (m->kind == WARD_MNT_SLOT && (m->flags & WARD_MNT_F_RW) &&
		    !has_arg(cli, m->src))
			return true;
	}
	return false;
}

static int make_workspace(struct ward_outputs *o, const struct ward_policy *p,
			  struct ward_cli *cli, const struct ward_priv *priv,
			  ward_err *err)
{
	char base[PATH_MAX];

	for (size_t i = 0; i < cli->ninputs; i++) {
		const char *name = cli->inputs[i].name;
		if (!slot_mount(p, name))
			return ward_fail(err, 0,
					 "--input %s: the policy declares no "
					 "slot of that name",
					 name);
		if (has_arg(cli, name))
			return ward_fail(err, 0,
					 "slot %s: both --slot and --input "
					 "given",
					 name);
	}
	if (!needs_workspace(p, cli))
		return 0;
	if (cli->workspace_base)
		snprintf(base, sizeof(base), "%s", cli->workspace_base);
	else
		ward_workspace_default_base(priv->mode == WARD_MODE_ROOT, base,
					    sizeof(base));
	if (ward_workspace_create(&o->ws, base, priv->host_uid, priv->host_gid,
				  cli->keep_workspace, err) < 0)
		return -1;
	o->have_ws = true;
	for (size_t i = 0; i < cli->ninputs; i++) {
		const struct ward_mount *m = slot_mount(p, cli->inputs[i].name);
		bool rw = m->flags & WARD_MNT_F_RW;
		/* Filled by the courier, with the sandbox's ids: root
		 * never reads the caller's input (inputs.h). */
		if (add_slot(o, cli, m->src, rw, err) < 0)
			return -1;
	}
	for (uint32_t i = 0; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];
		if (m->kind == WARD_MNT_SLOT && (m->flags & WARD_MNT_F_RW) &&
		    !has_arg(cli, m->src) &&
		    add_slot(o, cli, m->src, true, err) < 0)
			return -1;
	}
	return 0;
}

int ward_outputs_prepare(struct ward_outputs *o, const struct ward_policy *p,
			 struct ward_cli *cli, const struct ward_priv *priv,
			 ward_err *err)
{
	if (cli->export_dir &&
	    open_export_dir(o, cli->export_dir, p, priv, err) < 0)
		return -1;
	if (cli->manifest_path) {
		if (!cli->export_dir)
			return ward_fail(err, 0,
					 "--manifest needs --export-dir");
		if (create_file("--manifest", cli->manifest_path, cli->replace,
				&o->manifest_fd, err) < 0)
			return -1;
	}
	return make_workspace(o, p, cli, priv, err);
}

int ward_outputs_lend_slots(struct ward_outputs *o, const struct ward_policy *p,
			    const struct ward_cli *cli,
			    const struct ward_priv *priv, ward_err *err)
{
	if (priv->mode != WARD_MODE_ROOT)
		return 0;
	for (uint32_t i = 0; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];
		const char *path = NULL;
		struct stat st, now;
		int fd;

		if (m->kind != WARD_MNT_SLOT || !(m->flags & WARD_MNT_F_RW))
			continue;
		for (size_t k = 0; k < cli->nslots; k++)
			if (!strcmp(cli->slots[k].name, m->src))
				path = cli->slots[k].path;
		/* The workspace's slots are the sandbox's already. */
		for (size_t k = 0; path && k < o->npaths; k++)
			if (path == o->paths[k])
				path = NULL;
		if (!path || lstat(path, &st) < 0)
			continue;
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
				    O_CLOEXEC);
		if (fd >= 0 &&
		    (fstat(fd, &now) < 0 || now.st_ino != st.st_ino ||
		     now.st_dev != st.st_dev)) {
			close(fd);
			return ward_fail(err, 0, "--slot %s=%s changed", m->src,
					 path);
		}
		if (lend(o, fd, path, priv, err) < 0)
			return -1;
	}
	return 0;
}

void ward_outputs_restore(struct ward_outputs *o)
{
	/* Newest first; mode after owner (a chown clears setuid bits). */
	while (o->nlent) {
		struct ward_lent *l = &o->lent[--o->nlent];

		/* Best effort: nothing else can be done on this path. */
		if (fchown(l->fd, l->uid, l->gid) == 0)
			(void)!fchmod(l->fd, l->mode);
		close(l->fd);
	}
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void ward_outputs_free(struct ward_outputs *o)
{
	ward_outputs_restore(o);
	close_fd(&o->report_fd);
	close_fd(&o->record_fd);
	close_fd(&o->stdout_fd);
	close_fd(&o->stderr_fd);
	close_fd(&o->manifest_fd);
	close_fd(&o->export_fd);
	for (size_t i = 0; i < o->npaths; i++)
		free(o->paths[i]);
	free(o->paths);
	o->paths = NULL;
	o->npaths = 0;
}
