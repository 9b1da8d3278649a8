/* SPDX-License-Identifier: MIT */
/*
 * suggest.c: the syscalls section of `wardc suggest` (suggest.h).
 */
#include "suggest.h"

#include "consts.h"
#include "danger.h"
#include "pool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Never allowed, whatever a record saw: faking terminal input
 * (CVE-2017-5226) and driving the console. */
#define TIOCSTI_NR   0x5412u
#define TIOCLINUX_NR 0x541cu

/* The syscalls decided apart from the groups and the name list. */
static bool special(const char *n)
{
	return !strcmp(n, "clone") || !strcmp(n, "clone3") ||
	       !strcmp(n, "socket") || !strcmp(n, "ioctl");
}

static bool in_logged_group(const struct ward_suggest_group *g, size_t ng,
			    const char *n, const char **which)
{
	for (size_t i = 0; i < ng; i++)
		for (size_t k = 0; g[i].logged && k < g[i].nmembers; k++)
			if (!strcmp(g[i].members[k], n)) {
				*which = g[i].name;
				return true;
			}
	return false;
}

/* The records that saw any entry named n (bits), 0: none. */
static uint32_t seen_by(const struct ward_seen_set *s, const char *n)
{
	uint32_t r = 0;

	for (size_t i = 0; i < s->n; i++)
		if (!s->v[i].refused && !strcmp(s->v[i].name, n))
			r |= s->v[i].records;
	return r;
}

static void comment_records(FILE *f, const struct ward_seen_set *s,
			    uint32_t recs)
{
	const char *sep = "";

	fprintf(f, "    # seen in ");
	for (size_t i = 0; i < s->nrecords; i++)
		if (recs & (1u << i)) {
			fprintf(f, "%s%s", sep, s->records[i]);
			sep = ", ";
		}
	fprintf(f, "\n");
}

/* A constant's name for v among those starting with one of prefixes, or
 * NULL. */
static const char *const_name(uint32_t arch, uint64_t v,
			      const char *const *prefixes)
{
	/* Of two spellings, the usual one (AF_LOCAL is AF_UNIX). */
	static const char *const usual[] = {"AF_UNIX", "AF_INET", "AF_INET6",
					    "TCGETS", NULL};
	size_t n = ward_const_count(arch);

	for (const char *const *u = usual; *u; u++)
		for (size_t i = 0; i < n; i++)
			if (ward_const_value(arch, i) == v &&
			    !strcmp(ward_const_name(arch, i), *u) &&
			    !strncmp(*u, prefixes[0], strlen(prefixes[0])))
				return *u;
	for (const char *const *p = prefixes; *p; p++)
		for (size_t i = 0; i < n; i++) {
			const char *name = ward_const_name(arch, i);

			if (ward_const_value(arch, i) == v &&
			    !strncmp(name, *p, strlen(*p)))
				return name;
		}
	return NULL;
}

/* The values of argument arg of syscall n: up to cap of them in v; false
 * when there are more, or a record kept no values ("many"). */
static bool values(const struct ward_seen_set *s, const char *n, int arg,
		   uint64_t *v, size_t cap, size_t *nv, uint32_t *recs)
{
	*nv = 0;
	*recs = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct ward_seen *e = &s->v[i];
		size_t k;

		if (e->refused || strcmp(e->name, n))
			continue;
		*recs |= e->records;
		if (e->many || !(e->mask & (1u << arg)))
			return false;
		for (k = 0; k < *nv && v[k] != e->args[arg]; k++)
			;
		if (k < *nv)
			continue;
		if (*nv == cap)
			return false;
		v[(*nv)++] = e->args[arg];
	}
	return true;
}

static void cond_values(FILE *f, uint32_t arch, const char *argname,
			const uint64_t *v, size_t nv,
			const char *const *prefixes)
{
	for (size_t i = 0; i < nv; i++) {
		const char *c = const_name(arch, v[i], prefixes);

		fprintf(f, "%s%s == ", i ? " || " : "", argname);
		if (c)
			fprintf(f, "%s", c);
		else
			fprintf(f, "%#llx", (unsigned long long)v[i]);
	}
}

static void suggest_socket(FILE *f, const struct ward_seen_set *s)
{
	static const char *const af[] = {"AF_", NULL};
	uint64_t v[WARD_SUGGEST_FEW];
	size_t nv;
	uint32_t recs;
	bool few = values(s, "socket", 0, v, WARD_SUGGEST_FEW, &nv, &recs);

	if (!recs)
		return;
	comment_records(f, s, recs);
	if (!few) {
		fprintf(f, "    # (more socket families than a condition "
			   "lists)\n    allow socket;\n");
		return;
	}
	fprintf(f, "    allow socket if ");
	cond_values(f, s->arch, "domain", v, nv, af);
	fprintf(f, ";\n    errno EAFNOSUPPORT socket;\n");
}

static void suggest_ioctl(FILE *f, const struct ward_seen_set *s)
{
	static const char *const req[] = {"TC", "TIOC", "FIO", NULL};
	uint64_t v[WARD_SUGGEST_FEW], keep[WARD_SUGGEST_FEW];
	size_t nv, nk = 0;
	uint32_t recs;
	bool few = values(s, "ioctl", 1, v, WARD_SUGGEST_FEW, &nv, &recs);

	if (!recs)
		return;
	comment_records(f, s, recs);
	for (size_t i = 0; few && i < nv; i++)
		if ((uint32_t)v[i] != TIOCSTI_NR &&
		    (uint32_t)v[i] != TIOCLINUX_NR)
			keep[nk++] = v[i];
	if (!few) {
		fprintf(f, "    # (more ioctl requests than a condition "
			   "lists)\n    allow ioctl;\n");
	} else if (nk) {
		fprintf(f, "    allow ioctl if ");
		cond_values(f, s->arch, "request", keep, nk, req);
		fprintf(f, ";\n    errno ENOTTY ioctl;\n");
	} else {
		fprintf(f, "    errno ENOTTY ioctl;\n");
	}
	fprintf(f, "    kill ioctl if request == TIOCSTI || request == "
		   "TIOCLINUX;\n");
}

struct name_entry {
	const char *name;
	uint32_t recs;
	bool covered;
};

static bool group_used(const struct ward_suggest_group *g,
		       const struct name_entry *names, size_t n)
{
	if (g->logged || !g->nmembers)
		return false;
	for (size_t k = 0; k < g->nmembers; k++) {
		size_t i;

		for (i = 0; i < n && strcmp(names[i].name, g->members[k]); i++)
			;
		if (i == n)
			return false;
	}
	return true;
}

static int by_size(const void *a, const void *b)
{
	const struct ward_suggest_group *const *x = a, *const *y = b;

	if ((*x)->nmembers != (*y)->nmembers)
		return (*x)->nmembers < (*y)->nmembers ? 1 : -1;
	return strcmp((*x)->name, (*y)->name);
}

static void suggest_groups(FILE *f, const struct ward_seen_set *s,
			   const struct ward_suggest_group *groups, size_t ng,
			   struct name_entry *names, size_t n)
{
	_cleanup_free_ const struct ward_suggest_group **order =
	    calloc(ng ? ng : 1, sizeof(*order));

	if (!order)
		return;
	for (size_t i = 0; i < ng; i++)
		order[i] = &groups[i];
	qsort(order, ng, sizeof(*order), by_size);
	for (size_t i = 0; i < ng; i++) {
		const struct ward_suggest_group *g = order[i];
		uint32_t recs = 0;
		bool adds = false;

		if (!group_used(g, names, n))
			continue;
		for (size_t k = 0; k < g->nmembers; k++)
			for (size_t j = 0; j < n; j++)
				if (!strcmp(names[j].name, g->members[k])) {
					adds = adds || !names[j].covered;
					recs |= names[j].recs;
				}
		if (!adds)
			continue;
		for (size_t k = 0; k < g->nmembers; k++)
			for (size_t j = 0; j < n; j++)
				if (!strcmp(names[j].name, g->members[k]))
					names[j].covered = true;
		comment_records(f, s, recs);
		fprintf(f, "    # every syscall of %s was used\n", g->name);
		fprintf(f, "    allow %s;\n", g->name);
	}
}

/* The names left, one rule per set of records that needed them. */
static void suggest_names(FILE *f, const struct ward_seen_set *s,
			  struct name_entry *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t recs = names[i].recs;
		size_t col = 10;

		if (names[i].covered)
			continue;
		comment_records(f, s, recs);
		fprintf(f, "    allow");
		for (size_t j = i; j < n; j++) {
			if (names[j].covered || names[j].recs != recs)
				continue;
			if (col + strlen(names[j].name) > 76) {
				fprintf(f, ",\n         ");
				col = 10;
			} else if (j != i) {
				fprintf(f, ",");
			}
			fprintf(f, " %s", names[j].name);
			col += strlen(names[j].name) + 2;
			names[j].covered = true;
		}
		fprintf(f, ";\n");
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct name_entry *)a)->name,
		      ((const struct name_entry *)b)->name);
}

int ward_suggest_section(FILE *f, const struct ward_seen_set *s,
			 const struct ward_suggest_group *groups,
			 size_t ngroups, ward_err *err)
{
	_cleanup_free_ struct name_entry *names =
	    calloc(s->n + 1, sizeof(*names));
	size_t n = 0;
	const char *which;
	bool clone = false, refused_any = false;

	if (!names)
		return ward_fail(err, ENOMEM, "suggest");
	fprintf(f, "syscalls default errno ENOSYS {\n");
	/* What was seen but is never suggested: said, not allowed. */
	for (size_t i = 0; i < s->n; i++) {
		const struct ward_seen *e = &s->v[i];
		bool dup = false;

		if (!e->name[0]) {
			fprintf(f,
				"    # syscall %d, unknown to this wardc: "
				"not allowed\n",
				e->nr);
			continue;
		}
		if (e->refused) {
			fprintf(f,
				"    # refused while recording (never "
				"suggested): %s, %llu calls\n",
				e->name, (unsigned long long)e->count);
			refused_any = true;
			continue;
		}
		if (!strcmp(e->name, "clone")) {
			clone = true;
			continue;
		}
		if (special(e->name))
			continue;
		if (ward_danger_syscall(e->name) ||
		    in_logged_group(groups, ngroups, e->name, &which)) {
			fprintf(f,
				"    # seen but dangerous, never suggested: "
				"%s\n",
				e->name);
			continue;
		}
		for (size_t k = 0; k < n; k++)
			if (!strcmp(names[k].name, e->name)) {
				dup = true;
				break;
			}
		if (!dup)
			names[n++] = (struct name_entry){
			    e->name, seen_by(s, e->name), false};
	}
	(void)refused_any;
	/* A recording run allows execve without logging it (record_gen.h):
	 * every workload was exec'd, so every record needed it. */
	if (!seen_by(s, "execve"))
		names[n++] = (struct name_entry){
		    "execve", s->nrecords >= 32 ? ~0u : (1u << s->nrecords) - 1,
		    false};
	qsort(names, n, sizeof(*names), by_name);
	suggest_groups(f, s, groups, ngroups, names, n);
	suggest_names(f, s, names, n);
	if (clone) {
		comment_records(f, s, seen_by(s, "clone"));
		fprintf(f, "    # fork and threads, never new namespaces\n"
			   "    allow clone if flags & clone-namespaces == 0;\n"
			   "    errno EPERM clone;\n");
	}
	fprintf(f, "    # its flags are out of the filter's sight: glibc "
		   "falls back to clone\n    errno ENOSYS clone3;\n");
	suggest_socket(f, s);
	suggest_ioctl(f, s);
	fprintf(f, "    # the dangerous groups, refused whatever a record "
		   "saw\n    errno EPERM");
	{
		const char *sep = " ";
		for (size_t i = 0; i < ngroups; i++)
			if (groups[i].logged) {
				fprintf(f, "%s%s", sep, groups[i].name);
				sep = ", ";
			}
		fprintf(f, "%suserfaultfd;\n", sep);
	}
	fprintf(f, "}\n");
	return ferror(f) ? ward_fail(err, EIO, "suggest: write") : 0;
}
