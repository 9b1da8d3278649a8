/* SPDX-License-Identifier: MIT */
/* Unit tests of ward's command line (launcher/core/cli.c). */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cli.h"

#include <string.h>

/* Parse a NULL-terminated list of arguments (copied: the parser writes). */
static int parse(struct ward_cli *cli, ward_err *err, char **args)
{
	static char store[32][128];
	static char *argv[33];
	int argc = 0;

	for (; args[argc]; argc++) {
		snprintf(store[argc], sizeof(store[argc]), "%s", args[argc]);
		argv[argc] = store[argc];
	}
	argv[argc] = NULL;
	return ward_cli_parse(argc, argv, cli, err);
}

#define ARGS(...) ((char *[]){"ward", __VA_ARGS__, NULL})

static void full_line(void **state)
{
	struct ward_cli cli;
	ward_err err = {0};

	assert_int_equal(
	    parse(&cli, &err,
		  ARGS("--slot", "in=/srv/in", "--slot=out=/srv/o=x",
		       "--report", "r.json", "--expect-digest",
		       "ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0"
		       "123456789",
		       "--stdin", "-", "--host-uid", "4242", "p.wardb", "--",
		       "prog", "--flag", "--")),
	    0);
	assert_string_equal(cli.blob_path, "p.wardb");
	assert_string_equal(cli.argv[0], "prog");
	assert_string_equal(cli.argv[1], "--flag");
	assert_string_equal(cli.argv[2], "--");
	assert_null(cli.argv[3]);
	assert_int_equal(cli.nslots, 2);
	assert_string_equal(cli.slots[0].name, "in");
	assert_string_equal(cli.slots[0].path, "/srv/in");
	assert_string_equal(cli.slots[1].name, "out");
	assert_string_equal(cli.slots[1].path, "/srv/o=x");
	assert_string_equal(cli.report_path, "r.json");
	assert_string_equal(
	    cli.expect_digest,
	    "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789");
	assert_string_equal(cli.stdin_path, "-");
	assert_int_equal(cli.host_uid, 4242);
	assert_int_equal(cli.host_gid, -1);
	assert_false(cli.help);
	ward_cli_free(&cli);
}

static void refusals(void **state)
{
	static const struct {
		char *args[10];
		const char *msg;
	} cases[] = {
	    {{"ward", NULL}, "no POLICY given"},
	    {{"ward", "p.wardb", NULL}, "expected -- after POLICY"},
	    {{"ward", "p.wardb", "prog", NULL}, "expected -- after POLICY"},
	    {{"ward", "p.wardb", "--", NULL}, "no PROGRAM given"},
	    {{"ward", "p.wardb", "--slot", "a=b", "--", "x", NULL},
	     "expected -- after POLICY"},
	    {{"ward", "--slot", "a", "p", "--", "x", NULL},
	     "--slot a: expected NAME=HOSTPATH"},
	    {{"ward", "--slot", "=x", "p", "--", "x", NULL},
	     "expected NAME=HOSTPATH"},
	    {{"ward", "--slot", "a=", "p", "--", "x", NULL},
	     "expected NAME=HOSTPATH"},
	    {{"ward", "--slot", "a=1", "--slot", "a=2", "p", "--", "x", NULL},
	     "--slot a given twice"},
	    {{"ward", "--expect-digest", "abc", "p", "--", "x", NULL},
	     "expected 64 hex digits"},
	    {{"ward", "--host-uid", "-1", "p", "--", "x", NULL},
	     "--host-uid: not a uid/gid"},
	    {{"ward", "--host-gid", "12x", "p", "--", "x", NULL},
	     "--host-gid: not a uid/gid"},
	    {{"ward", "--bogus", "p", "--", "x", NULL},
	     "unknown option --bogus"},
	    {{"ward", "--report", NULL}, "--report needs an argument"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ward_cli cli;
		ward_err err = {0};

		assert_int_equal(parse(&cli, &err, (char **)cases[i].args), -1);
		if (!strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err.msg,
				 cases[i].msg);
		ward_cli_free(&cli);
	}
}

/* --upstream-proxy is taken as given (its address is read by
 * http_proxy.c, test_http_proxy.c); absent, NULL. */
static void upstream_proxy(void **state)
{
	struct ward_cli cli;
	ward_err err = {0};

	(void)state;
	assert_int_equal(parse(&cli, &err,
			       ARGS("--upstream-proxy", "10.0.0.1:3128",
				    "p.wardb", "--", "prog")),
			 0);
	assert_string_equal(cli.upstream_proxy, "10.0.0.1:3128");
	ward_cli_free(&cli);
	assert_int_equal(
	    parse(&cli, &err,
		  ARGS("--upstream-proxy=[::1]:8080", "p.wardb", "--", "prog")),
	    0);
	assert_string_equal(cli.upstream_proxy, "[::1]:8080");
	ward_cli_free(&cli);
	assert_int_equal(parse(&cli, &err, ARGS("p.wardb", "--", "prog")), 0);
	assert_null(cli.upstream_proxy);
	ward_cli_free(&cli);
	assert_int_equal(parse(&cli, &err, ARGS("p.wardb", "--upstream-proxy")),
			 -1);
	ward_cli_free(&cli);
}

static void help_and_version(void **state)
{
	struct ward_cli cli;
	ward_err err = {0};

	assert_int_equal(parse(&cli, &err, ARGS("--help")), 0);
	assert_true(cli.help);
	ward_cli_free(&cli);
	assert_int_equal(parse(&cli, &err, ARGS("-V")), 0);
	assert_true(cli.version);
	assert_null(cli.blob_path);
	ward_cli_free(&cli);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(full_line),
	    cmocka_unit_test(refusals),
	    cmocka_unit_test(upstream_proxy),
	    cmocka_unit_test(help_and_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
