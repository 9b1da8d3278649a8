/* SPDX-License-Identifier: MIT */
/*
 * lint_print.c: a lint report as compiler diagnostics with a closing score
 * (text), as a document (JSON), and the catalogue as a table, JSON or the
 * Markdown of docs/lint.md.
 */
#include "lint.h"

#include "source.h"

#include <ctype.h>
#include <string.h>

static const char *sev_name(enum ward_severity s)
{
	return s == WARD_SEV_ERROR     ? "error"
	       : s == WARD_SEV_WARNING ? "warning"
				       : "note";
}

/* ------------------------------------------------------------------ text */

static void print_score(const struct lint_report *r, FILE *out)
{
	unsigned e, w, n, s;
	lint_count(r, &e, &w, &n, &s);
	if (r->score.scored)
		fprintf(out, "%s: policy `%s`: exposure %u.%u of 10, %s\n",
			r->file, r->policy ? r->policy : "?",
			r->score.tenths / 10, r->score.tenths % 10,
			r->score.level);
	else
		fprintf(out,
			"%s: a fragment: no exposure score (lint a policy "
			"that uses it)\n",
			r->file);
	fprintf(out, "  %u error%s, %u warning%s, %u note%s; %u suppressed\n",
		e, e == 1 ? "" : "s", w, w == 1 ? "" : "s", n,
		n == 1 ? "" : "s", s);
	if (!r->score.scored || r->score.ntop == 0)
		return;
	fprintf(out, "  what costs the most (%u in all; %u scores 10.0):\n",
		r->score.cost, LINT_SCORE_FULL);
	for (size_t i = 0; i < r->score.ntop; i++) {
		const struct lint_cost *c = &r->score.top[i];
		fprintf(out, "    %4u  %s %s: %s%s\n", c->weight, c->rule->id,
			c->rule->name, c->rule->summary,
			c->suppressed ? " (suppressed)" : "");
	}
}

void lint_print_text(const struct lint_report *r, FILE *out,
		     enum ward_color color)
{
	struct ward_diags *d =
	    ward_diags_new(r->src, out, WARD_DIAG_TEXT, color, false);
	if (!d)
		return;
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct lint_finding *f = &r->findings[i];
		if (f->suppressed) {
			ward_diag(d, WARD_SEV_NOTE, f->loc,
				  "[%s] suppressed: %s", f->rule->id,
				  f->message);
			ward_diag_note(d, f->suppressed_at,
				       "suppressed here: %s", f->justification);
			continue;
		}
		ward_diag(d, f->rule->severity, f->loc, "[%s] %s", f->rule->id,
			  f->message);
		ward_diag_help(d, "%s", f->help ? f->help : f->rule->fix);
	}
	ward_diags_flush(d);
	ward_diags_free(d);
	print_score(r, out);
}

/* ------------------------------------------------------------------ JSON */

static struct doc *finding_doc(struct ward_pool *pl,
			       const struct lint_report *r,
			       const struct lint_finding *f)
{
	struct doc *d = doc_map(pl);
	doc_set_str(pl, d, "rule", f->rule->id);
	doc_set_str(pl, d, "name", f->rule->name);
	doc_set_str(pl, d, "severity", sev_name(f->rule->severity));
	doc_set_str(pl, d, "message", f->message);
	doc_set_str(pl, d, "help", f->help ? f->help : f->rule->fix);
	if (f->loc.file != WARD_NO_FILE) {
		doc_set_str(pl, d, "file",
			    lint_display_path(
				pl, ward_sources_name(r->src, f->loc.file)));
		doc_set_uint(pl, d, "line", f->loc.line);
		doc_set_uint(pl, d, "column", f->loc.col);
		doc_set_uint(pl, d, "end_line", f->loc.end_line);
		doc_set_uint(pl, d, "end_column", f->loc.end_col);
	}
	doc_set_str(pl, d, "fingerprint", f->fingerprint);
	if (f->suppressed) {
		struct doc *at;

		doc_set_str(pl, d, "justification", f->justification);
		at = doc_add(d, "suppressed_at", doc_map(pl));
		doc_set_uint(pl, at, "line", f->suppressed_at.line);
		doc_set_uint(pl, at, "column", f->suppressed_at.col);
	}
	return d;
}

struct doc *lint_report_doc(struct ward_pool *pl, const struct lint_report *r)
{
	struct doc *d = doc_map(pl);
	struct doc *cnt;
	struct doc *fs;
	struct doc *ss;
	unsigned e, w, n, s;

	doc_set_str(pl, d, "file", r->file);
	doc_set_str(pl, d, "policy", r->policy);
	if (r->score.scored) {
		struct doc *top;

		doc_add(d, "score", doc_fixed(pl, r->score.tenths, 1));
		doc_set_str(pl, d, "level", r->score.level);
		doc_set_uint(pl, d, "weight_failed", r->score.cost);
		doc_set_uint(pl, d, "weight_total", r->score.total);
		top = doc_add(d, "costliest", doc_list(pl));
		for (size_t i = 0; i < r->score.ntop; i++) {
			const struct lint_cost *c = &r->score.top[i];
			struct doc *x = doc_add(top, NULL, doc_map(pl));
			doc_set_str(pl, x, "rule", c->rule->id);
			doc_set_str(pl, x, "check", c->check);
			doc_set_uint(pl, x, "weight", c->weight);
			doc_set_bool(pl, x, "suppressed", c->suppressed);
		}
	} else {
		doc_set_str(pl, d, "score", NULL);
		doc_set_str(pl, d, "level", NULL);
	}
	lint_count(r, &e, &w, &n, &s);
	cnt = doc_add(d, "counts", doc_map(pl));
	doc_set_uint(pl, cnt, "error", e);
	doc_set_uint(pl, cnt, "warning", w);
	doc_set_uint(pl, cnt, "note", n);
	doc_set_uint(pl, cnt, "suppressed", s);
	fs = doc_add(d, "findings", doc_list(pl));
	ss = doc_add(d, "suppressed", doc_list(pl));
	for (size_t i = 0; i < r->nfindings; i++)
		doc_add(r->findings[i].suppressed ? ss : fs, NULL,
			finding_doc(pl, r, &r->findings[i]));
	return d;
}

/* ------------------------------------------------------------- the rules */

static void print_rules_text(FILE *out)
{
	for (size_t i = 0; i < lint_nrules; i++) {
		const struct lint_rule *r = &lint_rules[i];
		fprintf(out, "%s  %-7s  %3u  %-27s %s\n", r->id,
			sev_name(r->severity), r->weight, r->name, r->summary);
	}
}

static struct doc *rules_doc(struct ward_pool *pl)
{
	struct doc *list = doc_list(pl);
	for (size_t i = 0; i < lint_nrules; i++) {
		const struct lint_rule *r = &lint_rules[i];
		struct doc *d = doc_add(list, NULL, doc_map(pl));
		doc_set_str(pl, d, "id", r->id);
		doc_set_str(pl, d, "name", r->name);
		doc_set_str(pl, d, "severity", sev_name(r->severity));
		doc_set_uint(pl, d, "weight", r->weight);
		doc_set_str(pl, d, "check", r->check);
		doc_set_str(pl, d, "area", r->area);
		doc_set_str(pl, d, "security_severity", r->security_severity);
		doc_set_bool(pl, d, "policy_only", r->policy_only);
		doc_set_str(pl, d, "summary", r->summary);
		doc_set_str(pl, d, "explanation", r->explanation);
		doc_set_str(pl, d, "fix", r->fix);
	}
	return list;
}

/* The summary as a sentence: capital first letter. */
static void sentence(FILE *out, const char *s)
{
	if (s[0] == '`') {
		fputs(s, out);
		return;
	}
	fputc(toupper((unsigned char)s[0]), out);
	fputs(s + 1, out);
}

/* "w104": the anchor of a rule's section. */
static void anchor_of(const char *id, char *out, size_t len)
{
	size_t k = 0;
	for (; id[k] && k + 1 < len; k++)
		out[k] = (char)tolower((unsigned char)id[k]);
	out[k] = 0;
}

static void print_rules_markdown(FILE *out)
{
	fputs("| Rule | Severity | Weight | Check | Summary |\n"
	      "|---|---|---|---|---|\n",
	      out);
	for (size_t i = 0; i < lint_nrules; i++) {
		const struct lint_rule *r = &lint_rules[i];
		char anchor[8];
		anchor_of(r->id, anchor, sizeof(anchor));
		fprintf(out, "| [%s](#%s) | %s | %u | %s | %s |\n", r->id,
			anchor, sev_name(r->severity), r->weight, r->check,
			r->summary);
	}
	for (size_t i = 0; i < lint_nrules; i++) {
		const struct lint_rule *r = &lint_rules[i];
		char anchor[8];
		anchor_of(r->id, anchor, sizeof(anchor));
		fprintf(out, "\n<a id=\"%s\"></a>\n### %s %s\n\n", anchor,
			r->id, r->name);
		sentence(out, r->summary);
		fprintf(out, ".\n\n*%s*, weight %u (check `%s`), %s",
			sev_name(r->severity), r->weight, r->check, r->area);
		if (r->security_severity)
			fprintf(out, ", security severity %s",
				r->security_severity);
		if (r->policy_only)
			fputs("; policies only, not fragments", out);
		fputs(".\n\n", out);
		fputs(r->explanation, out);
		fputs("\n\n**Fix:** ", out);
		sentence(out, r->fix);
		fputs(".\n", out);
	}
}

int lint_print_rules(FILE *out, const char *format)
{
	if (strcmp(format, "text") == 0) {
		print_rules_text(out);
		return 0;
	}
	if (strcmp(format, "markdown") == 0) {
		print_rules_markdown(out);
		return 0;
	}
	if (strcmp(format, "json") == 0) {
		struct ward_pool *pl = ward_pool_new();
		int rc = doc_print_json(rules_doc(pl), out);
		ward_pool_free(pl);
		return rc < 0 ? -1 : 0;
	}
	return -1;
}
