/* SPDX-License-Identifier: MIT */
/*
 * lint.h: `wardc lint`, what in a checked policy widens the attack surface.
 *
 * The rules are a data table (lint_rules.c): an id (W104), a severity, a
 * weight in the exposure score, a one-line summary, an explanation and the
 * fix. ward_lint() runs every rule on a loaded and checked policy (a
 * struct ward_session), applies the suppression comments of the sources
 * (`# lint: allow W104 -- why`), and computes the exposure score. The
 * printers (text, JSON, SARIF, the rule list) take the result as it is.
 * docs/lint.md says what each rule means and how the score is made.
 */
#ifndef WARD_LINT_H
#define WARD_LINT_H

#include "diag.h"
#include "doc.h"
#include "driver.h"
#include "pool.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct lint_ctx;
struct lint_rule;

typedef void lint_check_fn(struct lint_ctx *c, const struct lint_rule *r);

struct lint_rule {
	const char *id;	  /* "W104": stable, never reused */
	const char *name; /* "writable-exec-mount": SARIF's rule name */
	enum ward_severity severity;
	/* Exposure weight; 0: the rule is not about exposure (compatibility,
	 * speed, hygiene of the suppressions) and the score ignores it. */
	unsigned weight;
	/* Rules that measure one exposure share a check: a failing check
	 * costs the highest weight among its failing rules, once. */
	const char *check;
	const char *area; /* filesystem, syscalls, network, resources,
			     identity, lint: the SARIF tag */
	/* SARIF security-severity ("8.5"), NULL for a rule that is not
	 * about security. */
	const char *security_severity;
	/* Judges what a complete policy lacks (a limit, a default): not run
	 * on a fragment. */
	bool policy_only;
	const char *summary;	 /* one line, no final period */
	const char *explanation; /* why it matters; a paragraph */
	const char *fix;	 /* what to write instead */
	lint_check_fn *run;	 /* NULL: reported by the engine (W9xx) */
	/* Syscall families: the names the check looks for. */
	const char *const *syscalls;
};

extern const struct lint_rule lint_rules[];
extern const size_t lint_nrules;

/* The rule with this id, or NULL. */
const struct lint_rule *lint_rule_find(const char *id);

/* The engine's own rules (suppression comments). */
#define LINT_ID_NO_REASON "W901"
#define LINT_ID_UNUSED	  "W902"
#define LINT_ID_BAD	  "W903"

struct lint_finding {
	const struct lint_rule *rule;
	struct ward_loc loc; /* file WARD_NO_FILE: no place in the source */
	const char *message;
	const char *help;    /* the fix for this finding; NULL: the rule's */
	const char *subject; /* what it is about ("/work", "ptrace"): part of
				the fingerprint */
	const char *fingerprint; /* 32 hex digits: rule, file, statement
				    text, subject */
	bool suppressed;
	const char *justification;     /* suppressed: the reason written */
	struct ward_loc suppressed_at; /* the comment that suppressed it */
};

/* One failing check, for "what costs the most". */
struct lint_cost {
	const char *check;
	const struct lint_rule *rule; /* the failing rule of highest weight */
	unsigned weight;
	bool suppressed; /* every finding of that rule was suppressed */
};

#define LINT_TOP_COSTS 5

/* The cost at which a policy scores 10.0, wide open (docs/lint.md, "The
 * exposure score"): a fixed scale, not the sum of every check's weight,
 * so that one hole costs the same score however many rules the catalogue
 * has (a sum grows with each rule added and dilutes every hole, until a
 * `bind /` scored 1.1 and passed a threshold of 2). Three catastrophic
 * holes (350 each) make a sandbox a formality. */
#define LINT_SCORE_FULL 1000u

struct lint_score {
	bool scored;	 /* policies only: a fragment has no score */
	unsigned tenths; /* 0..100: the score times ten, rounded */
	const char *level;
	unsigned cost;	/* weight of the failing checks */
	unsigned total; /* weight of every check (for the record: the score
			   is cost over LINT_SCORE_FULL) */
	struct lint_cost top[LINT_TOP_COSTS];
	size_t ntop;
};

struct lint_report {
	struct ward_pool *pool;
	const struct ward_sources *src; /* the session's: valid while it is */
	const char *file;		/* as given on the command line */
	const char *policy;		/* the policy's name; NULL: fragment */
	/* By file, line, column, rule id; suppressed ones included. */
	struct lint_finding *findings;
	size_t nfindings;
	struct lint_score score;
};

/* Lint a session that opened without errors. Never fails (out of memory
 * aborts, as everywhere in the compiler); release with ward_lint_free. */
void ward_lint(const struct ward_session *s, const char *file,
	       struct lint_report *out);
void ward_lint_free(struct lint_report *r);

/* Counts of the findings that were not suppressed, by severity. */
void lint_count(const struct lint_report *r, unsigned *errors,
		unsigned *warnings, unsigned *notes, unsigned *suppressed);

/*
 * The score: 10 * cost / total, in tenths, rounded half up; 0 when total
 * is 0. The level is named from the rounded score:
 * 0.0-0.9 OK, 1.0-2.9 MEDIUM, 3.0-5.9 EXPOSED, 6.0-10.0 UNSAFE.
 */
unsigned lint_score_tenths(unsigned cost, unsigned total);
const char *lint_level(unsigned tenths);
/* Can rule r fail on arch (WARD_ARCH_*)? Not when it is about syscalls
 * the target lacks altogether (iopl and ioperm on aarch64); arch 0: yes. */
bool lint_rule_applies(const struct lint_rule *r, uint32_t arch);
/* The score of a set of findings over the rules that apply on arch (what
 * ward_lint does at the end; exposed for the tests). */
void lint_score_compute(const struct lint_finding *f, size_t n, uint32_t arch,
			struct lint_score *out);

/* "3.5" or "10" into tenths (0..100). Returns -1 on anything else. */
int lint_parse_threshold(const char *s, unsigned *tenths);

/* The file's name as SARIF and the fingerprints want it: relative to the
 * current directory when under it, else absolute. In r->pool. */
const char *lint_display_path(struct ward_pool *pool, const char *name);

/* ------------------------------------------------------------ printers */

/* Findings as compiler diagnostics (suppressed ones as notes), then the
 * score and the checks that cost the most. */
void lint_print_text(const struct lint_report *r, FILE *out,
		     enum ward_color color);
/* A report as a document: file, policy, score, level, findings,
 * suppressed, top costs. */
struct doc *lint_report_doc(struct ward_pool *pool,
			    const struct lint_report *r);
/* SARIF 2.1.0, one run for all reports; failed[i] names a file that did
 * not compile (nfailed of them). */
struct doc *lint_sarif_doc(struct ward_pool *pool,
			   const struct lint_report *const *reports,
			   size_t nreports, const char *const *failed,
			   size_t nfailed);

/* The catalogue: text (id, severity, weight, summary), JSON or the
 * Markdown section of docs/lint.md. Returns -1 on an unknown format. */
int lint_print_rules(FILE *out, const char *format);

#endif
