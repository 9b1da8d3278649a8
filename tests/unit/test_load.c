/* SPDX-License-Identifier: MIT */
/*
 * test_load.c: the search path, `use` and `include`, each file once,
 * cycles, missing files, a policy where a fragment belongs, the limits. Each
 * test works in a fresh directory of its own (the current directory), so
 * the names in the messages are short and exact.
 */
#include "fe_test.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

static char top[PATH_MAX], old_cwd[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	assert_non_null(getcwd(old_cwd, sizeof(old_cwd)));
	snprintf(top, sizeof(top), "/tmp/ward-test-load-XXXXXX");
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
	unsetenv("WARD_PATH");
	return 0;
}

/* Write a file, making its directories. */
static void put_file(const char *path, const char *text)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *s = strchr(dir, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(dir, 0755);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

struct loaded {
	struct ward_search_path sp;
	struct ward_sources *src;
	struct ward_diags *d;
	struct ward_unit unit;
	bool io_error;
	int rc;
	char *out;
	size_t outlen;
	FILE *mem;
};

static struct loaded *load(const char *path, const char **dirs, size_t n)
{
	struct loaded *l = calloc(1, sizeof(*l));
	assert_non_null(l);
	l->mem = open_memstream(&l->out, &l->outlen);
	assert_int_equal(ward_search_path_init(&l->sp, dirs, n), 0);
	l->src = ward_sources_new();
	l->d = ward_diags_new(l->src, l->mem, WARD_DIAG_TEXT, WARD_COLOR_NEVER,
			      false);
	l->rc = ward_load(path, &l->sp, l->src, l->d, &l->unit, &l->io_error);
	ward_diags_flush(l->d);
	fflush(l->mem);
	if (!l->out)
		l->out = strdup("");
	return l;
}

static void unload(struct loaded *l)
{
	ward_unit_free(&l->unit);
	ward_diags_free(l->d);
	ward_sources_free(l->src);
	ward_search_path_free(&l->sp);
	fclose(l->mem);
	free(l->out);
	free(l);
}

/* The names of the unit's files, in order, joined by spaces. */
static const char *order(const struct loaded *l)
{
	static char buf[1024];
	buf[0] = '\0';
	for (size_t i = 0; i < l->unit.nfiles; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, ward_sources_name(l->src, l->unit.files[i]->file));
	}
	return buf;
}

static void test_search_path_order(void **state)
{
	(void)state;
	mkdir("i1", 0755);
	mkdir("i2", 0755);
	setenv("WARD_PATH", "w1::w2/:", 1);
	const char *dirs[] = {"i1", "i2/"};
	struct ward_search_path sp;
	assert_int_equal(ward_search_path_init(&sp, dirs, 2), 0);
	/* -I in order, then $WARD_PATH (empty entries skipped), then the
	 * stdlib found from the test binary: the source tree's */
	assert_true(sp.ndirs >= 4);
	assert_string_equal(sp.dirs[0], "i1");
	assert_string_equal(sp.dirs[1], "i2");
	assert_string_equal(sp.dirs[2], "w1");
	assert_string_equal(sp.dirs[3], "w2");
	/* a build tree under the source tree finds its stdlib-policies/ */
	assert_true(sp.ndirs <= 5);
	if (sp.ndirs == 5) {
		const char *stdlib = sp.dirs[4];
		size_t n = strlen(stdlib);
		assert_true(n > 16);
		assert_string_equal(stdlib + n - 16, "/stdlib-policies");
		assert_int_equal(stdlib[0], '/');
	}
	ward_search_path_free(&sp);
	assert_int_equal(sp.ndirs, 0);
	assert_null(sp.dirs);
}

static void test_use_first_match_wins(void **state)
{
	(void)state;
	put_file("a/base.ward", "ward 1;\nconst A = 1;\n");
	put_file("b/base.ward", "ward 1;\nconst B = 1;\n");
	put_file("b/net/agent.ward", "ward 1;\n");
	put_file("main.ward",
		 "ward 1;\npolicy p;\nuse base;\nuse net/agent;\n");
	const char *dirs[] = {"a", "b"};
	struct loaded *l = load("main.ward", dirs, 2);
	assert_string_equal(l->out, "");
	assert_int_equal(l->rc, 0);
	assert_string_equal(order(l), "a/base.ward b/net/agent.ward main.ward");
	assert_ptr_equal(l->unit.main, l->unit.files[2]);
	assert_false(l->io_error);
	/* the chain: base.ward was reached from main.ward:3 */
	struct ward_loc via;
	assert_int_equal(
	    ward_sources_parent(l->src, l->unit.files[0]->file, &via),
	    l->unit.main->file);
	assert_int_equal(via.line, 3);
	assert_int_equal(via.col, 1);
	unload(l);
}

static void test_ward_path(void **state)
{
	(void)state;
	put_file("env/x.ward", "ward 1;\n");
	put_file("inc/x.ward", "ward 1;\n");
	put_file("main.ward", "ward 1;\nuse x;\n");
	setenv("WARD_PATH", "env", 1);
	struct loaded *l = load("main.ward", NULL, 0);
	assert_int_equal(l->rc, 0);
	assert_string_equal(order(l), "env/x.ward main.ward");
	unload(l);
	/* -I comes before $WARD_PATH */
	const char *dirs[] = {"inc"};
	l = load("main.ward", dirs, 1);
	assert_string_equal(order(l), "inc/x.ward main.ward");
	unload(l);
}

static void test_include_relative(void **state)
{
	(void)state;
	put_file("p/main.ward", "ward 1;\ninclude \"sub/a.ward\";\n");
	put_file("p/sub/a.ward", "ward 1;\ninclude \"../b.ward\";\n"
				 "include \"deeper/c.ward\";\n");
	put_file("p/b.ward", "ward 1;\n");
	put_file("p/sub/deeper/c.ward", "ward 1;\n");
	char abs[PATH_MAX + 32];
	snprintf(abs, sizeof(abs), "ward 1;\ninclude \"%s/p/b.ward\";\n", top);
	put_file("p/abs.ward", abs);
	struct loaded *l = load("p/main.ward", NULL, 0);
	assert_string_equal(l->out, "");
	assert_int_equal(l->rc, 0);
	assert_string_equal(order(l), "p/sub/../b.ward p/sub/deeper/c.ward "
				      "p/sub/a.ward p/main.ward");
	unload(l);
	l = load("p/abs.ward", NULL, 0);
	assert_int_equal(l->rc, 0);
	assert_int_equal(l->unit.nfiles, 2);
	unload(l);
}

static void test_once_only(void **state)
{
	(void)state;
	/* a diamond: main uses b and c, both use d; and main includes d by
	 * another spelling */
	put_file("lib/b.ward", "ward 1;\nuse d;\n");
	put_file("lib/c.ward", "ward 1;\nuse d;\nuse b;\n");
	put_file("lib/d.ward", "ward 1;\nconst D = 1;\n");
	put_file("main.ward", "ward 1;\nuse b;\nuse c;\ninclude "
			      "\"./lib/../lib/d.ward\";\nuse b;\n");
	const char *dirs[] = {"lib"};
	struct loaded *l = load("main.ward", dirs, 1);
	assert_string_equal(l->out, "");
	assert_int_equal(l->rc, 0);
	assert_string_equal(order(l),
			    "lib/d.ward lib/b.ward lib/c.ward main.ward");
	assert_int_equal(ward_sources_count(l->src), 4);
	unload(l);
}

static void test_cycle(void **state)
{
	(void)state;
	put_file("lib/a.ward", "ward 1;\nuse b;\n");
	put_file("lib/b.ward", "ward 1;\nconst X = 1;\nuse a;\n");
	put_file("main.ward", "ward 1;\nuse a;\n");
	const char *dirs[] = {"lib"};
	struct loaded *l = load("main.ward", dirs, 1);
	assert_int_equal(l->rc, -1);
	assert_false(l->io_error);
	assert_string_equal(
	    l->out, "in file used from lib/a.ward:2:1:\n"
		    "in file used from main.ward:2:1:\n"
		    "lib/b.ward:3:5: error: this file uses itself: "
		    "lib/a.ward -> lib/b.ward -> lib/a.ward\n"
		    "    3 | use a;\n"
		    "      |     ^\n"
		    "      = help: a file may not use or include itself, "
		    "directly or through other files\n");
	/* everything was still loaded, once */
	assert_string_equal(order(l), "lib/b.ward lib/a.ward main.ward");
	unload(l);
	/* a file that includes itself */
	put_file("self.ward", "ward 1;\ninclude \"self.ward\";\n");
	l = load("self.ward", NULL, 0);
	assert_string_equal(first_line(&(struct parsed){.out = l->out}),
			    "self.ward:2:9: error: this file uses itself: "
			    "self.ward -> self.ward");
	unload(l);
}

static void test_missing(void **state)
{
	(void)state;
	mkdir("one", 0755);
	mkdir("two", 0755);
	put_file("main.ward", "ward 1;\nuse nothere;\ninclude \"gone.ward\";\n"
			      "use ../escape;\n");
	const char *dirs[] = {"one", "two"};
	struct loaded *l = load("main.ward", dirs, 2);
	assert_int_equal(l->rc, -1);
	assert_false(l->io_error);
	char expected[4096];
	snprintf(expected, sizeof(expected),
		 "main.ward:2:5: error: cannot find `nothere.ward` on the "
		 "search path\n"
		 "    2 | use nothere;\n"
		 "      |     ^~~~~~~\n"
		 "      = help: searched: one, two%s%s\n"
		 "main.ward:3:9: error: cannot read gone.ward: No such file or "
		 "directory\n"
		 "    3 | include \"gone.ward\";\n"
		 "      |         ^~~~~~~~~~~\n"
		 "main.ward:4:5: error: `../escape` is not a fragment name: "
		 "write names joined by `/`, such as `net/agent`\n"
		 "    4 | use ../escape;\n"
		 "      |     ^~~~~~~~~\n",
		 l->sp.ndirs > 2 ? ", " : "",
		 l->sp.ndirs > 2 ? l->sp.dirs[2] : "");
	assert_string_equal(l->out, expected);
	assert_string_equal(order(l), "main.ward");
	unload(l);
}

static void test_policy_in_fragment(void **state)
{
	(void)state;
	put_file("lib/frag.ward", "ward 1;\npolicy sneaky;\n");
	put_file("main.ward", "ward 1;\npolicy main;\nuse frag;\n");
	const char *dirs[] = {"lib"};
	struct loaded *l = load("main.ward", dirs, 1);
	assert_int_equal(l->rc, -1);
	assert_string_equal(l->out, "in file used from main.ward:3:1:\n"
				    "lib/frag.ward:2:1: error: `policy` in a "
				    "used file: only the file given to wardc "
				    "may be a policy\n"
				    "    2 | policy sneaky;\n"
				    "      | ^~~~~~\n");
	unload(l);
	/* the main file itself may be a policy: no error */
	l = load("lib/frag.ward", NULL, 0);
	assert_int_equal(l->rc, 0);
	unload(l);
}

static void test_syntax_error_in_used_file(void **state)
{
	(void)state;
	put_file("lib/bad.ward", "ward 1;\nlimits { memory }\n");
	put_file("main.ward", "ward 1;\nuse bad;\n");
	const char *dirs[] = {"lib"};
	struct loaded *l = load("main.ward", dirs, 1);
	assert_int_equal(l->rc, -1);
	assert_string_equal(l->out,
			    "in file used from main.ward:2:1:\n"
			    "lib/bad.ward:2:17: error: expected a value after "
			    "`memory`, found `}`\n"
			    "    2 | limits { memory }\n"
			    "      |                 ^\n");
	/* what parsed is there */
	assert_int_equal(l->unit.nfiles, 2);
	unload(l);
}

static void test_main_io_errors(void **state)
{
	(void)state;
	struct loaded *l = load("absent.ward", NULL, 0);
	assert_int_equal(l->rc, -1);
	assert_true(l->io_error);
	assert_string_equal(l->out, "wardc: cannot read absent.ward: No such "
				    "file or directory\n");
	assert_int_equal(l->unit.nfiles, 0);
	assert_null(l->unit.main);
	unload(l);
	mkdir("adir", 0755);
	l = load("adir", NULL, 0);
	assert_true(l->io_error);
	assert_string_equal(l->out,
			    "wardc: cannot read adir: Is a directory\n");
	unload(l);
	/* a syntax error is no I/O error */
	put_file("bad.ward", "ward 1;\n}\n");
	l = load("bad.ward", NULL, 0);
	assert_int_equal(l->rc, -1);
	assert_false(l->io_error);
	unload(l);
}

static void test_file_size_limit(void **state)
{
	(void)state;
	FILE *f = fopen("big.ward", "w");
	assert_non_null(f);
	fputs("ward 1;\n", f);
	char line[65];
	memset(line, '#', 63);
	line[63] = '\n';
	line[64] = '\0';
	/* 8 + 65536 * 64 bytes: 8 more than 4 MiB */
	for (size_t n = 8; n <= 4u << 20; n += 64)
		fputs(line, f);
	fclose(f);
	put_file("main.ward", "ward 1;\ninclude \"big.ward\";\n");
	struct loaded *l = load("main.ward", NULL, 0);
	assert_int_equal(l->rc, -1);
	assert_string_equal(first_line(&(struct parsed){.out = l->out}),
			    "main.ward:2:9: error: big.ward is larger than 4 "
			    "MiB: a policy file is at most that large");
	unload(l);
	l = load("big.ward", NULL, 0);
	assert_true(l->io_error);
	assert_string_equal(l->out, "wardc: big.ward is larger than 4 MiB: a "
				    "policy file is at most that large\n");
	unload(l);
}

static void test_depth_limit(void **state)
{
	(void)state;
	char name[64], text[128];
	for (int i = 0; i < 70; i++) {
		snprintf(name, sizeof(name), "lib/f%d.ward", i);
		snprintf(text, sizeof(text), "ward 1;\nuse f%d;\n", i + 1);
		put_file(name, text);
	}
	put_file("lib/f70.ward", "ward 1;\n");
	const char *dirs[] = {"lib"};
	struct loaded *l = load("lib/f0.ward", dirs, 1);
	assert_int_equal(l->rc, -1);
	/* the 64 files f0..f63 are loaded; f63's use of f64 is refused */
	assert_int_equal(l->unit.nfiles, 64);
	const char *msg = strstr(l->out, "lib/f63.ward:2:5: error: files are "
					 "used or included more than 64 "
					 "levels deep\n");
	assert_non_null(msg);
	unload(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_search_path_order, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_use_first_match_wins, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_ward_path, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_include_relative, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_once_only, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cycle, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_missing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_policy_in_fragment, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_syntax_error_in_used_file,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_main_io_errors, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_file_size_limit, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_depth_limit, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
