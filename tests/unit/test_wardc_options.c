/* wardc's options per command (compiler/cli/commands.c, options.c): each
 * command's --help lists exactly the options this file expects of it (the
 * man page's), each takes its own, and each refuses every option of
 * another command with a usage error that names the option. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "commands.h"
#include "options.h"

/* What each command takes besides the options of every command. */
static const struct {
	const char *cmd, *own;
} expected[] = {
    {"check", ""},
    {"compile", "--record -o"},
    {"explain", "--bpf --format --queue --retries"},
    {"diff", "--format"},
    {"fmt", "--check -w"},
    {"constants", ""},
    {"args", ""},
    {"lint", "--format --list-rules --threshold -o"},
    {"export", "--allow-runtime-init --bundle --format --slot --spo-layout -o"},
    {"import", "--capabilities -o"},
    {"keygen", "-o"},
    {"sign", "-k -o"},
    {"suggest", "--from -o"},
    {"replay", "--ward"},
};
static const char general[] =
    "--color --help --target -D -I -Werror -fdiagnostics-format -h";
static const char every_own[] =
    "--allow-runtime-init --bpf --bundle --capabilities --check --format "
    "--from --list-rules --queue --record --retries --slot --spo-layout "
    "--threshold --ward -k -o -w";

static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The option names a --help text shows, sorted, space-separated: the
 * left column of its lines that start with "  -", cut at a value. */
static char *help_names(const struct wardc_command *cmd)
{
	char *text = NULL, *names[64], *line, *save = NULL;
	size_t len = 0, n = 0, cap = 1;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	wardc_help_command(f, cmd);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "  -", 3) != 0)
			continue;
		char *left = line + 2, *end = strstr(left, "  "), *tok, *s2;
		if (end)
			*end = 0;
		for (tok = strtok_r(left, ",", &s2); tok;
		     tok = strtok_r(NULL, ",", &s2)) {
			tok += strspn(tok, " ");
			tok[strcspn(tok, " =")] = 0;
			assert_true(n < 64);
			names[n++] = strdup(tok);
			cap += strlen(tok) + 1;
		}
	}
	free(text);
	qsort(names, n, sizeof(names[0]), cmp_str);
	char *out = calloc(1, cap);
	assert_non_null(out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, names[i]);
		free(names[i]);
	}
	return out;
}

/* own + general, sorted, as help_names writes it. */
static char *want_names(const char *own)
{
	char buf[256], *words[64], *w, *save = NULL;
	size_t n = 0;
	char *out = calloc(1, sizeof(buf));

	assert_non_null(out);
	snprintf(buf, sizeof(buf), "%s %s", own, general);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		words[n++] = w;
	qsort(words, n, sizeof(words[0]), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, words[i]);
	}
	return out;
}

static void test_every_command_expected(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct wardc_command *c = wardc_commands; c->name; c++) {
		bool found = false;
		for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]);
		     i++)
			found |= !strcmp(expected[i].cmd, c->name);
		if (!found)
			fail_msg("command %s is not expected here", c->name);
		n++;
	}
	assert_int_equal(n, sizeof(expected) / sizeof(expected[0]));
}

static void test_help_lists_exactly_its_options(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		const struct wardc_command *c = wardc_command(expected[i].cmd);
		assert_non_null(c);
		char *got = help_names(c), *want = want_names(expected[i].own);
		if (strcmp(got, want))
			fail_msg("wardc %s --help lists `%s`, not `%s`",
				 c->name, got, want);
		free(got);
		free(want);
	}
}

/* wardc_parse on "wardc CMD ARGS..." (at most 8 arguments). */
static int parse(const char *cmd, const char *const *args, struct wardc_args *a,
		 ward_err *err)
{
	static const char *files[16], *incdirs[16], *slots[16], *defines[16];
	char *argv[16] = {"wardc", (char *)cmd};
	int argc = 2;

	memset(a, 0, sizeof(*a));
	a->files = files;
	a->slots = slots;
	a->opts.incdirs = incdirs;
	a->opts.defines = defines;
	a->out_format = "text";
	while (*args)
		argv[argc++] = (char *)*args++;
	return wardc_parse(wardc_command(cmd), argc, argv, 2, a, err);
}

static void test_refuses_options_of_other_commands(void **state)
{
	char buf[256], *w, *save = NULL;
	unsigned refused = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", every_own);
		for (w = strtok_r(buf, " ", &save); w;
		     w = strtok_r(NULL, " ", &save)) {
			if (has_word(expected[i].own, w))
				continue;
			const char *args[] = {w, "5", "FILE", NULL};
			struct wardc_args a;
			ward_err err = {0};
			char want[64];
			if (parse(expected[i].cmd, args, &a, &err) != -1)
				fail_msg("wardc %s takes %s", expected[i].cmd,
					 w);
			snprintf(want, sizeof(want), "unknown option `%s`", w);
			if (!strstr(err.msg, want))
				fail_msg("wardc %s %s: `%s`", expected[i].cmd,
					 w, err.msg);
			refused++;
		}
	}
	assert_true(refused > 50);
}

static void test_the_issue_example(void **state)
{
	const char *args[] = {"--bpf", "--threshold", "5", "--retries",
			      "x",     "FILE",	      NULL};
	struct wardc_args a;
	ward_err err = {0};

	(void)state;
	assert_int_equal(parse("fmt", args, &a, &err), -1);
	assert_string_equal(err.msg,
			    "unknown option `--bpf` (an option of explain)");
}

static void test_takes_its_own(void **state)
{
	struct wardc_args a;
	ward_err err = {0};

	(void)state;
	{
		const char *args[] = {
		    "--format=json", "--bpf", "--retries", "2",
		    "--queue=1s",    "-Iinc", "B",	   NULL};
		assert_int_equal(parse("explain", args, &a, &err), 0);
		assert_string_equal(a.out_format, "json");
		assert_true(a.bpf);
		assert_string_equal(a.retries, "2");
		assert_string_equal(a.queue, "1s");
		assert_int_equal(a.opts.nincdirs, 1);
		assert_string_equal(a.opts.incdirs[0], "inc");
		assert_int_equal(a.nfiles, 1);
	}
	{
		const char *args[] = {"-w", "--", "--check", NULL};
		assert_int_equal(parse("fmt", args, &a, &err), 0);
		assert_true(a.write);
		assert_false(a.check);
		assert_int_equal(a.nfiles, 1);
		assert_string_equal(a.files[0], "--check");
	}
	{
		const char *args[] = {"--list-rules", "--format", "markdown",
				      "-o",	      "out",	  NULL};
		assert_int_equal(parse("lint", args, &a, &err), 0);
		assert_true(a.list_rules);
		assert_string_equal(a.output, "out");
	}
	{
		const char *args[] = {"-o", NULL};
		assert_int_equal(parse("compile", args, &a, &err), -1);
		assert_string_equal(err.msg, "-o needs a value (OUT)");
	}
	{
		const char *args[] = {"-fdiagnostics-format", "json", NULL};
		assert_int_equal(parse("check", args, &a, &err), -1);
		assert_string_equal(err.msg,
				    "write `-fdiagnostics-format=text|json`");
	}
	{
		const char *args[] = {"x.ward", "-h", "--bogus", NULL};
		assert_int_equal(parse("check", args, &a, &err), 1);
	}
}

/* -D NAME=VALUE: a string constant, its name as the lexer reads one, its
 * value printable ASCII without a quote or a backslash (no escapes). */
static void test_define(void **state)
{
	struct wardc_args a;
	ward_err err = {0};

	(void)state;
	{
		const char *args[] = {"-D", "pip_index=index.test",
				      "-Dpip-files=*.files.test", "P", NULL};
		assert_int_equal(parse("compile", args, &a, &err), 0);
		assert_int_equal(a.opts.ndefines, 2);
		assert_string_equal(a.opts.defines[0], "pip_index=index.test");
		assert_string_equal(a.opts.defines[1],
				    "pip-files=*.files.test");
	}
	{
		const char *args[] = {"-D", "empty=", "P", NULL};
		assert_int_equal(parse("check", args, &a, &err), 0);
	}
	static const struct {
		const char *def, *msg;
	} bad[] = {
	    {"noequals", "-D takes NAME=VALUE (a string constant), not "
			 "`noequals`"},
	    {"=x", "-D takes NAME=VALUE (a string constant), not `=x`"},
	    {"9a=x", "-D `9a` is not a constant's name"},
	    {"a-=x", "-D `a-` is not a constant's name"},
	    {"a--b=x", "-D `a--b` is not a constant's name"},
	    {"a.b=x", "-D `a.b` is not a constant's name"},
	    {"a=say \"hi\"", "the byte 0x22"},
	    {"a=back\\slash", "the byte 0x5c"},
	    {"a=new\nline", "the byte 0x0a"},
	    {"a=caf\xc3\xa9", "the byte 0xc3"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[] = {"-D", bad[i].def, "P", NULL};
		if (parse("compile", args, &a, &err) != -1)
			fail_msg("-D %s taken", bad[i].def);
		if (!strstr(err.msg, bad[i].msg))
			fail_msg("-D %s: `%s`", bad[i].def, err.msg);
	}
	{
		char longv[1100] = "a=";
		memset(longv + 2, 'x', 1025);
		const char *args[] = {"-D", longv, "P", NULL};
		assert_int_equal(parse("compile", args, &a, &err), -1);
		assert_non_null(strstr(err.msg, "longer than 1024 bytes"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_command_expected),
	    cmocka_unit_test(test_help_lists_exactly_its_options),
	    cmocka_unit_test(test_refuses_options_of_other_commands),
	    cmocka_unit_test(test_the_issue_example),
	    cmocka_unit_test(test_takes_its_own),
	    cmocka_unit_test(test_define),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
