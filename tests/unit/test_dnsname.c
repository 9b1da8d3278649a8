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

#include "answer_ranges.h"
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

/* A policy source compiled as a file: 0, or -1. */
static int compile_text(const char *src, struct ward_test_compiled *c)
{
	char path[] = "/tmp/ward-answers-XXXXXX";
	char msg[512];
	int fd = mkstemp(path), rc;
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(src, f);
	fclose(f);
	rc = ward_test_compile(path, c, msg, sizeof(msg));
	unlink(path);
	return rc;
}

#define NAMES_POLICY(extra)                                                    \
	"ward 1;\npolicy t;\nsyscalls default errno ENOSYS { }\n"              \
	"net { allow tcp name \"index.test\" port 443; " extra " }\n"

static void expect_refused(const struct ward_net *net, const char *addr,
			   bool refused)
{
	uint8_t a[16] = {0};
	uint8_t fam = strchr(addr, ':') ? 6 : 4;

	assert_int_equal(inet_pton(fam == 4 ? AF_INET : AF_INET6, addr, a), 1);
	if (ward_answer_refused(net, fam, a) != refused)
		fail_msg("%s: refused %d, expected %d", addr, !refused,
			 refused);
}

/* What an answer may make reachable: the blob's refused ranges, which
 * the compiler writes and the stub (launcher/unprivileged/dns.c) only
 * looks up: the fixed ranges, the private ones, their IPv6 forms. */
static void refused_answers(void **state)
{
	static const struct {
		const char *a;
		bool refused;
	} cases[] = {
	    {"192.0.2.1", false},
	    {"172.32.0.1", false},
	    {"100.128.0.1", false},
	    {"10.78.1.2", true},
	    {"10.255.255.255", true},
	    {"100.64.0.1", true},
	    {"172.16.0.1", true},
	    {"172.31.255.255", true},
	    {"192.168.1.1", true},
	    {"169.254.169.254", true},
	    {"169.254.0.1", true},
	    {"127.0.0.1", true},
	    {"127.1.2.3", true},
	    {"0.0.0.0", true},
	    {"224.0.0.1", true},
	    {"255.255.255.255", true},
	    {"2001:db8::1", false},
	    {"::1", true},
	    {"::", true},
	    {"fe80::1", true},
	    {"ff02::1", true},
	    {"fd00::1", true},
	    {"fc00::1", true},
	    {"::ffff:169.254.169.254", true},
	    {"::ffff:10.0.0.1", true},
	    {"::ffff:192.0.2.1", false},
	    {"::10.0.0.1", true},
	    {"64:ff9b::a9fe:a9fe", true},
	    {"64:ff9b::c000:201", false},
	    {"2002:a9fe:a9fe::1", true},
	    {"2002:0a00:0001::1", true},
	    {"2002:c000:0201::1", false},
	};
	struct ward_test_compiled c;

	(void)state;
	assert_int_equal(compile_text(NAMES_POLICY(""), &c), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_refused(&c.blob.policy.net, cases[i].a,
			       cases[i].refused);
	ward_test_compiled_release(&c);
}

/* `allow answers` opens a private network (or part of one) to answers,
 * and nothing else: the rest of 10/8 stays refused, with its IPv6
 * forms; a fixed or public network is an error. */
static void allow_answers(void **state)
{
	static const char *const wrong[] = {"127.0.0.0/8", "169.254.169.254",
					    "8.8.8.0/24",  "10.0.0.0/7",
					    "0.0.0.0/0",   "::/0",
					    "fe80::/10",   "10.0.0.1/8"};
	struct ward_test_compiled c;
	char src[512];

	(void)state;
	assert_int_equal(compile_text(NAMES_POLICY("allow answers "
						   "10.78.0.0/16, fd12::/16;"),
				      &c),
			 0);
	expect_refused(&c.blob.policy.net, "10.78.1.2", false);
	expect_refused(&c.blob.policy.net, "::ffff:10.78.1.2", false);
	expect_refused(&c.blob.policy.net, "10.79.0.1", true);
	expect_refused(&c.blob.policy.net, "10.77.255.255", true);
	expect_refused(&c.blob.policy.net, "::ffff:10.79.0.1", true);
	expect_refused(&c.blob.policy.net, "fd12::1", false);
	expect_refused(&c.blob.policy.net, "fd13::1", true);
	expect_refused(&c.blob.policy.net, "192.168.0.1", true);
	expect_refused(&c.blob.policy.net, "169.254.169.254", true);
	ward_test_compiled_release(&c);
	for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		snprintf(src, sizeof(src), NAMES_POLICY("allow answers %s;"),
			 wrong[i]);
		if (compile_text(src, &c) != -1)
			fail_msg("allow answers %s compiled", wrong[i]);
		ward_test_compiled_release(&c);
	}
}

/* The reader refuses refused ranges out of form: unsorted, overlapping,
 * host bits, a prefix past the family's bits, a family it does not
 * know, none, or a list without a fixed range (the metadata address's
 * network, or one of its IPv6 forms). */
static void blob_refused_strict(void **state)
{
	struct ward_test_compiled c;
	struct ward_net_prefix r[64];
	struct ward_policy p;
	uint8_t *buf = NULL;
	size_t len, n;
	struct ward_blob b;
	ward_err err = {0};

	(void)state;
	assert_int_equal(compile_text(NAMES_POLICY(""), &c), 0);
	p = c.blob.policy;
	n = p.net.nrefused;
	assert_true(n > 10 && n < 64);
	/* written back as it is: read */
	memcpy(r, p.net.refused, n * sizeof(*r));
	p.net.refused = r;
	assert_int_equal(ward_blob_write_unchecked(&p, &buf, &len, &err), 0);
	assert_int_equal(ward_blob_read(buf, len, 0, &b, &err), 0);
	ward_blob_release(&b);
	free(buf);
	for (int k = 0; k < 8; k++) {
		memcpy(r, c.blob.policy.net.refused, n * sizeof(*r));
		p.net.nrefused = (uint32_t)n;
		switch (k) {
		case 0: /* unsorted */
			r[0] = c.blob.policy.net.refused[1];
			r[1] = c.blob.policy.net.refused[0];
			break;
		case 1: /* overlapping */
			r[1] = r[0];
			r[1].prefix = (uint8_t)(r[1].prefix + 1);
			break;
		case 2: /* host bits */
			r[0].addr[3] |= 1;
			break;
		case 3: /* prefix past 32 */
			r[0].prefix = 33;
			break;
		case 4: /* family */
			r[0].family = 5;
			break;
		case 5: /* none */
			p.net.nrefused = 0;
			break;
		default: /* a fixed range or an IPv6 form of it left out */
			for (size_t i = 0, o = 0; i < n; i++) {
				const struct ward_net_prefix *x =
				    &c.blob.policy.net.refused[i];
				bool meta =
				    (x->family == 4 && x->addr[0] == 169) ||
				    (k == 7 && x->family == 6 &&
				     x->addr[0] == 0x20 && x->addr[2] == 169);

				if (k == 6 ? meta && x->family == 4
					   : meta && x->family == 6)
					continue;
				r[o++] = *x;
				p.net.nrefused = (uint32_t)o;
			}
			break;
		}
		assert_int_equal(
		    ward_blob_write_unchecked(&p, &buf, &len, &err), 0);
		if (ward_blob_read(buf, len, 0, &b, &err) != -1)
			fail_msg("case %d read", k);
		free(buf);
		buf = NULL;
	}
	ward_test_compiled_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(normal_form),
	    cmocka_unit_test(wildcard_match),
	    cmocka_unit_test(public_suffix),
	    cmocka_unit_test(blob_names),
	    cmocka_unit_test(no_list_no_wildcard),
	    cmocka_unit_test(refused_answers),
	    cmocka_unit_test(allow_answers),
	    cmocka_unit_test(blob_refused_strict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
