/* SPDX-License-Identifier: MIT */
/*
 * test_export_rules.c: the `export` section end to end on the compiler's
 * side: parsed, formatted (and back to the same tree), compared by meaning,
 * checked (every diagnostic of sema_export.c, with its text), compiled into
 * blob section 10, read back by the launcher's reader (which refuses every
 * forged field), and the budget `wardc explain` computes from it.
 */
#include "fe_test.h"

#include "blob.h"
#include "blob_read.h"
#include "blob_write.h"
#include "driver.h"
#include "explain_budget.h"
#include "fmt.h"
#include "tests/lib/blob_corpus.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#define POLICY_HEAD                                                            \
	"ward 1;\npolicy p;\n"                                                 \
	"fs { slot input at /input ro; slot output at /output rw; "            \
	"slot logs at /logs rw; }\n"                                           \
	"syscalls default errno ENOSYS { allow read; }\n"

/* ------------------------------------------------------------- front end */

static void test_format(void **state)
{
	(void)state;
	struct parsed *p = parse_ok(
	    "ward 1;\nexport   output{files 20 ;per-file 5M;\n"
	    "  names \"*.csv\",\"*.png\" ; # patterns\n types text,png;"
	    "on-violation skip;}\n");
	char *out;
	size_t len;
	FILE *mem = open_memstream(&out, &len);
	assert_int_equal(ward_fmt(p->file, p->src, mem), 0);
	fclose(mem);
	assert_string_equal(out, "ward 1;\n"
				 "export output {\n"
				 "    files 20;\n"
				 "    per-file 5M;\n"
				 "    names \"*.csv\", \"*.png\"; # patterns\n"
				 "    types text, png;\n"
				 "    on-violation skip;\n"
				 "}\n");
	struct parsed *again = parse_ok(out);
	assert_true(ward_ast_equal(p->file, again->file));
	free(out);
	parsed_free(again);
	parsed_free(p);
}

static void test_equal_by_meaning(void **state)
{
	(void)state;
	struct parsed *a =
	    parse_ok("ward 1;\nexport output { per-file 5M; types text; }\n");
	struct parsed *b = parse_ok(
	    "ward 1;\nexport output { per-file 5242880B; types text; }\n");
	struct parsed *c =
	    parse_ok("ward 1;\nexport output { per-file 5M; types png; }\n");
	struct parsed *d =
	    parse_ok("ward 1;\nexport logs { per-file 5M; types text; }\n");
	assert_true(ward_ast_equal(a->file, b->file));
	assert_false(ward_ast_equal(a->file, c->file));
	assert_false(ward_ast_equal(a->file, d->file));
	parsed_free(a);
	parsed_free(b);
	parsed_free(c);
	parsed_free(d);
}

static void test_syntax_errors(void **state)
{
	(void)state;
	struct parsed *p =
	    parse_text("ward 1;\nexport output { files 20 per-file 5M; }\n");
	assert_non_null(strstr(p->out,
			       "t.ward:2:26: error: expected `,` or `;` after "
			       "the export setting's value, found name "
			       "`per-file`"));
	parsed_free(p);
	p = parse_text("ward 1;\nexport { files 1; }\n");
	assert_non_null(
	    strstr(p->out, "error: expected a name after `export`, found `{`"));
	parsed_free(p);
	/* `export` is a keyword, and a name where a name goes */
	p = parse_ok("ward 1;\nconst export = 1;\n");
	parsed_free(p);
}

/* --------------------------------------------------------------- checker */

struct compiled {
	int rc;
	char *diags;
	uint8_t *blob;
	size_t len;
};

static struct compiled compile(const char *text)
{
	char path[] = "/tmp/ward-xrules.XXXXXX.ward";
	struct compiled c = {0};
	size_t dlen;
	int fd = mkstemps(path, 5);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	FILE *mem = open_memstream(&c.diags, &dlen);
	struct ward_opts o = {
	    .arch = WARD_ARCH_X86_64,
	    .format = WARD_DIAG_TEXT,
	    .color = WARD_COLOR_NEVER,
	    .diag_out = mem,
	};
	c.rc = ward_driver_compile(path, &o, &c.blob, &c.len);
	fclose(mem);
	unlink(path);
	return c;
}

static void compiled_free(struct compiled *c)
{
	free(c->diags);
	free(c->blob);
}

static void test_compiled(void **state)
{
	(void)state;
	struct compiled c =
	    compile(POLICY_HEAD "export output {\n"
				"  files 20; per-file 5M; total 40M;\n"
				"  names \"*.csv\", \"report.pdf\";\n"
				"  types text, png, pdf; on-violation skip;\n"
				"}\n"
				"export logs { files 1; per-file 1M; "
				"types text; }\n");
	struct ward_blob b;
	ward_err err;

	if (c.rc)
		fail_msg("%s", c.diags);
	assert_string_equal(c.diags, "");
	assert_int_equal(ward_blob_read(c.blob, c.len, 0, &b, &err), 0);
	const struct ward_policy *p = &b.policy;
	assert_int_equal(p->nexports, 2);
	assert_string_equal(p->exports[0].slot, "output");
	assert_int_equal(p->exports[0].max_files, 20);
	assert_int_equal(p->exports[0].per_file, 5u << 20);
	assert_int_equal(p->exports[0].total, 40u << 20);
	assert_int_equal(p->exports[0].types, WARD_EXPORT_T_TEXT |
						  WARD_EXPORT_T_PNG |
						  WARD_EXPORT_T_PDF);
	assert_int_equal(p->exports[0].on_violation, WARD_EXPORT_SKIP);
	assert_int_equal(p->exports[0].nnames, 2);
	assert_string_equal(p->exports[0].names[1], "report.pdf");
	assert_string_equal(p->exports[1].slot, "logs");
	assert_int_equal(p->exports[1].total, 0);
	assert_int_equal(p->exports[1].nnames, 0);
	assert_int_equal(p->exports[1].on_violation, WARD_EXPORT_REFUSE);
	/* the bound explain shows */
	assert_int_equal(ward_export_bound(&p->exports[0]), 40u << 20);
	assert_int_equal(ward_export_bound(&p->exports[1]), 1u << 20);
	ward_blob_release(&b);
	compiled_free(&c);

	/* without an export section there is no section 10 */
	c = compile(POLICY_HEAD);
	assert_int_equal(c.rc, 0);
	assert_int_equal(ward_blob_read(c.blob, c.len, 0, &b, &err), 0);
	assert_int_equal(b.policy.nexports, 0);
	for (unsigned i = 0; i < ward_le16(c.blob + WARD_BLOB_OFF_NSECT); i++)
		assert_int_not_equal(ward_le32(c.blob + WARD_BLOB_HDR_SIZE +
					       i * WARD_BLOB_DIRENT_SIZE),
				     WARD_SEC_EXPORT);
	ward_blob_release(&b);
	compiled_free(&c);
}

/* One policy, one diagnostic (or more), exact texts. */
static void expect_diag(const char *body, const char *const *want, int rc)
{
	char *text;
	size_t n;
	FILE *mem = open_memstream(&text, &n);
	fprintf(mem, "%s%s", POLICY_HEAD, body);
	fclose(mem);
	struct compiled c = compile(text);
	for (size_t i = 0; want[i]; i++)
		if (!strstr(c.diags, want[i]))
			fail_msg("missing:\n%s\nin:\n%s", want[i], c.diags);
	assert_int_equal(c.rc, rc);
	compiled_free(&c);
	free(text);
}

#define EXPECT(rc, body, ...)                                                  \
	expect_diag(body, (const char *const[]){__VA_ARGS__, NULL}, rc)

static void test_diagnostics(void **state)
{
	(void)state;
	EXPECT(WARDC_POLICY_ERROR,
	       "export outptu { files 1; per-file 1M; types text; }\n",
	       "error: there is no slot `outptu` to export",
	       "= help: did you mean `output`?");
	EXPECT(WARDC_POLICY_ERROR,
	       "export input { files 1; per-file 1M; types text; }\n",
	       "error: slot `input` is read-only: the sandbox cannot write "
	       "anything there to export",
	       "note: the slot is declared here; an output slot is written "
	       "`slot input at /input rw;`");
	EXPECT(WARDC_POLICY_ERROR,
	       "export output { files 1; per-file 1M; types text; }\n"
	       "export output { files 2; per-file 1M; types text; }\n",
	       "error: slot `output` has two `export` sections",
	       "note: the first is here");
	EXPECT(WARDC_POLICY_ERROR,
	       "export output { files 1; per_file 1M; types text; }\n",
	       "error: unknown export setting `per_file`",
	       "= help: did you mean `per-file`?",
	       "error: the export of slot `output` has no `per-file`");
	EXPECT(WARDC_POLICY_ERROR,
	       "export output { files 1; per-file 1M; types jpg, csv, "
	       "\"png\", pfd; }\n",
	       "error: unknown content type `jpg`",
	       "= help: did you mean `jpeg`?",
	       "error: unknown content type `csv`", "are all `text`",
	       "error: a content type is a name such as `text` or `png`, "
	       "not `\"png\"`",
	       "= help: did you mean `pdf`?");
	EXPECT(WARDC_POLICY_ERROR,
	       "export output { files 0; per-file 2T; types text; }\n",
	       "error: `files` is out of range",
	       "= help: it must be between 1 and 1000000",
	       "error: `per-file` is out of range",
	       "= help: it must be between 1B and 1T");
	EXPECT(WARDC_POLICY_ERROR,
	       "export output { files 1, 2; per-file 5; types text; }\n",
	       "error: `files` takes one value",
	       "error: `per-file` takes a size, but `5` has no unit");
	EXPECT(WARDC_POLICY_ERROR,
	       "export output { files 1; per-file 1M; types text; "
	       "names \"a/*.csv\", report; on-violation skipp; }\n",
	       "error: the file name pattern holds a `/`",
	       "error: a file name pattern is a string, as in `\"*.csv\"`",
	       "= help: write `\"report\"`",
	       "error: `on-violation` takes `refuse` or `skip`, not `skipp`",
	       "= help: did you mean `skip`?");
	EXPECT(WARDC_POLICY_ERROR, "export output { types text; }\n",
	       "error: the export of slot `output` has no `files`",
	       "error: the export of slot `output` has no `per-file`");
	EXPECT(WARDC_POLICY_ERROR,
	       "export output { files 1; files 2; per-file 1M; types text; }\n",
	       "error: `files` is set twice", "note: first set here");
	/* warnings: the policy still compiles */
	EXPECT(WARDC_OK,
	       "export output { files 20; per-file 5M; types text; }\n",
	       "warning: the export of slot `output` has no `total` cap: 20 "
	       "files of 5 MiB each can take 100 MiB out");
	EXPECT(WARDC_OK,
	       "export output { files 2; per-file 5M; total 1M; "
	       "types text, text; names \"*.csv\", \"*.csv\"; }\n",
	       "warning: `per-file` (5 MiB) is larger than `total` (1 MiB): "
	       "no file can reach it",
	       "warning: content type `text` is listed twice",
	       "warning: file name pattern \"*.csv\" is listed twice");
	/* one file needs no total */
	struct compiled c = compile(POLICY_HEAD "export output { files 1; "
						"per-file 5M; types text; }\n");
	assert_int_equal(c.rc, 0);
	assert_string_equal(c.diags, "");
	compiled_free(&c);
}

/* ------------------------------------------------------------------ blob */

static const char *rich_names[] = {"*.csv", "report.pdf"};

static struct ward_policy with_exports(struct ward_export_rule *rules,
				       uint32_t n)
{
	struct ward_policy p = *ward_test_policy_rich();
	p.exports = rules;
	p.nexports = n;
	return p;
}

static struct ward_export_rule good_rule(void)
{
	return (struct ward_export_rule){
	    .slot = "output",
	    .max_files = 20,
	    .types = WARD_EXPORT_T_TEXT | WARD_EXPORT_T_HTML,
	    .per_file = 5u << 20,
	    .total = 40u << 20,
	    .on_violation = WARD_EXPORT_SKIP,
	    .names = rich_names,
	    .nnames = 2,
	};
}

static void test_blob_round_trip(void **state)
{
	(void)state;
	struct ward_export_rule r = good_rule();
	struct ward_policy p = with_exports(&r, 1);
	uint8_t *buf, *again;
	size_t len, len2;
	struct ward_blob b;
	ward_err err;

	assert_int_equal(ward_blob_write(&p, &buf, &len, &err), 0);
	assert_int_equal(ward_blob_read(buf, len, 0, &b, &err), 0);
	assert_int_equal(b.policy.nexports, 1);
	assert_string_equal(b.policy.exports[0].names[0], "*.csv");
	/* canonical: what was read writes back to the same bytes */
	assert_int_equal(ward_blob_write(&b.policy, &again, &len2, &err), 0);
	assert_int_equal(len2, len);
	assert_memory_equal(again, buf, len);
	ward_blob_release(&b);
	free(again);

	/* the section is critical: a blob that says otherwise is refused */
	for (unsigned i = 0; i < ward_le16(buf + WARD_BLOB_OFF_NSECT); i++) {
		uint8_t *d =
		    buf + WARD_BLOB_HDR_SIZE + i * WARD_BLOB_DIRENT_SIZE;
		if (ward_le32(d) == WARD_SEC_EXPORT)
			ward_test_st32(d + 4, 0);
	}
	ward_test_blob_fix(buf, len);
	assert_int_equal(ward_blob_read(buf, len, 0, &b, &err), -1);
	assert_non_null(strstr(err.msg, "the export section must be critical"));
	free(buf);
}

static void refused(struct ward_export_rule *rules, uint32_t n, const char *msg)
{
	struct ward_policy p = with_exports(rules, n);
	uint8_t *buf;
	size_t len;
	struct ward_blob b;
	ward_err err;

	assert_int_equal(ward_blob_write_unchecked(&p, &buf, &len, &err), 0);
	assert_int_equal(ward_blob_read(buf, len, 0, &b, &err), -1);
	if (!strstr(err.msg, msg))
		fail_msg("expected \"%s\", got \"%s\"", msg, err.msg);
	free(buf);
}

static void test_blob_refused(void **state)
{
	(void)state;
	struct ward_export_rule r[2];
	static const char *bad_glob[] = {"a/b"}, *empty_glob[] = {""},
			  *ctl_glob[] = {"a\tb"};

#define BAD(field, value, msg)                                                 \
	do {                                                                   \
		r[0] = good_rule();                                            \
		r[0].field = value;                                            \
		refused(r, 1, msg);                                            \
	} while (0)
	BAD(slot, "nosuch", "rule 0: no slot nosuch in the mount table");
	BAD(slot, "input", "rule 0: slot input is read-only");
	BAD(slot, "bad name", "slot name contains a character outside");
	BAD(max_files, 0, "0 files, not within 1..1000000");
	BAD(max_files, 1000001, "1000001 files");
	BAD(types, 0, "content types 0x0");
	BAD(types, 1u << 11, "content types 0x800");
	BAD(per_file, 0, "per-file 0 or total");
	BAD(per_file, (1ull << 40) + 1, "is outside 1..1099511627776");
	BAD(total, (1ull << 40) + 1, "is outside 1..1099511627776");
	BAD(on_violation, 2, "unknown violation action 2");
#define BAD_NAME(glob, msg)                                                    \
	do {                                                                   \
		r[0] = good_rule();                                            \
		r[0].names = glob;                                             \
		r[0].nnames = 1;                                               \
		refused(r, 1, msg);                                            \
	} while (0)
	BAD_NAME(bad_glob, "rule 0 name 0: name glob contains a character");
	BAD_NAME(empty_glob, "name glob is empty");
	BAD_NAME(ctl_glob, "name glob contains a character");
#undef BAD_NAME
	r[0] = good_rule();
	r[1] = good_rule();
	refused(r, 2, "rule 1: slot output has a rule already (rule 0)");
#undef BAD
}

/* Every bit of section 10 flipped, with the digest fixed: each result is
 * refused, or canonical (what was read writes back to the same bytes). */
static void test_blob_flips(void **state)
{
	(void)state;
	struct ward_export_rule r = good_rule();
	struct ward_policy p = with_exports(&r, 1);
	uint8_t *buf;
	size_t len, off = 0, n = 0, accepted = 0;
	ward_err err;

	assert_int_equal(ward_blob_write(&p, &buf, &len, &err), 0);
	for (unsigned i = 0; i < ward_le16(buf + WARD_BLOB_OFF_NSECT); i++)
		if (ward_le32(buf + WARD_BLOB_HDR_SIZE +
			      i * WARD_BLOB_DIRENT_SIZE) == WARD_SEC_EXPORT)
			off = ward_test_blob_section(buf, i, &n);
	assert_true(off > 0 && n > 0);
	for (size_t k = off; k < off + n; k++)
		for (int bit = 0; bit < 8; bit++) {
			struct ward_blob b;
			uint8_t *again;
			size_t len2;

			buf[k] ^= (uint8_t)(1u << bit);
			ward_test_blob_fix(buf, len);
			if (ward_blob_read(buf, len, 0, &b, &err) == 0) {
				accepted++;
				assert_int_equal(
				    ward_blob_write_unchecked(&b.policy, &again,
							      &len2, &err),
				    0);
				assert_int_equal(len2, len);
				assert_memory_equal(again, buf, len);
				free(again);
				ward_blob_release(&b);
			}
			buf[k] ^= (uint8_t)(1u << bit);
		}
	/* some flips are meaningful (a count, a type bit, a glob letter) */
	assert_true(accepted > 0);
	free(buf);
}

/* ---------------------------------------------------------------- budget */

static void test_budget(void **state)
{
	(void)state;
	struct ward_budget b;
	struct ward_policy p = {0};
	char why[160];
	uint64_t ms;

	assert_int_equal(ward_parse_duration_ms("12s", &ms), 0);
	assert_int_equal(ms, 12000);
	assert_int_equal(ward_parse_duration_ms("500ms", &ms), 0);
	assert_int_equal(ms, 500);
	assert_int_equal(ward_parse_duration_ms("1.5s", &ms), 0);
	assert_int_equal(ms, 1500);
	assert_int_equal(ward_parse_duration_ms("2m", &ms), 0);
	assert_int_equal(ms, 120000);
	assert_int_equal(ward_parse_duration_ms("1h", &ms), 0);
	assert_int_equal(ms, 3600000);
	assert_int_equal(ward_parse_duration_ms("12", &ms), -1);
	assert_int_equal(ward_parse_duration_ms("1.0005s", &ms), -1);
	assert_int_equal(ward_parse_duration_ms("0.5ms", &ms), -1);
	assert_int_equal(ward_parse_duration_ms("-1s", &ms), -1);
	assert_int_equal(ward_parse_duration_ms("99999999999999999999s", &ms),
			 -1);

	/* the seed: 30 s runs, 3 retries, 12 s of queue: 132 s */
	assert_int_equal(ward_budget_options(NULL, NULL, &b, why, sizeof(why)),
			 0);
	p.limits.set = 1u << WARD_LIM_WALL;
	p.limits.value[WARD_LIM_WALL] = 30000;
	ward_budget_compute(&p, &b);
	assert_true(b.bounded);
	assert_int_equal(b.worst_ms, 132000);
	/* grace counts: the run lasts until the SIGKILL */
	p.limits.set |= 1u << WARD_LIM_GRACE;
	p.limits.value[WARD_LIM_GRACE] = 2000;
	assert_int_equal(ward_budget_options("0", "1m", &b, why, sizeof(why)),
			 0);
	ward_budget_compute(&p, &b);
	assert_int_equal(b.run_ms, 32000);
	assert_int_equal(b.worst_ms, 32000 + 60000);
	/* no wall: unbounded */
	p.limits.set = 0;
	ward_budget_compute(&p, &b);
	assert_false(b.bounded);
	assert_int_equal(
	    ward_budget_options("1001", NULL, &b, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "--retries takes a whole number"));
	assert_int_equal(ward_budget_options("x", NULL, &b, why, sizeof(why)),
			 -1);
	assert_int_equal(ward_budget_options(NULL, "12", &b, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "--queue takes a duration"));

	struct ward_export_rule e = {.max_files = 20, .per_file = 5u << 20};
	assert_int_equal(ward_export_bound(&e), 100u << 20);
	e.total = 40u << 20;
	assert_int_equal(ward_export_bound(&e), 40u << 20);
	e.total = 200u << 20; /* a total above the product does not bind */
	assert_int_equal(ward_export_bound(&e), 100u << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_format),
	    cmocka_unit_test(test_equal_by_meaning),
	    cmocka_unit_test(test_syntax_errors),
	    cmocka_unit_test(test_compiled),
	    cmocka_unit_test(test_diagnostics),
	    cmocka_unit_test(test_blob_round_trip),
	    cmocka_unit_test(test_blob_refused),
	    cmocka_unit_test(test_blob_flips),
	    cmocka_unit_test(test_budget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
