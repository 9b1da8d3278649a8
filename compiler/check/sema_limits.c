/* SPDX-License-Identifier: MIT */
/*
 * sema_limits.c: the `limits` section, from a table of the limits the
 * language knows (spec 1.7.5).
 */
#include "sema_internal.h"

#include <string.h>

#define K   1024ull
#define M   (1024ull * K)
#define G   (1024ull * M)
#define T   (1024ull * G)
#define SEC 1000ull
#define DAY (86400ull * SEC)

struct limit_def {
	const char *name;
	enum ward_limit key;
	enum ward_type type; /* T_SIZE, T_DURATION, T_CPU or T_INT */
	uint64_t min, max;
	const char *range; /* the range as a person writes it */
};

static const struct limit_def limits[] = {
    {"memory", WARD_LIM_MEMORY, T_SIZE, M, T, "1M and 1T"},
    {"swap", WARD_LIM_SWAP, T_SIZE, 0, T, "0 and 1T"},
    {"cpu", WARD_LIM_CPU, T_CPU, 10, 1024 * 1000, "0.01 and 1024"},
    {"pids", WARD_LIM_PIDS, T_INT, 1, 4194304, "1 and 4194304"},
    {"wall", WARD_LIM_WALL, T_DURATION, 1, 7 * DAY, "1ms and 7 days"},
    {"grace", WARD_LIM_GRACE, T_DURATION, 0, 3600 * SEC, "0 and 1h"},
    {"cputime", WARD_LIM_CPUTIME, T_DURATION, SEC, 7 * DAY, "1s and 7 days"},
    {"nofile", WARD_LIM_NOFILE, T_INT, 1, 1048576, "1 and 1048576"},
    {"nproc", WARD_LIM_NPROC, T_INT, 1, 4194304, "1 and 4194304"},
    {"filesize", WARD_LIM_FILESIZE, T_SIZE, 0, T, "0 and 1T"},
    {"stack", WARD_LIM_STACK, T_SIZE, 64 * K, G, "64K and 1G"},
    {"memlock", WARD_LIM_MEMLOCK, T_SIZE, 0, G, "0 and 1G"},
    {"core", WARD_LIM_CORE, T_SIZE, 0, T, "0 and 1T"},
    {"stdout", WARD_LIM_STDOUT, T_SIZE, 0, T, "0 and 1T"},
    {"stderr", WARD_LIM_STDERR, T_SIZE, 0, T, "0 and 1T"},
    {"output", WARD_LIM_OUTPUT, T_SIZE, 0, T, "0 and 1T"},
    {"sigpending", WARD_LIM_SIGPENDING, T_INT, 0, 4194304, "0 and 4194304"},
    {"msgqueue", WARD_LIM_MSGQUEUE, T_SIZE, 0, G, "0 and 1G"},
    {"inotify-instances", WARD_LIM_INOTIFY_INSTANCES, T_INT, 0, 65536,
     "0 and 65536"},
    {"inotify-watches", WARD_LIM_INOTIFY_WATCHES, T_INT, 0, 16777216,
     "0 and 16777216"},
    {"fanotify-groups", WARD_LIM_FANOTIFY_GROUPS, T_INT, 0, 65536,
     "0 and 65536"},
    {"fanotify-marks", WARD_LIM_FANOTIFY_MARKS, T_INT, 0, 16777216,
     "0 and 16777216"},
};

static const struct limit_def *find_limit(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(limits); i++)
		if (strcmp(limits[i].name, name) == 0)
			return &limits[i];
	return NULL;
}

static void unknown_limit(struct sema *s, const struct ward_stmt *st)
{
	const char *names[ARRAY_LEN(limits)];
	const char *hit;

	for (size_t i = 0; i < ARRAY_LEN(limits); i++)
		names[i] = limits[i].name;
	ward_diag(s->d, WARD_SEV_ERROR, st->name_loc, "unknown limit `%s`",
		  st->name);
	hit = ward_suggest(st->name, names, ARRAY_LEN(names));
	if (hit)
		ward_diag_help(s->d, "did you mean `%s`?", hit);
	else
		ward_diag_help(s->d,
			       "the limits are memory, swap, cpu, pids, wall, "
			       "grace, cputime, nofile, nproc, filesize, "
			       "stack, memlock, core, stdout, stderr, "
			       "output, sigpending, msgqueue, "
			       "inotify-instances, inotify-watches, "
			       "fanotify-groups and fanotify-marks");
}

static bool eval_limit(struct sema *s, const struct limit_def *def,
		       const struct ward_stmt *st, uint64_t *v)
{
	char what[64];
	snprintf(what, sizeof(what), "the `%s` limit", def->name);
	switch (def->type) {
	case T_SIZE:
		return sema_size(s, st->value, what, v);
	case T_DURATION:
		return sema_duration(s, st->value, what, v);
	case T_CPU:
		return sema_cpu(s, st->value, what, v);
	default:
		return sema_int(s, st->value, what, v);
	}
}

void sema_limits(struct sema *s)
{
	const struct ward_stmt *seen[WARD_LIM_COUNT] = {0};
	struct ward_limits *out = &s->out->limits;
	const struct ward_stmt **items;
	static const enum ward_limit streams[] = {WARD_LIM_STDOUT,
						  WARD_LIM_STDERR};

	for (int k = 0; k < WARD_LIM_COUNT; k++)
		s->where->limits[k] = sema_noloc();

	items = s->limit_items.items;
	for (size_t i = 0; i < s->limit_items.n; i++) {
		const struct ward_stmt *st = items[i];
		const struct limit_def *def = find_limit(st->name);
		char what[64];
		uint64_t v;

		if (!def) {
			unknown_limit(s, st);
			continue;
		}
		snprintf(what, sizeof(what), "the `%s` limit", def->name);
		if (!sema_once(s, &seen[def->key], st, what))
			continue;
		if (!eval_limit(s, def, st, &v))
			continue;
		if (v < def->min || v > def->max) {
			ward_diag(s->d, WARD_SEV_ERROR, st->value->loc,
				  "%s is out of range", what);
			ward_diag_help(s->d, "it must be between %s",
				       def->range);
			continue;
		}
		out->set |= 1ull << def->key;
		out->value[def->key] = v;
		s->where->limits[def->key] = st->name_loc;
	}

	/* What the host must provide to enforce these. */
	if (ward_limit_is_set(out, WARD_LIM_MEMORY))
		s->out->requirements |= WARD_REQ_CGROUP_MEMORY;
	if (ward_limit_is_set(out, WARD_LIM_SWAP)) {
		s->out->requirements |= WARD_REQ_CGROUP_SWAP;
		if (!ward_limit_is_set(out, WARD_LIM_MEMORY))
			ward_diag(s->d, WARD_SEV_ERROR,
				  seen[WARD_LIM_SWAP]->name_loc,
				  "a `swap` limit needs a `memory` limit");
	}
	if (ward_limit_is_set(out, WARD_LIM_CPU))
		s->out->requirements |= WARD_REQ_CGROUP_CPU;
	if (ward_limit_is_set(out, WARD_LIM_PIDS))
		s->out->requirements |= WARD_REQ_CGROUP_PIDS;

	if (ward_limit_is_set(out, WARD_LIM_GRACE) &&
	    !ward_limit_is_set(out, WARD_LIM_WALL))
		ward_diag(s->d, WARD_SEV_WARNING,
			  seen[WARD_LIM_GRACE]->name_loc,
			  "`grace` has no effect without a `wall` limit");

	for (size_t i = 0; i < ARRAY_LEN(streams); i++) {
		enum ward_limit k = streams[i];
		if (ward_limit_is_set(out, k) &&
		    ward_limit_is_set(out, WARD_LIM_OUTPUT) &&
		    out->value[k] > out->value[WARD_LIM_OUTPUT]) {
			ward_diag(s->d, WARD_SEV_WARNING, seen[k]->value->loc,
				  "the `%s` cap is larger than the `output` "
				  "cap, which limits both streams together",
				  k == WARD_LIM_STDOUT ? "stdout" : "stderr");
			ward_diag_note(s->d, seen[WARD_LIM_OUTPUT]->value->loc,
				       "the `output` cap is set here");
		}
	}
}
