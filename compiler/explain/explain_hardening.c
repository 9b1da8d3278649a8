/* SPDX-License-Identifier: MIT */
/*
 * explain_hardening.c: see explain_hardening.h. The figures come from the
 * blob and from the contract's constants (common/policy.h), so that what
 * explain says is what the launcher does.
 */
#include "explain_hardening.h"
#include "units.h"

#include "describe.h"
#include "proc_mask.h"
#include "util.h"

#include <string.h>

/* The timers of a run: the supervisor's SIGTERM at the wall, its SIGKILL
 * after the grace, and init's own backstop (docs/spec.md 3.4, 4.3). */
struct timers {
	bool wall;
	uint64_t term_ms, kill_ms, backstop_ms;
};

static struct timers timers_of(const struct ward_limits *l)
{
	struct timers t = {.wall = ward_limit_is_set(l, WARD_LIM_WALL)};
	uint64_t grace =
	    ward_limit_is_set(l, WARD_LIM_GRACE) ? l->value[WARD_LIM_GRACE] : 0;

	if (!t.wall)
		return t;
	t.term_ms = l->value[WARD_LIM_WALL];
	t.kill_ms = t.term_ms + grace;
	t.backstop_ms = t.kill_ms + WARD_BACKSTOP_MARGIN_MS;
	return t;
}

/* The limits the launcher applies whether or not the policy writes them
 * (ward_limit_default), in the order of spec 3.9. */
static const enum ward_limit per_user[] = {
    WARD_LIM_INOTIFY_INSTANCES, WARD_LIM_INOTIFY_WATCHES,
    WARD_LIM_FANOTIFY_GROUPS,	WARD_LIM_FANOTIFY_MARKS,
    WARD_LIM_MSGQUEUE,		WARD_LIM_SIGPENDING,
    WARD_LIM_MEMLOCK,		WARD_LIM_CORE,
};

static void text_per_user(FILE *out, struct ward_pool *pool,
			  const struct ward_limits *l)
{
	int col = 0;

	fputs("  per-user  charged by the kernel to the host user that owns "
	      "the sandbox's user\n"
	      "            namespace (root in root mode; docs/spec.md 3.9):\n"
	      "           ",
	      out);
	col = 11;
	for (size_t i = 0; i < ARRAY_LEN(per_user); i++) {
		enum ward_limit k = per_user[i];
		uint64_t v = 0;
		const char *item;

		ward_limit_effective(l, k, &v);
		item = ward_pool_printf(
		    pool, " %s %s%s%s", describe_limit_name(k),
		    describe_limit_value(pool, k, v),
		    ward_limit_is_set(l, k) ? "" : " (default)",
		    i + 1 < ARRAY_LEN(per_user) ? "," : "");
		if (col + (int)strlen(item) > 78) {
			fputs("\n           ", out);
			col = 11;
		}
		fputs(item, out);
		col += (int)strlen(item);
	}
	fputs("\n            no namespace of any kind can be made below the "
	      "sandbox's\n",
	      out);
}

static bool has_kind(const struct ward_policy *p, uint32_t kind, bool rw)
{
	for (uint32_t i = 0; i < p->nmounts; i++)
		if (p->mounts[i].kind == kind &&
		    (!rw || (p->mounts[i].flags & WARD_MNT_F_RW)))
			return true;
	return false;
}

/* "  label     a, b, c" wrapped at 78 columns. */
static void text_list(FILE *out, const char *label, const char *const *v,
		      size_t n)
{
	int col = fprintf(out, "  %-9s", label);

	for (size_t i = 0; i < n; i++) {
		int w = (int)strlen(v[i]) + (i + 1 < n ? 2 : 0);

		if (col + 1 + w > 78) {
			fputs("\n           ", out);
			col = 11;
		}
		col += fprintf(out, " %s%s", v[i], i + 1 < n ? "," : "");
	}
	fputc('\n', out);
}

static void text_hidden(FILE *out, const struct ward_policy *p)
{
	if (has_kind(p, WARD_MNT_PROC, false)) {
		text_list(out, "proc", ward_proc_masked_files,
			  ARRAY_LEN(ward_proc_masked_files));
		fputs("            read as empty files; empty directories:",
		      out);
		for (size_t i = 0; i < ARRAY_LEN(ward_proc_masked_dirs); i++)
			fprintf(out, " %s%s", ward_proc_masked_dirs[i],
				i + 1 < ARRAY_LEN(ward_proc_masked_dirs) ? ","
									 : ";");
		fputs("\n            read-only:", out);
		for (size_t i = 0; i < ARRAY_LEN(ward_proc_readonly); i++)
			fprintf(out, " %s%s", ward_proc_readonly[i],
				i + 1 < ARRAY_LEN(ward_proc_readonly) ? ","
								      : "\n");
	}
	/* (what mount_hide.c and do_rw_slot make of a slot; a file slot is a
	 * bind of the file, whose host path mountinfo still shows) */
	if (has_kind(p, WARD_MNT_SLOT, false))
		fputs("  slots     read-only directories are overlays of "
		      "themselves, writable ones\n            tmpfs mounts "
		      "copied back after the run: mountinfo shows `/`, not\n"
		      "            their host path (a file slot, a bind of the "
		      "file, still shows its own)\n",
		      out);
}

void ward_hardening_text(FILE *out, struct ward_pool *pool,
			 const struct ward_policy *p)
{
	struct timers t = timers_of(&p->limits);

	fputs("\nsandbox (what the launcher adds)\n", out);
	if (!t.wall)
		fputs("  timers    none: no `wall` limit, so no timeout and no "
		      "backstop\n",
		      out);
	else if (t.kill_ms == t.term_ms)
		fprintf(out,
			"  timers    SIGKILL to the sandbox at %s (wall; no "
			"grace)\n",
			ward_duration_str(pool, t.kill_ms));
	else
		fprintf(out,
			"  timers    SIGTERM to the target at %s (wall), "
			"SIGKILL at %s (wall + grace)\n",
			ward_duration_str(pool, t.term_ms),
			ward_duration_str(pool, t.kill_ms));
	if (t.wall)
		fprintf(out,
			"  backstop  init ends the sandbox at %s, even with "
			"the supervisor stopped\n",
			ward_duration_str(pool, t.backstop_ms));
	fputs("  init      shows `ward-init` as its command line, and no "
	      "environment\n",
	      out);
	if (p->exec & WARD_EXEC_MEMFD)
		fputs("  memfd     executable (`memfd exec`): what the sandbox "
		      "writes into a memfd\n            it may run (refused if "
		      "the host's vm.memfd_noexec is 2)\n",
		      out);
	else
		fputs(
		    "  memfd     not executable: vm.memfd_noexec = 2 in the "
		    "sandbox's pid namespace\n"
		    "            (root mode); rootless or before Linux 6.3, a "
		    "seccomp guard fails\n"
		    "            memfd_create with EACCES when it asks for "
		    "MFD_EXEC, or, where the\n"
		    "            host's setting is 0, when it does not ask for "
		    "MFD_NOEXEC_SEAL\n",
		    out);
	text_hidden(out, p);
	text_per_user(out, pool, &p->limits);
}

void ward_hardening_doc(struct doc *d, struct ward_pool *pool,
			const struct ward_policy *p)
{
	struct timers t = timers_of(&p->limits);
	struct doc *s = doc_add(d, "sandbox", doc_map(pool));
	struct doc *tm = doc_add(s, "timers", doc_map(pool));

	doc_set_bool(pool, tm, "timed", t.wall);
	if (t.wall) {
		if (t.kill_ms != t.term_ms)
			doc_set_uint(pool, tm, "sigterm_ms", t.term_ms);
		doc_set_uint(pool, tm, "sigkill_ms", t.kill_ms);
		doc_set_uint(pool, tm, "backstop_ms", t.backstop_ms);
	}
	doc_set_str(pool, s, "init_cmdline", "ward-init");
	doc_set_bool(pool, s, "memfd_exec", p->exec & WARD_EXEC_MEMFD);
	if (has_kind(p, WARD_MNT_PROC, false)) {
		struct doc *pm = doc_add(s, "proc", doc_map(pool));
		struct doc *l = doc_add(pm, "masked_files", doc_list(pool));
		for (size_t i = 0; i < ARRAY_LEN(ward_proc_masked_files); i++)
			doc_add(l, NULL,
				doc_str(pool, ward_proc_masked_files[i]));
		l = doc_add(pm, "masked_dirs", doc_list(pool));
		for (size_t i = 0; i < ARRAY_LEN(ward_proc_masked_dirs); i++)
			doc_add(l, NULL,
				doc_str(pool, ward_proc_masked_dirs[i]));
		l = doc_add(pm, "read_only", doc_list(pool));
		for (size_t i = 0; i < ARRAY_LEN(ward_proc_readonly); i++)
			doc_add(l, NULL, doc_str(pool, ward_proc_readonly[i]));
	}
	doc_set_str(pool, s, "mountinfo_hides",
		    "the host paths of directory slots (read-only: overlays; "
		    "writable: tmpfs mounts copied back)");
	struct doc *pu = doc_add(s, "per_user", doc_map(pool));
	for (size_t i = 0; i < ARRAY_LEN(per_user); i++) {
		enum ward_limit k = per_user[i];
		struct doc *x =
		    doc_add(pu, describe_limit_name(k), doc_map(pool));
		uint64_t v = 0;

		ward_limit_effective(&p->limits, k, &v);
		doc_set_uint(pool, x, "value", v);
		doc_set_bool(pool, x, "default",
			     !ward_limit_is_set(&p->limits, k));
	}
	doc_set_uint(pool, s, "namespaces_below", 0);
}
