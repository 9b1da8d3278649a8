/* SPDX-License-Identifier: MIT */
/*
 * test_blob.c: the policy blob (docs/spec.md part 2): SHA-256 vectors, the
 * round trip of every field, determinism and canonical form, and one
 * refusal per reader check with its exact message.
 *
 * Refusals are made two ways: by writing a policy with one bad field through
 * the unchecked writer (the reader's field checks), and by editing the bytes
 * of a valid blob (framing, counts, strings, padding). Where an edit must
 * reach a check behind the digest, the test fixes the digest up, so that
 * each check is really the one that fires.
 *
 *   test_blob --write-corpus DIR   writes the fuzz seed corpus instead.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "blob.h"
#include "blob_read.h"
#include "blob_write.h"
#include "sha256.h"
#include "tests/lib/blob_corpus.h"

/* ------------------------------------------------------------ helpers */

/* A copy in an allocation of exactly len bytes, so that ASan sees any read
 * past the end. */
static uint8_t *dup_exact(const uint8_t *buf, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	assert_non_null(p);
	if (len)
		memcpy(p, buf, len);
	return p;
}

static uint8_t *write_ok(const struct ward_policy *p, size_t *len)
{
	uint8_t *buf = NULL, *exact;
	ward_err err = {0};

	if (ward_blob_write(p, &buf, len, &err) < 0)
		fail_msg("write: %s", err.msg);
	exact = dup_exact(buf, *len);
	free(buf);
	return exact;
}

static uint8_t *write_unchecked(const struct ward_policy *p, size_t *len)
{
	uint8_t *buf = NULL, *exact;
	ward_err err = {0};

	if (ward_blob_write_unchecked(p, &buf, len, &err) < 0)
		fail_msg("write: %s", err.msg);
	exact = dup_exact(buf, *len);
	free(buf);
	return exact;
}

static void read_fails(const uint8_t *buf, size_t len, uint32_t arch,
		       const char *msg)
{
	_cleanup_free_ uint8_t *exact = dup_exact(buf, len);
	struct ward_blob b;
	ward_err err = {0};

	if (ward_blob_read(exact, len, arch, &b, &err) == 0) {
		ward_blob_release(&b);
		fail_msg("accepted, expected \"%s\"", msg);
	}
	assert_string_equal(err.msg, msg);
	/* Nothing is left to release, and no half-read policy leaks out. */
	assert_null(b.policy.mounts);
	assert_null(b.policy.env);
	assert_null(b.policy.rules.syscalls);
	assert_null(b.policy.seccomp.insns);
	assert_null(b.policy.meta.policy_name);
	ward_blob_release(&b);
}

static void read_ok(const uint8_t *buf, size_t len, uint32_t arch,
		    struct ward_blob *b)
{
	ward_err err = {0};

	if (ward_blob_read(buf, len, arch, b, &err) < 0)
		fail_msg("refused: %s", err.msg);
}

static size_t sec_off(const uint8_t *buf, unsigned i)
{
	size_t len;

	return ward_test_blob_section(buf, i, &len);
}

static size_t sec_len(const uint8_t *buf, unsigned i)
{
	size_t len;

	ward_test_blob_section(buf, i, &len);
	return len;
}

static char *repeat(char c, size_t n, const char *prefix)
{
	size_t np = strlen(prefix);
	char *s = malloc(np + n + 1);

	assert_non_null(s);
	memcpy(s, prefix, np);
	memset(s + np, c, n);
	s[np + n] = '\0';
	return s;
}

static void assert_str_or_null(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void assert_action_equal(const struct ward_action *a,
				const struct ward_action *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->errno_nr, b->errno_nr);
}

static void assert_policy_equal(const struct ward_policy *a,
				const struct ward_policy *b)
{
	assert_int_equal(a->arch, b->arch);
	assert_int_equal(a->requirements, b->requirements);
	assert_int_equal(a->exec, b->exec);
	assert_int_equal(a->landlock.mode, b->landlock.mode);
	assert_int_equal(a->landlock.abi, b->landlock.abi);
	assert_int_equal(a->landlock.handled_fs, b->landlock.handled_fs);
	assert_int_equal(a->landlock.scoped, b->landlock.scoped);
	assert_int_equal(a->landlock.nrules, b->landlock.nrules);
	for (uint32_t i = 0; i < a->landlock.nrules; i++) {
		assert_int_equal(a->landlock.rules[i].access,
				 b->landlock.rules[i].access);
		assert_int_equal(a->landlock.rules[i].flags,
				 b->landlock.rules[i].flags);
		assert_string_equal(a->landlock.rules[i].path,
				    b->landlock.rules[i].path);
	}
	assert_string_equal(a->meta.policy_name, b->meta.policy_name);
	assert_string_equal(a->meta.compiler_version, b->meta.compiler_version);
	assert_memory_equal(a->meta.source_digest, b->meta.source_digest, 32);

	assert_int_equal(a->identity.uid, b->identity.uid);
	assert_int_equal(a->identity.gid, b->identity.gid);
	assert_string_equal(a->identity.hostname, b->identity.hostname);
	assert_string_equal(a->identity.workdir, b->identity.workdir);
	assert_int_equal(a->identity.caps_keep, b->identity.caps_keep);

	assert_int_equal(a->nenv, b->nenv);
	for (uint32_t i = 0; i < a->nenv; i++) {
		assert_string_equal(a->env[i].name, b->env[i].name);
		assert_str_or_null(a->env[i].value, b->env[i].value);
	}

	assert_int_equal(a->nmounts, b->nmounts);
	for (uint32_t i = 0; i < a->nmounts; i++) {
		const struct ward_mount *x = &a->mounts[i], *y = &b->mounts[i];
		assert_int_equal(x->kind, y->kind);
		assert_int_equal(x->flags, y->flags);
		assert_str_or_null(x->src, y->src);
		assert_string_equal(x->dst, y->dst);
		assert_int_equal(x->size, y->size);
		assert_int_equal(x->mode, y->mode);
		assert_int_equal(x->data_len, y->data_len);
		if (x->kind == WARD_MNT_FILE)
			assert_memory_equal(x->data, y->data, x->data_len);
		else
			assert_ptr_equal(x->data, y->data); /* NULL */
	}

	assert_int_equal(a->limits.set, b->limits.set);
	for (int k = 0; k < WARD_LIM_COUNT; k++)
		if (ward_limit_is_set(&a->limits, k))
			assert_int_equal(a->limits.value[k],
					 b->limits.value[k]);

	assert_int_equal(a->net.mode, b->net.mode);
	assert_int_equal(a->net.nrules, b->net.nrules);
	for (uint32_t i = 0; i < a->net.nrules; i++) {
		const struct ward_net_rule *x = &a->net.rules[i];
		const struct ward_net_rule *y = &b->net.rules[i];
		assert_int_equal(x->proto, y->proto);
		assert_int_equal(x->family, y->family);
		assert_int_equal(x->prefix, y->prefix);
		assert_memory_equal(x->addr, y->addr, 16);
		assert_int_equal(x->port_lo, y->port_lo);
		assert_int_equal(x->port_hi, y->port_hi);
	}
	assert_int_equal(a->net.nhosts, b->net.nhosts);
	for (uint32_t i = 0; i < a->net.nhosts; i++) {
		assert_string_equal(a->net.hosts[i].name, b->net.hosts[i].name);
		assert_int_equal(a->net.hosts[i].family,
				 b->net.hosts[i].family);
		assert_memory_equal(a->net.hosts[i].addr, b->net.hosts[i].addr,
				    16);
	}

	assert_int_equal(a->seccomp.arch, b->seccomp.arch);
	assert_int_equal(a->seccomp.ninsns, b->seccomp.ninsns);
	for (uint32_t i = 0; i < a->seccomp.ninsns; i++) {
		assert_int_equal(a->seccomp.insns[i].code,
				 b->seccomp.insns[i].code);
		assert_int_equal(a->seccomp.insns[i].jt,
				 b->seccomp.insns[i].jt);
		assert_int_equal(a->seccomp.insns[i].jf,
				 b->seccomp.insns[i].jf);
		assert_int_equal(a->seccomp.insns[i].k, b->seccomp.insns[i].k);
	}

	assert_action_equal(&a->rules.default_action, &b->rules.default_action);
	assert_int_equal(a->rules.nsyscalls, b->rules.nsyscalls);
	for (uint32_t i = 0; i < a->rules.nsyscalls; i++) {
		const struct ward_syscall_rule *x = &a->rules.syscalls[i];
		const struct ward_syscall_rule *y = &b->rules.syscalls[i];
		assert_int_equal(x->nr, y->nr);
		assert_string_equal(x->name, y->name);
		assert_int_equal(x->has_fallback, y->has_fallback);
		assert_action_equal(&x->fallback, &y->fallback);
		assert_int_equal(x->nconds, y->nconds);
		for (uint32_t j = 0; j < x->nconds; j++) {
			const struct ward_cond_rule *cx = &x->conds[j];
			const struct ward_cond_rule *cy = &y->conds[j];
			assert_action_equal(&cx->action, &cy->action);
			assert_int_equal(cx->ncmps, cy->ncmps);
			for (uint32_t k = 0; k < cx->ncmps; k++) {
				assert_int_equal(cx->cmps[k].arg,
						 cy->cmps[k].arg);
				assert_int_equal(cx->cmps[k].op,
						 cy->cmps[k].op);
				assert_int_equal(cx->cmps[k].mask,
						 cy->cmps[k].mask);
				assert_int_equal(cx->cmps[k].value,
						 cy->cmps[k].value);
			}
		}
	}
}

/* Where directory entry i starts. */
#define DIR(i) (64 + 24 * (size_t)(i))

/* A mutable deep copy of the rich policy. */
struct scratch {
	struct ward_policy p;
	struct ward_env_var env[8];
	struct ward_mount mounts[16];
	struct ward_net_rule rules[8];
	struct ward_net_host hosts[8];
	struct sock_filter insns[8];
	struct ward_syscall_rule sys[8];
	struct ward_cond_rule conds[8];
	struct ward_cmp cmps[16];
	char *owned; /* a long string a case made, freed after it */
};

static void scratch_init(struct scratch *s)
{
	const struct ward_policy *r = ward_test_policy_rich();
	size_t nc = 0, nm = 0;

	memset(s, 0, sizeof(*s));
	s->p = *r;
	memcpy(s->env, r->env, r->nenv * sizeof(*r->env));
	memcpy(s->mounts, r->mounts, r->nmounts * sizeof(*r->mounts));
	memcpy(s->rules, r->net.rules, r->net.nrules * sizeof(*r->net.rules));
	memcpy(s->hosts, r->net.hosts, r->net.nhosts * sizeof(*r->net.hosts));
	memcpy(s->insns, r->seccomp.insns,
	       r->seccomp.ninsns * sizeof(*r->seccomp.insns));
	s->p.env = s->env;
	s->p.mounts = s->mounts;
	s->p.net.rules = s->rules;
	s->p.net.hosts = s->hosts;
	s->p.seccomp.insns = s->insns;
	s->p.rules.syscalls = s->sys;
	for (uint32_t i = 0; i < r->rules.nsyscalls; i++) {
		s->sys[i] = r->rules.syscalls[i];
		s->sys[i].conds = &s->conds[nc];
		for (uint32_t j = 0; j < s->sys[i].nconds; j++, nc++) {
			const struct ward_cond_rule *c =
			    &r->rules.syscalls[i].conds[j];
			s->conds[nc] = *c;
			s->conds[nc].cmps = &s->cmps[nm];
			memcpy(&s->cmps[nm], c->cmps,
			       c->ncmps * sizeof(*c->cmps));
			nm += c->ncmps;
		}
	}
	assert_true(nc <= ARRAY_LEN(s->conds) && nm <= ARRAY_LEN(s->cmps));
}

/* -------------------------------------------------------------- sha256 */

static void test_sha256_vectors(void **state)
{
	static const struct {
		const char *in, *hex;
	} v[] = {
	    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61"
		    "f20015ad"},
	    {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b"
		 "7852b855"},
	    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db"
	     "06c1"},
	};
	uint8_t d[32];
	char hex[65];

	for (size_t i = 0; i < ARRAY_LEN(v); i++) {
		ward_sha256(v[i].in, strlen(v[i].in), d);
		ward_hex(d, 32, hex);
		assert_string_equal(hex, v[i].hex);
	}
}

static void test_sha256_incremental(void **state)
{
	const char *in =
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	size_t n = strlen(in);
	uint8_t whole[32], parts[32];

	ward_sha256(in, n, whole);
	for (size_t cut = 0; cut <= n; cut++) {
		struct ward_sha256 h;
		ward_sha256_init(&h);
		ward_sha256_update(&h, in, cut);
		ward_sha256_update(&h, in + cut, 0);
		ward_sha256_update(&h, in + cut, n - cut);
		ward_sha256_final(&h, parts);
		assert_memory_equal(whole, parts, 32);
	}
}

static void test_hex(void **state)
{
	const uint8_t b[] = {0x00, 0x0f, 0xa5, 0xff};
	char hex[9];

	ward_hex(b, 4, hex);
	assert_string_equal(hex, "000fa5ff");
	ward_hex(b, 0, hex);
	assert_string_equal(hex, "");
}

/* ---------------------------------------------------- round trip, form */

static void round_trip(const struct ward_policy *p)
{
	size_t len;
	_cleanup_free_ uint8_t *buf = write_ok(p, &len);
	struct ward_blob b;
	uint8_t d[32];

	read_ok(buf, len, 0, &b);
	assert_policy_equal(p, &b.policy);
	assert_int_equal(b.format_version, 1);
	assert_true(b.has_rules);
	/* Strings point into the caller's buffer. */
	assert_true((const uint8_t *)b.policy.meta.policy_name > buf &&
		    (const uint8_t *)b.policy.meta.policy_name < buf + len);
	assert_true((const uint8_t *)b.policy.mounts[0].dst > buf &&
		    (const uint8_t *)b.policy.mounts[0].dst < buf + len);
	/* The digests: the stored one, and the file's own. */
	ward_sha256(buf, len, d);
	assert_memory_equal(b.file_digest, d, 32);
	assert_memory_equal(b.content_digest, buf + 32, 32);
	ward_blob_content_digest(buf, len, d);
	assert_memory_equal(b.content_digest, d, 32);
	ward_blob_release(&b);
}

static void test_round_trip_rich(void **state)
{
	round_trip(ward_test_policy_rich());
}

static void test_round_trip_minimal(void **state)
{
	round_trip(ward_test_policy_minimal());
}

static void test_round_trip_aarch64(void **state)
{
	struct ward_policy p = *ward_test_policy_rich();
	size_t len;
	_cleanup_free_ uint8_t *buf = NULL;
	struct ward_blob b;

	p.arch = p.seccomp.arch = WARD_ARCH_AARCH64;
	buf = write_ok(&p, &len);
	read_ok(buf, len, WARD_ARCH_AARCH64, &b);
	assert_policy_equal(&p, &b.policy);
	ward_blob_release(&b);
	read_fails(buf, len, WARD_ARCH_X86_64,
		   "blob: compiled for aarch64, this host is x86_64");
}

/* Boundary values every check must accept. */
static void test_round_trip_limits_of_ranges(void **state)
{
	struct scratch s;
	char *path, *hostname, *name;
	struct sock_filter *many = calloc(4096, sizeof(*many));

	scratch_init(&s);
	assert_non_null(many);
	path = repeat('a', 4094, "/");
	hostname = repeat('h', 64, "");
	name = repeat('n', 255, "");
	s.mounts[2].dst = path;
	s.mounts[1].dst = "/a/.b/..c/.../x";
	s.mounts[1].src = "/...";
	s.p.identity.hostname = hostname;
	s.p.identity.uid = s.p.identity.gid = 65534;
	s.p.identity.caps_keep = (1ull << 41) - 1;
	s.p.meta.policy_name = name;
	s.p.seccomp.insns = many;
	s.p.seccomp.ninsns = 4096;
	s.rules[0].prefix = 0;
	memset(s.rules[0].addr, 0, 4);
	s.rules[2].prefix = 128;
	memset(s.rules[2].addr, 0xff, 16);
	s.rules[1].port_lo = s.rules[1].port_hi = 65535;
	s.sys[0].fallback = (struct ward_action){WARD_ACT_ERRNO, 4095, 0};
	s.sys[4].nr = 0x7fffffff;
	round_trip(&s.p);
	free(path);
	free(hostname);
	free(name);
	free(many);
}

static void test_deterministic(void **state)
{
	size_t n1, n2, n3;
	_cleanup_free_ uint8_t *a = write_ok(ward_test_policy_rich(), &n1);
	_cleanup_free_ uint8_t *b = write_ok(ward_test_policy_rich(), &n2);
	_cleanup_free_ uint8_t *c = NULL;
	struct scratch s;
	struct ward_blob rb;

	assert_int_equal(n1, n2);
	assert_memory_equal(a, b, n1);
	/* The same policy in other memory (a deep copy) gives the same
	 * bytes, and so does the policy read back from the blob. */
	scratch_init(&s);
	c = write_ok(&s.p, &n3);
	assert_int_equal(n1, n3);
	assert_memory_equal(a, c, n1);
	free(c);
	read_ok(a, n1, 0, &rb);
	c = write_ok(&rb.policy, &n3);
	ward_blob_release(&rb);
	assert_int_equal(n1, n3);
	assert_memory_equal(a, c, n1);
}

/* The layout of docs/spec.md part 2, pinned on the minimal blob. */
static void test_layout(void **state)
{
	size_t len;
	_cleanup_free_ uint8_t *buf =
	    write_ok(ward_test_policy_minimal(), &len);
	static const uint32_t types[] = {1, 2, 3, 4, 5, 6, 7, 8};
	size_t off = 64 + 8 * 24;

	assert_memory_equal(buf, "WARDBLOB", 8);
	assert_int_equal(ward_le16(buf + 8), 1);
	assert_int_equal(ward_le16(buf + 10), 8);
	assert_int_equal(ward_le32(buf + 12), WARD_ARCH_X86_64);
	assert_int_equal(ward_le32(buf + 16), 0);
	assert_int_equal(ward_le32(buf + 20), 0);
	assert_int_equal(ward_le64(buf + 24), len);
	for (unsigned i = 0; i < 8; i++) {
		const uint8_t *d = buf + 64 + 24 * i;
		assert_int_equal(ward_le32(d), types[i]);
		assert_int_equal(ward_le32(d + 4), i == 7 ? 0 : 1);
		assert_int_equal(ward_le64(d + 8), off);
		off += ward_le64(d + 16);
	}
	assert_int_equal(off, len);
	/* meta: digest, "minimal" (len 7, bytes, NUL: 12 -> 16), "wardc
	 * 0.1.0" (11 -> 16). */
	off = sec_off(buf, 0);
	assert_int_equal(sec_len(buf, 0), 32 + 16 + 16);
	assert_int_equal(ward_le32(buf + off + 32), 7);
	assert_memory_equal(buf + off + 36, "minimal\0\0\0\0", 12);
	/* Sizes of the other sections of the minimal policy. */
	assert_int_equal(sec_len(buf, 1),
			 16 + 8 + 8);	      /* identity: ids, caps, "", "/" */
	assert_int_equal(sec_len(buf, 2), 8); /* env */
	assert_int_equal(sec_len(buf, 3), 8 + 24 + 8 + 8); /* mounts */
	assert_int_equal(sec_len(buf, 4), 8);		   /* limits */
	assert_int_equal(sec_len(buf, 5), 16);		   /* network */
	assert_int_equal(sec_len(buf, 6), 8 + 8 + 8);	   /* seccomp */
	assert_int_equal(sec_len(buf, 7), 16);		   /* rules */
	/* The seccomp instruction: code, jt, jf, k. */
	off = sec_off(buf, 6) + 16;
	assert_int_equal(ward_le16(buf + off), BPF_RET | BPF_K);
	assert_int_equal(ward_le32(buf + off + 4), 0x80000000u);
}

/* Every byte flipped, with the digest fixed: each result is either refused
 * or canonical (writing what was read gives the same bytes back), so no
 * byte of a blob can change without the reader noticing or the meaning
 * changing. */
static void flip_all(const struct ward_policy *p)
{
	size_t len;
	_cleanup_free_ uint8_t *orig = write_ok(p, &len);
	unsigned accepted = 0, refused = 0;

	for (size_t i = 0; i < len; i++) {
		if (i >= 32 && i < 64)
			continue; /* the digest itself */
		for (unsigned bit = 0; bit < 8; bit++) {
			_cleanup_free_ uint8_t *m = dup_exact(orig, len);
			struct ward_blob b;
			ward_err err;

			m[i] ^= (uint8_t)(1u << bit);
			ward_test_blob_fix(m, len);
			if (ward_blob_read(m, len, 0, &b, &err) < 0) {
				refused++;
				continue;
			}
			if (!b.has_rules) {
				/* The rules section's type became an
				 * unknown, non-critical one: skipped. */
				assert_in_range(i, DIR(7), DIR(7) + 3);
				ward_blob_release(&b);
				accepted++;
				continue;
			}
			size_t n2;
			_cleanup_free_ uint8_t *again =
			    write_ok(&b.policy, &n2);
			ward_blob_release(&b);
			assert_int_equal(n2, len);
			if (memcmp(again, m, len))
				fail_msg("byte %zu bit %u: accepted but not "
					 "canonical",
					 i, bit);
			accepted++;
		}
	}
	/* String bytes and values may change; structure may not. */
	assert_true(accepted > 0);
	assert_true(refused > accepted);
}

static void test_flip_with_digest_fixed(void **state)
{
	flip_all(ward_test_policy_rich());
	flip_all(ward_test_policy_minimal());
}

/* Every byte flipped without fixing anything: the front door refuses. */
static void test_flip_refused(void **state)
{
	size_t len;
	_cleanup_free_ uint8_t *orig = write_ok(ward_test_policy_rich(), &len);

	for (size_t i = 0; i < len; i++) {
		_cleanup_free_ uint8_t *m = dup_exact(orig, len);
		struct ward_blob b;
		ward_err err = {0};
		const char *want = "blob: digest mismatch: the blob was "
				   "modified after compilation";

		m[i] ^= 0x80;
		assert_int_equal(ward_blob_read(m, len, 0, &b, &err), -1);
		if (i < 8)
			want = "blob: bad magic: not a ward policy blob";
		else if (i < 10)
			want = "blob: format version";
		else if (i >= 24 && i < 32)
			want = "blob: the header says";
		assert_memory_equal(err.msg, want, strlen(want));
	}
}

static void test_truncated_everywhere(void **state)
{
	size_t len;
	_cleanup_free_ uint8_t *orig = write_ok(ward_test_policy_rich(), &len);
	char want[128];

	for (size_t n = 0; n < len; n++) {
		if (n < 64)
			snprintf(want, sizeof(want),
				 "blob: truncated: %zu bytes, less than a "
				 "header",
				 n);
		else
			snprintf(want, sizeof(want),
				 "blob: the header says %zu bytes, the file "
				 "has %zu",
				 len, n);
		read_fails(orig, n, 0, want);
	}
}

/* ------------------------------------------------ refusals: the header */

/* Edit the rich blob at off, optionally fix the digest, expect msg. */
static void edit32(size_t off, uint32_t v, bool fix, const char *msg)
{
	size_t len;
	_cleanup_free_ uint8_t *buf = write_ok(ward_test_policy_rich(), &len);

	ward_test_st32(buf + off, v);
	if (fix)
		ward_test_blob_fix(buf, len);
	read_fails(buf, len, 0, msg);
}

static void edit16(size_t off, uint16_t v, const char *msg)
{
	size_t len;
	_cleanup_free_ uint8_t *buf = write_ok(ward_test_policy_rich(), &len);

	ward_test_st16(buf + off, v);
	ward_test_blob_fix(buf, len);
	read_fails(buf, len, 0, msg);
}

static void test_refuse_header(void **state)
{
	size_t len;
	_cleanup_free_ uint8_t *buf = write_ok(ward_test_policy_rich(), &len);
	_cleanup_free_ uint8_t *big = NULL;
	char want[128];

	buf[0] = 'X';
	read_fails(buf, len, 0, "blob: bad magic: not a ward policy blob");
	buf[0] = 'W';
	ward_test_st16(buf + 8, 2);
	read_fails(buf, len, 0,
		   "blob: format version 2 is not supported (only 1)");
	ward_test_st16(buf + 8, 1);

	ward_test_st64(buf + 24, len + 1);
	snprintf(want, sizeof(want),
		 "blob: the header says %zu bytes, the file has %zu", len + 1,
		 len);
	read_fails(buf, len, 0, want);
	ward_test_st64(buf + 24, len);

	buf[40] ^= 1;
	read_fails(buf, len, 0,
		   "blob: digest mismatch: the blob was modified after "
		   "compilation");
	buf[40] ^= 1;
	buf[len - 1] ^= 1; /* the last byte is covered too */
	read_fails(buf, len, 0,
		   "blob: digest mismatch: the blob was modified after "
		   "compilation");
	buf[len - 1] ^= 1;
	/* The header is covered too: change the arch. */
	ward_test_st32(buf + 12, WARD_ARCH_AARCH64);
	read_fails(buf, len, 0,
		   "blob: digest mismatch: the blob was modified after "
		   "compilation");

	/* Eight zero bytes appended: the length, then (fixed) the tiling. */
	big = calloc(1, len + 8);
	assert_non_null(big);
	memcpy(big, buf, len);
	ward_test_st32(big + 12, WARD_ARCH_X86_64);
	snprintf(want, sizeof(want),
		 "blob: the header says %zu bytes, the file has %zu", len,
		 len + 8);
	read_fails(big, len + 8, 0, want);
	ward_test_blob_fix(big, len + 8);
	read_fails(big, len + 8, 0, "blob: 8 bytes after the last section");
}

static void test_refuse_arch(void **state)
{
	size_t len;
	_cleanup_free_ uint8_t *buf = write_ok(ward_test_policy_rich(), &len);
	struct ward_blob b;

	read_fails(buf, len, WARD_ARCH_AARCH64,
		   "blob: compiled for x86_64, this host is aarch64");
	read_fails(buf, len, 0x1234,
		   "blob: compiled for x86_64, this host is 0x00001234");
	read_ok(buf, len, WARD_ARCH_X86_64, &b);
	ward_blob_release(&b);
	edit32(12, 0x40000003 /* AUDIT_ARCH_I386 */, true,
	       "blob: unknown arch 0x40000003");
	edit32(12, 0, true, "blob: unknown arch 0x00000000");
}

static void test_refuse_header_fields(void **state)
{
	edit32(16, WARD_REQ_ALL | (1u << 20), true,
	       "blob: unknown requirement bits 0x100000");
	edit32(16, 0x80000000u, true,
	       "blob: unknown requirement bits 0x80000000");
	edit32(20, 1, true, "blob: header reserved field is not zero");
}

/* --------------------------------------------- refusals: the directory */

static void test_refuse_directory(void **state)
{
	size_t len;
	_cleanup_free_ uint8_t *buf = write_ok(ward_test_policy_rich(), &len);
	char want[160];

	edit16(10, 0xffff,
	       "blob: the directory of 65535 sections runs past "
	       "the end");
	/* Seven entries: section 0 is then one entry too far. */
	snprintf(want, sizeof(want),
		 "blob: section 0: offset 280, expected 232 (sections tile "
		 "the body in order)");
	edit16(10, 7, want);
	/* Overlap: section 1 starts where section 0 does. */
	snprintf(want, sizeof(want),
		 "blob: section 1: offset 256, expected %zu (sections tile "
		 "the body in order)",
		 sec_off(buf, 1));
	edit32(DIR(1) + 8, 256, true, want);
	/* A gap: section 0 shorter by 8, section 1 no longer follows. */
	snprintf(want, sizeof(want),
		 "blob: section 1: offset %zu, expected %zu (sections tile "
		 "the body in order)",
		 sec_off(buf, 1), sec_off(buf, 1) - 8);
	edit32(DIR(0) + 16, (uint32_t)sec_len(buf, 0) - 8, true, want);
	snprintf(want, sizeof(want),
		 "blob: section 7: length %zu is not a multiple of 8 or runs "
		 "past the end",
		 sec_len(buf, 7) - 4);
	edit32(DIR(7) + 16, (uint32_t)sec_len(buf, 7) - 4, true, want);
	/* The last section (landlock) longer than what is left. */
	snprintf(want, sizeof(want),
		 "blob: section 8: length %zu is not a multiple of 8 or runs "
		 "past the end",
		 sec_len(buf, 8) + 8);
	edit32(DIR(8) + 16, (uint32_t)sec_len(buf, 8) + 8, true, want);
	/* An offset above 4 GiB: the high half of the u64. */
	snprintf(want, sizeof(want),
		 "blob: section 7: offset %zu, expected %zu (sections tile "
		 "the body in order)",
		 sec_off(buf, 7) + ((size_t)1 << 32), sec_off(buf, 7));
	edit32(DIR(7) + 12, 1, true, want);
}

static void test_refuse_section_types(void **state)
{
	edit32(DIR(2), 2, true, "blob: section 2: type 2 appears twice");
	edit32(DIR(1), 3, true, "blob: section 2: type 3 appears twice");
	edit32(DIR(2), 1, true, "blob: section 2: type 1 is out of order");
	edit32(DIR(0), 0, true, "blob: section 0: type 0 is invalid");
	edit32(DIR(0) + 4, 3, true, "blob: section 0: unknown flag bits 0x2");
	edit32(DIR(7) + 4, 0x80000000u, true,
	       "blob: section 7: unknown flag bits 0x80000000");
	edit32(DIR(0) + 4, 0, true,
	       "blob: section 0: the meta section must be critical");
	edit32(DIR(6) + 4, 0, true,
	       "blob: section 6: the seccomp section must be critical");
	edit32(DIR(7) + 4, 1, true,
	       "blob: section 7: the rules section must not be critical");
}

static void test_unknown_sections(void **state)
{
	static const uint8_t data[24] = "from a later wardc";
	struct ward_policy rich = *ward_test_policy_rich();
	const struct ward_policy *p = &rich;
	size_t len;
	uint8_t *buf;

	/* Eight sections, the last the rules (type 8). */
	rich.landlock = (struct ward_landlock){0};
	rich.requirements &= ~(uint32_t)WARD_REQ_LANDLOCK;
	buf = write_ok(p, &len);
	struct ward_blob b;

	/* Non-critical: skipped, whatever it holds, also when empty. */
	assert_int_equal(ward_test_blob_insert(&buf, &len, 8, 9, 0, data, 24),
			 0);
	assert_int_equal(ward_test_blob_insert(&buf, &len, 9, 4000, 0, NULL, 0),
			 0);
	assert_int_equal(ward_le16(buf + 10), 10);
	read_ok(buf, len, 0, &b);
	assert_policy_equal(p, &b.policy);
	assert_true(b.has_rules);
	ward_blob_release(&b);
	/* Critical: refused. */
	ward_test_st32(buf + DIR(9) + 4, WARD_BLOB_SEC_CRITICAL);
	ward_test_blob_fix(buf, len);
	read_fails(buf, len, 0,
		   "blob: section 9: unknown critical section type 4000");
	free(buf);
}

static void test_missing_sections(void **state)
{
	static const char *const names[] = {"meta",   "identity", "env",
					    "mounts", "limits",	  "network",
					    "seccomp"};
	char want[64];

	for (unsigned i = 0; i < 7; i++) {
		size_t len;
		uint8_t *buf = write_ok(ward_test_policy_rich(), &len);

		assert_int_equal(ward_test_blob_remove(&buf, &len, i), 0);
		snprintf(want, sizeof(want), "blob: the %s section is missing",
			 names[i]);
		read_fails(buf, len, 0, want);
		free(buf);
	}
}

/* The rules section is for reviewers: a blob without it is valid. */
static void test_rules_optional(void **state)
{
	const struct ward_policy *p = ward_test_policy_rich();
	size_t len;
	uint8_t *buf = write_ok(p, &len);
	struct ward_blob b;

	assert_int_equal(ward_test_blob_remove(&buf, &len, 7), 0);
	read_ok(buf, len, 0, &b);
	assert_false(b.has_rules);
	assert_int_equal(b.policy.rules.nsyscalls, 0);
	assert_null(b.policy.rules.syscalls);
	assert_int_equal(b.policy.seccomp.ninsns, p->seccomp.ninsns);
	ward_blob_release(&b);
	free(buf);
}

/* ------------------------------------ refusals: strings, counts, bytes */

static void test_refuse_strings(void **state)
{
	size_t len;
	_cleanup_free_ uint8_t *buf = write_ok(ward_test_policy_rich(), &len);
	size_t meta = sec_off(buf, 0), name = meta + 32; /* "python-net" */
	char want[160];

	/* The NUL after the name, a NUL inside it, its padding. */
	buf[name + 4 + 10] = 'x';
	ward_test_blob_fix(buf, len);
	read_fails(buf, len, 0,
		   "blob: section 0 (meta): policy name is not NUL-terminated");
	buf[name + 4 + 10] = 0;
	buf[name + 4 + 3] = 0;
	ward_test_blob_fix(buf, len);
	read_fails(buf, len, 0,
		   "blob: section 0 (meta): policy name contains a NUL byte");
	buf[name + 4 + 3] = 'h';
	buf[name + 4 + 11] = 1;
	ward_test_blob_fix(buf, len);
	read_fails(buf, len, 0, "blob: section 0 (meta): padding is not zero");
	buf[name + 4 + 11] = 0;

	/* Lengths: over the bound, and past the end of the section. */
	edit32(name, 0xffffffffu, true,
	       "blob: section 0 (meta): policy name is longer than 255 bytes");
	snprintf(want, sizeof(want),
		 "blob: section 0 (meta): truncated: 201 bytes needed at "
		 "offset %zu, %zu left",
		 name + 4, sec_len(buf, 0) - 36);
	edit32(name, 200, true, want);
	/* A shorter length leaves the NUL off, a longer one takes it in. */
	edit32(name, 9, true,
	       "blob: section 0 (meta): policy name is not NUL-terminated");
	edit32(name, 11, true,
	       "blob: section 0 (meta): policy name contains a NUL byte");
}

/* The count field at byte at of section sec set to n: refused with
 * "WHERE: N WHAT cannot fit in the L bytes left", L counted from left_at
 * (relative to the section) to the section's end. */
static void count_fails(unsigned sec, size_t at, uint32_t n, const char *where,
			const char *what, size_t left_at)
{
	size_t len;
	_cleanup_free_ uint8_t *buf = write_ok(ward_test_policy_rich(), &len);
	char want[200];

	snprintf(want, sizeof(want),
		 "blob: section %u %s: %u %s cannot fit in the %zu bytes left",
		 sec, where, n, what, sec_len(buf, sec) - left_at);
	ward_test_st32(buf + sec_off(buf, sec) + at, n);
	ward_test_blob_fix(buf, len);
	read_fails(buf, len, 0, want);
}

/* Offsets in the rich blob's rules section: the header (16), syscall 0
 * "read" (24 + 16), syscall 1 "write" (24 + 16), its condition 0 (16), its
 * comparison 0. */
#define R_SYS1 (16 + 40)
#define R_COND (R_SYS1 + 40)
#define R_CMP  (R_COND + 16)

static void test_refuse_huge_counts(void **state)
{
	count_fails(2, 0, 0xffffffffu, "(env)", "entries", 8);
	count_fails(3, 0, 0x80000000u, "(mounts)", "entries", 8);
	count_fails(4, 0, WARD_LIM_COUNT + 1, "(limits)", "limits", 8);
	count_fails(5, 4, 0xffffffffu, "(network)", "rules", 16);
	count_fails(5, 8, 100, "(network)", "hosts", 16 + 4 * 24);
	count_fails(6, 12, 4096, "(seccomp) program 0", "instructions", 16);
	count_fails(7, 8, 0xffffffffu, "(rules)", "syscalls", 16);
	count_fails(7, R_SYS1 + 16, 0xffffffffu, "(rules) syscall 1",
		    "conditions", R_COND);
	count_fails(7, R_COND + 8, 0xffffffffu, "(rules) syscall 1 condition 0",
		    "comparisons", R_CMP);
}

static void test_refuse_trailing_and_reserved(void **state)
{
	size_t len;
	_cleanup_free_ uint8_t *buf = write_ok(ward_test_policy_rich(), &len);
	size_t s4 = sec_off(buf, 4);
	char want[160];

	/* One limit fewer: its 16 bytes are left over. */
	snprintf(want, sizeof(want),
		 "blob: section 4 (limits): 16 unexpected bytes at offset %zu",
		 s4 + 8 + (WARD_LIM_COUNT - 1) * 16);
	edit32(s4, WARD_LIM_COUNT - 1, true, want);
	edit32(sec_off(buf, 2) + 4, 1, true,
	       "blob: section 2 (env): reserved field is not zero");
	edit32(sec_off(buf, 2) + 12, 1, true,
	       "blob: section 2 (env) entry 0: reserved field is not zero");
	edit32(sec_off(buf, 3) + 8 + 20, 1, true,
	       "blob: section 3 (mounts) entry 0: reserved field is not zero");
	edit32(s4 + 8 + 4, 1, true,
	       "blob: section 4 (limits) entry 0: reserved field is not zero");
	edit32(sec_off(buf, 5) + 12, 1, true,
	       "blob: section 5 (network): reserved field is not zero");
	edit32(sec_off(buf, 5) + 16, 0x01000406, true,
	       "blob: section 5 (network) rule 0: reserved field is not zero");
	edit32(sec_off(buf, 5) + 16 + 4 * 24, 0x100 | 4, true,
	       "blob: section 5 (network) host 0: reserved field is not zero");
	edit32(sec_off(buf, 6) + 4, 1, true,
	       "blob: section 6 (seccomp): reserved field is not zero");
	edit32(sec_off(buf, 7) + 12, 1, true,
	       "blob: section 7 (rules): reserved field is not zero");
	edit32(sec_off(buf, 7) + 16 + 20, 1, true,
	       "blob: section 7 (rules) syscall 0: reserved field is not "
	       "zero");
	edit32(sec_off(buf, 7) + R_COND + 12, 1, true,
	       "blob: section 7 (rules) syscall 1 condition 0: reserved field "
	       "is not zero");
	edit32(sec_off(buf, 7) + R_CMP + 4, 1, true,
	       "blob: section 7 (rules) syscall 1 condition 0 comparison 0: "
	       "reserved field is not zero");
}

static void test_refuse_env_flags(void **state)
{
	size_t len;
	_cleanup_free_ uint8_t *buf = write_ok(ward_test_policy_rich(), &len);

	edit32(sec_off(buf, 2) + 8, 3, true,
	       "blob: section 2 (env) entry 0: unknown flag bits 0x2");
}

/* The limits are in increasing key order, each once. */
static void test_refuse_limit_order(void **state)
{
	size_t len;
	_cleanup_free_ uint8_t *buf = write_ok(ward_test_policy_rich(), &len);
	size_t e = sec_off(buf, 4) + 8;

	edit32(e + 16, 0, true,
	       "blob: section 4 (limits) entry 1: limit memory appears twice");
	edit32(e + 32, 0, true,
	       "blob: section 4 (limits) entry 2: limit memory appears twice");
	/* swap keys 0 and 1: the values stay in range for both. */
	{
		_cleanup_free_ uint8_t *m = dup_exact(buf, len);
		ward_test_st32(m + e, WARD_LIM_PIDS);
		ward_test_st32(m + e + 16, WARD_LIM_SWAP);
		ward_test_st64(m + e + 8, 100);
		ward_test_blob_fix(m, len);
		read_fails(
		    m, len, 0,
		    "blob: section 4 (limits) entry 1: limit swap is out "
		    "of order (keys must increase)");
	}
}

static void test_refuse_file_contents_bound(void **state)
{
	struct scratch s;
	size_t len, off;
	_cleanup_free_ uint8_t *buf = NULL;
	uint8_t *big;
	ward_err err;

	/* The writer refuses over 16 MiB... */
	scratch_init(&s);
	big = calloc(1, WARD_BLOB_FILE_MAX + 1);
	assert_non_null(big);
	s.mounts[7].data = big;
	s.mounts[7].data_len = WARD_BLOB_FILE_MAX + 1;
	assert_int_equal(ward_blob_write_unchecked(&s.p, &buf, &len, &err), -1);
	assert_string_equal(err.msg, "blob: file contents is longer than "
				     "16777216 bytes");
	/* ... and accepts exactly 16 MiB, which reads back. */
	s.mounts[7].data_len = WARD_BLOB_FILE_MAX;
	round_trip(&s.p);
	free(big);

	/* The reader: the last mount an empty file, its length patched. */
	scratch_init(&s);
	s.mounts[s.p.nmounts++] = (struct ward_mount){
	    .kind = WARD_MNT_FILE, .dst = "/last", .mode = 0444};
	buf = write_ok(&s.p, &len);
	off = sec_off(buf, 3) + sec_len(buf, 3) - 8;
	assert_int_equal(ward_le32(buf + off), 0);
	ward_test_st32(buf + off, WARD_BLOB_FILE_MAX + 1);
	ward_test_blob_fix(buf, len);
	read_fails(buf, len, 0,
		   "blob: section 3 (mounts) entry 13: file contents is longer "
		   "than 16777216 bytes");
}

/* ----------------------------------- refusals: one bad field at a time */

struct pcase {
	const char *name;
	void (*edit)(struct scratch *);
	const char *msg;
};

#define EDIT(fn, ...)                                                          \
	static void fn(struct scratch *s)                                      \
	{                                                                      \
		__VA_ARGS__;                                                   \
	}

/* header, through the policy */
EDIT(e_arch, s->p.arch = s->p.seccomp.arch = 3)
EDIT(e_req, s->p.requirements |= 1u << 20)
/* meta */
EDIT(e_name_empty, s->p.meta.policy_name = "")
EDIT(e_name_char, s->p.meta.policy_name = "py thon")
EDIT(e_name_long, s->p.meta.policy_name = s->owned = repeat('n', 256, ""))
EDIT(e_ver_empty, s->p.meta.compiler_version = "")
EDIT(e_ver_ctrl, s->p.meta.compiler_version = "wardc \x1b[31m")
EDIT(e_ver_high, s->p.meta.compiler_version = "wardc \xc3\xa9")
EDIT(e_ver_long, s->p.meta.compiler_version = s->owned = repeat('v', 256, ""))
/* identity */
EDIT(e_uid, s->p.identity.uid = 65535)
EDIT(e_gid, s->p.identity.gid = 0xffffffffu)
EDIT(e_caps, s->p.identity.caps_keep = 1ull << 41)
EDIT(e_caps_top, s->p.identity.caps_keep = 1ull << 63)
EDIT(e_host_long, s->p.identity.hostname = s->owned = repeat('h', 65, ""))
EDIT(e_host_char, s->p.identity.hostname = "a b")
EDIT(e_host_nl, s->p.identity.hostname = "a\nb")
EDIT(e_workdir_rel, s->p.identity.workdir = "work")
EDIT(e_workdir_dotdot, s->p.identity.workdir = "/work/../etc")
/* env */
EDIT(e_env_empty, s->env[1].name = "")
EDIT(e_env_eq, s->env[1].name = "A=B")
EDIT(e_env_dup, s->env[2].name = "LANG")
EDIT(e_env_dup_inherit, s->env[4].name = "TERM")
EDIT(e_env_long, s->env[0].value = s->owned = repeat('v', 131067, ""))
EDIT(e_env_longer, s->env[0].value = s->owned = repeat('v', 131073, ""))
/* mounts */
EDIT(e_dst_rel, s->mounts[2].dst = "data")
EDIT(e_dst_empty, s->mounts[2].dst = "")
EDIT(e_dst_trailing, s->mounts[2].dst = "/data/")
EDIT(e_dst_dslash, s->mounts[2].dst = "/a//b")
EDIT(e_dst_lead_dslash, s->mounts[2].dst = "//a")
EDIT(e_dst_dot, s->mounts[2].dst = "/a/./b")
EDIT(e_dst_dotdot, s->mounts[2].dst = "/a/../b")
EDIT(e_dst_enddot, s->mounts[2].dst = "/a/..")
EDIT(e_dst_firstdot, s->mounts[2].dst = "/.")
EDIT(e_dst_long, s->mounts[2].dst = s->owned = repeat('a', 4095, "/"))
EDIT(e_root_dst, s->mounts[0].dst = "/root")
EDIT(e_root_kind, s->mounts[0] = s->mounts[1]; s->mounts[0].dst = "/")
EDIT(e_no_mounts, s->p.nmounts = 0)
EDIT(e_dup_root, s->mounts[5].dst = "/")
EDIT(e_dup_dst, s->mounts[3].dst = "/usr")
EDIT(e_kind0, s->mounts[4].kind = 0)
EDIT(e_kind9, s->mounts[4].kind = 9)
EDIT(e_mflags, s->mounts[4].flags = 8)
EDIT(e_optional, s->mounts[3].flags |= WARD_MNT_F_OPTIONAL)
EDIT(e_optional_slot, s->mounts[10].flags |= WARD_MNT_F_OPTIONAL)
EDIT(e_size_proc, s->mounts[4].size = 1)
EDIT(e_size_bind, s->mounts[1].size = 4096)
EDIT(e_size0, s->mounts[3].size = 0)
EDIT(e_mode_big, s->mounts[3].mode = 010000)
EDIT(e_mode_bind, s->mounts[1].mode = 0644)
EDIT(e_mode_symlink, s->mounts[9].mode = 0777)
EDIT(e_src_rel, s->mounts[1].src = "usr")
EDIT(e_src_null, s->mounts[1].src = NULL)
EDIT(e_src_dotdot, s->mounts[1].src = "/usr/../etc")
EDIT(e_slot_char, s->mounts[10].src = "in put")
EDIT(e_slot_empty, s->mounts[10].src = "")
EDIT(e_slot_eq, s->mounts[10].src = "a=b")
EDIT(e_link_empty, s->mounts[9].src = "")
EDIT(e_link_long, s->mounts[9].src = s->owned = repeat('l', 4096, ""))
EDIT(e_src_proc, s->mounts[4].src = "proc")
EDIT(e_src_tmpfs, s->mounts[3].src = "tmpfs")
/* limits */
EDIT(e_lim_key, s->p.limits.set |= 1ull << WARD_LIM_COUNT)
EDIT(e_lim_key63, s->p.limits.set = 1ull << 63)
/* network */
EDIT(e_net_mode, s->p.net.mode = 2)
EDIT(e_net_none, s->p.net.mode = WARD_NET_NONE)
EDIT(e_net_none_hosts, s->p.net.mode = WARD_NET_NONE; s->p.net.nrules = 0)
EDIT(e_proto, s->rules[0].proto = 1)
EDIT(e_family, s->rules[0].family = 5)
EDIT(e_prefix4, s->rules[0].prefix = 33)
EDIT(e_prefix6, s->rules[2].prefix = 129)
EDIT(e_hostbits, s->rules[1].addr[3] = 1)
EDIT(e_hostbits6, s->rules[2].addr[4] = 0x80)
EDIT(e_v4tail, s->rules[0].addr[4] = 1)
EDIT(e_port0, s->rules[0].port_lo = 0)
EDIT(e_port_order, s->rules[0].port_lo = 444)
EDIT(e_hname_empty, s->hosts[1].name = "")
EDIT(e_hname_char, s->hosts[1].name = "evil\nhost")
EDIT(e_hname_long, s->hosts[1].name = s->owned = repeat('d', 254, ""))
EDIT(e_hfamily, s->hosts[2].family = 0)
EDIT(e_hv4tail, s->hosts[2].addr[15] = 1)
/* seccomp */
EDIT(e_sc_arch, s->p.seccomp.arch = WARD_ARCH_AARCH64)
EDIT(e_sc_zero, s->p.seccomp.ninsns = 0)
EDIT(e_sc_many, s->p.seccomp.ninsns = 4097;
     s->p.seccomp.insns = calloc(4097, sizeof(struct sock_filter));
     s->owned = (char *)s->p.seccomp.insns)
/* rules */
EDIT(e_def_kind, s->p.rules.default_action.kind = 5)
EDIT(e_def_errno0, s->p.rules.default_action.errno_nr = 0)
EDIT(e_def_errno_big, s->p.rules.default_action.errno_nr = 4096)
EDIT(e_def_errno_allow,
     s->p.rules.default_action = (struct ward_action){WARD_ACT_ALLOW, 1, 0})
EDIT(e_def_via_errno, s->p.rules.default_action = (struct ward_action){
			  WARD_ACT_ERRNO, 1, WARD_VIA_CONNECT})
EDIT(e_def_via_kill, s->p.rules.default_action = (struct ward_action){
			 WARD_ACT_KILL, 0, WARD_VIA_RECORD})
EDIT(e_def_via_big,
     s->p.rules.default_action = (struct ward_action){WARD_ACT_ALLOW, 0, 6})
/* An observed call (a recording blob) logs at most the six arguments. */
EDIT(e_def_observe_mask, s->p.rules.default_action = (struct ward_action){
			     WARD_ACT_ALLOW, 64, WARD_VIA_OBSERVE})
EDIT(e_nr_neg, s->sys[0].nr = -1)
EDIT(e_nr_order, s->sys[2].nr = 1)
EDIT(e_nr_desc, s->sys[3].nr = 2)
EDIT(e_fallback, s->sys[1].fallback.kind = WARD_ACT_KILL)
EDIT(e_sys_name_empty, s->sys[1].name = "")
EDIT(e_sys_name_char, s->sys[1].name = "wr-ite")
EDIT(e_sys_name_long, s->sys[1].name = s->owned = repeat('s', 64, ""))
EDIT(e_no_cmps, s->conds[0].ncmps = 0)
EDIT(e_cond_action, s->conds[2].action.kind = 9)
EDIT(e_cond_errno, s->conds[2].action.errno_nr = 13)
EDIT(e_cmp_arg, s->cmps[0].arg = 6)
EDIT(e_cmp_op, s->cmps[0].op = 8)
EDIT(e_cmp_mask, s->cmps[0].mask = 1)

#define ST "blob: section "
static struct pcase pcases[] = {
    {"arch", e_arch, "blob: unknown arch 0x00000003"},
    {"requirements", e_req, "blob: unknown requirement bits 0x100000"},
    {"policy name empty", e_name_empty, ST "0 (meta): policy name is empty"},
    {"policy name char", e_name_char,
     ST "0 (meta): policy name contains a character outside "
	"[A-Za-z0-9_-]"},
    {"policy name long", e_name_long,
     ST "0 (meta): policy name is longer than 255 bytes"},
    {"compiler version empty", e_ver_empty,
     ST "0 (meta): compiler version is empty"},
    {"compiler version escape", e_ver_ctrl,
     ST "0 (meta): compiler version is not printable"},
    {"compiler version utf-8", e_ver_high,
     ST "0 (meta): compiler version is not printable"},
    {"compiler version long", e_ver_long,
     ST "0 (meta): compiler version is longer than 255 bytes"},
    {"uid", e_uid,
     ST "1 (identity): uid 65535 or gid 1001 is outside "
	"0..65534"},
    {"gid", e_gid,
     ST "1 (identity): uid 1000 or gid 4294967295 is outside 0..65534"},
    {"caps 41", e_caps, ST "1 (identity): unknown capability bits above 40"},
    {"caps 63", e_caps_top,
     ST "1 (identity): unknown capability bits above 40"},
    {"hostname long", e_host_long,
     ST "1 (identity): hostname is longer than 64 bytes"},
    {"hostname char", e_host_char,
     ST "1 (identity): hostname contains a character outside "
	"[A-Za-z0-9.-]"},
    {"hostname newline", e_host_nl,
     ST "1 (identity): hostname contains a character outside "
	"[A-Za-z0-9.-]"},
    {"workdir relative", e_workdir_rel,
     ST "1 (identity): workdir is not absolute"},
    {"workdir dotdot", e_workdir_dotdot,
     ST "1 (identity): workdir has a . or .. component"},
    {"env name empty", e_env_empty, ST "2 (env) entry 1: name is empty"},
    {"env name =", e_env_eq, ST "2 (env) entry 1: name contains '='"},
    {"env duplicate", e_env_dup,
     ST "2 (env) entry 2: duplicate name (entry 0 has it too)"},
    {"env duplicate inherit", e_env_dup_inherit,
     ST "2 (env) entry 4: duplicate name (entry 3 has it too)"},
    {"env too long", e_env_long,
     ST "2 (env) entry 0: NAME=VALUE is longer than 131071 bytes"},
    {"env value too long", e_env_longer,
     ST "2 (env) entry 0: value is longer than 131072 bytes"},
    {"dst relative", e_dst_rel,
     ST "3 (mounts) entry 2: destination is not absolute"},
    {"dst empty", e_dst_empty,
     ST "3 (mounts) entry 2: destination is not absolute"},
    {"dst trailing /", e_dst_trailing,
     ST "3 (mounts) entry 2: destination has a trailing /"},
    {"dst //", e_dst_dslash, ST "3 (mounts) entry 2: destination contains //"},
    {"dst leading //", e_dst_lead_dslash,
     ST "3 (mounts) entry 2: destination contains //"},
    {"dst .", e_dst_dot,
     ST "3 (mounts) entry 2: destination has a . or .. component"},
    {"dst ..", e_dst_dotdot,
     ST "3 (mounts) entry 2: destination has a . or .. component"},
    {"dst ending ..", e_dst_enddot,
     ST "3 (mounts) entry 2: destination has a . or .. component"},
    {"dst /.", e_dst_firstdot,
     ST "3 (mounts) entry 2: destination has a . or .. component"},
    {"dst long", e_dst_long,
     ST "3 (mounts) entry 2: destination is longer than 4095 bytes"},
    {"root dst", e_root_dst,
     ST "3 (mounts) entry 0: the first mount is not the root tmpfs \"/\""},
    {"root kind", e_root_kind,
     ST "3 (mounts) entry 0: the first mount is not the root tmpfs \"/\""},
    {"no mounts", e_no_mounts,
     ST "3 (mounts): no mounts: the root tmpfs \"/\" is missing"},
    {"second root", e_dup_root,
     ST "3 (mounts) entry 5: duplicate destination (entry 0 has it too)"},
    {"duplicate dst", e_dup_dst,
     ST "3 (mounts) entry 3: duplicate destination (entry 1 has it too)"},
    {"mount kind 0", e_kind0, ST "3 (mounts) entry 4: unknown mount kind 0"},
    {"mount kind 9", e_kind9, ST "3 (mounts) entry 4: unknown mount kind 9"},
    {"mount flags", e_mflags, ST "3 (mounts) entry 4: unknown flag bits 0x8"},
    {"optional tmpfs", e_optional,
     ST "3 (mounts) entry 3: optional on a tmpfs mount"},
    {"optional slot", e_optional_slot,
     ST "3 (mounts) entry 10: optional on a slot mount"},
    {"size proc", e_size_proc, ST "3 (mounts) entry 4: size 1 on a proc mount"},
    {"size bind", e_size_bind,
     ST "3 (mounts) entry 1: size 4096 on a bind mount"},
    {"tmpfs size 0", e_size0, ST "3 (mounts) entry 3: size 0 on a tmpfs mount"},
    {"mode too big", e_mode_big,
     ST "3 (mounts) entry 3: mode 010000 on a tmpfs mount"},
    {"mode bind", e_mode_bind,
     ST "3 (mounts) entry 1: mode 0644 on a bind mount"},
    {"mode symlink", e_mode_symlink,
     ST "3 (mounts) entry 9: mode 0777 on a symlink mount"},
    {"bind src relative", e_src_rel,
     ST "3 (mounts) entry 1: source is not absolute"},
    {"bind src missing", e_src_null,
     ST "3 (mounts) entry 1: source is not absolute"},
    {"bind src ..", e_src_dotdot,
     ST "3 (mounts) entry 1: source has a . or .. component"},
    {"slot name char", e_slot_char,
     ST "3 (mounts) entry 10: slot name contains a character outside "
	"[A-Za-z0-9_-]"},
    {"slot name empty", e_slot_empty,
     ST "3 (mounts) entry 10: slot name is empty"},
    {"slot name =", e_slot_eq,
     ST "3 (mounts) entry 10: slot name contains a character outside "
	"[A-Za-z0-9_-]"},
    {"link target empty", e_link_empty,
     ST "3 (mounts) entry 9: link target is empty"},
    {"link target long", e_link_long,
     ST "3 (mounts) entry 9: link target is longer than 4095 bytes"},
    {"proc with source", e_src_proc,
     ST "3 (mounts) entry 4: this kind of mount takes no source or "
	"contents"},
    {"tmpfs with source", e_src_tmpfs,
     ST "3 (mounts) entry 3: this kind of mount takes no source or "
	"contents"},
    {"limit key 28", e_lim_key, ST "4 (limits) entry 28: unknown limit key 28"},
    {"limit key 63", e_lim_key63,
     ST "4 (limits) entry 0: unknown limit key 63"},
    {"net mode", e_net_mode, ST "5 (network): unknown network mode 2"},
    {"net none with rules", e_net_none,
     ST "5 (network): net none with 4 rules and 3 hosts"},
    {"net none with hosts", e_net_none_hosts,
     ST "5 (network): net none with 0 rules and 3 hosts"},
    {"protocol", e_proto, ST "5 (network) rule 0: unknown protocol 1"},
    {"family", e_family, ST "5 (network) rule 0: unknown address family 5"},
    {"prefix v4", e_prefix4,
     ST "5 (network) rule 0: prefix /33 is longer than 32"},
    {"prefix v6", e_prefix6,
     ST "5 (network) rule 2: prefix /129 is longer than 128"},
    {"host bits v4", e_hostbits,
     ST "5 (network) rule 1: address has bits set past its /8 prefix"},
    {"host bits v6", e_hostbits6,
     ST "5 (network) rule 2: address has bits set past its /32 prefix"},
    {"v4 tail", e_v4tail,
     ST "5 (network) rule 0: IPv4 address tail is not zero"},
    {"port 0", e_port0,
     ST "5 (network) rule 0: port range 0-443 is not within 1..65535 in "
	"order"},
    {"port order", e_port_order,
     ST "5 (network) rule 0: port range 444-443 is not within 1..65535 "
	"in order"},
    {"host name empty", e_hname_empty,
     ST "5 (network) host 1: host name is empty"},
    {"host name char", e_hname_char,
     ST "5 (network) host 1: host name contains a character outside "
	"[A-Za-z0-9._-]"},
    {"host name long", e_hname_long,
     ST "5 (network) host 1: host name is longer than 253 bytes"},
    {"host family", e_hfamily,
     ST "5 (network) host 2: unknown address family 0"},
    {"host v4 tail", e_hv4tail,
     ST "5 (network) host 2: IPv4 address tail is not zero"},
    {"seccomp arch", e_sc_arch,
     ST "6 (seccomp) program 0: program arch 0xc00000b7 is not the "
	"header's 0xc000003e"},
    {"seccomp empty", e_sc_zero,
     ST "6 (seccomp) program 0: 0 instructions, not within 1..4096"},
    {"seccomp too long", e_sc_many,
     ST "6 (seccomp) program 0: 4097 instructions, not within 1..4096"},
    {"default action", e_def_kind, ST "7 (rules): unknown action 5"},
    {"default errno 0", e_def_errno0,
     ST "7 (rules): errno 0 with action 2 (errno takes 1..4095)"},
    {"default errno 4096", e_def_errno_big,
     ST "7 (rules): errno 4096 with action 2 (errno takes 1..4095)"},
    {"allow with errno", e_def_errno_allow,
     ST "7 (rules): errno 1 with action 0 (errno takes 1..4095)"},
    {"errno through the broker", e_def_via_errno,
     ST "7 (rules): action 2 with via 3"},
    {"kill recorded", e_def_via_kill, ST "7 (rules): action 4 with via 1"},
    {"unknown via", e_def_via_big, ST "7 (rules): action 0 with via 6"},
    {"observe mask", e_def_observe_mask,
     ST "7 (rules): errno 64 with action 0 (errno takes 1..4095)"},
    {"syscall nr negative", e_nr_neg,
     ST "7 (rules) syscall 0: number -1 is negative or not above the "
	"previous one"},
    {"syscall nr repeated", e_nr_order,
     ST "7 (rules) syscall 2: number 1 is negative or not above the "
	"previous one"},
    {"syscall nr descending", e_nr_desc,
     ST "7 (rules) syscall 3: number 2 is negative or not above the "
	"previous one"},
    {"fallback without flag", e_fallback,
     ST "7 (rules) syscall 1: fallback action without the flag"},
    {"syscall name empty", e_sys_name_empty,
     ST "7 (rules) syscall 1: name is empty"},
    {"syscall name char", e_sys_name_char,
     ST "7 (rules) syscall 1: name contains a character outside "
	"[A-Za-z0-9_]"},
    {"syscall name long", e_sys_name_long,
     ST "7 (rules) syscall 1: name is longer than 63 bytes"},
    {"no comparisons", e_no_cmps,
     ST "7 (rules) syscall 1 condition 0: no comparisons"},
    {"condition action", e_cond_action,
     ST "7 (rules) syscall 2 condition 1: unknown action 9"},
    {"condition errno", e_cond_errno,
     ST "7 (rules) syscall 2 condition 1: errno 13 with action 1 (errno "
	"takes 1..4095)"},
    {"cmp arg", e_cmp_arg,
     ST "7 (rules) syscall 1 condition 0 comparison 0: argument index 6 "
	"is not within 0..5"},
    {"cmp op", e_cmp_op,
     ST "7 (rules) syscall 1 condition 0 comparison 0: unknown "
	"comparison 8"},
    {"cmp mask", e_cmp_mask,
     ST "7 (rules) syscall 1 condition 0 comparison 0: mask on an "
	"unmasked comparison"},
};

/* Write the edited policy unchecked: the reader refuses it with msg, and
 * the checked writer refuses it with the same words. */
static void test_pcase(void **state)
{
	const struct pcase *c = *state;
	struct scratch s;
	size_t len;
	_cleanup_free_ uint8_t *buf = NULL, *out = NULL;
	char want[WARD_ERR_MSG_MAX];
	ward_err err = {0};

	scratch_init(&s);
	c->edit(&s);
	buf = write_unchecked(&s.p, &len);
	read_fails(buf, len, 0, c->msg);
	assert_int_equal(ward_blob_write(&s.p, &out, &len, &err), -1);
	snprintf(want, sizeof(want),
		 "blob: the policy fails the reader's checks: %s",
		 c->msg + strlen("blob: "));
	assert_string_equal(err.msg, want);
	assert_null(out);
	free(s.owned);
}

/* Every limit just below and just above its range (docs/spec.md 1.7.5),
 * and at both ends. */
static const struct {
	const char *name;
	uint64_t min, max;
} ranges[WARD_LIM_COUNT] = {
    {"memory", 1ull << 20, 1ull << 40},
    {"swap", 0, 1ull << 40},
    {"cpu", 10, 1024000},
    {"pids", 1, 4194304},
    {"wall", 1, 7 * 86400000ull},
    {"grace", 0, 3600000},
    {"cputime", 1000, 7 * 86400000ull},
    {"nofile", 1, 1048576},
    {"filesize", 0, 1ull << 40},
    {"nproc", 1, 4194304},
    {"stack", 64 << 10, 1ull << 30},
    {"memlock", 0, 1ull << 30},
    {"core", 0, 1ull << 40},
    {"stdout", 0, 1ull << 40},
    {"stderr", 0, 1ull << 40},
    {"output", 0, 1ull << 40},
    {"sigpending", 0, 4194304},
    {"msgqueue", 0, 1ull << 30},
    {"inotify-instances", 0, 65536},
    {"inotify-watches", 0, 16777216},
    {"fanotify-groups", 0, 65536},
    {"fanotify-marks", 0, 16777216},
    {"slot-size", 1ull << 20, 1ull << 40},
    {"oom", 0, 1},
    {"stdout-mode", 0, 1},
    {"stderr-mode", 0, 1},
    {"stdout-at-cap", 0, 1},
    {"stderr-at-cap", 0, 1},
};

static void limit_fails(int k, uint64_t v)
{
	struct scratch s;
	size_t len;
	_cleanup_free_ uint8_t *buf = NULL;
	char want[200];

	scratch_init(&s);
	s.p.limits.value[k] = v;
	buf = write_unchecked(&s.p, &len);
	snprintf(want, sizeof(want),
		 "blob: section 4 (limits) entry %d: limit %s = %llu is "
		 "outside %llu..%llu",
		 k, ranges[k].name, (unsigned long long)v,
		 (unsigned long long)ranges[k].min,
		 (unsigned long long)ranges[k].max);
	read_fails(buf, len, 0, want);
}

static void test_limit_ranges(void **state)
{
	for (int k = 0; k < WARD_LIM_COUNT; k++) {
		struct scratch s;

		if (ranges[k].min > 0)
			limit_fails(k, ranges[k].min - 1);
		limit_fails(k, ranges[k].max + 1);
		limit_fails(k, UINT64_MAX);
		scratch_init(&s);
		s.p.limits.value[k] = ranges[k].min;
		round_trip(&s.p);
		s.p.limits.value[k] = ranges[k].max;
		round_trip(&s.p);
	}
}

/* The exec section (type 12): written only with a flag, read back, and
 * refused with an unknown flag or with none. */
static void test_exec_section(void **state)
{
	struct ward_policy p = *ward_test_policy_rich();
	size_t len, plain_len;
	_cleanup_free_ uint8_t *plain = NULL;
	_cleanup_free_ uint8_t *buf = NULL, *bad = NULL;
	struct ward_blob b;
	char want[160];
	unsigned last;

	/* Without the landlock section, exec is the last. */
	p.landlock = (struct ward_landlock){0};
	p.requirements &= ~(uint32_t)WARD_REQ_LANDLOCK;
	plain = write_ok(&p, &plain_len);
	p.exec = WARD_EXEC_MEMFD;
	buf = write_ok(&p, &len);
	assert_int_equal(len, plain_len + 24 + 8);
	last = ward_le16(buf + 10) - 1;
	assert_int_equal(ward_le32(buf + DIR(last)), 12);
	assert_int_equal(sec_len(buf, last), 8);
	read_ok(buf, len, 0, &b);
	assert_int_equal(b.policy.exec, WARD_EXEC_MEMFD);
	ward_blob_release(&b);
	round_trip(&p);
	bad = dup_exact(buf, len);
	ward_test_st32(bad + sec_off(bad, last), 0);
	ward_test_blob_fix(bad, len);
	snprintf(want, sizeof(want),
		 "blob: section %u (exec): no exec flag set (the section is "
		 "left out then)",
		 last);
	read_fails(bad, len, 0, want);
	ward_test_st32(bad + sec_off(bad, last), 3);
	ward_test_blob_fix(bad, len);
	snprintf(want, sizeof(want),
		 "blob: section %u (exec): unknown exec flags 0x2", last);
	read_fails(bad, len, 0, want);
}

/* Only the set limits are stored. */
static void test_limits_sparse(void **state)
{
	struct scratch s;
	size_t len;
	_cleanup_free_ uint8_t *buf = NULL;

	scratch_init(&s);
	s.p.limits.set = (1u << WARD_LIM_WALL) | (1u << WARD_LIM_OUTPUT);
	buf = write_ok(&s.p, &len);
	assert_int_equal(sec_len(buf, 4), 8 + 2 * 16);
	round_trip(&s.p);
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
	static const struct CMUnitTest fixed[] = {
	    cmocka_unit_test(test_sha256_vectors),
	    cmocka_unit_test(test_sha256_incremental),
	    cmocka_unit_test(test_hex),
	    cmocka_unit_test(test_round_trip_rich),
	    cmocka_unit_test(test_round_trip_minimal),
	    cmocka_unit_test(test_round_trip_aarch64),
	    cmocka_unit_test(test_round_trip_limits_of_ranges),
	    cmocka_unit_test(test_deterministic),
	    cmocka_unit_test(test_layout),
	    cmocka_unit_test(test_flip_with_digest_fixed),
	    cmocka_unit_test(test_flip_refused),
	    cmocka_unit_test(test_truncated_everywhere),
	    cmocka_unit_test(test_refuse_header),
	    cmocka_unit_test(test_refuse_arch),
	    cmocka_unit_test(test_refuse_header_fields),
	    cmocka_unit_test(test_refuse_directory),
	    cmocka_unit_test(test_refuse_section_types),
	    cmocka_unit_test(test_unknown_sections),
	    cmocka_unit_test(test_missing_sections),
	    cmocka_unit_test(test_rules_optional),
	    cmocka_unit_test(test_refuse_strings),
	    cmocka_unit_test(test_refuse_huge_counts),
	    cmocka_unit_test(test_refuse_trailing_and_reserved),
	    cmocka_unit_test(test_refuse_env_flags),
	    cmocka_unit_test(test_refuse_limit_order),
	    cmocka_unit_test(test_refuse_file_contents_bound),
	    cmocka_unit_test(test_limit_ranges),
	    cmocka_unit_test(test_limits_sparse),
	    cmocka_unit_test(test_exec_section),
	};
	size_t nf = ARRAY_LEN(fixed), np = ARRAY_LEN(pcases);
	_cleanup_free_ struct CMUnitTest *tests = NULL;

	if (argc == 3 && !strcmp(argv[1], "--write-corpus")) {
		ward_err err;
		int n = ward_test_blob_write_corpus(argv[2], &err);
		if (n < 0) {
			fprintf(stderr, "test_blob: %s\n", err.msg);
			return 1;
		}
		printf("wrote %d seeds into %s\n", n, argv[2]);
		return 0;
	}
	tests = calloc(nf + np, sizeof(*tests));
	if (!tests)
		return 1;
	memcpy(tests, fixed, sizeof(fixed));
	for (size_t i = 0; i < np; i++)
		tests[nf + i] = (struct CMUnitTest){
		    .name = pcases[i].name,
		    .test_func = test_pcase,
		    .initial_state = &pcases[i],
		};
	return _cmocka_run_group_tests("blob", tests, nf + np, NULL, NULL);
}
