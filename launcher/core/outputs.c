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
	o->manifest_fd = o->export_fd = -1;
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
			&o->stderr_fd, err) < 0)
		return -1;
	return 0;
}

/* --export-dir: made if missing (its parent is the caller's), never a
 * symlink. In root mode the courier, which writes the exports, has the
 * sandbox's host ids: the directory is theirs for the run. */
static int open_export_dir(struct ward_outputs *o, const char *dir,
			   const struct ward_policy *p,
			   const struct ward_priv *priv, ward_err *err)
{
	struct stat st;

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
	if (priv->mode != WARD_MODE_ROOT)
		return 0;
	if (fstat(o->export_fd, &st) < 0)
		return ward_fail(err, errno, "--export-dir %s", dir);
	if (st.st_uid == priv->host_uid)
		return 0;
	if (fchown(o->export_fd, priv->host_uid, priv->host_gid) < 0)
		return ward_fail(err, errno,
				 "--export-dir %s: lend it to uid %u", dir,
				 (unsigned)priv->host_uid);
	o->export_lent = true;
	o->export_uid = st.st_uid;
	o->export_gid = st.st_gid;
	return 0;
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
		if (add_slot(o, cli, m->src, rw, err) < 0 ||
		    ward_workspace_copy_in(&o->ws, m->src, rw,
					   cli->inputs[i].path, NULL, err) < 0)
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

void ward_outputs_restore(struct ward_outputs *o)
{
	if (o->export_lent && o->export_fd >= 0 &&
	    fchown(o->export_fd, o->export_uid, o->export_gid) == 0)
		o->export_lent = false;
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
