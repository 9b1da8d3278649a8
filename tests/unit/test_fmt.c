/* SPDX-License-Identifier: MIT */
/*
 * test_fmt.c: `wardc fmt` gives the canonical layout, keeps comments and
 * spellings, is idempotent (fmt(fmt(x)) == fmt(x), byte for byte) and keeps
 * the meaning (the tree of the output equals the tree of the input), on
 * inputs of its own and on every file of the stdlib and the fuzz corpus.
 */
#include "fe_test.h"
#include "fmt.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>

struct formatted {
	char *text;
	size_t len;
};

static struct formatted fmt_file(const struct parsed *p)
{
	struct formatted f = {0};
	FILE *mem = open_memstream(&f.text, &f.len);
	assert_non_null(mem);
	assert_int_equal(ward_fmt(p->file, p->src, mem), 0);
	fclose(mem);
	return f;
}

/* fmt(text) must equal expected (when given), parse to the same tree as
 * text, and format to itself. */
static void check_fmt(const char *name, const char *text, size_t len,
		      const char *expected)
{
	if (len == SIZE_MAX)
		len = strlen(text);
	struct parsed *in = parse_bytes(text, len, WARD_DIAG_TEXT);
	if (in->file->nerrors)
		fail_msg("%s does not parse:\n%s", name, in->out);
	struct formatted once = fmt_file(in);
	if (expected && strcmp(once.text, expected) != 0)
		fail_msg("%s: got:\n%s\nexpected:\n%s", name, once.text,
			 expected);
	struct parsed *again = parse_bytes(once.text, once.len, WARD_DIAG_TEXT);
	if (again->file->nerrors)
		fail_msg("%s: the output does not parse:\n%s\n%s", name,
			 again->out, once.text);
	if (!ward_ast_equal(in->file, again->file))
		fail_msg("%s: the output means something else:\n%s", name,
			 once.text);
	assert_int_equal(again->file->ncomments, in->file->ncomments);
	struct formatted twice = fmt_file(again);
	if (once.len != twice.len || memcmp(once.text, twice.text, once.len))
		fail_msg("%s: not idempotent:\n%s\n----\n%s", name, once.text,
			 twice.text);
	free(once.text);
	free(twice.text);
	parsed_free(in);
	parsed_free(again);
}

static void test_canonical_layout(void **state)
{
	(void)state;
	check_fmt(
	    "layout",
	    "ward   1 ;policy python;use base;\n"
	    "identity { user 65534; group 65534; hostname \"sandbox\"; "
	    "capabilities none; }\n"
	    "env{LANG=\"C.UTF-8\";inherit TERM,COLUMNS;}\n"
	    "fs {\n"
	    "  tmpfs /tmp  size 100M mode 1777;\n"
	    "\tbind /usr ;bind /h at /d rw noexec ro optional;\n"
	    "  proc;dev /dev;file /f \"x\" mode 0o644;symlink /bin->usr/bin;"
	    "\n  slot input  at /input  ro;dir /w mode 0700;\n"
	    "}\n"
	    "net none;\n"
	    "net { host pypi.org=1.2.3.4,::1; allow tcp pypi.org port "
	    "443,8000-8080; }\n"
	    "limits { memory 512M; cpu 0.5; wall 30s; }\n"
	    "syscalls default errno ENOSYS {\n"
	    "  allow @system-service;\n"
	    "  allow ioctl(fd,request) if request==TCGETS||request== "
	    "FIONREAD;\n"
	    "  errno EPERM @privileged,ptrace;\n"
	    "  kill mmap if arg2&PROT_EXEC!=0&&(arg0&0xff)==0;\n"
	    "  log getpid();\n"
	    "}\n"
	    "const M = O_RDONLY|O_CLOEXEC;\n"
	    "group @g{a,b,@c,}\n"
	    "group @e{}\n",
	    SIZE_MAX, NULL);
}

static void check_exact(const char *text, const char *expected)
{
	check_fmt("exact", text, strlen(text), expected);
}

static void test_exact_output(void **state)
{
	(void)state;
	check_exact(
	    "ward   1 ;policy python;use base;\n"
	    "identity { user 65534; group 65534; }\n"
	    "env{LANG=\"C.UTF-8\";inherit TERM,COLUMNS;}\n"
	    "fs {\n"
	    "  tmpfs /tmp  size 100M mode 1777;\n"
	    "\tbind /usr ;bind /h at /d rw noexec ro optional;\n"
	    "  symlink /bin->usr/bin;\n"
	    "}\n"
	    "net { host pypi.org=1.2.3.4,::1; allow tcp pypi.org port "
	    "443,8000-8080; }\n"
	    "limits { memory 512M; cpu 0.5; }\n"
	    "syscalls default errno ENOSYS {\n"
	    "  allow ioctl(fd,request) if request==TCGETS||request== "
	    "FIONREAD;\n"
	    "  kill mmap if arg2&PROT_EXEC!=0&&(arg0&0xff)==0;\n"
	    "  log getpid();\n"
	    "}\n"
	    "const M = O_RDONLY|O_CLOEXEC;\n"
	    "group @g{a,b,@c,}\n"
	    "group @e{}\n"
	    "fs{}\n",
	    "ward 1;\n"
	    "policy python;\n"
	    "use base;\n"
	    "identity {\n"
	    "    user 65534;\n"
	    "    group 65534;\n"
	    "}\n"
	    "env {\n"
	    "    LANG = \"C.UTF-8\";\n"
	    "    inherit TERM, COLUMNS;\n"
	    "}\n"
	    "fs {\n"
	    "    tmpfs /tmp size 100M mode 1777;\n"
	    "    bind /usr;\n"
	    "    bind /h at /d ro rw noexec optional;\n"
	    "    symlink /bin -> usr/bin;\n"
	    "}\n"
	    "net {\n"
	    "    host pypi.org = 1.2.3.4, ::1;\n"
	    "    allow tcp pypi.org port 443, 8000-8080;\n"
	    "}\n"
	    "limits {\n"
	    "    memory 512M;\n"
	    "    cpu 0.5;\n"
	    "}\n"
	    "syscalls default errno ENOSYS {\n"
	    "    allow ioctl(fd, request) if request == TCGETS || "
	    "request == FIONREAD;\n"
	    "    kill mmap if arg2 & PROT_EXEC != 0 && (arg0 & 0xff) == "
	    "0;\n"
	    "    log getpid();\n"
	    "}\n"
	    "const M = O_RDONLY | O_CLOEXEC;\n"
	    "group @g { a, b, @c }\n"
	    "group @e { }\n"
	    "fs { }\n");
}

static void test_spellings_kept(void **state)
{
	(void)state;
	check_exact("ward 0x1;\nconst a = 512M;\nconst b = 0o755;\n"
		    "const c = 1_000;\nconst d = 1.50;\nconst e = 1KiB;\n"
		    "const f = \"\\x41\\n\";\nconst g = 10.0.0.0/8;\n"
		    "const h = 2001:DB8::/32;\nconst i = 1.5s;\n",
		    "ward 0x1;\nconst a = 512M;\nconst b = 0o755;\n"
		    "const c = 1_000;\nconst d = 1.50;\nconst e = 1KiB;\n"
		    "const f = \"\\x41\\n\";\nconst g = 10.0.0.0/8;\n"
		    "const h = 2001:DB8::/32;\nconst i = 1.5s;\n");
}

static void test_parentheses_kept(void **state)
{
	(void)state;
	check_exact("ward 1;\nsyscalls {\n"
		    "allow a if ((x==1));\n"
		    "allow b if (x==1||y==2)&&z==3;\n"
		    "allow c if x==1||(y==2&&z==3);\n"
		    "allow d if (x&1)!=0||x&2==2;\n"
		    "}\n",
		    "ward 1;\nsyscalls {\n"
		    "    allow a if (x == 1);\n"
		    "    allow b if (x == 1 || y == 2) && z == 3;\n"
		    "    allow c if x == 1 || (y == 2 && z == 3);\n"
		    "    allow d if (x & 1) != 0 || x & 2 == 2;\n"
		    "}\n");
}

static void test_comments_kept(void **state)
{
	(void)state;
	check_exact("# Header\n"
		    "\n"
		    "# about the pin\n"
		    "ward 1;   # pin\n"
		    "\n\n\n"
		    "limits {   # the limits\n"
		    "  # memory first\n"
		    "  memory 1M;   # one\n"
		    "\n"
		    "  cpu 1;\n"
		    "  # at the end\n"
		    "}   # closed\n"
		    "syscalls { allow read if a == 1 ||  # inside\n"
		    "   b == 2; }\n"
		    "identity { user 1; group 2; }  # one-liner\n"
		    "# the end\n",
		    "# Header\n"
		    "\n"
		    "# about the pin\n"
		    "ward 1; # pin\n"
		    "\n"
		    "limits { # the limits\n"
		    "    # memory first\n"
		    "    memory 1M; # one\n"
		    "\n"
		    "    cpu 1;\n"
		    "    # at the end\n"
		    "} # closed\n"
		    "syscalls {\n"
		    "    # inside\n"
		    "    allow read if a == 1 || b == 2;\n"
		    "}\n"
		    "identity {\n"
		    "    user 1;\n"
		    "    group 2;\n"
		    "} # one-liner\n"
		    "# the end\n");
}

static void test_groups(void **state)
{
	(void)state;
	/* filled to 80 columns */
	check_exact(
	    "ward 1;\ngroup @long { aaaaaaaaaa, bbbbbbbbbbbb, "
	    "cccccccccccccc, dddddddddddd, eeeeeeeeeee, ffffffffff, "
	    "gggggggggg, hhhhhhhh, iiiiiiiiii }\n",
	    "ward 1;\ngroup @long {\n"
	    "    aaaaaaaaaa, bbbbbbbbbbbb, cccccccccccccc, dddddddddddd, "
	    "eeeeeeeeeee,\n"
	    "    ffffffffff, gggggggggg, hhhhhhhh, iiiiiiiiii\n"
	    "}\n");
	/* exactly 80 columns stays on one line, 81 do not */
	check_exact("ward 1;\ngroup @g { aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, "
		    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb }\n",
		    "ward 1;\ngroup @g { aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, "
		    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb }\n");
	check_exact("ward 1;\ngroup @g { aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, "
		    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb }\n",
		    "ward 1;\ngroup @g {\n    aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, "
		    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\n}\n");
	/* with comments among the members, the author's lines stay */
	check_exact("ward 1;\n# io\ngroup @io { read, write,   # plain\n"
		    "  readv, writev,\n  # vectored above\n  @fd-basics }\n",
		    "ward 1;\n# io\ngroup @io {\n"
		    "    read, write, # plain\n"
		    "    readv, writev,\n"
		    "    # vectored above\n"
		    "    @fd-basics\n"
		    "}\n");
}

static void test_multiline_strings(void **state)
{
	(void)state;
	check_exact("ward 1;\nfs {\n"
		    "  file /etc/passwd \"root:x:0:0::/:/bin/sh\\n\"\n"
		    "\"sandbox:x:65534:65534::/work:/bin/sh\\n\" mode 0444;\n"
		    "  file /a \"x\" \"y\";\n"
		    "}\n",
		    "ward 1;\nfs {\n"
		    "    file /etc/passwd \"root:x:0:0::/:/bin/sh\\n\"\n"
		    "        \"sandbox:x:65534:65534::/work:/bin/sh\\n\" mode "
		    "0444;\n"
		    "    file /a \"x\" \"y\";\n"
		    "}\n");
}

static void test_write_error(void **state)
{
	(void)state;
	struct parsed *p = parse_ok("ward 1;\n");
	FILE *full = fopen("/dev/full", "w");
	assert_non_null(full);
	errno = 0;
	assert_int_equal(ward_fmt(p->file, p->src, full), -1);
	assert_int_equal(errno, ENOSPC);
	fclose(full);
	parsed_free(p);
}

/* Every .ward file under a directory that parses cleanly; returns how
 * many. */
static int check_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR && e->d_name[0] != '.') {
			n += check_dir(path);
			continue;
		}
		if (len < 6 || strcmp(e->d_name + len - 5, ".ward") != 0)
			continue;
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		char *text = NULL;
		size_t tlen = 0;
		FILE *mem = open_memstream(&text, &tlen);
		char buf[4096];
		size_t r;
		while ((r = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, r, mem);
		fclose(f);
		fclose(mem);
		struct parsed *probe = parse_bytes(text, tlen, WARD_DIAG_TEXT);
		bool clean = probe->file->nerrors == 0;
		parsed_free(probe);
		if (clean) {
			check_fmt(path, text, tlen, NULL);
			n++;
		}
		free(text);
	}
	closedir(d);
	return n;
}

static void test_stdlib_and_corpus(void **state)
{
	(void)state;
	/* the unit tests run from the top of the source tree */
	int n = check_dir("stdlib-policies");
	int corpus = check_dir("tests/fuzz/corpus/parser");
	print_message("fmt checked %d stdlib and %d corpus files\n", n, corpus);
	/* the corpus is ours and always has clean policies in it */
	assert_true(corpus > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_canonical_layout),
	    cmocka_unit_test(test_exact_output),
	    cmocka_unit_test(test_spellings_kept),
	    cmocka_unit_test(test_parentheses_kept),
	    cmocka_unit_test(test_comments_kept),
	    cmocka_unit_test(test_groups),
	    cmocka_unit_test(test_multiline_strings),
	    cmocka_unit_test(test_write_error),
	    cmocka_unit_test(test_stdlib_and_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
