/* SPDX-License-Identifier: MIT */
/*
 * channel.c: workspace, file diff and export, as the supervisor runs them
 * (channel.h, docs/spec.md 6.6).
 */
#include "channel.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ward_channel_init(struct ward_channel *ch)
{
	memset(ch, 0, sizeof(*ch));
	ward_workspace_init(&ch->ws);
	ch->export_fd = ch->manifest_fd = -1;
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

static const struct ward_slot_arg *find_arg(const struct ward_slot_arg *v,
					    size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/* --export-dir: made if missing (its parent is the caller's), never a
 * symlink. */
static int open_export_dir(struct ward_channel *ch, const char *dir,
			   const struct ward_policy *p, ward_err *err)
{
	if (!p->nexports)
		return ward_fail(err, 0,
				 "--export-dir %s: the policy has no export "
				 "section: it exports nothing",
				 dir);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return ward_fail(err, errno, "--export-dir %s", dir);
	ch->export_fd =
	    open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (ch->export_fd < 0)
		return ward_fail(err, errno,
				 "--export-dir %s (a symlink is not followed)",
				 dir);
	return 0;
}

/* A slot of the workspace: its path kept here, and given to the command
 * line's slots as if the caller had written --slot NAME=PATH. */
static int add_slot(struct ward_channel *ch, struct ward_cli *cli,
		    const char *name, bool writable, ward_err *err)
{
	void *v = realloc(ch->paths, (ch->npaths + 1) * sizeof(*ch->paths));
	struct ward_slot_arg *s;

	if (!v)
		return ward_fail(err, ENOMEM, "workspace");
	ch->paths = v;
	if (!(ch->paths[ch->npaths] = malloc(PATH_MAX)))
		return ward_fail(err, ENOMEM, "workspace");
	ch->npaths++;
	if (ward_workspace_slot(&ch->ws, name, writable,
				ch->paths[ch->npaths - 1], PATH_MAX, err) < 0)
		return -1;
	s = realloc(cli->slots, (cli->nslots + 1) * sizeof(*s));
	if (!s)
		return ward_fail(err, ENOMEM, "workspace");
	cli->slots = s;
	s[cli->nslots++] =
	    (struct ward_slot_arg){name, ch->paths[ch->npaths - 1]};
	return 0;
}

static int make_workspace(struct ward_channel *ch, const struct ward_policy *p,
			  struct ward_cli *cli, const struct ward_priv *priv,
			  ward_err *err)
{
	bool need = cli->ninputs > 0;
	char base[PATH_MAX];

	for (uint32_t i = 0; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];
		if (m->kind == WARD_MNT_SLOT && (m->flags & WARD_MNT_F_RW) &&
		    !find_arg(cli->slots, cli->nslots, m->src))
			need = true;
	}
	for (size_t i = 0; i < cli->ninputs; i++) {
		const char *name = cli->inputs[i].name;
		if (!slot_mount(p, name))
			return ward_fail(err, 0,
					 "--input %s: the policy declares no "
					 "slot of that name",
					 name);
		if (find_arg(cli->slots, cli->nslots, name))
			return ward_fail(err, 0,
					 "slot %s: both --slot and --input "
					 "given",
					 name);
	}
	if (!need)
		return 0;
	if (cli->workspace_base)
		snprintf(base, sizeof(base), "%s", cli->workspace_base);
	else
		ward_workspace_default_base(priv->mode == WARD_MODE_ROOT, base,
					    sizeof(base));
	if (ward_workspace_create(&ch->ws, base, priv->host_uid, priv->host_gid,
				  cli->keep_workspace, err) < 0)
		return -1;
	ch->have_ws = true;
	for (size_t i = 0; i < cli->ninputs; i++) {
		const struct ward_mount *m = slot_mount(p, cli->inputs[i].name);
		bool rw = m->flags & WARD_MNT_F_RW;
		if (add_slot(ch, cli, m->src, rw, err) < 0 ||
		    ward_workspace_copy_in(&ch->ws, m->src, rw,
					   cli->inputs[i].path, NULL, err) < 0)
			return -1;
	}
	for (uint32_t i = 0; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];
		if (m->kind == WARD_MNT_SLOT && (m->flags & WARD_MNT_F_RW) &&
		    !find_arg(cli->slots, cli->nslots, m->src) &&
		    add_slot(ch, cli, m->src, true, err) < 0)
			return -1;
	}
	return 0;
}

/* The writable slot's directory, as it was before the run. */
static int open_slot(struct ward_channel_slot *s, bool check)
{
	struct stat st;
	int fd = open(s->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 ||
	    (check && (st.st_dev != s->dev || st.st_ino != s->ino))) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	return fd;
}

static int snapshot_slots(struct ward_channel *ch, const struct ward_policy *p,
			  const struct ward_cli *cli, ward_err *err)
{
	ch->slots = calloc(p->nmounts ? p->nmounts : 1, sizeof(*ch->slots));
	if (!ch->slots)
		return ward_fail(err, ENOMEM, "snapshots");
	for (uint32_t i = 0; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];
		const struct ward_slot_arg *a;
		struct ward_channel_slot *s;
		int fd;

		if (m->kind != WARD_MNT_SLOT || !(m->flags & WARD_MNT_F_RW) ||
		    !(a = find_arg(cli->slots, cli->nslots, m->src)))
			continue; /* ward_check_slots says what is missing */
		s = &ch->slots[ch->nslots++];
		s->name = m->src;
		s->path = a->path;
		/* A slot that is a file has no tree to compare. */
		if ((fd = open_slot(s, false)) < 0)
			continue;
		if (ward_snap_take(fd, &s->before, err) < 0) {
			close(fd);
			return -1;
		}
		close(fd);
		s->have_before = true;
	}
	return 0;
}

int ward_channel_prepare(struct ward_channel *ch, const struct ward_policy *p,
			 struct ward_cli *cli, const struct ward_priv *priv,
			 ward_err *err)
{
	if (cli->export_dir && open_export_dir(ch, cli->export_dir, p, err) < 0)
		return -1;
	if (cli->manifest_path) {
		if (!cli->export_dir)
			return ward_fail(err, 0,
					 "--manifest needs --export-dir");
		ch->manifest_fd =
		    open(cli->manifest_path,
			 O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
			 0644);
		if (ch->manifest_fd < 0)
			return ward_fail(err, errno, "--manifest %s",
					 cli->manifest_path);
	}
	if (make_workspace(ch, p, cli, priv, err) < 0)
		return -1;
	return snapshot_slots(ch, p, cli, err);
}

/* ---------------------------------------------------------------- finish */

static const char *slot_path(const struct ward_channel *ch, const char *name)
{
	for (size_t i = 0; i < ch->nslots; i++)
		if (!strcmp(ch->slots[i].name, name))
			return ch->slots[i].path;
	return NULL;
}

/* One rule: from its slot, into --export-dir (one rule) or DIR/SLOT. */
static void export_one(struct ward_channel *ch, const struct ward_policy *p,
		       uint32_t i)
{
	const struct ward_export_rule *rule = &p->exports[i];
	struct ward_export_result *res = &ch->results[i];
	struct ward_channel_slot *s = NULL;
	_cleanup_close_ int sfd = -1, dfd = -1;
	ward_err err = {0};

	for (size_t k = 0; k < ch->nslots; k++)
		if (!strcmp(ch->slots[k].name, rule->slot))
			s = &ch->slots[k];
	res->rule = rule;
	if (!s || !slot_path(ch, rule->slot) ||
	    (sfd = open_slot(s, true)) < 0) {
		snprintf(res->error, sizeof(res->error),
			 "slot %s: not a directory that was there before the "
			 "run",
			 rule->slot);
		return;
	}
	if (p->nexports == 1) {
		dfd = dup(ch->export_fd);
	} else {
		if (mkdirat(ch->export_fd, rule->slot, 0755) < 0 &&
		    errno != EEXIST)
			dfd = -1;
		else
			dfd = openat(ch->export_fd, rule->slot,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC);
	}
	if (dfd < 0) {
		snprintf(res->error, sizeof(res->error),
			 "the export directory for %s: %s", rule->slot,
			 strerror(errno));
		return;
	}
	ward_export(rule, sfd, dfd, NULL, res, &err);
}

static void manifests(FILE *f, const struct ward_channel *ch)
{
	fputc('[', f);
	for (size_t i = 0; i < ch->nresults; i++) {
		if (i)
			fputs(", ", f);
		ward_export_manifest(f, &ch->results[i]);
	}
	fputc(']', f);
}

static void write_manifest(struct ward_channel *ch)
{
	char *text = NULL;
	size_t len = 0, off = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	manifests(f, ch);
	fputc('\n', f);
	fclose(f);
	while (off < len) {
		ssize_t n = write(ch->manifest_fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	free(text);
}

void ward_channel_finish(struct ward_channel *ch, const struct ward_policy *p,
			 bool ran)
{
	ward_err err;

	if (ran && !ch->finished) {
		ch->finished = true;
		for (size_t i = 0; i < ch->nslots; i++) {
			struct ward_channel_slot *s = &ch->slots[i];
			int fd = s->have_before ? open_slot(s, true) : -1;
			if (fd < 0)
				continue;
			s->have_after =
			    ward_snap_take(fd, &s->after, &err) == 0;
			close(fd);
		}
		if (ch->export_fd >= 0 && p && p->nexports &&
		    (ch->results = calloc(p->nexports, sizeof(*ch->results)))) {
			ch->nresults = p->nexports;
			for (uint32_t i = 0; i < p->nexports; i++)
				export_one(ch, p, i);
			if (ch->manifest_fd >= 0)
				write_manifest(ch);
		}
	}
	if (ch->have_ws)
		ward_workspace_destroy(&ch->ws, &err);
}

void ward_channel_report(FILE *f, const struct ward_channel *ch)
{
	bool first = true;

	fputs(", \"workspace\": ", f);
	if (ch && ch->have_ws)
		ward_workspace_json(f, &ch->ws);
	else
		fputs("null", f);
	fputs(", \"files\": ", f);
	if (ch && ch->finished) {
		fputc('[', f);
		for (size_t i = 0; i < ch->nslots; i++) {
			const struct ward_channel_slot *s = &ch->slots[i];
			if (!s->have_before || !s->have_after)
				continue;
			fputs(first ? "" : ", ", f);
			ward_snap_diff_json(f, s->name, &s->before, &s->after);
			first = false;
		}
		fputc(']', f);
	} else {
		fputs("null", f);
	}
	fputs(", \"export\": ", f);
	if (ch && ch->nresults)
		manifests(f, ch);
	else
		fputs("null", f);
}

void ward_channel_free(struct ward_channel *ch)
{
	ward_err err;

	if (ch->have_ws)
		ward_workspace_destroy(&ch->ws, &err);
	for (size_t i = 0; i < ch->nslots; i++) {
		ward_snap_free(&ch->slots[i].before);
		ward_snap_free(&ch->slots[i].after);
	}
	free(ch->slots);
	for (size_t i = 0; i < ch->nresults; i++)
		ward_export_result_free(&ch->results[i]);
	free(ch->results);
	for (size_t i = 0; i < ch->npaths; i++)
		free(ch->paths[i]);
	free(ch->paths);
	if (ch->export_fd >= 0)
		close(ch->export_fd);
	if (ch->manifest_fd >= 0)
		close(ch->manifest_fd);
	ward_channel_init(ch);
}
