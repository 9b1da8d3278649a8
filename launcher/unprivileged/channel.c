/* SPDX-License-Identifier: MIT */
/*
 * channel.c: workspace, file diff and export, as the supervisor runs them
 * (channel.h, docs/spec.md 6.6).
 */
#include "channel.h"

#include "workspace_empty.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ward_channel_init(struct ward_channel *ch)
{
	memset(ch, 0, sizeof(*ch));
	ch->export_fd = ch->manifest_fd = -1;
}

static const struct ward_channel_arg *find_arg(const struct ward_channel_arg *v,
					       size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
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

int ward_channel_snapshot(struct ward_channel *ch, const struct ward_policy *p,
			  const struct ward_channel_arg *args, size_t nargs,
			  ward_err *err)
{
	ch->slots = calloc(p->nmounts ? p->nmounts : 1, sizeof(*ch->slots));
	if (!ch->slots)
		return ward_fail(err, ENOMEM, "snapshots");
	for (uint32_t i = 0; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];
		const struct ward_channel_arg *a;
		struct ward_channel_slot *s;
		struct stat sb;
		int fd;

		if (m->kind != WARD_MNT_SLOT || !(m->flags & WARD_MNT_F_RW) ||
		    !(a = find_arg(args, nargs, m->src)))
			continue; /* ward_check_slots says what is missing */
		s = &ch->slots[ch->nslots++];
		s->name = m->src;
		s->path = a->path;
		/* The sandbox runs with our ids: what we cannot write, it
		 * cannot either, and would fail at its first write. */
		if (stat(a->path, &sb) == 0 &&
		    faccessat(AT_FDCWD, a->path,
			      S_ISDIR(sb.st_mode) ? W_OK | X_OK : W_OK,
			      AT_EACCESS) < 0 &&
		    errno == EACCES)
			return ward_fail(
			    err, 0,
			    "--slot %s=%s is read-write in the policy, but the "
			    "sandbox's host user (uid %u, gid %u) cannot write "
			    "it: give that user write access (for example "
			    "`chown %u:%u %s`), or leave out --slot %s and let "
			    "ward make a fresh workspace for it",
			    m->src, a->path, (unsigned)geteuid(),
			    (unsigned)getegid(), (unsigned)geteuid(),
			    (unsigned)getegid(), a->path, m->src);
		/* A slot that is a file has no tree to compare; without a
		 * report nobody reads the diff: no walk of the tree, before
		 * or after. */
		if (!ch->diff || (fd = open_slot(s, false)) < 0)
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

void ward_channel_finish(struct ward_channel *ch, const struct ward_policy *p)
{
	ward_err err;

	if (!ch->finished) {
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
}

void ward_channel_report(FILE *f, const struct ward_channel *ch,
			 const struct ward_workspace *ws)
{
	bool first = true;

	fputs(", \"workspace\": ", f);
	if (ws)
		ward_workspace_json(f, ws);
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
	for (size_t i = 0; i < ch->nslots; i++) {
		ward_snap_free(&ch->slots[i].before);
		ward_snap_free(&ch->slots[i].after);
	}
	free(ch->slots);
	for (size_t i = 0; i < ch->nresults; i++)
		ward_export_result_free(&ch->results[i]);
	free(ch->results);
	if (ch->export_fd >= 0)
		close(ch->export_fd);
	if (ch->manifest_fd >= 0)
		close(ch->manifest_fd);
	ward_channel_init(ch);
}
