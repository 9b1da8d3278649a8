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
	enum ward_type type; /* T_SIZE, T_DURATION, T_CPU, T_INT, or T_ERROR
				for a choice of words (words[0] is 0...) */
	uint64_t min, max;
	const char *range; /* the range as a person writes it */
	const char *const *words;
};

static const char *const oom_words[] = {"group", "process", NULL};
static const char *const mode_words[] = {"raw", "text", NULL};
static const char *const at_cap_words[] = {"truncate", "kill", NULL};

static const struct limit_def limits[] = {
    {"memory", WARD_LIM_MEMORY, T_SIZE, M, T, "1M and 1T", NULL},
    {"swap", WARD_LIM_SWAP, T_SIZE, 0, T, "0 and 1T", NULL},
    {"cpu", WARD_LIM_CPU, T_CPU, 10, 1024 * 1000, "0.01 and 1024", NULL},
    {"pids", WARD_LIM_PIDS, T_INT, 1, 4194304, "1 and 4194304", NULL},
    {"wall", WARD_LIM_WALL, T_DURATION, 1, 7 * DAY, "1ms and 7 days", NULL},
    {"grace", WARD_LIM_GRACE, T_DURATION, 0, 3600 * SEC, "0 and 1h", NULL},
    {"cputime", WARD_LIM_CPUTIME, T_DURATION, SEC, 7 * DAY, "1s and 7 days",
     NULL},
    {"nofile", WARD_LIM_NOFILE, T_INT, 1, 1048576, "1 and 1048576", NULL},
    {"nproc", WARD_LIM_NPROC, T_INT, 1, 4194304, "1 and 4194304", NULL},
    {"filesize", WARD_LIM_FILESIZE, T_SIZE, 0, T, "0 and 1T", NULL},
    {"stack", WARD_LIM_STACK, T_SIZE, 64 * K, G, "64K and 1G", NULL},
    {"memlock", WARD_LIM_MEMLOCK, T_SIZE, 0, G, "0 and 1G", NULL},
    {"core", WARD_LIM_CORE, T_SIZE, 0, T, "0 and 1T", NULL},
    {"stdout", WARD_LIM_STDOUT, T_SIZE, 0, T, "0 and 1T", NULL},
    {"stderr", WARD_LIM_STDERR, T_SIZE, 0, T, "0 and 1T", NULL},
    {"output", WARD_LIM_OUTPUT, T_SIZE, 0, T, "0 and 1T", NULL},
    {"sigpending", WARD_LIM_SIGPENDING, T_INT, 0, 4194304, "0 and 4194304",
     NULL},
    {"msgqueue", WARD_LIM_MSGQUEUE, T_SIZE, 0, G, "0 and 1G", NULL},
    {"inotify-instances", WARD_LIM_INOTIFY_INSTANCES, T_INT, 0, 65536,
     "0 and 65536", NULL},
    {"inotify-watches", WARD_LIM_INOTIFY_WATCHES, T_INT, 0, 16777216,
     "0 and 16777216", NULL},
    {"fanotify-groups", WARD_LIM_FANOTIFY_GROUPS, T_INT, 0, 65536,
     "0 and 65536", NULL},
    {"fanotify-marks", WARD_LIM_FANOTIFY_MARKS, T_INT, 0, 16777216,
     "0 and 16777216", NULL},
    {"slot-size", WARD_LIM_SLOT_SIZE, T_SIZE, M, T, "1M and 1T", NULL},
    {"oom", WARD_LIM_OOM, T_ERROR, 0, 1, "`group` or `process`", oom_words},
    /* `stdout text;` beside `stdout 1M;`: the same name, a word. */
    {"stdout", WARD_LIM_STDOUT_MODE, T_ERROR, 0, 1, "`raw` or `text`",
     mode_words},
    {"stderr", WARD_LIM_STDERR_MODE, T_ERROR, 0, 1, "`raw` or `text`",
     mode_words},
    /* What a stream passing its cap does (seed 004: stop at the cap). */
    {"stdout-at-cap", WARD_LIM_STDOUT_AT_CAP, T_ERROR, 0, 1,
     "`truncate` or `kill`", at_cap_words},
    {"stderr-at-cap", WARD_LIM_STDERR_AT_CAP, T_ERROR, 0, 1,
     "`truncate` or `kill`", at_cap_words},
};

/* The definition of st's limit: by its name, and for `stdout` and
 * `stderr` by whether the value is a word (the stream's mode) or a size. */
static const struct limit_def *find_limit(const struct ward_stmt *st)
{
	bool word = st->value && st->value->kind == WARD_V_NAME;

	for (size_t i = 0; i < ARRAY_LEN(limits); i++)
		if (strcmp(limits[i].name, st->name) == 0 &&
		    (!limits[i].words || word ||
		     (limits[i].key != WARD_LIM_STDOUT_MODE &&
		      limits[i].key != WARD_LIM_STDERR_MODE)) &&
		    (limits[i].words || !word ||
		     (limits[i].key != WARD_LIM_STDOUT &&
		      limits[i].key != WARD_LIM_STDERR)))
			return &limits[i];
	return NULL;
}

/* A choice of words: its index, or false after an error. */
static bool eval_word(struct sema *s, const struct limit_def *def,
		      const struct ward_stmt *st, uint64_t *v)
{
	const struct ward_value *val = st->value;
	size_t n = 0;
	const char *hit;

	for (; def->words[n]; n++)
		if (val->kind == WARD_V_NAME &&
		    !strcmp(val->str, def->words[n])) {
			*v = n;
			return true;
		}
	ward_diag(s->d, WARD_SEV_ERROR, val->loc, "`%s` takes %s, not `%s`",
		  def->name, def->range, val->text);
	hit = val->kind == WARD_V_NAME ? ward_suggest(val->str, def->words, n)
				       : NULL;
	if (hit)
		ward_diag_help(s->d, "did you mean `%s`?", hit);
	return false;
}

/* Is limits[i] the first entry of its name? (`stdout` and `stderr` are
 * in the table twice: a size and a word.) */
static bool first_of_name(size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(limits[j].name, limits[i].name))
			return false;
	return true;
}

/* The limits' names, each once, as "a, b and c". */
static const char *limit_list(struct ward_pool *p)
{
	const char *list = "";
	size_t total = 0, n = 0;

	for (size_t i = 0; i < ARRAY_LEN(limits); i++)
		total += first_of_name(i);
	for (size_t i = 0; i < ARRAY_LEN(limits); i++)
		if (first_of_name(i))
			list = ward_pool_printf(p, "%s%s%s", list,
						!n++	     ? ""
						: n == total ? " and "
							     : ", ",
						limits[i].name);
	return list;
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
		ward_diag_help(s->d, "the limits are %s", limit_list(s->pool));
}

static bool eval_limit(struct sema *s, const struct limit_def *def,
		       const struct ward_stmt *st, uint64_t *v)
{
	char what[64];
	snprintf(what, sizeof(what), "the `%s` limit", def->name);
	if (def->words)
		return eval_word(s, def, st, v);
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
		const struct limit_def *def = find_limit(st);
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
