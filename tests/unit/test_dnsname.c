/* SPDX-License-Identifier: MIT */
/*
 * test_dnsname.c: allow rules by domain name (issue 22): the normal form
 * (compiler/check/dnsname.c), wildcard matching (common/dnsname_match.c,
 * the same function the launcher's DNS stub uses), the public suffix list
 * that refuses a wildcard over a registry, and the blob's net-names
 * section written and read back (and refused when not in normal form).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "blob_read.h"
#include "blob_write.h"
#include "dns.h"
#include "dnsname.h"
#include "tests/lib/compiled.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *norm(const char *in, char *out)
{
	const char *why, *help;

	if (ward_dnsname_normalise(in, strlen(in), out, &why, &help) < 0)
		return NULL;
	return out;
}

static void normal_form(void **state)
{
	char o[WARD_DNSNAME_MAX + 1];
	char label[80], name[300];

	(void)state;
	assert_string_equal(norm("Index.Example.", o), "index.example");
	assert_string_equal(norm("INDEX.EXAMPLE", o), "index.example");
	assert_string_equal(norm("*.Files.Example", o), "*.files.example");
	assert_string_equal(norm("xn--bcher-kva.example", o),
			    "xn--bcher-kva.example");
	assert_string_equal(norm("a-b.c9", o), "a-b.c9");
	/* refused */
	assert_null(norm("*", o));
	assert_null(norm("*.", o));
	assert_null(norm("", o));
	assert_null(norm(".", o));
	assert_null(norm("a..b", o));
	assert_null(norm(".a.b", o));
	assert_null(norm("a.b..", o)); /* one trailing dot only */
	assert_null(norm("b\xc3\xbc"
			 "cher.example",
			 o));
	assert_null(norm("x*.a.b", o));
	assert_null(norm("a.*.b", o));
	assert_null(norm("*a.b", o));
	assert_null(norm("-a.example", o));
	assert_null(norm("a-.example", o));
	assert_null(norm("a_b.example", o));
	assert_null(norm("a b.example", o));
	assert_null(norm("1.2.3.4:443", o));
	/* RFC 1035: 63 bytes a label, 253 a name */
	memset(label, 'a', 63);
	label[63] = '\0';
	snprintf(name, sizeof(name), "%s.example", label);
	assert_non_null(norm(name, o));
	snprintf(name, sizeof(name), "a%s.example", label);
	assert_null(norm(name, o));
	memset(name, 0, sizeof(name));
	for (int i = 0; i < 126; i++)
		memcpy(name + 2 * i, "a.", 2);
	name[251] = 'b'; /* 252 bytes: "a.a. ... a.b" */
	assert_non_null(norm(name, o));
	memcpy(name + 251, "bc", 3); /* 253 */
	assert_non_null(norm(name, o));
	memcpy(name + 251, "bcd", 4); /* 254 */
	assert_null(norm(name, o));
}

static void wildcard_match(void **state)
{
	(void)state;
	assert_true(ward_dnsname_match("index.example", "index.example"));
	assert_false(ward_dnsname_match("index.example", "x.index.example"));
	assert_false(ward_dnsname_match("index.example", "index.example2"));
	assert_false(ward_dnsname_match("index.example", "ndex.example"));
	assert_true(ward_dnsname_match("*.files.example", "a.files.example"));
	assert_true(
	    ward_dnsname_match("*.files.example", "a.b.c.files.example"));
	assert_false(ward_dnsname_match("*.files.example", "files.example"));
	assert_false(ward_dnsname_match("*.files.example", ".files.example"));
	assert_false(ward_dnsname_match("*.files.example", "afiles.example"));
	assert_false(
	    ward_dnsname_match("*.files.example", "a.files.example.evil"));
	assert_false(ward_dnsname_match("*.files.example", "example"));
}

static void public_suffix(void **state)
{
	struct ward_psl *psl = ward_psl_load(NULL);
	struct ward_psl *none = ward_psl_load("/nonexistent/psl.dat");
	char path[] = "/tmp/ward-psl-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	struct ward_psl *own;

	(void)state;
	assert_null(none);
	assert_non_null(psl); /* Debian's publicsuffix (make deps) */
	assert_true(ward_psl_is_suffix(psl, "com"));
	assert_true(ward_psl_is_suffix(psl, "co.uk"));
	assert_true(ward_psl_is_suffix(psl, "test"));
	assert_true(ward_psl_is_suffix(psl, "example"));
	assert_true(ward_psl_is_suffix(psl, "invalid"));
	assert_true(ward_psl_is_suffix(psl, "localhost"));
	assert_true(ward_psl_is_suffix(psl, "github.io")); /* private part */
	assert_false(ward_psl_is_suffix(psl, "example.com"));
	assert_false(ward_psl_is_suffix(psl, "files.test"));
	assert_false(ward_psl_is_suffix(psl, "bbc.co.uk"));
	/* a UTF-8 rule of the list, as DNS spells it: 公司.cn */
	assert_true(ward_psl_is_suffix(psl, "xn--55qx5d.cn"));
	ward_psl_free(psl);

	/* wildcard and exception rules, in a list of the test's own */
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("// comment\n\nck\n*.ck\n!www.ck\n"
	      "m\xc3\xbcnchen.de\n",
	      f);
	fclose(f);
	own = ward_psl_load(path);
	unlink(path);
	assert_non_null(own);
	assert_true(ward_psl_is_suffix(own, "ck"));
	assert_true(ward_psl_is_suffix(own, "any.ck"));
	assert_false(ward_psl_is_suffix(own, "www.ck"));
	assert_false(ward_psl_is_suffix(own, "a.any.ck"));
	/* münchen.de, a UTF-8 rule, in punycode (RFC 3492) */
	assert_true(ward_psl_is_suffix(own, "xn--mnchen-3ya.de"));
	ward_psl_free(own);
}

/* The blob's section: the names of a policy come back as compiled, and a
 * name not in normal form is refused by the reader. */
static void blob_names(void **state)
{
	struct ward_test_compiled c;
	char msg[512];
	const struct ward_net *n;
	struct ward_policy p;
	struct ward_net_name bad[1];
	uint8_t *buf = NULL;
	size_t len;
	struct ward_blob b;
	ward_err err = {0};
	static const char *const wrong[] = {
	    "Index.test", "index.test.", "*", "a..test", "*x.test", "-a.test"};

	(void)state;
	assert_int_equal(
	    ward_test_compile("tests/net/names.ward", &c, msg, sizeof(msg)), 0);
	n = &c.blob.policy.net;
	assert_int_equal(n->nnames, 3);
	assert_string_equal(n->names[0].name, "*.files.test");
	assert_int_equal(n->names[0].flags, WARD_NET_NAME_WILDCARD);
	assert_string_equal(n->names[1].name, "index.test");
	assert_int_equal(n->names[1].flags, 0);
	assert_string_equal(n->names[2].name, "index.test");
	/* Its ports 80 and 443, in one order or the other. */
	assert_int_equal(n->names[1].port_lo + n->names[2].port_lo, 80 + 443);
	assert_true(c.blob.policy.requirements & WARD_REQ_NET_NAMES);

	p = c.blob.policy;
	p.net.names = bad;
	p.net.nnames = 1;
	for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		bad[0] = (struct ward_net_name){.name = wrong[i],
						.proto = 6,
						.flags = wrong[i][0] == '*',
						.port_lo = 443,
						.port_hi = 443};
		assert_int_equal(
		    ward_blob_write_unchecked(&p, &buf, &len, &err), 0);
		assert_int_equal(ward_blob_read(buf, len, 0, &b, &err), -1);
		free(buf);
		buf = NULL;
	}
	/* the wildcard flag must agree with the name */
	bad[0] = (struct ward_net_name){.name = "index.test",
					.proto = 6,
					.flags = 1,
					.port_lo = 1,
					.port_hi = 1};
	assert_int_equal(ward_blob_write_unchecked(&p, &buf, &len, &err), 0);
	assert_int_equal(ward_blob_read(buf, len, 0, &b, &err), -1);
	free(buf);
	ward_test_compiled_release(&c);
}

/* Without the list a wildcard cannot be checked: refused, not let by. */
static void no_list_no_wildcard(void **state)
{
	struct ward_test_compiled c;
	char msg[512];
	char path[] = "/tmp/ward-names-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	int wild, exact;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("ward 1;\npolicy t;\nsyscalls default errno ENOSYS { }\n"
	      "net { allow tcp name \"*.files.test\" port 443; }\n",
	      f);
	fclose(f);
	setenv("WARDC_PUBLIC_SUFFIX_LIST", "/nonexistent/psl.dat", 1);
	wild = ward_test_compile(path, &c, msg, sizeof(msg));
	ward_test_compiled_release(&c);
	unsetenv("WARDC_PUBLIC_SUFFIX_LIST");
	exact = ward_test_compile(path, &c, msg, sizeof(msg));
	ward_test_compiled_release(&c);
	unlink(path);
	assert_int_equal(wild, -1);
	assert_int_equal(exact, 0);
}

/* What an answer may make reachable (launcher/unprivileged/dns.c). */
static void learnable(void **state)
{
	static const struct {
		const char *a;
		bool ok;
	} cases[] = {
	    {"10.78.1.2", true},
	    {"192.0.2.1", true},
	    {"169.254.169.254", false},
	    {"169.254.0.1", false},
	    {"127.0.0.1", false},
	    {"127.1.2.3", false},
	    {"0.0.0.0", false},
	    {"224.0.0.1", false},
	    {"255.255.255.255", false},
	    {"2001:db8::1", true},
	    {"::1", false},
	    {"::", false},
	    {"fe80::1", false},
	    {"ff02::1", false},
	    {"::ffff:169.254.169.254", false},
	    {"::ffff:10.0.0.1", true},
	    {"::10.0.0.1", false},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t a[16] = {0};
		uint8_t fam = strchr(cases[i].a, ':') ? 6 : 4;

		assert_int_equal(
		    inet_pton(fam == 4 ? AF_INET : AF_INET6, cases[i].a, a), 1);
		if (ward_dns_addr_learnable(fam, a) != cases[i].ok)
			fail_msg("%s: learnable %d, expected %d", cases[i].a,
				 !cases[i].ok, cases[i].ok);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(normal_form),
	    cmocka_unit_test(wildcard_match),
	    cmocka_unit_test(public_suffix),
	    cmocka_unit_test(blob_names),
	    cmocka_unit_test(no_list_no_wildcard),
	    cmocka_unit_test(learnable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
