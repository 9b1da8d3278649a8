/* SPDX-License-Identifier: MIT */
/*
 * cmd_suggest.c: `wardc suggest RECORD... [--from BASE.ward] -o OUT`
 * (docs/spec.md 4.9): the records read, the groups taken from the base
 * (or from a skeleton policy that uses the stdlib's), and the base's text
 * written again with its syscalls section replaced by the suggestion.
 */
#include "commands.h"
#include "suggest.h"
#include "syscalls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_RECORD (16u << 20)

/* Without --from: a policy of the stdlib's defaults around the section. */
static const char skeleton[] =
    "ward 1;\n"
    "# Suggested by `wardc suggest`: the syscalls from the records, the\n"
    "# rest the stdlib's defaults for a run without network. Review it.\n"
    "policy suggested;\n"
    "use base;\n"
    "use groups;\n"
    "\n"
    "identity { user 1000; group 1000; hostname \"sandbox\"; capabilities "
    "none; workdir /work; }\n"
    "env { HOME = \"/work\"; }\n"
    "fs { tmpfs /tmp size 100M mode 1777; tmpfs /work size 100M; }\n"
    "net none;\n"
    "limits {\n"
    "    memory 512M; swap 0; cpu 0.5; pids 256; wall 30s; cputime 30s;\n"
    "    nofile 256; filesize 100M; stdout 1M; stderr 1M; output 2M;\n"
    "}\n"
    "syscalls default errno ENOSYS { }\n";

struct groups {
	struct ward_suggest_group *v;
	size_t n;
	const char **names; /* every member, one array */
};

static void groups_free(struct groups *g)
{
	for (size_t i = 0; i < g->n; i++)
		free((void *)g->v[i].members);
	free(g->v);
}

static const struct ward_stmt *find_group(const struct ward_unit *u,
					  const char *name)
{
	for (size_t f = 0; f < u->nfiles; f++)
		for (size_t i = 0; i < u->files[f]->nstmts; i++) {
			const struct ward_stmt *st = u->files[f]->stmts[i];
			const char *n;

			if (!st || st->kind != WARD_S_GROUP || !st->name)
				continue;
			n = st->name[0] == '@' ? st->name + 1 : st->name;
			if (!strcmp(n, name[0] == '@' ? name + 1 : name))
				return st;
		}
	return NULL;
}

/* The members of group st on arch, nested groups expanded (depth bounds a
 * cycle, which the checker reports anyway). */
static int expand(const struct ward_unit *u, const struct ward_stmt *st,
		  uint32_t arch, const char ***v, size_t *n, int depth)
{
	if (depth > 16)
		return 0;
	for (size_t t = 0; t < st->ntargets; t++) {
		const struct ward_target *tg = st->targets[t];
		const char **nv;

		if (tg->is_group) {
			const struct ward_stmt *g = find_group(u, tg->name);
			if (g && expand(u, g, arch, v, n, depth + 1) < 0)
				return -1;
			continue;
		}
		if (ward_sys_nr(arch, tg->name) < 0)
			continue; /* not on this target */
		nv = realloc(*v, (*n + 1) * sizeof(**v));
		if (!nv)
			return -1;
		*v = nv;
		(*v)[(*n)++] = tg->name;
	}
	return 0;
}

static int collect_groups(const struct ward_unit *u, uint32_t arch,
			  struct groups *g)
{
	for (size_t f = 0; f < u->nfiles; f++)
		for (size_t i = 0; i < u->files[f]->nstmts; i++) {
			const struct ward_stmt *st = u->files[f]->stmts[i];
			struct ward_suggest_group *e, *nv;
			const char **m = NULL;
			size_t nm = 0;

			if (!st || st->kind != WARD_S_GROUP || !st->name)
				continue;
			if (expand(u, st, arch, &m, &nm, 0) < 0)
				return -1;
			nv = realloc(g->v, (g->n + 1) * sizeof(*nv));
			if (!nv) {
				free(m);
				return -1;
			}
			g->v = nv;
			e = &g->v[g->n++];
			e->name = st->name;
			e->members = m;
			e->nmembers = nm;
			e->logged = st->opts & WARD_OPT_LOG;
		}
	return 0;
}

/* Byte offset of line:col (1-based) in text. */
static size_t offset_of(const char *text, uint32_t line, uint32_t col)
{
	size_t o = 0;

	for (uint32_t l = 1; l < line && text[o]; o++)
		if (text[o] == '\n')
			l++;
	return o + (col ? col - 1 : 0);
}

static int read_records(struct wardc_args *a, size_t nrec,
			struct ward_seen_set *s)
{
	for (size_t i = 0; i < nrec; i++) {
		_cleanup_free_ uint8_t *data = NULL;
		size_t len;
		ward_err err = {0};
		char buf[WARD_ERR_MSG_MAX + 128];

		if (ward_read_file(a->files[i], MAX_RECORD, &data, &len) < 0) {
			fprintf(stderr, "wardc suggest: cannot read %s: %s\n",
				a->files[i], strerror(errno));
			return WARDC_USAGE;
		}
		if (ward_record_read(s, a->files[i], (const char *)data, len,
				     &err) < 0) {
			fprintf(stderr, "wardc suggest: %s\n",
				ward_err_str(&err, buf, sizeof(buf)));
			return WARDC_POLICY_ERROR;
		}
	}
	return WARDC_OK;
}

/* The base (or the skeleton, through a temporary file) loaded. */
static int open_base(struct wardc_args *a, struct ward_session *ses, char *tmp)
{
	const char *path = a->from;
	int rc;

	if (!path) {
		int fd = mkstemps(tmp, 5);
		size_t len = sizeof(skeleton) - 1;

		if (fd < 0 || write(fd, skeleton, len) != (ssize_t)len) {
			fprintf(stderr, "wardc suggest: a temporary file: %s\n",
				strerror(errno));
			if (fd >= 0)
				close(fd);
			return WARDC_USAGE;
		}
		close(fd);
		path = tmp;
	}
	rc = ward_session_open(ses, path, &a->opts);
	if (rc != WARDC_OK)
		fprintf(stderr, "wardc suggest: %s does not check\n",
			a->from ? a->from : "the skeleton policy");
	return rc;
}

static const struct ward_stmt *syscalls_stmt(const struct ward_file *main)
{
	for (size_t i = 0; i < main->nstmts; i++)
		if (main->stmts[i] && main->stmts[i]->kind == WARD_S_SYSCALLS)
			return main->stmts[i];
	return NULL;
}

static int write_policy(struct wardc_args *a, struct ward_session *ses,
			const struct ward_seen_set *s, const struct groups *g)
{
	const struct ward_file *main = ses->unit.main;
	const struct ward_stmt *sys = syscalls_stmt(main);
	const char *text = ward_sources_text(ses->src, main->file, NULL);
	char *out = NULL;
	size_t outlen = 0, from, to;
	ward_err err = {0};
	char buf[WARD_ERR_MSG_MAX + 128];
	FILE *f;

	if (!sys) {
		fprintf(stderr,
			"wardc suggest: %s has no syscalls section of its "
			"own to replace\n",
			a->from);
		return WARDC_POLICY_ERROR;
	}
	from = offset_of(text, sys->loc.line, sys->loc.col);
	to = offset_of(text, sys->loc.end_line, sys->loc.end_col);
	/* The section's end is its closing brace (inclusive or not). */
	while (text[to] && text[to] != '\n' && text[to - 1] != '}')
		to++;
	f = open_memstream(&out, &outlen);
	if (!f)
		return WARDC_USAGE;
	fwrite(text, 1, from, f);
	fprintf(f, "# The syscalls below were derived by `wardc suggest` "
		   "from:");
	for (size_t i = 0; i < s->nrecords; i++)
		fprintf(f, " %s", s->records[i]);
	fprintf(f, "\n");
	if (ward_suggest_section(f, s, g->v, g->n, &err) < 0) {
		fclose(f);
		free(out);
		fprintf(stderr, "wardc suggest: %s\n",
			ward_err_str(&err, buf, sizeof(buf)));
		return WARDC_POLICY_ERROR;
	}
	fputs(text + to, f);
	fclose(f);
	if (!a->output) {
		fwrite(out, 1, outlen, stdout);
		free(out);
		return WARDC_OK;
	}
	if (ward_write_file_atomic(a->output, out, outlen, 0644) < 0) {
		fprintf(stderr, "wardc: cannot write %s: %s\n", a->output,
			strerror(errno));
		free(out);
		return WARDC_USAGE;
	}
	free(out);
	return WARDC_OK;
}

int cmd_suggest(struct wardc_args *a)
{
	struct ward_seen_set s = {0};
	struct ward_session ses;
	struct groups g = {0};
	char tmp[] = "/tmp/wardc-suggest-XXXXXX.ward";
	size_t nrec = a->has_dashdash ? a->dashdash : a->nfiles;
	int rc;

	if (nrec == 0) {
		fprintf(stderr, "wardc suggest: give one record or more\n");
		return WARDC_USAGE;
	}
	rc = read_records(a, nrec, &s);
	if (rc != WARDC_OK) {
		ward_seen_free(&s);
		return rc;
	}
	a->opts.arch = s.arch;
	rc = open_base(a, &ses, tmp);
	if (!a->from)
		unlink(tmp);
	if (rc == WARDC_OK && collect_groups(&ses.unit, s.arch, &g) < 0)
		rc = WARDC_USAGE;
	if (rc == WARDC_OK)
		rc = write_policy(a, &ses, &s, &g);
	groups_free(&g);
	ward_session_close(&ses);
	ward_seen_free(&s);
	return rc;
}
