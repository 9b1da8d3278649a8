/* SPDX-License-Identifier: MIT */
/*
 * test_suggest.c: `wardc suggest` (compiler/cli/suggest.h) and the
 * recording rule table (compiler/codegen/record_gen.h).
 *
 *   - the record reader: a well-formed record merges; each malformed line
 *     is refused with its own message naming the file and the line (no
 *     crash on truncated, binary or hostile text);
 *   - the grouping: a group is suggested only when every syscall of it was
 *     seen, the largest first; the rest by name; socket and ioctl with
 *     conditions on the values seen; never a dangerous syscall, a `log`
 *     group's, TIOCSTI; each rule says which records needed it;
 *   - the recording table: dangerous calls refused, the rest observed
 *     with the arguments a policy conditions on.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy.h"
#include "pool.h"
#include "record_gen.h"
#include "recording.h"
#include "suggest.h"
#include "syscalls.h"

#define HDR "{\"ward_record\":1,\"arch\":\"x86_64\",\"policy\":\"p\"}\n"
#define END "{\"end\":{\"calls\":3,\"entries\":2,\"dropped\":0}}\n"

static int read_text(struct ward_seen_set *s, const char *name,
		     const char *text, ward_err *err)
{
	return ward_record_read(s, name, text, strlen(text), err);
}

static void test_reads_and_merges(void **state)
{
	struct ward_seen_set s = {0};
	ward_err err = {0};

	(void)state;
	assert_int_equal(
	    read_text(&s, "a.jsonl",
		      HDR "{\"syscall\":\"read\",\"nr\":0,\"count\":5}\n"
			  "{\"syscall\":\"socket\",\"nr\":41,\"count\":1,"
			  "\"args\":{\"0\":1,\"1\":524289}}\n"
			  "{\"refused\":\"mount\",\"nr\":165,\"errno\":1,"
			  "\"count\":2}\n" END,
		      &err),
	    0);
	assert_int_equal(
	    read_text(&s, "b.jsonl",
		      HDR "{\"syscall\":null,\"nr\":0,\"count\":2}\n"
			  "{\"syscall\":\"ioctl\",\"nr\":16,\"count\":9,"
			  "\"args\":\"many\"}\n" END,
		      &err),
	    0);
	assert_int_equal(s.nrecords, 2);
	assert_int_equal(s.n, 4); /* read merged; socket, mount, ioctl */
	assert_string_equal(s.v[0].name, "read");
	assert_int_equal(s.v[0].count, 7);
	assert_int_equal(s.v[0].records, 3);
	assert_int_equal(s.v[1].mask, 3);
	assert_int_equal(s.v[1].args[1], 524289);
	assert_true(s.v[2].refused);
	assert_true(s.v[3].many);
	ward_seen_free(&s);
}

static void expect_error(const char *text, const char *want)
{
	struct ward_seen_set s = {0};
	ward_err err = {0};
	char buf[WARD_ERR_MSG_MAX + 64];

	assert_int_equal(
	    ward_record_read(&s, "r.jsonl", text, strlen(text), &err), -1);
	ward_err_str(&err, buf, sizeof(buf));
	if (!strstr(buf, want))
		fail_msg("got \"%s\", want \"%s\"", buf, want);
	assert_int_equal(s.nrecords, 0);
	ward_seen_free(&s);
}

static void test_malformed(void **state)
{
	(void)state;
	expect_error("", "r.jsonl: empty: the run did not record");
	expect_error("{\"syscall\":\"read\",\"nr\":0,\"count\":1}\n",
		     "r.jsonl:1: not a ward record");
	expect_error(HDR "{\"syscall\":\"read\",\"nr\":0,\"count\":1}\n",
		     "r.jsonl:2: no end line: the record is cut short");
	expect_error(HDR "{\"syscall\":\"read\",\"nr\":0,\"cou", "r.jsonl:2: ");
	expect_error(HDR "not json\n" END, "r.jsonl:2: a line is one JSON");
	expect_error(HDR "{\"syscall\":\"read\",\"nr\":0,\"count\":1,"
			 "\"evil\":1}\n" END,
		     "r.jsonl:2: unknown key \"evil\"");
	expect_error(HDR "{\"syscall\":\"read\",\"nr\":0}\n" END,
		     "r.jsonl:2: an entry needs \"nr\" and a \"count\"");
	expect_error(HDR "{\"syscall\":\"read\",\"nr\":0,\"count\":-1}\n" END,
		     "r.jsonl:2: a negative number");
	expect_error(HDR "{\"syscall\":\"read\",\"nr\":0,\"count\":"
			 "99999999999999999999999}\n" END,
		     "r.jsonl:2: a number out of range");
	expect_error(HDR "{\"syscall\":\"nosuchcall\",\"nr\":0,"
			 "\"count\":1}\n" END,
		     "r.jsonl:2: a syscall this wardc does not know");
	expect_error(HDR "{\"syscall\":\"ioctl\",\"nr\":16,\"count\":1,"
			 "\"args\":{\"7\":1}}\n" END,
		     "r.jsonl:2: an argument's key is \"0\" to \"5\"");
	expect_error(HDR "{\"syscall\":\"ioctl\",\"nr\":16,\"count\":1,"
			 "\"args\":{\"1\":1,\"1\":2}}\n" END,
		     "r.jsonl:2: an argument given twice");
	expect_error(HDR END "{\"syscall\":\"read\",\"nr\":0,\"count\":1}\n",
		     "r.jsonl:3: a line after the end line");
	expect_error(HDR HDR END, "r.jsonl:2: a second header");
	expect_error("{\"ward_record\":2,\"arch\":\"x86_64\"}\n" END,
		     "r.jsonl:1: a record of another version");
	expect_error("{\"ward_record\":1,\"arch\":\"vax\"}\n" END,
		     "r.jsonl:1: unknown \"arch\"");
	expect_error(HDR "{\"syscall\":\"re\\u0061d\",\"nr\":0,"
			 "\"count\":1}\n" END,
		     "r.jsonl:2: an escape other than");
	expect_error(HDR "{\"syscall\":\"read\",\"nr\":0,\"count\":1} x\n" END,
		     "r.jsonl:2: text after the object");
	expect_error(HDR "{\"end\":{},\"syscall\":\"read\",\"nr\":0,"
			 "\"count\":1}\n",
		     "r.jsonl:2: a line is a header, an entry");
	{
		static const char bin[] = HDR "{\"sys\0call\"}\n" END;
		struct ward_seen_set s = {0};
		ward_err err = {0};

		assert_int_equal(
		    ward_record_read(&s, "r.jsonl", bin, sizeof(bin) - 1, &err),
		    -1);
		ward_seen_free(&s);
	}
	/* Records of two architectures do not mix. */
	{
		struct ward_seen_set s = {0};
		ward_err err = {0};
		char buf[WARD_ERR_MSG_MAX + 64];

		assert_int_equal(read_text(&s, "a", HDR END, &err), 0);
		assert_int_equal(
		    read_text(&s, "b",
			      "{\"ward_record\":1,\"arch\":\"aarch64\"}\n" END,
			      &err),
		    -1);
		assert_non_null(
		    strstr(ward_err_str(&err, buf, sizeof(buf)),
			   "b:1: a record of another architecture"));
		ward_seen_free(&s);
	}
}

/* The section for records and groups, as text (malloc'd). */
static char *section(struct ward_seen_set *s,
		     const struct ward_suggest_group *g, size_t ng)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	ward_err err = {0};

	assert_non_null(f);
	assert_int_equal(ward_suggest_section(f, s, g, ng, &err), 0);
	fclose(f);
	return out;
}

static const char *const g_small[] = {"read", "write"};
static const char *const g_big[] = {"read", "write", "close"};
static const char *const g_part[] = {"read", "pread64"};
static const char *const g_log[] = {"ustat", "mount"};
static const struct ward_suggest_group groups[] = {
    {"@small", g_small, 2, false},
    {"@big", g_big, 3, false},
    {"@part", g_part, 2, false},
    {"@old", g_log, 2, true},
};

static void test_grouping(void **state)
{
	struct ward_seen_set s = {0};
	ward_err err = {0};
	char *t;

	(void)state;
	assert_int_equal(
	    read_text(&s, "one.jsonl",
		      HDR "{\"syscall\":\"read\",\"nr\":0,\"count\":5}\n"
			  "{\"syscall\":\"write\",\"nr\":1,\"count\":5}\n"
			  "{\"syscall\":\"mount\",\"nr\":165,\"count\":1}\n"
			  "{\"syscall\":\"ustat\",\"nr\":136,\"count\":1}\n"
			  "{\"syscall\":\"socket\",\"nr\":41,\"count\":1,"
			  "\"args\":{\"0\":1,\"1\":1,\"2\":0}}\n"
			  "{\"syscall\":\"socket\",\"nr\":41,\"count\":1,"
			  "\"args\":{\"0\":2,\"1\":1,\"2\":0}}\n"
			  "{\"syscall\":\"ioctl\",\"nr\":16,\"count\":3,"
			  "\"args\":{\"1\":21505}}\n"
			  "{\"syscall\":\"ioctl\",\"nr\":16,\"count\":1,"
			  "\"args\":{\"1\":21522}}\n"
			  "{\"syscall\":\"clone\",\"nr\":56,\"count\":1,"
			  "\"args\":{\"0\":4001536}}\n" END,
		      &err),
	    0);
	assert_int_equal(
	    read_text(&s, "two.jsonl",
		      HDR
		      "{\"syscall\":\"close\",\"nr\":3,\"count\":5}\n"
		      "{\"syscall\":\"getpid\",\"nr\":39,\"count\":1}\n" END,
		      &err),
	    0);
	t = section(&s, groups, 4);
	/* @big is whole (read, write from one, close from two): it, and not
	 * @small inside it; @part is not whole. */
	assert_non_null(strstr(t, "    # seen in one.jsonl, two.jsonl\n"
				  "    # every syscall of @big was used\n"
				  "    allow @big;\n"));
	assert_null(strstr(t, "allow @small"));
	assert_null(strstr(t, "allow @part"));
	/* The rest by name, with the records that needed them. */
	assert_non_null(strstr(t, "    # seen in two.jsonl\n"
				  "    allow getpid;\n"));
	assert_non_null(strstr(t, "    allow execve;\n"));
	/* Conditions on what was seen; TIOCSTI never allowed. */
	assert_non_null(strstr(t, "allow socket if domain == AF_UNIX || "
				  "domain == AF_INET;\n"));
	assert_non_null(strstr(t, "allow ioctl if request == TCGETS;\n"));
	assert_non_null(strstr(t, "kill ioctl if request == TIOCSTI"));
	assert_non_null(
	    strstr(t, "allow clone if flags & clone-namespaces == 0;\n"));
	/* Dangerous and `log` group calls: a comment, never a rule. */
	assert_non_null(strstr(t, "# seen but dangerous, never suggested: "
				  "mount\n"));
	assert_non_null(strstr(t, "# seen but dangerous, never suggested: "
				  "ustat\n"));
	assert_null(strstr(t, "allow mount"));
	assert_null(strstr(t, "ustat;"));
	assert_non_null(strstr(t, "errno EPERM @old, userfaultfd;\n"));
	free(t);
	ward_seen_free(&s);
}

static void test_many_values(void **state)
{
	struct ward_seen_set s = {0};
	ward_err err = {0};
	char *t;

	(void)state;
	assert_int_equal(
	    read_text(&s, "r",
		      HDR "{\"syscall\":\"ioctl\",\"nr\":16,\"count\":90,"
			  "\"args\":\"many\"}\n" END,
		      &err),
	    0);
	t = section(&s, groups, 4);
	assert_non_null(strstr(t, "    allow ioctl;\n"));
	assert_non_null(strstr(t, "kill ioctl if request == TIOCSTI"));
	assert_null(strstr(t, "allow socket"));
	free(t);
	ward_seen_free(&s);
}

static const struct ward_syscall_rule *rule(const struct ward_rules *r,
					    const char *name)
{
	int32_t nr = ward_sys_nr(WARD_ARCH_X86_64, name);

	for (uint32_t i = 0; i < r->nsyscalls; i++)
		if (r->syscalls[i].nr == nr)
			return &r->syscalls[i];
	return NULL;
}

static void test_recording_table(void **state)
{
	struct ward_pool *pool = ward_pool_new();
	struct ward_rules r = {
	    .default_action = {WARD_ACT_ERRNO, ENOSYS, WARD_VIA_NONE}};
	const struct ward_syscall_rule *x;
	ward_err err = {0};

	(void)state;
	assert_int_equal(ward_record_rules(pool, WARD_ARCH_X86_64, &r, &err),
			 0);
	for (uint32_t i = 1; i < r.nsyscalls; i++)
		assert_true(r.syscalls[i].nr > r.syscalls[i - 1].nr);
	static const char *const refused[] = {
	    "mount",	  "bpf",    "init_module", "unshare", "setns",
	    "kexec_load", "reboot", "ptrace",	   "keyctl",  "io_uring_setup"};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		x = rule(&r, refused[i]);
		assert_non_null(x);
		assert_int_equal(x->fallback.kind, WARD_ACT_ERRNO);
		assert_int_equal(x->fallback.via, WARD_VIA_RECORD);
	}
	x = rule(&r, "clone3");
	assert_int_equal(x->fallback.errno_nr, ENOSYS);
	x = rule(&r, "clone");
	assert_int_equal(x->nconds, 1);
	assert_int_equal(x->conds[0].action.kind, WARD_ACT_ERRNO);
	assert_int_equal(x->conds[0].cmps[0].mask, 0x7e020000);
	x = rule(&r, "socket");
	assert_int_equal(x->fallback.via, WARD_VIA_OBSERVE);
	assert_int_equal(x->fallback.errno_nr, 7); /* domain, type, proto */
	x = rule(&r, "ioctl");
	assert_int_equal(x->fallback.errno_nr, 2); /* request */
	x = rule(&r, "read");
	assert_int_equal(x->fallback.kind, WARD_ACT_ALLOW);
	assert_int_equal(x->fallback.via, WARD_VIA_OBSERVE);
	assert_int_equal(x->fallback.errno_nr, 0);
	x = rule(&r, "execve");
	assert_int_equal(x->fallback.via, WARD_VIA_NONE);
	assert_int_equal(r.default_action.errno_nr, ENOSYS);
	ward_pool_free(pool);
}

static const char *name_of(int nr)
{
	return ward_sys_name(WARD_ARCH_X86_64, nr);
}

/* The broker's table (launcher/unprivileged/recording.h): bounded under a
 * flood, and what it writes is what the reader reads. */
static void test_recording_round_trip(void **state)
{
	static struct ward_recording rec;
	static struct ward_broker_facts facts;
	struct ward_policy p = {.arch = WARD_ARCH_X86_64};
	struct seccomp_data d = {.arch = WARD_ARCH_X86_64};
	struct ward_seen_set s = {0};
	ward_err err = {0};
	char *out = NULL;
	size_t len = 0, ioctls = 0;
	FILE *f;

	(void)state;
	p.meta.policy_name = "p";
	memset(&rec, 0, sizeof(rec));
	d.nr = 16; /* ioctl: 1000 requests, 20 times each */
	for (int k = 0; k < 20; k++)
		for (uint64_t r = 0; r < 1000; r++) {
			d.args[0] = (uint64_t)k; /* not logged */
			d.args[1] = 0x5400 + r;
			ward_rec_add(&rec, &d, 2);
		}
	d.nr = 0; /* read */
	for (int k = 0; k < 100000; k++)
		ward_rec_add(&rec, &d, 0);
	for (int nr = 0; nr < 5000; nr++) { /* more syscalls than entries */
		d.nr = 1000 + nr;
		ward_rec_add(&rec, &d, 0);
	}
	assert_int_equal(rec.calls, 20000 + 100000 + 5000);
	assert_true(rec.n <= WARD_REC_MAX);
	assert_true(rec.dropped > 0);
	facts.nsys = 1;
	facts.sys[0] = (struct ward_syscall_record){
	    .nr = 165, .arch = WARD_ARCH_X86_64, .errno_nr = 1, .count = 3};
	f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(ward_rec_write(f, &rec, &p, &facts, name_of), 0);
	fclose(f);
	assert_true(len < (size_t)WARD_REC_MAX * 200);
	/* Numbers no table names are kept as null: the reader refuses
	 * none of it. */
	assert_int_equal(ward_record_read(&s, "w", out, len, &err), 0);
	for (size_t i = 0; i < s.n; i++) {
		if (!strcmp(s.v[i].name, "ioctl")) {
			ioctls++;
			if (s.v[i].many)
				assert_int_equal(s.v[i].count,
						 20000 -
						     20 * WARD_REC_PER_SYSCALL);
		}
		if (!strcmp(s.v[i].name, "read"))
			assert_int_equal(s.v[i].count, 100000);
	}
	assert_int_equal(ioctls, WARD_REC_PER_SYSCALL + 1);
	assert_non_null(strstr(out, "{\"refused\":\"mount\",\"nr\":165,"
				    "\"errno\":1,\"count\":3}\n"));
	free(out);
	ward_seen_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reads_and_merges),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_grouping),
	    cmocka_unit_test(test_many_values),
	    cmocka_unit_test(test_recording_table),
	    cmocka_unit_test(test_recording_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
