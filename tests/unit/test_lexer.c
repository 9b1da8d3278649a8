/* SPDX-License-Identifier: MIT */
/*
 * test_lexer.c: the lexical rules of spec 1.2, seen through the values the
 * scanner hands to the parser and the errors it reports (exact text and
 * place).
 */
#include "fe_test.h"

#include <stdint.h>

/* `ward 1;` then `const x = VALUE;` on line 2: VALUE starts at column 11. */
static struct parsed *one_value(const char *value)
{
	char text[8192];
	snprintf(text, sizeof(text), "ward 1;\nconst x = %s;\n", value);
	return parse_text(text);
}

static void check_value(const char *spelling, enum ward_value_kind kind,
			uint64_t u)
{
	struct parsed *p = one_value(spelling);
	if (p->file->nerrors)
		print_error("%s: %s", spelling, p->out);
	assert_int_equal(p->file->nerrors, 0);
	const struct ward_value *v = const_value(p, "x");
	assert_int_equal(v->kind, kind);
	assert_int_equal(v->u, u);
	assert_string_equal(v->text, spelling);
	assert_loc(v->loc, 2, 11, 2, 10 + (uint32_t)strlen(spelling));
	parsed_free(p);
}

/* The first diagnostic line for `const x = VALUE;`. */
static void check_error(const char *value, const char *expected)
{
	struct parsed *p = one_value(value);
	assert_true(p->file->nerrors > 0);
	assert_string_equal(first_line(p), expected);
	parsed_free(p);
}

static void test_integers(void **state)
{
	(void)state;
	check_value("0", WARD_V_INT, 0);
	check_value("4096", WARD_V_INT, 4096);
	check_value("1_000_000", WARD_V_INT, 1000000);
	check_value("0x1f", WARD_V_INT, 0x1f);
	check_value("0XFF_FF", WARD_V_INT, 0xffff);
	check_value("0o755", WARD_V_INT, 0755);
	check_value("0b101", WARD_V_INT, 5);
	check_value("18446744073709551615", WARD_V_INT, UINT64_MAX);
	check_value("0xffffffffffffffff", WARD_V_INT, UINT64_MAX);
	check_value("0b1111111111111111111111111111111111111111111111111111111"
		    "111111111",
		    WARD_V_INT, UINT64_MAX);
}

static void test_integer_errors(void **state)
{
	(void)state;
	check_error("18446744073709551616",
		    "t.ward:2:11: error: integer `18446744073709551616` is "
		    "too large: the largest is 18446744073709551615 (2^64-1)");
	check_error("0x10000000000000000",
		    "t.ward:2:11: error: integer `0x10000000000000000` is too "
		    "large: the largest is 18446744073709551615 (2^64-1)");
	check_error("0755", "t.ward:2:11: error: a decimal number may not "
			    "begin with 0 (C would read `0755` as octal)");
	check_error("0x", "t.ward:2:11: error: invalid number `0x`");
	check_error("0o8", "t.ward:2:11: error: invalid number `0o8`");
	check_error("0b102", "t.ward:2:11: error: invalid number `0b102`");
	check_error("1__0", "t.ward:2:11: error: invalid number `1__0`");
	check_error("12_", "t.ward:2:11: error: invalid number `12_`");
}

static void test_leading_zero_help(void **state)
{
	(void)state;
	struct parsed *p = one_value("0755");
	assert_string_equal(
	    p->out, "t.ward:2:11: error: a decimal number may not "
		    "begin with 0 (C would read `0755` as octal)\n"
		    "    2 | const x = 0755;\n"
		    "      |           ^~~~\n"
		    "      = help: write `0o755` for an octal number or "
		    "`755`\n");
	parsed_free(p);
}

static void test_decimals(void **state)
{
	(void)state;
	check_value("0.5", WARD_V_DECIMAL, 500);
	check_value("1.25", WARD_V_DECIMAL, 1250);
	check_value("1024.001", WARD_V_DECIMAL, 1024001);
	check_error("1.2345", "t.ward:2:16: error: at most three digits may "
			      "follow the decimal point");
	check_error(".5", "t.ward:2:11: error: a decimal number needs a digit "
			  "before the point: write `0.5`");
	check_error("1.2.3", "t.ward:2:11: error: `1.2.3` is neither a number "
			     "nor an address");
}

static void test_sizes(void **state)
{
	(void)state;
	check_value("4096B", WARD_V_SIZE, 4096);
	check_value("1K", WARD_V_SIZE, 1024);
	check_value("512M", WARD_V_SIZE, 536870912);
	check_value("2G", WARD_V_SIZE, 2ull << 30);
	check_value("1T", WARD_V_SIZE, 1ull << 40);
	check_value("1KiB", WARD_V_SIZE, 1024);
	check_value("3MiB", WARD_V_SIZE, 3ull << 20);
	check_value("1GiB", WARD_V_SIZE, 1ull << 30);
	check_value("2TiB", WARD_V_SIZE, 2ull << 40);
	check_value("1.5G", WARD_V_SIZE, 3ull << 29);
	check_value("0.5K", WARD_V_SIZE, 512);
	check_value("16777215T", WARD_V_SIZE, 16777215ull << 40);
}

static void test_size_errors(void **state)
{
	(void)state;
	check_error(
	    "0.1K",
	    "t.ward:2:11: error: `0.1K` is not a whole number of bytes");
	check_error(
	    "1.5B",
	    "t.ward:2:11: error: `1.5B` is not a whole number of bytes");
	check_error("16777216T",
		    "t.ward:2:11: error: `16777216T` is too large");
	check_error("1KB", "t.ward:2:12: error: unknown size unit `KB`");
	check_error("1kb", "t.ward:2:12: error: unknown size unit `kb`");
	check_error("2g", "t.ward:2:12: error: unknown size unit `g`");
	check_error("1kib", "t.ward:2:12: error: unknown size unit `kib`");
	check_error("7b", "t.ward:2:12: error: unknown size unit `b`");
	check_error("3x", "t.ward:2:12: error: unknown unit `x`");
}

static void test_lowercase_unit_hint(void **state)
{
	(void)state;
	struct parsed *p = one_value("100mb");
	assert_string_equal(p->out,
			    "t.ward:2:14: error: unknown size unit `mb`\n"
			    "    2 | const x = 100mb;\n"
			    "      |              ^~\n"
			    "      = help: size units are upper-case powers of "
			    "1024: write `100M`\n");
	parsed_free(p);
	p = one_value("2d");
	assert_string_equal(p->out,
			    "t.ward:2:12: error: unknown unit `d`\n"
			    "    2 | const x = 2d;\n"
			    "      |            ^\n"
			    "      = help: durations take ms, s, m or h: a day "
			    "is `24h`\n");
	parsed_free(p);
}

static void test_durations(void **state)
{
	(void)state;
	check_value("500ms", WARD_V_DURATION, 500);
	check_value("30s", WARD_V_DURATION, 30000);
	check_value("2m", WARD_V_DURATION, 120000);
	check_value("512m", WARD_V_DURATION, 512ull * 60000);
	check_value("1h", WARD_V_DURATION, 3600000);
	check_value("1.5s", WARD_V_DURATION, 1500);
	check_value("0.001s", WARD_V_DURATION, 1);
	check_error("0.5ms", "t.ward:2:11: error: `0.5ms` is not a whole "
			     "number of milliseconds");
	check_error("1.0005s", "t.ward:2:16: error: at most three digits may "
			       "follow the decimal point");
}

static void check_string(const char *spelling, const char *bytes, size_t len)
{
	struct parsed *p = one_value(spelling);
	if (p->file->nerrors)
		print_error("%s: %s", spelling, p->out);
	assert_int_equal(p->file->nerrors, 0);
	const struct ward_value *v = const_value(p, "x");
	assert_int_equal(v->kind, WARD_V_STRING);
	assert_int_equal(v->len, len);
	assert_memory_equal(v->str, bytes, len);
	assert_int_equal(v->str[len], '\0');
	assert_string_equal(v->text, spelling);
	parsed_free(p);
}

static void test_strings(void **state)
{
	(void)state;
	check_string("\"\"", "", 0);
	check_string("\"hello\"", "hello", 5);
	check_string("\"a\\\\b\\\"c\"", "a\\b\"c", 5);
	check_string("\"\\n\\t\\r\"", "\n\t\r", 3);
	check_string("\"a\\0b\"", "a\0b", 3);
	check_string("\"\\x41\\x7e\\xff\"", "A~\xff", 3);
	check_string("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
		     "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14);
	check_string("\"tab\there\"", "tab\there", 8);
	/* `#` in a string is not a comment */
	check_string("\"a#b\"", "a#b", 3);
}

static void test_string_concatenation(void **state)
{
	(void)state;
	struct parsed *p =
	    parse_ok("ward 1;\nconst x = \"root:x:0:0\\n\" \"a\"\n"
		     "          \"b\";\n");
	const struct ward_value *v = const_value(p, "x");
	assert_int_equal(v->kind, WARD_V_STRING);
	assert_string_equal(v->str, "root:x:0:0\nab");
	assert_int_equal(v->len, 13);
	assert_string_equal(v->text, "\"root:x:0:0\\n\" \"a\"\n\"b\"");
	assert_loc(v->loc, 2, 11, 3, 13);
	parsed_free(p);
}

static void test_string_errors(void **state)
{
	(void)state;
	check_error("\"a\\qb\"",
		    "t.ward:2:13: error: unknown escape `\\q` in a string");
	check_error("\"\\x4\"", "t.ward:2:12: error: `\\x` must be followed by "
				"two hexadecimal digits");
	check_error("\"\\xzz\"",
		    "t.ward:2:12: error: `\\x` must be followed by "
		    "two hexadecimal digits");
	check_error("\"\xff\"",
		    "t.ward:2:12: error: invalid UTF-8: byte 0xff in a string");
	/* an overlong encoding and a lone continuation byte */
	check_error("\"\xc0\xaf\"",
		    "t.ward:2:12: error: invalid UTF-8: byte 0xc0 in a string");
	check_error("\"a\x80\"",
		    "t.ward:2:13: error: invalid UTF-8: byte 0x80 in a string");
	/* a surrogate half encoded in UTF-8 */
	check_error("\"\xed\xa0\x80\"",
		    "t.ward:2:12: error: invalid UTF-8: byte 0xed in a string");
}

static void test_bad_escape_help(void **state)
{
	(void)state;
	struct parsed *p = one_value("\"a\\qb\"");
	assert_string_equal(
	    p->out, "t.ward:2:13: error: unknown escape `\\q` in a "
		    "string\n"
		    "    2 | const x = \"a\\qb\";\n"
		    "      |             ^~\n"
		    "      = help: the escapes are \\\\ \\\" \\n \\t \\r "
		    "\\0 and \\xHH\n");
	assert_int_equal(p->file->nerrors, 1);
	parsed_free(p);
}

static void test_unterminated_string(void **state)
{
	(void)state;
	/* one error: the statement it breaks does not add a second */
	struct parsed *p =
	    parse_text("ward 1;\nconst x = \"abc;\nconst y = 1;\n"
		       "const z = 2;\n");
	assert_string_equal(p->out,
			    "t.ward:2:11: error: unterminated string\n"
			    "    2 | const x = \"abc;\n"
			    "      |           ^~~~~\n"
			    "      = help: a string ends with `\"` on the line "
			    "where it begins; write a long text as several "
			    "strings side by side\n");
	assert_int_equal(p->file->nerrors, 1);
	/* parsing went on: `const z` is there */
	assert_string_equal(stmt_at(p, p->file->nstmts - 1)->name, "z");
	parsed_free(p);
	/* a backslash at the end of the line */
	p = parse_text("ward 1;\nconst x = \"abc\\\n");
	assert_string_equal(first_line(p),
			    "t.ward:2:11: error: unterminated string");
	parsed_free(p);
}

static void test_nul_bytes(void **state)
{
	(void)state;
	static const char outside[] = "ward 1;\nconst x = \0 1;\n";
	struct parsed *p =
	    parse_bytes(outside, sizeof(outside) - 1, WARD_DIAG_TEXT);
	assert_string_equal(p->out, "t.ward:2:11: error: NUL byte in the "
				    "source\n"
				    "    2 | const x = <00> 1;\n"
				    "      |           ^~~~\n");
	assert_int_equal(p->file->nerrors, 1);
	/* scanning went on past it: the value is the 1 */
	assert_int_equal(const_value(p, "x")->u, 1);
	parsed_free(p);

	static const char in_string[] = "ward 1;\nconst x = \"a\0b\";\n";
	p = parse_bytes(in_string, sizeof(in_string) - 1, WARD_DIAG_TEXT);
	assert_string_equal(first_line(p),
			    "t.ward:2:13: error: NUL byte in a string");
	parsed_free(p);

	static const char in_comment[] = "ward 1; # a\0b\n";
	p = parse_bytes(in_comment, sizeof(in_comment) - 1, WARD_DIAG_TEXT);
	assert_string_equal(first_line(p),
			    "t.ward:1:12: error: NUL byte in a comment");
	parsed_free(p);
}

static void test_non_utf8(void **state)
{
	(void)state;
	struct parsed *p = parse_text("ward 1;\nconst x\xff = 1;\n");
	assert_string_equal(first_line(p),
			    "t.ward:2:8: error: invalid UTF-8: byte 0xff");
	parsed_free(p);
	p = parse_text("ward 1; # caf\xc3\xa9 ok, \xc3 not\n");
	assert_string_equal(p->out,
			    "t.ward:1:21: error: invalid UTF-8: byte 0xc3 in "
			    "a comment\n"
			    "    1 | ward 1; # caf\xc3\xa9 ok, <c3> not\n"
			    "      |                    ^~~~\n");
	parsed_free(p);
	/* valid UTF-8, but outside a string or a comment */
	p = parse_text("ward 1;\nconst caf\xc3\xa9 = 1;\n");
	assert_string_equal(first_line(p),
			    "t.ward:2:10: error: non-ASCII character "
			    "`\xc3\xa9` outside a string or a comment");
	parsed_free(p);
}

static void test_stray_characters(void **state)
{
	(void)state;
	struct parsed *p = parse_text("ward 1;\nconst x = 1 $;\n");
	assert_string_equal(first_line(p),
			    "t.ward:2:13: error: unexpected character `$`");
	assert_int_equal(p->file->nerrors, 1);
	parsed_free(p);
	p = parse_text("ward 1;\nconst x = 'a b';\n");
	assert_string_equal(p->out, "t.ward:2:11: error: strings are written "
				    "in double quotes: `\"a b\"`\n"
				    "    2 | const x = 'a b';\n"
				    "      |           ^~~~~\n");
	assert_int_equal(p->file->nerrors, 1);
	assert_string_equal(const_value(p, "x")->str, "a b");
	parsed_free(p);
	p = parse_text("ward 1;\nconst x = 1 ';\n");
	assert_string_equal(first_line(p),
			    "t.ward:2:13: error: unexpected character `'`");
	assert_non_null(strstr(p->out, "= help: strings are written in "
				       "double quotes\n"));
	parsed_free(p);
	p = parse_text("ward 1;\nconst x\f= 1;\n");
	assert_string_equal(first_line(p),
			    "t.ward:2:8: error: unexpected control character "
			    "0x0c");
	parsed_free(p);
	p = parse_text("ward 1;\nconst x = 1:;\n");
	assert_string_equal(first_line(p),
			    "t.ward:2:11: error: invalid IPv6 address `1:`");
	parsed_free(p);
	p = parse_text("ward 1;\nconst x : 1;\n");
	assert_string_equal(first_line(p),
			    "t.ward:2:9: error: unexpected character `:`");
	parsed_free(p);
	p = parse_text("ward 1;\ngroup @ { }\n");
	assert_string_equal(
	    first_line(p),
	    "t.ward:2:7: error: expected a group name after `@`");
	parsed_free(p);
}

static void test_line_length(void **state)
{
	(void)state;
	char text[5000];
	/* exactly 4096 bytes on line 2: fine */
	size_t n = (size_t)snprintf(text, sizeof(text), "ward 1;\n#");
	memset(text + n, 'x', 4095);
	strcpy(text + n + 4095, "\n");
	struct parsed *p = parse_ok(text);
	assert_int_equal(p->file->ncomments, 1);
	parsed_free(p);
	/* one more byte: an error at column 4097 */
	memset(text + n, 'x', 4096);
	strcpy(text + n + 4096, "\nconst y = 1;\n");
	p = parse_text(text);
	assert_string_equal(first_line(p), "t.ward:2:4097: error: line 2 is "
					   "4097 bytes long; the limit is "
					   "4096");
	assert_int_equal(p->file->nerrors, 1);
	parsed_free(p);
	/* the last line, without a newline */
	memset(text + n, 'x', 4100);
	text[n + 4100] = '\0';
	p = parse_text(text);
	assert_string_equal(first_line(p), "t.ward:2:4097: error: line 2 is "
					   "4101 bytes long; the limit is "
					   "4096");
	parsed_free(p);
}

static void test_paths(void **state)
{
	(void)state;
	struct parsed *p = parse_ok("ward 1;\nconst x = /usr/lib/x86_64-linux-"
				    "gnu/a+b,c@d%e=f~g.h;\nconst y = /;\n");
	const struct ward_value *v = const_value(p, "x");
	assert_int_equal(v->kind, WARD_V_PATH);
	assert_string_equal(v->str,
			    "/usr/lib/x86_64-linux-gnu/a+b,c@d%e=f~g.h");
	assert_string_equal(const_value(p, "y")->str, "/");
	parsed_free(p);
	/* a relative path where a `use` name or a symlink target goes */
	p = parse_ok("ward 1;\nuse net/agent-v2;\nfs { symlink /a -> ../lib/x; "
		     "}\n");
	assert_string_equal(stmt_at(p, 1)->name, "net/agent-v2");
	assert_loc(stmt_at(p, 1)->name_loc, 2, 5, 2, 16);
	const struct ward_stmt *sym = stmt_at(p, 2)->body[0];
	assert_int_equal(sym->src->kind, WARD_V_PATH);
	assert_string_equal(sym->src->str, "../lib/x");
	parsed_free(p);
}

static void check_addr(const char *spelling, int family, const char *bytes,
		       int prefix)
{
	struct parsed *p = one_value(spelling);
	if (p->file->nerrors)
		print_error("%s: %s", spelling, p->out);
	assert_int_equal(p->file->nerrors, 0);
	const struct ward_value *v = const_value(p, "x");
	assert_int_equal(v->kind, WARD_V_ADDR);
	assert_int_equal(v->addr.family, family);
	assert_memory_equal(v->addr.bytes, bytes, family == 4 ? 4 : 16);
	assert_int_equal(v->addr.prefix, prefix);
	parsed_free(p);
}

static void test_addresses(void **state)
{
	(void)state;
	check_addr("10.1.2.3", 4, "\x0a\x01\x02\x03", -1);
	check_addr("10.0.0.0/8", 4, "\x0a\x00\x00\x00", 8);
	check_addr("0.0.0.0/0", 4, "\0\0\0\0", 0);
	check_addr("::1", 6, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01", -1);
	check_addr("::/0", 6, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 0);
	check_addr("2001:db8::/32", 6,
		   "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\0", 32);
	check_addr("fe80::1:2/128", 6,
		   "\xfe\x80\0\0\0\0\0\0\0\0\0\0\0\x01\0\x02", 128);
	check_addr("::ffff:1.2.3.4", 6,
		   "\0\0\0\0\0\0\0\0\0\0\xff\xff\x01\x02\x03\x04", -1);
	check_error("10.0.0.256",
		    "t.ward:2:11: error: invalid IPv4 address `10.0.0.256`");
	check_error("1:2:3",
		    "t.ward:2:11: error: invalid IPv6 address `1:2:3`");
	check_error("10.0.0.0/33", "t.ward:2:20: error: prefix length /33 is "
				   "out of range: an IPv4 prefix is 0 to 32");
	check_error("::/129", "t.ward:2:14: error: prefix length /129 is out "
			      "of range: an IPv6 prefix is 0 to 128");
}

static void test_names_and_keywords(void **state)
{
	(void)state;
	struct parsed *p = parse_ok(
	    "ward 1;\n"
	    "group @basic-io { read, python-net, x86_64-thing, kill, bind, "
	    "symlink, @fd_basics }\n"
	    "net { host pypi.org = 1.2.3.4; host my-host.example = ::1; }\n");
	const struct ward_stmt *g = stmt_at(p, 1);
	assert_string_equal(g->name, "@basic-io");
	assert_int_equal(g->ntargets, 7);
	static const char *const names[] = {
	    "read", "python-net", "x86_64-thing", "kill",
	    "bind", "symlink",	  "@fd_basics"};
	for (size_t i = 0; i < 7; i++) {
		assert_string_equal(g->targets[i]->name, names[i]);
		assert_int_equal(g->targets[i]->is_group, i == 6);
	}
	assert_loc(g->targets[1]->loc, 2, 25, 2, 34);
	const struct ward_stmt *net = stmt_at(p, 2);
	assert_string_equal(net->body[0]->name, "pypi.org");
	assert_loc(net->body[0]->name_loc, 3, 12, 3, 19);
	assert_string_equal(net->body[1]->name, "my-host.example");
	parsed_free(p);

	/* every keyword is a name where a name goes */
	p = parse_ok(
	    "ward 1;\nlimits { ward 1; policy 1; use 1; include 1; "
	    "const 1; group 1; identity 1; user 1; hostname 1; "
	    "capabilities 1; none 1; env 1; inherit 1; fs 1; bind 1; "
	    "at 1; ro 1; rw 1; exec 1; noexec 1; optional 1; tmpfs 1; "
	    "size 1; mode 1; proc 1; dev 1; file 1; symlink 1; slot 1; "
	    "dir 1; net 1; host 1; allow 1; tcp 1; udp 1; port 1; "
	    "limits 1; syscalls 1; default 1; if 1; log 1; errno 1; "
	    "trap 1; kill 1; answers 1; }\n");
	assert_int_equal(stmt_at(p, 1)->nbody, 45);
	assert_string_equal(stmt_at(p, 1)->body[43]->name, "kill");
	assert_string_equal(stmt_at(p, 1)->body[44]->name, "answers");
	parsed_free(p);

	char text[600];
	memset(text, 0, sizeof(text));
	strcpy(text, "ward 1;\nconst ");
	memset(text + strlen(text), 'a', 256);
	strcat(text, " = 1;\n");
	p = parse_text(text);
	assert_string_equal(first_line(p), "t.ward:2:7: error: a name is at "
					   "most 255 bytes long; this one has "
					   "256");
	parsed_free(p);
}

static void test_punctuation(void **state)
{
	(void)state;
	struct parsed *p = parse_ok(
	    "ward 1;\nsyscalls{allow a(x,y)if(x&1==1||y!=2)&&x<3&&x<=4&&x>5&&"
	    "x>=6;}\nconst f=A|B|C;net{allow tcp 1.2.3.4 port 1-2,3;}\n"
	    "fs{symlink /a->/b;bind /a-b;}\n");
	const struct ward_stmt *rule = stmt_at(p, 1)->body[0];
	assert_int_equal(rule->targets[0]->nparams, 2);
	const struct ward_cond *c = rule->cond;
	assert_int_equal(c->kind, WARD_C_AND);
	assert_int_equal(c->rhs->op, WARD_OP_GE);
	assert_int_equal(c->lhs->rhs->op, WARD_OP_GT);
	assert_int_equal(c->lhs->lhs->rhs->op, WARD_OP_LE);
	assert_int_equal(c->lhs->lhs->lhs->rhs->op, WARD_OP_LT);
	const struct ward_cond *paren = c->lhs->lhs->lhs->lhs;
	assert_int_equal(paren->kind, WARD_C_OR);
	assert_true(paren->parenthesised);
	assert_int_equal(paren->lhs->op, WARD_OP_EQ);
	assert_non_null(paren->lhs->mask);
	assert_int_equal(paren->rhs->op, WARD_OP_NE);
	assert_int_equal(const_value(p, "f")->nitems, 3);
	const struct ward_stmt *allow = stmt_at(p, 3)->body[0];
	assert_int_equal(allow->nports, 2);
	assert_int_equal(allow->ports[0].hi->u, 2);
	assert_string_equal(stmt_at(p, 4)->body[0]->path->str, "/a");
	assert_string_equal(stmt_at(p, 4)->body[0]->src->str, "/b");
	assert_string_equal(stmt_at(p, 4)->body[1]->src->str, "/a-b");
	parsed_free(p);
}

static void test_comments(void **state)
{
	(void)state;
	struct parsed *p = parse_ok("# head\nward 1; # pin   \n\n  # own line\n"
				    "const x = 1;#tight\n#");
	assert_int_equal(p->file->ncomments, 5);
	const struct ward_comment *c = p->file->comments;
	assert_string_equal(c[0].text, "# head");
	assert_false(c[0].trailing);
	assert_loc(c[0].loc, 1, 1, 1, 6);
	assert_string_equal(c[1].text, "# pin"); /* trailing blanks dropped */
	assert_true(c[1].trailing);
	assert_loc(c[1].loc, 2, 9, 2, 13);
	assert_string_equal(c[2].text, "# own line");
	assert_false(c[2].trailing);
	assert_loc(c[2].loc, 4, 3, 4, 12);
	assert_string_equal(c[3].text, "#tight");
	assert_true(c[3].trailing);
	assert_string_equal(c[4].text, "#");
	assert_false(c[4].trailing);
	parsed_free(p);
}

static void test_locations(void **state)
{
	(void)state;
	struct parsed *p = parse_ok("ward 1;\n\tlimits {\r\n  memory   512M ;\n"
				    "}\n");
	const struct ward_stmt *lim = stmt_at(p, 1);
	assert_loc(lim->loc, 2, 2, 4, 1);
	assert_loc(lim->kw_loc, 2, 2, 2, 7);
	const struct ward_stmt *mem = lim->body[0];
	assert_loc(mem->loc, 3, 3, 3, 17);
	assert_loc(mem->name_loc, 3, 3, 3, 8);
	assert_loc(mem->value->loc, 3, 12, 3, 15);
	assert_int_equal(mem->value->loc.file, p->file->file);
	parsed_free(p);
}

static void test_crlf(void **state)
{
	(void)state;
	struct parsed *p = parse_ok("ward 1;\r\nconst x = \"a\";\r\n# c\r\n");
	assert_string_equal(const_value(p, "x")->str, "a");
	assert_string_equal(p->file->comments[0].text, "# c");
	parsed_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_integers),
	    cmocka_unit_test(test_integer_errors),
	    cmocka_unit_test(test_leading_zero_help),
	    cmocka_unit_test(test_decimals),
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_size_errors),
	    cmocka_unit_test(test_lowercase_unit_hint),
	    cmocka_unit_test(test_durations),
	    cmocka_unit_test(test_strings),
	    cmocka_unit_test(test_string_concatenation),
	    cmocka_unit_test(test_string_errors),
	    cmocka_unit_test(test_bad_escape_help),
	    cmocka_unit_test(test_unterminated_string),
	    cmocka_unit_test(test_nul_bytes),
	    cmocka_unit_test(test_non_utf8),
	    cmocka_unit_test(test_stray_characters),
	    cmocka_unit_test(test_line_length),
	    cmocka_unit_test(test_paths),
	    cmocka_unit_test(test_addresses),
	    cmocka_unit_test(test_names_and_keywords),
	    cmocka_unit_test(test_punctuation),
	    cmocka_unit_test(test_comments),
	    cmocka_unit_test(test_locations),
	    cmocka_unit_test(test_crlf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
