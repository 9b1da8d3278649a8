/* SPDX-License-Identifier: MIT */
/*
 * test_diag.c: the exact text of diagnostics (spec 1.8): carets under
 * tabs and wide characters, help lines, notes, the chain of `use`
 * statements, JSON escaping, -Werror, colours; and ward_suggest.
 */
#include "fe_test.h"

struct out {
	struct ward_sources *src;
	struct ward_diags *d;
	FILE *mem;
	char *buf;
	size_t len;
};

static uint32_t add(struct out *o, const char *name, const char *text,
		    uint32_t parent, struct ward_loc via)
{
	char *copy = strdup(text);
	assert_non_null(copy);
	uint32_t id =
	    ward_sources_add(o->src, name, copy, strlen(text), parent, via);
	assert_int_not_equal(id, WARD_NO_FILE);
	return id;
}

static struct out *open_out(enum ward_diag_format format, enum ward_color color,
			    bool werror)
{
	struct out *o = calloc(1, sizeof(*o));
	assert_non_null(o);
	o->mem = open_memstream(&o->buf, &o->len);
	o->src = ward_sources_new();
	o->d = ward_diags_new(o->src, o->mem, format, color, werror);
	assert_non_null(o->d);
	return o;
}

/* Everything printed so far. */
static const char *text_of(struct out *o)
{
	ward_diags_flush(o->d);
	fflush(o->mem);
	return o->buf ? o->buf : "";
}

static void close_out(struct out *o)
{
	ward_diags_free(o->d);
	ward_sources_free(o->src);
	fclose(o->mem);
	free(o->buf);
	free(o);
}

static struct ward_loc at(uint32_t file, uint32_t line, uint32_t col,
			  uint32_t end_line, uint32_t end_col)
{
	return (struct ward_loc){file, line, col, end_line, end_col};
}

static const struct ward_loc nowhere = {WARD_NO_FILE, 0, 0, 0, 0};

static void test_spec_example(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_NEVER, false);
	char text[512] = "";
	for (int i = 1; i < 12; i++)
		strcat(text, "#\n");
	strcat(text, "    allow sokcet if domain == AF_UNIX;\n");
	uint32_t f = add(o, "python.ward", text, WARD_NO_FILE, nowhere);
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 12, 11, 12, 16),
		  "unknown syscall `%s`", "sokcet");
	ward_diag_help(o->d, "did you mean `%s`?", "socket");
	assert_string_equal(text_of(o),
			    "python.ward:12:11: error: unknown syscall "
			    "`sokcet`\n"
			    "   12 |     allow sokcet if domain == AF_UNIX;\n"
			    "      |           ^~~~~~\n"
			    "      = help: did you mean `socket`?\n");
	assert_int_equal(ward_diags_errors(o->d), 1);
	assert_int_equal(ward_diags_warnings(o->d), 0);
	close_out(o);
}

static void test_tabs_keep_the_caret_aligned(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_NEVER, false);
	uint32_t f =
	    add(o, "t.ward", "\tab\tcd\t\tvalue;\n", WARD_NO_FILE, nowhere);
	/* `value` is at bytes 9..13; tab stops every 8 columns */
	ward_diag(o->d, WARD_SEV_WARNING, at(f, 1, 9, 1, 13), "w");
	/* a span over a tab covers its whole width */
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 1, 4, 1, 6), "e");
	assert_string_equal(text_of(o),
			    "t.ward:1:9: warning: w\n"
			    "    1 |         ab      cd              value;\n"
			    "      |                                 ^~~~~\n"
			    "t.ward:1:4: error: e\n"
			    "    1 |         ab      cd              value;\n"
			    "      |           ^~~~~~~~\n");
	assert_int_equal(ward_diags_warnings(o->d), 1);
	close_out(o);
}

static void test_wide_and_invalid_bytes(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_NEVER, false);
	uint32_t f = add(o, "t.ward", "x = \"\xc3\xa9\x1b\xff\" y;\n",
			 WARD_NO_FILE, nowhere);
	/* é is one column; ESC and 0xff print as <1b> <ff> */
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 1, 10, 1, 10), "e");
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 1, 8, 1, 8), "f");
	assert_string_equal(text_of(o), "t.ward:1:10: error: e\n"
					"    1 | x = \"\xc3\xa9<1b><ff>\" y;\n"
					"      |               ^\n"
					"t.ward:1:8: error: f\n"
					"    1 | x = \"\xc3\xa9<1b><ff>\" y;\n"
					"      |       ^~~~\n");
	close_out(o);
}

static void test_spans(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_NEVER, false);
	uint32_t f =
	    add(o, "t.ward", "fs {\n  bind /a;\n}", WARD_NO_FILE, nowhere);
	/* several lines: the caret runs to the end of the first */
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 1, 1, 3, 1), "multi");
	/* past the end of the line: where something is missing */
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 2, 11, 2, 11), "end");
	/* an empty span (end before start) is one caret */
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 2, 3, 2, 2), "empty");
	/* the last line has no newline */
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 3, 1, 3, 1), "last");
	assert_string_equal(text_of(o), "t.ward:1:1: error: multi\n"
					"    1 | fs {\n"
					"      | ^~~~\n"
					"t.ward:2:11: error: end\n"
					"    2 |   bind /a;\n"
					"      |           ^\n"
					"t.ward:2:3: error: empty\n"
					"    2 |   bind /a;\n"
					"      |   ^\n"
					"t.ward:3:1: error: last\n"
					"    3 | }\n"
					"      | ^\n");
	close_out(o);
}

static void test_wide_line_numbers(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_NEVER, false);
	size_t n = 123456;
	char *text = malloc(n * 2 + 8);
	assert_non_null(text);
	for (size_t i = 0; i < n - 1; i++)
		memcpy(text + 2 * i, "#\n", 2);
	strcpy(text + 2 * (n - 1), "abc\n");
	uint32_t f = add(o, "t.ward", text, WARD_NO_FILE, nowhere);
	free(text);
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 123456, 2, 123456, 3), "e");
	ward_diag_help(o->d, "h");
	assert_string_equal(text_of(o), "t.ward:123456:2: error: e\n"
					"123456 | abc\n"
					"       |  ^~\n"
					"       = help: h\n");
	close_out(o);
}

static void test_long_lines_show_a_window(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_NEVER, false);
	char text[400];
	memset(text, 'a', 300);
	memcpy(text + 249, "XYZ", 3);
	strcpy(text + 300, "\nshort\n");
	uint32_t f = add(o, "t.ward", text, WARD_NO_FILE, nowhere);
	/* XYZ at columns 250..252: the window starts 60 bytes before */
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 1, 250, 1, 252), "e");
	/* near the start: no "..." in front */
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 1, 2, 1, 2), "s");
	/* past the end of a long line */
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 1, 301, 1, 301), "p");
	char expected[2048];
	/* the window reaches the end of the line: no "..." behind */
	snprintf(expected, sizeof(expected),
		 "t.ward:1:250: error: e\n"
		 "    1 | ...%.60sXYZ%.48s\n"
		 "      | %*s^~~\n"
		 "t.ward:1:2: error: s\n"
		 "    1 | %.160s...\n"
		 "      |  ^\n"
		 "t.ward:1:301: error: p\n"
		 "    1 | ...%.60s\n"
		 "      | %*s^\n",
		 text, text, 63, "", text, text + 240, 63, "");
	assert_string_equal(text_of(o), expected);
	close_out(o);
}

static void test_notes_and_helps(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_NEVER, false);
	uint32_t a = add(o, "a.ward", "limits {\n    memory 1M;\n}\n",
			 WARD_NO_FILE, nowhere);
	uint32_t b =
	    add(o, "b.ward", "limits { memory 2M; }\n", WARD_NO_FILE, nowhere);
	ward_diag(o->d, WARD_SEV_ERROR, at(b, 1, 10, 1, 15),
		  "limit `memory` set twice");
	ward_diag_help(o->d, "remove one");
	ward_diag_help(o->d, "or the other");
	ward_diag_note(o->d, at(a, 2, 5, 2, 10), "first set here");
	ward_diag_note(o->d, nowhere, "a note without a place");
	assert_string_equal(text_of(o),
			    "b.ward:1:10: error: limit `memory` set twice\n"
			    "    1 | limits { memory 2M; }\n"
			    "      |          ^~~~~~\n"
			    "      = help: remove one\n"
			    "      = help: or the other\n"
			    "a.ward:2:5: note: first set here\n"
			    "    2 |     memory 1M;\n"
			    "      |     ^~~~~~\n"
			    "wardc: note: a note without a place\n");
	/* notes are not counted */
	assert_int_equal(ward_diags_errors(o->d), 1);
	assert_int_equal(ward_diags_warnings(o->d), 0);
	close_out(o);
}

static void test_help_without_diagnostic(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_NEVER, false);
	ward_diag_help(o->d, "lost");
	ward_diag_note(o->d, nowhere, "lost");
	assert_string_equal(text_of(o), "");
	close_out(o);
}

static void test_use_chain(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_NEVER, false);
	uint32_t main_ =
	    add(o, "python.ward", "ward 1;\npolicy p;\nuse base;\n",
		WARD_NO_FILE, nowhere);
	uint32_t base =
	    add(o, "lib/base.ward", "ward 1;\ninclude \"inc/x.ward\";\n", main_,
		at(main_, 3, 1, 3, 9));
	uint32_t x = add(o, "lib/inc/x.ward", "ward 1;\nconst X = 1;\n", base,
			 at(base, 2, 1, 2, 21));
	ward_diag(o->d, WARD_SEV_ERROR, at(x, 2, 7, 2, 7), "bad");
	ward_diag_note(o->d, at(main_, 2, 1, 2, 6), "policy here");
	ward_diag(o->d, WARD_SEV_WARNING, at(base, 1, 1, 1, 4), "w");
	assert_string_equal(text_of(o),
			    "in file included from lib/base.ward:2:1:\n"
			    "in file used from python.ward:3:1:\n"
			    "lib/inc/x.ward:2:7: error: bad\n"
			    "    2 | const X = 1;\n"
			    "      |       ^\n"
			    "python.ward:2:1: note: policy here\n"
			    "    2 | policy p;\n"
			    "      | ^~~~~~\n"
			    "in file used from python.ward:3:1:\n"
			    "lib/base.ward:1:1: warning: w\n"
			    "    1 | ward 1;\n"
			    "      | ^~~~\n");
	close_out(o);
}

static void test_no_place(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_NEVER, false);
	ward_diag(o->d, WARD_SEV_ERROR, nowhere,
		  "cannot read %s: No such file or directory", "x.ward");
	ward_diag(o->d, WARD_SEV_WARNING, nowhere, "careful");
	/* a file index the source manager does not know has no place */
	ward_diag(o->d, WARD_SEV_ERROR, at(7, 1, 1, 1, 1), "unknown file");
	assert_string_equal(text_of(o),
			    "wardc: cannot read x.ward: No such file or "
			    "directory\n"
			    "wardc: warning: careful\n"
			    "wardc: unknown file\n");
	close_out(o);
}

static void test_werror(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_NEVER, true);
	uint32_t f = add(o, "t.ward", "syscalls default errno EPERM { }\n",
			 WARD_NO_FILE, nowhere);
	ward_diag(o->d, WARD_SEV_WARNING, at(f, 1, 18, 1, 28),
		  "`errno EPERM` as the default breaks fallbacks");
	ward_diag_help(o->d, "prefer `errno ENOSYS`");
	ward_diag(o->d, WARD_SEV_NOTE, at(f, 1, 1, 1, 8), "a note");
	ward_diag(o->d, WARD_SEV_WARNING, nowhere, "placeless");
	assert_string_equal(text_of(o),
			    "t.ward:1:18: error: `errno EPERM` as the default "
			    "breaks fallbacks [-Werror]\n"
			    "    1 | syscalls default errno EPERM { }\n"
			    "      |                  ^~~~~~~~~~~\n"
			    "      = help: prefer `errno ENOSYS`\n"
			    "t.ward:1:1: note: a note\n"
			    "    1 | syscalls default errno EPERM { }\n"
			    "      | ^~~~~~~~\n"
			    "wardc: error: placeless [-Werror]\n");
	assert_int_equal(ward_diags_errors(o->d), 2);
	assert_int_equal(ward_diags_warnings(o->d), 0);
	close_out(o);
}

static void test_color(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_TEXT, WARD_COLOR_ALWAYS, false);
	uint32_t f = add(o, "t.ward", "abc\n", WARD_NO_FILE, nowhere);
	ward_diag(o->d, WARD_SEV_ERROR, at(f, 1, 2, 1, 3), "e");
	ward_diag_help(o->d, "h");
	ward_diag_note(o->d, at(f, 1, 1, 1, 1), "n");
	ward_diag(o->d, WARD_SEV_WARNING, at(f, 1, 1, 1, 1), "w");
	assert_string_equal(
	    text_of(o), "\033[1mt.ward:1:2:\033[0m \033[1;31merror:\033[0m "
			"e\n"
			"    1 | abc\n"
			"      |  \033[1;32m^~\033[0m\n"
			"      \033[1m= help:\033[0m h\n"
			"\033[1mt.ward:1:1:\033[0m \033[1;36mnote:\033[0m n\n"
			"    1 | abc\n"
			"      | \033[1;32m^\033[0m\n"
			"\033[1mt.ward:1:1:\033[0m \033[1;33mwarning:\033[0m "
			"w\n"
			"    1 | abc\n"
			"      | \033[1;32m^\033[0m\n");
	close_out(o);
	/* auto: a memory stream is no terminal */
	o = open_out(WARD_DIAG_TEXT, WARD_COLOR_AUTO, false);
	ward_diag(o->d, WARD_SEV_ERROR, nowhere, "plain");
	assert_string_equal(text_of(o), "wardc: plain\n");
	close_out(o);
}

static void test_json(void **state)
{
	(void)state;
	struct out *o = open_out(WARD_DIAG_JSON, WARD_COLOR_ALWAYS, false);
	uint32_t m = add(o, "dir/\"m\".ward", "ward 1;\nuse b;\n", WARD_NO_FILE,
			 nowhere);
	uint32_t b =
	    add(o, "b.ward", "ward 1;\nconst x = 1;\n", m, at(m, 2, 1, 2, 6));
	ward_diag(o->d, WARD_SEV_ERROR, at(b, 2, 7, 2, 7),
		  "quote \" backslash \\ newline \n tab \t bell \a "
		  "utf8 \xc3\xa9 bad \xff end");
	ward_diag_help(o->d, "h1");
	ward_diag_help(o->d, "h2 \"x\"");
	ward_diag_note(o->d, at(m, 1, 1, 1, 4), "see `here`");
	ward_diag(o->d, WARD_SEV_WARNING, nowhere, "placeless");
	assert_string_equal(
	    text_of(o),
	    "{\"file\":\"b.ward\",\"line\":2,\"column\":7,\"end_line\":2,"
	    "\"end_column\":7,\"severity\":\"error\",\"message\":\"quote \\\" "
	    "backslash \\\\ newline \\n tab \\t bell \\u0007 utf8 \xc3\xa9 bad "
	    "\\udcff end\",\"help\":[\"h1\",\"h2 \\\"x\\\"\"],\"notes\":[{"
	    "\"file\":\"dir/\\\"m\\\".ward\",\"line\":1,\"column\":1,"
	    "\"end_line\":1,\"end_column\":4,\"severity\":\"note\","
	    "\"message\":\"see `here`\"}],\"include_chain\":[{\"file\":"
	    "\"dir/\\\"m\\\".ward\",\"line\":2,\"column\":1}]}\n"
	    "{\"file\":null,\"line\":0,\"column\":0,\"end_line\":0,"
	    "\"end_column\":0,\"severity\":\"warning\",\"message\":"
	    "\"placeless\",\"help\":[],\"notes\":[],\"include_chain\":[]}\n");
	close_out(o);
	/* -Werror in JSON */
	o = open_out(WARD_DIAG_JSON, WARD_COLOR_NEVER, true);
	ward_diag(o->d, WARD_SEV_WARNING, nowhere, "w");
	assert_string_equal(text_of(o),
			    "{\"file\":null,\"line\":0,\"column\":0,"
			    "\"end_line\":0,\"end_column\":0,\"severity\":"
			    "\"error\",\"message\":\"w [-Werror]\",\"help\":[],"
			    "\"notes\":[],\"include_chain\":[]}\n");
	close_out(o);
}

static void test_sources(void **state)
{
	(void)state;
	struct ward_sources *s = ward_sources_new();
	char *text = malloc(9);
	memcpy(text, "a\r\nbc\n\nd", 9); /* not NUL-terminated */
	struct ward_loc via = {0, 3, 1, 3, 5};
	uint32_t f = ward_sources_add(s, "x.ward", text, 8, 0, via);
	assert_int_equal(f, 0);
	assert_int_equal(ward_sources_count(s), 1);
	assert_string_equal(ward_sources_name(s, f), "x.ward");
	size_t len;
	const char *t = ward_sources_text(s, f, &len);
	assert_int_equal(len, 8);
	assert_int_equal(t[8], '\0');
	const char *line = ward_sources_line(s, f, 1, &len);
	assert_int_equal(len, 1); /* without \r\n */
	assert_memory_equal(line, "a", 1);
	line = ward_sources_line(s, f, 2, &len);
	assert_int_equal(len, 2);
	assert_memory_equal(line, "bc", 2);
	ward_sources_line(s, f, 3, &len);
	assert_int_equal(len, 0);
	line = ward_sources_line(s, f, 4, &len);
	assert_int_equal(len, 1);
	assert_memory_equal(line, "d", 1);
	assert_null(ward_sources_line(s, f, 5, &len));
	assert_null(ward_sources_line(s, f, 0, &len));
	assert_null(ward_sources_line(s, 9, 1, &len));
	struct ward_loc got;
	assert_int_equal(ward_sources_parent(s, f, &got), 0);
	assert_int_equal(got.line, 3);
	assert_int_equal(ward_sources_parent(s, 5, &got), WARD_NO_FILE);
	assert_null(ward_sources_name(s, 5));
	ward_sources_free(s);
}

static void test_suggest(void **state)
{
	(void)state;
	static const char *const sys[] = {"socket", "socketpair", "read",
					  "readv",  "write",	  "ioctl"};
	assert_string_equal(ward_suggest("sokcet", sys, 6), "socket");
	assert_string_equal(ward_suggest("raed", sys, 6), "read");
	assert_string_equal(ward_suggest("wrte", sys, 6), "write");
	assert_string_equal(ward_suggest("readvv", sys, 6), "readv");
	assert_null(ward_suggest("mmap", sys, 6));
	assert_null(ward_suggest("", sys, 6));
	assert_null(ward_suggest("x", sys, 0));
	/* case does not count */
	static const char *const af[] = {"AF_INET", "AF_INET6", "AF_UNIX"};
	assert_string_equal(ward_suggest("af_unix", af, 3), "AF_UNIX");
	assert_string_equal(ward_suggest("AF_INTE6", af, 3), "AF_INET6");
	/* the threshold grows with the word: 1 step up to 5 letters */
	static const char *const lim[] = {"memory", "swap", "cpu", "pids"};
	assert_string_equal(ward_suggest("memroy", lim, 4), "memory");
	assert_string_equal(ward_suggest("cpus", lim, 4), "cpu");
	assert_null(ward_suggest("mem", lim, 4));
	assert_null(ward_suggest("cxx", lim, 4));
	/* ties: closest ignoring case, then the first */
	static const char *const tie[] = {"abd", "ABC", "abc"};
	assert_string_equal(ward_suggest("abx", tie, 3), "abd");
	assert_string_equal(ward_suggest("aBc", tie, 3), "abc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spec_example),
	    cmocka_unit_test(test_tabs_keep_the_caret_aligned),
	    cmocka_unit_test(test_wide_and_invalid_bytes),
	    cmocka_unit_test(test_spans),
	    cmocka_unit_test(test_wide_line_numbers),
	    cmocka_unit_test(test_long_lines_show_a_window),
	    cmocka_unit_test(test_notes_and_helps),
	    cmocka_unit_test(test_help_without_diagnostic),
	    cmocka_unit_test(test_use_chain),
	    cmocka_unit_test(test_no_place),
	    cmocka_unit_test(test_werror),
	    cmocka_unit_test(test_color),
	    cmocka_unit_test(test_json),
	    cmocka_unit_test(test_sources),
	    cmocka_unit_test(test_suggest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
