/* SPDX-License-Identifier: MIT */
/*
 * test_lint.c: the lint engine from inside: the catalogue's invariants, the
 * score on hand-computed cases, the threshold's syntax, suppressions and
 * fingerprints on real policies, and the SARIF output checked field by
 * field against what GitHub code scanning requires (the JSON is parsed
 * back with libyaml: JSON is YAML). Every rule's own behaviour is tested
 * from outside by tests/lint/run.sh. Each test that writes policies works
 * in a fresh directory of its own.
 */
#include "lint.h"

#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include <cmocka.h>

static char top[PATH_MAX], old_cwd[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	assert_non_null(getcwd(old_cwd, sizeof(old_cwd)));
	snprintf(top, sizeof(top), "/tmp/ward-test-lint-XXXXXX");
	assert_non_null(mkdtemp(top));
	assert_int_equal(chdir(top), 0);
	unsetenv("WARD_PATH");
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	(void)state;
	assert_int_equal(chdir(old_cwd), 0);
	nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* A policy with everything bounded, and `extra` inside its fs section. */
static const char *policy(const char *fs_items)
{
	static char buf[4096];
	snprintf(buf, sizeof(buf),
		 "ward 1;\n"
		 "policy t;\n"
		 "limits {\n"
		 "\tmemory 256M; swap 0; cpu 0.5; pids 64; wall 10s;\n"
		 "\tstdout 1M; stderr 1M; output 2M;\n"
		 "}\n"
		 "fs {\n"
		 "%s"
		 "}\n"
		 "syscalls default errno ENOSYS {\n"
		 "\tallow read, write, exit_group;\n"
		 "}\n"
		 "identity { user 65534; group 65534; }\n",
		 fs_items);
	return buf;
}

struct linted {
	struct ward_session s;
	struct lint_report r;
	FILE *diags;
	char *dbuf;
	size_t dlen;
};

static struct linted *lint_file(const char *path)
{
	struct linted *l = calloc(1, sizeof(*l));
	assert_non_null(l);
	l->diags = open_memstream(&l->dbuf, &l->dlen);
	assert_non_null(l->diags);
	struct ward_opts o = {
	    .arch = WARD_ARCH_X86_64,
	    .format = WARD_DIAG_TEXT,
	    .color = WARD_COLOR_NEVER,
	    .diag_out = l->diags,
	};
	int rc = ward_session_open(&l->s, path, &o);
	fflush(l->diags);
	if (rc != WARDC_OK)
		fail_msg("%s does not compile: %s", path, l->dbuf);
	ward_lint(&l->s, path, &l->r);
	return l;
}

static void linted_free(struct linted *l)
{
	ward_lint_free(&l->r);
	ward_session_close(&l->s);
	fclose(l->diags);
	free(l->dbuf);
	free(l);
}

/* "W104 5:2 S" per finding (S: suppressed), joined by "|". */
static const char *summary(const struct lint_report *r)
{
	static char buf[4096];
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct lint_finding *f = &r->findings[i];
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s %u:%u%s",
				      i ? "|" : "", f->rule->id, f->loc.line,
				      f->loc.col, f->suppressed ? " S" : "");
		assert_true(n < sizeof(buf));
	}
	return buf;
}

/* ------------------------------------------------------------ catalogue */

static void test_catalogue(void **state)
{
	(void)state;
	static const char *const areas[] = {"filesystem", "syscalls", "network",
					    "resources",  "identity", "lint"};
	assert_true(lint_nrules >= 25);
	for (size_t i = 0; i < lint_nrules; i++) {
		const struct lint_rule *r = &lint_rules[i];
		/* W + three digits, ascending, unique */
		assert_int_equal(strlen(r->id), 4);
		assert_int_equal(r->id[0], 'W');
		for (int k = 1; k < 4; k++)
			assert_true(r->id[k] >= '0' && r->id[k] <= '9');
		if (i > 0)
			assert_true(strcmp(lint_rules[i - 1].id, r->id) < 0);
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(lint_rules[k].name, r->name);
		assert_ptr_equal(lint_rule_find(r->id), r);
		assert_true(r->severity == WARD_SEV_ERROR ||
			    r->severity == WARD_SEV_WARNING ||
			    r->severity == WARD_SEV_NOTE);
		assert_non_null(r->check);
		bool area_ok = false;
		for (size_t k = 0; k < sizeof(areas) / sizeof(areas[0]); k++)
			area_ok |= strcmp(r->area, areas[k]) == 0;
		assert_true(area_ok);
		/* one line, no final period: the printers add them */
		assert_true(strlen(r->summary) > 5);
		assert_null(strchr(r->summary, '\n'));
		assert_int_not_equal(r->summary[strlen(r->summary) - 1], '.');
		assert_int_not_equal(r->fix[strlen(r->fix) - 1], '.');
		assert_int_equal(r->explanation[strlen(r->explanation) - 1],
				 '.');
		/* the engine's own rules are the W9xx, without a check */
		assert_int_equal(r->run == NULL, r->id[1] == '9');
		if (r->security_severity) {
			char *end;
			double v = strtod(r->security_severity, &end);
			assert_int_equal(*end, 0);
			assert_true(v > 0.0 && v <= 10.0);
		}
		if (r->syscalls)
			assert_non_null(r->syscalls[0]);
	}
	assert_null(lint_rule_find("W100"));
	assert_null(lint_rule_find("w104"));
}

/* ---------------------------------------------------------------- score */

static struct lint_finding mk(const char *id, bool suppressed)
{
	struct lint_finding f = {.rule = lint_rule_find(id),
				 .suppressed = suppressed};
	assert_non_null(f.rule);
	return f;
}

static void test_score_arithmetic(void **state)
{
	(void)state;
	assert_int_equal(lint_score_tenths(0, 0), 0);
	assert_int_equal(lint_score_tenths(0, 3200), 0);
	assert_int_equal(lint_score_tenths(1, 20), 5);	/* 0.5 exactly */
	assert_int_equal(lint_score_tenths(1, 3), 33);	/* 3.33 */
	assert_int_equal(lint_score_tenths(2, 3), 67);	/* 6.67 up */
	assert_int_equal(lint_score_tenths(1, 200), 1); /* 0.05 half up */
	assert_int_equal(lint_score_tenths(1, 201), 0); /* 0.0498 down */
	assert_int_equal(lint_score_tenths(9, 9), 100);
	assert_int_equal(lint_score_tenths(10, 9), 100); /* clamped */

	assert_string_equal(lint_level(0), "OK");
	assert_string_equal(lint_level(9), "OK");
	assert_string_equal(lint_level(10), "MEDIUM");
	assert_string_equal(lint_level(29), "MEDIUM");
	assert_string_equal(lint_level(30), "EXPOSED");
	assert_string_equal(lint_level(59), "EXPOSED");
	assert_string_equal(lint_level(60), "UNSAFE");
	assert_string_equal(lint_level(100), "UNSAFE");
}

/*
 * The total, summed by hand from the table (a check counts its highest
 * weight): host-paths 350, writable-host 100, write-exec 60, memory 100,
 * landlock 10,
 * default-action 350, the 17 syscall checks from ptrace to ioctl 1660,
 * egress 350, egress-names 40, dns 60, ports 30, pids 80, wall 60,
 * output 40, cpu 20, core 20, export-rules 40, user 60, capabilities 300,
 * secrets 150,
 * inherited-code-path 60, hostname 10, identity-named 30: 3980. Changing a
 * weight changes it: update this and docs/lint.md together. The score no
 * longer divides by it but by LINT_SCORE_FULL, 1000.
 */
#define TOTAL 4020u

static void test_score_cases(void **state)
{
	(void)state;
	struct lint_score s;

	lint_score_compute(NULL, 0, 0, &s);
	assert_true(s.scored);
	assert_int_equal(s.total, TOTAL);
	assert_int_equal(s.cost, 0);
	assert_int_equal(s.tenths, 0);
	assert_string_equal(s.level, "OK");
	assert_int_equal(s.ntop, 0);

	/* W104 alone: 60 / 1000 = 0.6 */
	struct lint_finding one[] = {mk("W104", false), mk("W104", false)};
	lint_score_compute(one, 2, 0, &s);
	assert_int_equal(s.cost, 60);
	assert_int_equal(s.tenths, 6);
	assert_int_equal(s.ntop, 1);
	assert_string_equal(s.top[0].rule->id, "W104");
	assert_int_equal(s.top[0].weight, 60);
	assert_false(s.top[0].suppressed);

	/* a suppressed finding still costs; the cost says it is suppressed */
	struct lint_finding supp[] = {mk("W104", true)};
	lint_score_compute(supp, 1, 0, &s);
	assert_int_equal(s.cost, 60);
	assert_true(s.top[0].suppressed);

	/* one check, three rules: the highest failing weight, once:
	 * W401 100 + W105 30 + W405 20 costs 100 -> 1.0 */
	struct lint_finding mem[] = {mk("W105", false), mk("W405", false),
				     mk("W401", false)};
	lint_score_compute(mem, 3, 0, &s);
	assert_int_equal(s.cost, 100);
	assert_int_equal(s.tenths, 10);
	assert_int_equal(s.ntop, 1);
	assert_string_equal(s.top[0].rule->id, "W401");
	assert_string_equal(s.top[0].check, "memory");
	/* the lesser rules alone: W105 30 + W405 20 in one check costs 30 */
	lint_score_compute(mem, 2, 0, &s);
	assert_int_equal(s.cost, 30);
	assert_string_equal(s.top[0].rule->id, "W105");

	/* weight 0 costs nothing */
	struct lint_finding free_[] = {mk("W230", false), mk("W202", false),
				       mk("W902", false)};
	lint_score_compute(free_, 3, 0, &s);
	assert_int_equal(s.cost, 0);
	assert_int_equal(s.ntop, 0);

	/* egress anywhere: 350 / 1000 = 3.5, EXPOSED: one catastrophic hole
	 * fails the recommended threshold of 2 */
	struct lint_finding world[] = {mk("W301", false), mk("W303", false)};
	lint_score_compute(world, 2, 0, &s);
	assert_int_equal(s.cost, 350);
	assert_int_equal(s.tenths, 35);
	assert_string_equal(s.level, "EXPOSED");

	/* top five by weight, then id; checks counted once:
	 * W101 350 + W201 350 + W301 350 + W503 300 + W504 150 + W210 100
	 * (W102 is in W101's check) = 1600, past the full scale: 10.0 */
	struct lint_finding many[] = {mk("W210", false), mk("W504", false),
				      mk("W102", false), mk("W503", false),
				      mk("W301", false), mk("W201", false),
				      mk("W101", false)};
	lint_score_compute(many, 7, 0, &s);
	assert_int_equal(s.cost, 1600);
	assert_int_equal(s.tenths, 100);
	assert_string_equal(s.level, "UNSAFE");
	assert_int_equal(s.ntop, LINT_TOP_COSTS);
	static const char *const order[] = {"W101", "W201", "W301", "W503",
					    "W504"};
	for (size_t i = 0; i < LINT_TOP_COSTS; i++)
		assert_string_equal(s.top[i].rule->id, order[i]);

	/* W212 (mount) alone: 250 -> 2.5, above the threshold of 2; W401 +
	 * W402 + W403 (no memory, pids, wall) 240 -> 2.4;
	 * W401 alone 1.0 */
	struct lint_finding mnt[] = {mk("W212", false)};
	lint_score_compute(mnt, 1, 0, &s);
	assert_int_equal(s.tenths, 25);
	struct lint_finding dos[] = {mk("W401", false), mk("W402", false),
				     mk("W403", false)};
	lint_score_compute(dos, 3, 0, &s);
	assert_int_equal(s.tenths, 24);
	lint_score_compute(dos, 1, 0, &s);
	assert_int_equal(s.tenths, 10);

	/* on aarch64 the raw-io check (iopl, ioperm: x86 only) cannot fail
	 * and leaves the total: TOTAL - 30; x86_64 keeps it */
	lint_score_compute(NULL, 0, WARD_ARCH_AARCH64, &s);
	assert_int_equal(s.total, TOTAL - 30);
	lint_score_compute(NULL, 0, WARD_ARCH_X86_64, &s);
	assert_int_equal(s.total, TOTAL);
	assert_false(
	    lint_rule_applies(lint_rule_find("W225"), WARD_ARCH_AARCH64));
	assert_true(
	    lint_rule_applies(lint_rule_find("W225"), WARD_ARCH_X86_64));
	assert_true(
	    lint_rule_applies(lint_rule_find("W101"), WARD_ARCH_AARCH64));

	/* every rule fails: 10.0 */
	struct lint_finding *all = calloc(lint_nrules, sizeof(*all));
	assert_non_null(all);
	for (size_t i = 0; i < lint_nrules; i++)
		all[i].rule = &lint_rules[i];
	lint_score_compute(all, lint_nrules, 0, &s);
	assert_int_equal(s.cost, TOTAL);
	assert_int_equal(s.tenths, 100);
	assert_string_equal(s.level, "UNSAFE");
	free(all);
}

static void test_threshold_syntax(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int tenths; /* -1: refused */
	} cases[] = {
	    {"0", 0},	  {"3", 30},	 {"3.5", 35},  {"3.50", 35},
	    {"10", 100},  {"10.0", 100}, {"0.1", 1},   {"10.1", -1},
	    {"11", -1},	  {"100", -1},	 {"3.55", -1}, {"3.", -1},
	    {".5", -1},	  {"-1", -1},	 {"", -1},     {"high", -1},
	    {"3.5x", -1}, {" 3", -1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned t = 999;
		int rc = lint_parse_threshold(cases[i].text, &t);
		if (cases[i].tenths < 0) {
			assert_int_equal(rc, -1);
			assert_int_equal(t, 999);
		} else {
			assert_int_equal(rc, 0);
			assert_int_equal(t, (unsigned)cases[i].tenths);
		}
	}
	assert_int_equal(lint_parse_threshold(NULL, NULL), -1);
}

/* --------------------------------------------------------- suppressions */

static void test_suppression_places(void **state)
{
	(void)state;
	put_file(
	    "p.ward",
	    policy("\t# lint: allow W104 -- above, with another line\n"
		   "\t# of the same comment block\n"
		   "\ttmpfs /a size 1M exec;\n"
		   "\ttmpfs /b size 1M exec; # lint: allow W104 -- trailing\n"
		   "\t# lint: allow W104 -- a blank line breaks the block\n"
		   "\n"
		   "\ttmpfs /c size 1M exec;\n"
		   "\ttmpfs /d size 1M exec; # lint: allow W104\n"
		   "\ttmpfs /e size 1M exec; # lint: allow W103 -- wrong\n"));
	struct linted *l = lint_file("p.ward");
	/* the fs entries start at line 8: /a (10) and /b (11) suppressed;
	 * the directive at 12 is unused (its id at column 16); /c, /d, /e
	 * are not suppressed; /d's has no reason; /e's names a rule that
	 * does not fire there */
	assert_string_equal(summary(&l->r), "W104 10:2 S|W104 11:2 S|"
					    "W902 12:16|W104 14:2|W104 15:2|"
					    "W901 15:25|W104 16:2|W902 16:39");
	assert_string_equal(l->r.findings[0].justification,
			    "above, with another line");
	assert_int_equal(l->r.findings[0].suppressed_at.line, 8);
	assert_string_equal(l->r.findings[1].justification, "trailing");
	unsigned e, w, n, s;
	lint_count(&l->r, &e, &w, &n, &s);
	assert_int_equal(e, 0);
	assert_int_equal(w, 6);
	assert_int_equal(n, 0);
	assert_int_equal(s, 2);
	/* suppressed or not, the check fails once: 60 */
	assert_int_equal(l->r.score.cost, 60);
	linted_free(l);
}

static void test_suppression_multiline_and_missing(void **state)
{
	(void)state;
	/* a trailing directive on the last line of a multi-line rule, and
	 * the missing limits suppressed at the `policy` statement */
	put_file("m.ward",
		 "ward 1;\n"
		 "policy m; # lint: allow W401, W402 -- the caller's cgroup\n"
		 "limits { wall 1s; cpu 1; stdout 1M; stderr 1M; }\n"
		 "syscalls default errno ENOSYS {\n"
		 "\tallow read,\n"
		 "\t\tptrace; # lint: allow W210 -- a debugger's profile\n"
		 "}\n"
		 "identity { user 65534; group 65534; }\n");
	struct linted *l = lint_file("m.ward");
	/* W401, W402 point at the `limits` section (3:1), not at `policy`:
	 * the directive on line 2 stands by `policy`, so both are unused
	 * there and the limits are reported */
	assert_string_equal(summary(&l->r),
			    "W902 2:25|W902 2:31|W401 3:1|W402 3:1|W210 6:3 S");
	linted_free(l);

	put_file("n.ward",
		 "ward 1;\n"
		 "policy n; # lint: allow W401, W402, W403, W404, W406 -- "
		 "the caller's\n"
		 "syscalls default errno ENOSYS { allow read; }\n"
		 "identity { user 65534; group 65534; }\n");
	l = lint_file("n.ward");
	assert_string_equal(summary(&l->r), "W401 2:1 S|W402 2:1 S|W403 2:1 "
					    "S|W404 2:1 S|W406 2:1 S");
	linted_free(l);
}

/* -------------------------------------------------------- fingerprints */

static const char *fingerprint_of(const char *path, const char *id)
{
	static char fp[64];
	struct linted *l = lint_file(path);
	fp[0] = 0;
	for (size_t i = 0; i < l->r.nfindings; i++)
		if (strcmp(l->r.findings[i].rule->id, id) == 0)
			snprintf(fp, sizeof(fp), "%s",
				 l->r.findings[i].fingerprint);
	linted_free(l);
	assert_int_equal(strlen(fp), 32);
	return fp;
}

static void test_fingerprints(void **state)
{
	(void)state;
	char a[64], b[64], c[64], d[64];
	put_file("f.ward", policy("\ttmpfs /a size 1M exec;\n"));
	snprintf(a, sizeof(a), "%s", fingerprint_of("f.ward", "W104"));
	/* lines moved, blanks changed, a comment added: the same finding */
	put_file("f.ward",
		 policy("\t# a comment\n\n\n"
			"\ttmpfs   /a size 1M exec; # and another\n"));
	snprintf(b, sizeof(b), "%s", fingerprint_of("f.ward", "W104"));
	assert_string_equal(a, b);
	/* another statement: another finding */
	put_file("f.ward", policy("\ttmpfs /a size 2M exec;\n"));
	snprintf(c, sizeof(c), "%s", fingerprint_of("f.ward", "W104"));
	assert_string_not_equal(a, c);
	/* another file: another finding */
	put_file("g.ward", policy("\ttmpfs /a size 1M exec;\n"));
	snprintf(d, sizeof(d), "%s", fingerprint_of("g.ward", "W104"));
	assert_string_not_equal(a, d);
}

/* --------------------------------------------------------------- SARIF */

/* A parsed JSON document and lookups in it. */
struct json {
	yaml_document_t doc;
};

static yaml_node_t *get(struct json *j, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&j->doc, p->key);
		if (k && k->type == YAML_SCALAR_NODE &&
		    strcmp((const char *)k->data.scalar.value, key) == 0)
			return yaml_document_get_node(&j->doc, p->value);
	}
	return NULL;
}

/* The node at a path of keys and list indexes: "runs", "#0", "tool",
 * ending with END. */
#define END ((const char *)NULL)

static yaml_node_t *at(struct json *j, yaml_node_t *n, ...)
{
	va_list ap;
	va_start(ap, n);
	for (const char *k; n && (k = va_arg(ap, const char *));) {
		if (k[0] == '#') {
			long i = strtol(k + 1, NULL, 10);
			if (n->type != YAML_SEQUENCE_NODE ||
			    i >= n->data.sequence.items.top -
				     n->data.sequence.items.start) {
				n = NULL;
				break;
			}
			n = yaml_document_get_node(
			    &j->doc, n->data.sequence.items.start[i]);
		} else {
			n = get(j, n, k);
		}
	}
	va_end(ap);
	return n;
}

static const char *str(yaml_node_t *n)
{
	assert_non_null(n);
	assert_int_equal(n->type, YAML_SCALAR_NODE);
	return (const char *)n->data.scalar.value;
}

/* A JSON string (quoted), not a number: libyaml keeps the style. */
static const char *quoted(yaml_node_t *n)
{
	const char *s = str(n);
	assert_int_equal(n->data.scalar.style, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	return s;
}

static long num(yaml_node_t *n)
{
	const char *s = str(n);
	assert_int_equal(n->data.scalar.style, YAML_PLAIN_SCALAR_STYLE);
	char *end;
	long v = strtol(s, &end, 10);
	assert_int_equal(*end, 0);
	return v;
}

static size_t len(yaml_node_t *n)
{
	assert_non_null(n);
	assert_int_equal(n->type, YAML_SEQUENCE_NODE);
	return (size_t)(n->data.sequence.items.top -
			n->data.sequence.items.start);
}

static void test_sarif_fields(void **state)
{
	(void)state;
	put_file("s.ward",
		 policy("\ttmpfs /a size 1M exec; # lint: allow W104 -- why\n"
			"\tbind /srv/x at /x rw;\n"));
	struct linted *l = lint_file("s.ward");
	assert_string_equal(summary(&l->r), "W104 8:2 S|W103 9:2");

	struct ward_pool *pl = ward_pool_new();
	const struct lint_report *reps[] = {&l->r};
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	assert_non_null(mem);
	assert_int_equal(
	    doc_print_json(lint_sarif_doc(pl, reps, 1, NULL, 0), mem), 0);
	fclose(mem);
	ward_pool_free(pl);

	struct json j;
	yaml_parser_t parser;
	assert_true(yaml_parser_initialize(&parser));
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, n);
	assert_true(yaml_parser_load(&parser, &j.doc));
	yaml_parser_delete(&parser);
	yaml_node_t *root = yaml_document_get_root_node(&j.doc);
	assert_non_null(root);

	/* the log */
	assert_string_equal(quoted(at(&j, root, "version", END)), "2.1.0");
	assert_non_null(
	    strstr(quoted(at(&j, root, "$schema", END)), "sarif-2.1.0"));
	assert_int_equal(len(at(&j, root, "runs", END)), 1);
	yaml_node_t *run = at(&j, root, "runs", "#0", END);

	/* the tool and its rules */
	yaml_node_t *drv = at(&j, run, "tool", "driver", END);
	assert_string_equal(quoted(get(&j, drv, "name")), "wardc lint");
	assert_string_equal(quoted(get(&j, drv, "version")), WARD_VERSION);
	assert_memory_equal(quoted(get(&j, drv, "informationUri")), "https://",
			    8);
	yaml_node_t *rules = get(&j, drv, "rules");
	assert_int_equal(len(rules), lint_nrules);
	for (size_t i = 0; i < lint_nrules; i++) {
		char idx[32];
		snprintf(idx, sizeof(idx), "#%zu", i);
		yaml_node_t *r = at(&j, rules, idx, END);
		const struct lint_rule *lr = &lint_rules[i];
		assert_string_equal(quoted(get(&j, r, "id")), lr->id);
		assert_string_equal(quoted(get(&j, r, "name")), lr->name);
		assert_true(strlen(quoted(at(&j, r, "shortDescription", "text",
					     END))) > 0);
		assert_string_equal(
		    quoted(at(&j, r, "fullDescription", "text", END)),
		    lr->explanation);
		assert_non_null(
		    strstr(quoted(at(&j, r, "help", "text", END)), lr->fix));
		assert_non_null(strstr(
		    quoted(at(&j, r, "help", "markdown", END)), "**Fix:**"));
		const char *level =
		    quoted(at(&j, r, "defaultConfiguration", "level", END));
		assert_string_equal(
		    level, lr->severity == WARD_SEV_ERROR     ? "error"
			   : lr->severity == WARD_SEV_WARNING ? "warning"
							      : "note");
		yaml_node_t *tags = at(&j, r, "properties", "tags", END);
		assert_true(len(tags) >= 1);
		yaml_node_t *sev =
		    at(&j, r, "properties", "security-severity", END);
		if (lr->security_severity) {
			/* a string holding a number, and the tag */
			assert_string_equal(quoted(sev), lr->security_severity);
			assert_string_equal(quoted(at(&j, tags, "#0", END)),
					    "security");
		} else {
			assert_null(sev);
		}
	}

	/* the results: one suppressed, one not */
	yaml_node_t *results = get(&j, run, "results");
	assert_int_equal(len(results), 2);
	static const struct {
		const char *rule, *level;
		long line, col, end_col;
		bool suppressed;
	} want[] = {
	    {"W104", "warning", 8, 2, 7, true},
	    {"W103", "warning", 9, 2, 6, false},
	};
	for (size_t i = 0; i < 2; i++) {
		char idx[32];
		snprintf(idx, sizeof(idx), "#%zu", i);
		yaml_node_t *res = at(&j, results, idx, END);
		const char *id = quoted(get(&j, res, "ruleId"));
		assert_string_equal(id, want[i].rule);
		long ri = num(get(&j, res, "ruleIndex"));
		assert_string_equal(lint_rules[ri].id, id);
		assert_string_equal(quoted(get(&j, res, "level")),
				    want[i].level);
		assert_string_equal(quoted(at(&j, res, "message", "text", END)),
				    l->r.findings[i].message);
		yaml_node_t *phys =
		    at(&j, res, "locations", "#0", "physicalLocation", END);
		assert_string_equal(
		    quoted(at(&j, phys, "artifactLocation", "uri", END)),
		    "s.ward");
		assert_string_equal(
		    quoted(at(&j, phys, "artifactLocation", "uriBaseId", END)),
		    "%SRCROOT%");
		assert_int_equal(num(at(&j, phys, "region", "startLine", END)),
				 want[i].line);
		assert_int_equal(
		    num(at(&j, phys, "region", "startColumn", END)),
		    want[i].col);
		assert_int_equal(num(at(&j, phys, "region", "endLine", END)),
				 want[i].line);
		assert_int_equal(num(at(&j, phys, "region", "endColumn", END)),
				 want[i].end_col);
		const char *fp = quoted(at(&j, res, "partialFingerprints",
					   "wardFindingHash/v1", END));
		assert_string_equal(fp, l->r.findings[i].fingerprint);
		yaml_node_t *sup = get(&j, res, "suppressions");
		if (want[i].suppressed) {
			assert_int_equal(len(sup), 1);
			assert_string_equal(
			    quoted(at(&j, sup, "#0", "kind", END)), "inSource");
			assert_string_equal(
			    quoted(at(&j, sup, "#0", "justification", END)),
			    "why");
		} else {
			assert_null(sup);
		}
	}

	/* the score, as a number */
	yaml_node_t *props = get(&j, run, "properties");
	yaml_node_t *score = get(&j, props, "exposureScore");
	/* W104 60 + W103 100 = 160 of 1000: 1.6 */
	assert_string_equal(str(score), "1.6");
	assert_int_equal(score->data.scalar.style, YAML_PLAIN_SCALAR_STYLE);
	assert_string_equal(quoted(get(&j, props, "exposureLevel")), "MEDIUM");
	assert_string_equal(
	    str(at(&j, props, "exposureScores", "#0", "score", END)), "1.6");
	assert_true(num(at(&j, props, "exposureScores", "#0", "weightTotal",
			   END)) == TOTAL);
	assert_string_equal(
	    str(at(&j, run, "invocations", "#0", "executionSuccessful", END)),
	    "true");

	yaml_document_delete(&j.doc);
	free(buf);
	linted_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_catalogue),
	    cmocka_unit_test(test_score_arithmetic),
	    cmocka_unit_test(test_score_cases),
	    cmocka_unit_test(test_threshold_syntax),
	    cmocka_unit_test_setup_teardown(test_suppression_places, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(
		test_suppression_multiline_and_missing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_fingerprints, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sarif_fields, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
