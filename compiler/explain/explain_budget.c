/* SPDX-License-Identifier: MIT */
/*
 * explain_budget.c: the worst case a policy implies, for `wardc explain`.
 *
 * A caller that retries a failed run waits, at worst, for every run to hit
 * its wall limit, plus the time it spends queued and starting sandboxes:
 *
 *     T = (1 + N) x T_run + T_queue
 *
 * N and T_queue belong to the caller, not the policy (explain takes them
 * as --retries and --queue, with the first seed's example as defaults);
 * T_run is the policy's `wall` plus its `grace`, the longest a run can take
 * before the supervisor's SIGKILL. The export bound is what one export rule
 * lets out of the sandbox: per-file caps alone add up over many files, so
 * it is min(files x per-file, total).
 */
#include "explain_budget.h"

#include "blob.h"
#include "units.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ward_budget_options(const char *retries, const char *queue,
			struct ward_budget *b, char *why, size_t whylen)
{
	memset(b, 0, sizeof(*b));
	b->retries = WARD_BUDGET_RETRIES;
	b->queue_ms = WARD_BUDGET_QUEUE_MS;
	if (retries) {
		char *end;
		unsigned long long n;

		errno = 0;
		n = strtoull(retries, &end, 10);
		if (!*retries || *end || errno || retries[0] == '-' ||
		    n > WARD_BUDGET_RETRIES_MAX) {
			snprintf(why, whylen,
				 "--retries takes a whole number from 0 to %d, "
				 "not `%s`",
				 WARD_BUDGET_RETRIES_MAX, retries);
			return -1;
		}
		b->retries = n;
	}
	if (queue && ward_parse_duration_ms(queue, &b->queue_ms) < 0) {
		snprintf(why, whylen,
			 "--queue takes a duration such as 12s, 500ms or 2m, "
			 "not `%s`",
			 queue);
		return -1;
	}
	return 0;
}

void ward_budget_compute(const struct ward_policy *p, struct ward_budget *b)
{
	const struct ward_limits *l = &p->limits;

	b->bounded = ward_limit_is_set(l, WARD_LIM_WALL);
	if (!b->bounded)
		return;
	b->run_ms = l->value[WARD_LIM_WALL];
	if (ward_limit_is_set(l, WARD_LIM_GRACE))
		b->run_ms += l->value[WARD_LIM_GRACE];
	/* At most 1001 runs of 7 days and 1 h each, and a queue that fits
	 * 64 bits: no overflow is possible, but say so if one were. */
	if (__builtin_mul_overflow(b->retries + 1, b->run_ms, &b->worst_ms) ||
	    __builtin_add_overflow(b->worst_ms, b->queue_ms, &b->worst_ms))
		b->worst_ms = UINT64_MAX;
}

uint64_t ward_export_bound(const struct ward_export_rule *e)
{
	uint64_t product;

	if (__builtin_mul_overflow((uint64_t)e->max_files, e->per_file,
				   &product))
		product = UINT64_MAX;
	return e->total && e->total < product ? e->total : product;
}

const char *ward_export_types_str(struct ward_pool *pool, uint32_t types)
{
	char buf[128] = "";
	size_t n = 0;

	for (uint32_t bit = 1; bit & WARD_EXPORT_T_ALL; bit <<= 1)
		if (types & bit)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
					      n ? ", " : "",
					      ward_export_type_name(bit));
	return ward_pool_strdup(pool, buf);
}

static const char *action_name(uint32_t a)
{
	return a == WARD_EXPORT_SKIP ? "skip" : "refuse";
}

/* ----------------------------------------------------------------- text */

/* What a run can put on the host's disk through a read-write slot: a
 * directory slot is a tmpfs of its size, and only what fits is copied back
 * (docs/spec.md 1.7.3); a file slot is bounded by `filesize`. */
static bool slot_bound(const struct ward_mount *m)
{
	return m->kind == WARD_MNT_SLOT && (m->flags & WARD_MNT_F_RW) &&
	       m->size;
}

static void budget_slots_text(FILE *out, struct ward_pool *pool,
			      const struct ward_policy *p)
{
	for (uint32_t i = 0; i < p->nmounts; i++)
		if (slot_bound(&p->mounts[i]))
			fprintf(out,
				"  slot %s: at most %s back to the host per "
				"run (a directory; a file: `filesize`)\n",
				p->mounts[i].src,
				ward_size_str(pool, p->mounts[i].size));
}

void ward_budget_text(FILE *out, struct ward_pool *pool,
		      const struct ward_policy *p, const struct ward_budget *b)
{
	fputs("\nexport (copied out of the slot after the run; types are "
	      "checked by content)\n",
	      out);
	if (!p->nexports)
		fputs("  (none: nothing is exported)\n", out);
	for (uint32_t i = 0; i < p->nexports; i++) {
		const struct ward_export_rule *e = &p->exports[i];
		fprintf(out, "  slot %s: %u files, %s each, ", e->slot,
			e->max_files, ward_size_str(pool, e->per_file));
		if (e->total)
			fprintf(out, "%s in all\n",
				ward_size_str(pool, e->total));
		else
			fputs("no total cap\n", out);
		fputs("    names:", out);
		if (!e->nnames)
			fputs(" any", out);
		for (uint32_t k = 0; k < e->nnames; k++)
			fprintf(out, " %s", e->names[k]);
		fprintf(out, "\n    types: %s\n    on violation: %s\n",
			ward_export_types_str(pool, e->types),
			e->on_violation == WARD_EXPORT_SKIP
			    ? "skip the file, record why"
			    : "refuse the whole export");
	}

	fputs("\nbudget (worst case)\n", out);
	if (!b->bounded) {
		fputs("  one run: unbounded (no `wall` limit)\n", out);
		fputs("  end to end: unbounded\n", out);
	} else {
		const struct ward_limits *l = &p->limits;
		fprintf(
		    out, "  one run: %s (wall %s + grace %s)\n",
		    ward_duration_str(pool, b->run_ms),
		    ward_duration_str(pool, l->value[WARD_LIM_WALL]),
		    ward_duration_str(pool, ward_limit_is_set(l, WARD_LIM_GRACE)
						? l->value[WARD_LIM_GRACE]
						: 0));
		fprintf(out,
			"  end to end, %llu retries and %s of queue and "
			"start-up:\n    (1 + %llu) x %s + %s = %s\n",
			(unsigned long long)b->retries,
			ward_duration_str(pool, b->queue_ms),
			(unsigned long long)b->retries,
			ward_duration_str(pool, b->run_ms),
			ward_duration_str(pool, b->queue_ms),
			ward_duration_str(pool, b->worst_ms));
	}
	for (uint32_t i = 0; i < p->nexports; i++) {
		const struct ward_export_rule *e = &p->exports[i];
		uint64_t product;
		bool big = __builtin_mul_overflow((uint64_t)e->max_files,
						  e->per_file, &product);
		fprintf(out, "  export %s: ", e->slot);
		if (e->total)
			fprintf(out, "min(%u x %s = %s, total %s) = %s\n",
				e->max_files, ward_size_str(pool, e->per_file),
				big ? "> 16 EiB" : ward_size_str(pool, product),
				ward_size_str(pool, e->total),
				ward_size_str(pool, ward_export_bound(e)));
		else
			fprintf(out, "%u x %s = %s (no total cap)\n",
				e->max_files, ward_size_str(pool, e->per_file),
				big ? "> 16 EiB"
				    : ward_size_str(pool, product));
	}
	budget_slots_text(out, pool, p);
}

/* ------------------------------------------------------------- document */

void ward_budget_doc(struct doc *d, struct ward_pool *pool,
		     const struct ward_policy *p, const struct ward_budget *b)
{
	struct doc *list = doc_add(d, "export", doc_list(pool));
	struct doc *bd;
	struct doc *ex;

	for (uint32_t i = 0; i < p->nexports; i++) {
		const struct ward_export_rule *e = &p->exports[i];
		struct doc *x = doc_add(list, NULL, doc_map(pool));
		struct doc *names;
		struct doc *types;

		doc_set_str(pool, x, "slot", e->slot);
		doc_set_uint(pool, x, "files", e->max_files);
		doc_set_uint(pool, x, "per_file_bytes", e->per_file);
		if (e->total)
			doc_set_uint(pool, x, "total_bytes", e->total);
		else
			doc_add(x, "total_bytes",
				ward_pool_alloc(pool, sizeof(struct doc)));
		names = doc_add(x, "names", doc_list(pool));
		for (uint32_t k = 0; k < e->nnames; k++)
			doc_add(names, NULL, doc_str(pool, e->names[k]));
		types = doc_add(x, "types", doc_list(pool));
		for (uint32_t bit = 1; bit & WARD_EXPORT_T_ALL; bit <<= 1)
			if (e->types & bit)
				doc_add(
				    types, NULL,
				    doc_str(pool, ward_export_type_name(bit)));
		doc_set_str(pool, x, "on_violation",
			    action_name(e->on_violation));
		doc_set_uint(pool, x, "bound_bytes", ward_export_bound(e));
	}

	bd = doc_add(d, "budget", doc_map(pool));
	doc_set_uint(pool, bd, "retries", b->retries);
	doc_set_uint(pool, bd, "queue_ms", b->queue_ms);
	if (b->bounded) {
		doc_set_uint(pool, bd, "run_ms", b->run_ms);
		doc_set_uint(pool, bd, "worst_ms", b->worst_ms);
	} else {
		/* DOC_NULL: a zeroed node */
		doc_add(bd, "run_ms",
			ward_pool_alloc(pool, sizeof(struct doc)));
		doc_add(bd, "worst_ms",
			ward_pool_alloc(pool, sizeof(struct doc)));
	}
	ex = doc_add(bd, "export_bytes", doc_map(pool));
	for (uint32_t i = 0; i < p->nexports; i++)
		doc_set_uint(pool, ex, p->exports[i].slot,
			     ward_export_bound(&p->exports[i]));
	ex = doc_add(bd, "slot_bytes", doc_map(pool));
	for (uint32_t i = 0; i < p->nmounts; i++)
		if (slot_bound(&p->mounts[i]))
			doc_set_uint(pool, ex, p->mounts[i].src,
				     p->mounts[i].size);
}
