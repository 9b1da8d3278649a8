/* SPDX-License-Identifier: MIT */
/*
 * lint_sarif.c: lint reports as SARIF 2.1.0, in the subset GitHub code
 * scanning reads: the rule metadata (descriptions, help, default level,
 * tags, security-severity), one result per finding with its location
 * relative to the checkout (%SRCROOT%), a partial fingerprint that follows
 * the finding across commits, in-source suppressions with their
 * justification, and the exposure scores as run properties.
 *
 * Columns are byte columns: they equal SARIF's default UTF-16 columns
 * wherever a policy is ASCII, which is everywhere but strings and
 * comments.
 */
#include "lint.h"

#include "source.h"

#include <ctype.h>
#include <string.h>

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#ifndef WARD_HOME_URL
#define WARD_HOME_URL "https://github.com/ward-sandbox/ward"
#endif
#define FINGERPRINT_KEY "wardFindingHash/v1"

static const char *level(enum ward_severity s)
{
	return s == WARD_SEV_ERROR     ? "error"
	       : s == WARD_SEV_WARNING ? "warning"
				       : "note";
}

static struct doc *text(struct ward_pool *pl, const char *s)
{
	struct doc *d = doc_map(pl);
	doc_set_str(pl, d, "text", s);
	return d;
}

static const char *capital(struct ward_pool *pl, const char *s)
{
	char *c = ward_pool_strdup(pl, s);
	if (c[0] != '`')
		c[0] = (char)toupper((unsigned char)c[0]);
	return c;
}

static struct doc *rule_doc(struct ward_pool *pl, const struct lint_rule *r)
{
	struct doc *d = doc_map(pl);
	struct doc *help;
	struct doc *conf;
	struct doc *props;
	struct doc *tags;

	doc_set_str(pl, d, "id", r->id);
	doc_set_str(pl, d, "name", r->name);
	doc_add(d, "shortDescription",
		text(pl, ward_pool_printf(pl, "%s", capital(pl, r->summary))));
	doc_add(d, "fullDescription", text(pl, r->explanation));
	help = doc_add(d, "help", doc_map(pl));
	doc_set_str(
	    pl, help, "text",
	    ward_pool_printf(pl, "%s\n\nFix: %s.", r->explanation, r->fix));
	doc_set_str(
	    pl, help, "markdown",
	    ward_pool_printf(pl, "%s\n\n**Fix:** %s.", r->explanation, r->fix));
	conf = doc_add(d, "defaultConfiguration", doc_map(pl));
	doc_set_str(pl, conf, "level", level(r->severity));
	props = doc_add(d, "properties", doc_map(pl));
	tags = doc_add(props, "tags", doc_list(pl));
	if (r->security_severity)
		doc_add(tags, NULL, doc_str(pl, "security"));
	doc_add(tags, NULL, doc_str(pl, r->area));
	doc_set_str(pl, props, "precision", "high");
	if (r->security_severity)
		doc_set_str(pl, props, "security-severity",
			    r->security_severity);
	doc_set_uint(pl, props, "weight", r->weight);
	doc_set_str(pl, props, "check", r->check);
	return d;
}

/*
 * A file name as the path of an RFC 3986 URI reference: every byte but
 * the unreserved characters (ALPHA DIGIT - . _ ~) and `/` percent-encoded,
 * upper-case, so `my policy#1.ward` is `my%20policy%231.ward` and a name
 * that is not UTF-8 keeps its bytes (%FF) in pure ASCII. Encoding `:` too
 * keeps a relative name from reading as a scheme (RFC 3986 4.2).
 */
static const char *uri_path(struct ward_pool *pl, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path);
	char *out = ward_pool_alloc(pl, 3 * n + 1);
	char *o = out;

	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		bool plain = (*c >= 'A' && *c <= 'Z') ||
			     (*c >= 'a' && *c <= 'z') ||
			     (*c >= '0' && *c <= '9') || strchr("-._~/", *c);
		if (plain) {
			*o++ = (char)*c;
			continue;
		}
		*o++ = '%';
		*o++ = hex[*c >> 4];
		*o++ = hex[*c & 15];
	}
	*o = 0;
	return out;
}

static struct doc *location(struct ward_pool *pl, const char *path,
			    struct ward_loc loc)
{
	struct doc *l = doc_map(pl);
	struct doc *phys = doc_add(l, "physicalLocation", doc_map(pl));
	struct doc *art = doc_add(phys, "artifactLocation", doc_map(pl));
	struct doc *reg;
	uint32_t line, col;
	uint32_t end_line;
	uint32_t end_col;

	if (path[0] == '/') {
		doc_set_str(
		    pl, art, "uri",
		    ward_pool_printf(pl, "file://%s", uri_path(pl, path)));
	} else {
		doc_set_str(pl, art, "uri", uri_path(pl, path));
		doc_set_str(pl, art, "uriBaseId", "%SRCROOT%");
	}
	reg = doc_add(phys, "region", doc_map(pl));
	line = loc.line ? loc.line : 1;
	col = loc.col ? loc.col : 1;
	end_line = loc.end_line >= line ? loc.end_line : line;
	end_col = loc.end_col ? loc.end_col : col;
	if (end_line == line && end_col < col)
		end_col = col;
	doc_set_uint(pl, reg, "startLine", line);
	doc_set_uint(pl, reg, "startColumn", col);
	doc_set_uint(pl, reg, "endLine", end_line);
	doc_set_uint(pl, reg, "endColumn", end_col + 1); /* exclusive */
	return l;
}

static size_t rule_index(const struct lint_rule *r)
{
	return (size_t)(r - lint_rules);
}

static struct doc *result_doc(struct ward_pool *pl,
			      const struct lint_report *rep,
			      const struct lint_finding *f)
{
	struct doc *d = doc_map(pl);
	bool placed;
	const char *path;
	struct ward_loc loc;
	struct doc *locs;
	struct doc *fp;
	struct doc *props;

	doc_set_str(pl, d, "ruleId", f->rule->id);
	doc_set_uint(pl, d, "ruleIndex", rule_index(f->rule));
	doc_set_str(pl, d, "level", level(f->rule->severity));
	doc_add(d, "message", text(pl, f->message));
	/* a finding without a place points at the top of the file linted */
	placed = f->loc.file != WARD_NO_FILE;
	path = lint_display_path(
	    pl, placed ? ward_sources_name(rep->src, f->loc.file) : rep->file);
	loc = placed ? f->loc : (struct ward_loc){.line = 1, .col = 1};
	locs = doc_add(d, "locations", doc_list(pl));
	doc_add(locs, NULL, location(pl, path, loc));
	fp = doc_add(d, "partialFingerprints", doc_map(pl));
	doc_set_str(pl, fp, FINGERPRINT_KEY, f->fingerprint);
	if (f->suppressed) {
		struct doc *sl = doc_add(d, "suppressions", doc_list(pl));
		struct doc *s = doc_add(sl, NULL, doc_map(pl));
		doc_set_str(pl, s, "kind", "inSource");
		doc_set_str(pl, s, "status", "accepted");
		doc_set_str(pl, s, "justification", f->justification);
		doc_add(s, "location", location(pl, path, f->suppressed_at));
	}
	props = doc_add(d, "properties", doc_map(pl));
	doc_set_str(pl, props, "help", f->help ? f->help : f->rule->fix);
	return d;
}

struct doc *lint_sarif_doc(struct ward_pool *pl,
			   const struct lint_report *const *reports,
			   size_t nreports, const char *const *failed,
			   size_t nfailed)
{
	struct doc *root = doc_map(pl);
	struct doc *runs;
	struct doc *run;
	struct doc *tool;
	struct doc *driver;
	struct doc *rules;
	struct doc *inv;
	struct doc *one;
	struct doc *results;
	unsigned worst = 0;
	bool any_score = false;
	struct doc *props;
	struct doc *scores;

	doc_set_str(pl, root, "$schema", SARIF_SCHEMA);
	doc_set_str(pl, root, "version", "2.1.0");
	runs = doc_add(root, "runs", doc_list(pl));
	run = doc_add(runs, NULL, doc_map(pl));

	tool = doc_add(run, "tool", doc_map(pl));
	driver = doc_add(tool, "driver", doc_map(pl));
	doc_set_str(pl, driver, "name", "wardc lint");
	doc_set_str(pl, driver, "version", WARD_VERSION);
	doc_set_str(pl, driver, "semanticVersion", WARD_VERSION);
	doc_set_str(pl, driver, "informationUri", WARD_HOME_URL);
	rules = doc_add(driver, "rules", doc_list(pl));
	for (size_t i = 0; i < lint_nrules; i++)
		doc_add(rules, NULL, rule_doc(pl, &lint_rules[i]));

	inv = doc_add(run, "invocations", doc_list(pl));
	one = doc_add(inv, NULL, doc_map(pl));
	doc_set_bool(pl, one, "executionSuccessful", nfailed == 0);
	if (nfailed) {
		struct doc *notes =
		    doc_add(one, "toolExecutionNotifications", doc_list(pl));
		for (size_t i = 0; i < nfailed; i++) {
			struct doc *n = doc_add(notes, NULL, doc_map(pl));
			doc_set_str(pl, n, "level", "error");
			doc_add(n, "message",
				text(pl, ward_pool_printf(
					     pl,
					     "%s does not compile: it was not "
					     "linted",
					     failed[i])));
		}
	}

	results = doc_add(run, "results", doc_list(pl));
	props = doc_map(pl);
	scores = doc_list(pl);
	for (size_t k = 0; k < nreports; k++) {
		const struct lint_report *rep = reports[k];
		struct doc *s;

		for (size_t i = 0; i < rep->nfindings; i++)
			doc_add(results, NULL,
				result_doc(pl, rep, &rep->findings[i]));
		if (!rep->score.scored)
			continue;
		s = doc_add(scores, NULL, doc_map(pl));
		doc_set_str(pl, s, "file", lint_display_path(pl, rep->file));
		doc_set_str(pl, s, "policy", rep->policy);
		doc_add(s, "score", doc_fixed(pl, rep->score.tenths, 1));
		doc_set_str(pl, s, "level", rep->score.level);
		doc_set_uint(pl, s, "weightFailed", rep->score.cost);
		doc_set_uint(pl, s, "weightTotal", rep->score.total);
		if (!any_score || rep->score.tenths > worst)
			worst = rep->score.tenths;
		any_score = true;
	}
	if (any_score) {
		doc_add(props, "exposureScore", doc_fixed(pl, worst, 1));
		doc_set_str(pl, props, "exposureLevel", lint_level(worst));
	}
	doc_add(props, "exposureScores", scores);
	doc_add(run, "properties", props);
	return root;
}
