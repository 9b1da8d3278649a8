/* SPDX-License-Identifier: MIT */
/*
 * test_import.c: `wardc import` (compiler/interop/import.h).
 *
 * The round trip: each profile (tests/export/NAME.json) is imported, the
 * policy compiled through the compiler's own path (ward_driver_compile),
 * and its seccomp program run in the oracle's interpreter for every
 * syscall number of x86_64, with argument vectors that hit and miss each
 * comparison of the profile. Every answer must be what the profile means,
 * as this file reads it on its own (libyaml's document API, libseccomp's
 * syscall names, glibc's errno names; nothing of the importer):
 *
 *   - entries whose includes/excludes rule them out for a container
 *     without capabilities on amd64 do not apply; nor do entries whose
 *     action is the default's (runtimes skip them);
 *   - an unconditional entry for a syscall decides it (the first one);
 *     otherwise the conditional entries that match must agree (a fixture
 *     whose entries overlap with different actions is a broken fixture);
 *     comparisons are ANDed, or ORed when one argument is tested twice;
 *   - actions as ward maps them: KILL and KILL_THREAD kill the process,
 *     TRACE and NOTIFY answer ENOSYS (no tracer, no listener).
 *
 * The imported texts are compared with tests/export/NAME.ward.expected
 * (WARD_REGEN=1 rewrites them); malformed profiles give exact messages.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <yaml.h>

#include <cmocka.h>

#include "blob_read.h"
#include "bpf_run.h"
#include "driver.h"
#include "import.h"
#include "policy.h"
#include "tests/oracle/random_rules.h"
#include "tests/oracle/rules_eval.h"

#define MAX_ENTRIES  64
#define MAX_NAMES    64
#define RET_ERRNO(e) (SECCOMP_RET_ERRNO | (e))

static const char *fixtures[] = {
    "default-deny", "errno-ret",   "args",    "default-allow",
    "caps",	    "oci-seccomp", "escapes", "sample.oci",
};

/* ------------------------------------------- the profile, read on its own */

struct pcmp {
	unsigned index;
	char op[24];
	uint64_t value, value_two;
};

struct pentry {
	char names[MAX_NAMES][40];
	int nnames;
	uint32_t ret; /* what the action returns, as ward maps it */
	uint32_t raw; /* the action as written, to skip the default's */
	struct pcmp cmps[6];
	int ncmps;
	bool applies;
};

struct profile {
	uint32_t dflt, dflt_raw;
	struct pentry e[MAX_ENTRIES];
	int n;
};

static yaml_node_t *get(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		if (!strcmp((char *)k->data.scalar.value, key))
			return yaml_document_get_node(d, p->value);
	}
	return NULL;
}

static const char *str(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (char *)n->data.scalar.value
						: NULL;
}

static bool present(yaml_node_t *n)
{
	return n && !(n->type == YAML_SCALAR_NODE && !strcmp(str(n), "null"));
}

static uint64_t num(yaml_node_t *n)
{
	return present(n) ? strtoull(str(n), NULL, 10) : 0;
}

static bool list_has(yaml_document_t *d, yaml_node_t *l, const char *s)
{
	if (!l || l->type != YAML_SEQUENCE_NODE)
		return false;
	for (yaml_node_item_t *i = l->data.sequence.items.start;
	     i < l->data.sequence.items.top; i++)
		if (!strcmp(str(yaml_document_get_node(d, *i)), s))
			return true;
	return false;
}

static size_t list_len(yaml_node_t *l)
{
	return l && l->type == YAML_SEQUENCE_NODE
		   ? (size_t)(l->data.sequence.items.top -
			      l->data.sequence.items.start)
		   : 0;
}

static int errno_by_name(const char *name)
{
	for (int e = 1; e < 200; e++) {
		const char *n = strerrorname_np(e);
		if (n && !strcmp(n, name))
			return e;
	}
	fail_msg("errno name %s", name);
	return 0;
}

/* The return value and the libseccomp-style action of an action. */
static void action(yaml_node_t *a, yaml_node_t *ret, yaml_node_t *name,
		   uint32_t *out, uint32_t *raw)
{
	const char *s = str(a);
	uint32_t e = present(ret)    ? (uint32_t)num(ret)
		     : present(name) ? (uint32_t)errno_by_name(str(name))
				     : EPERM;
	if (!strcmp(s, "SCMP_ACT_ALLOW"))
		*out = SECCOMP_RET_ALLOW, *raw = SCMP_ACT_ALLOW;
	else if (!strcmp(s, "SCMP_ACT_LOG"))
		*out = SECCOMP_RET_LOG, *raw = SCMP_ACT_LOG;
	else if (!strcmp(s, "SCMP_ACT_TRAP"))
		*out = SECCOMP_RET_TRAP, *raw = SCMP_ACT_TRAP;
	else if (!strcmp(s, "SCMP_ACT_KILL_PROCESS"))
		*out = SECCOMP_RET_KILL_PROCESS, *raw = SCMP_ACT_KILL_PROCESS;
	else if (!strcmp(s, "SCMP_ACT_KILL") ||
		 !strcmp(s, "SCMP_ACT_KILL_THREAD"))
		*out = SECCOMP_RET_KILL_PROCESS, *raw = SCMP_ACT_KILL_THREAD;
	else if (!strcmp(s, "SCMP_ACT_TRACE"))
		*out = RET_ERRNO(ENOSYS),
		*raw = SCMP_ACT_TRACE(present(ret) ? e : 0);
	else if (!strcmp(s, "SCMP_ACT_NOTIFY"))
		*out = RET_ERRNO(ENOSYS), *raw = SCMP_ACT_NOTIFY;
	else if (!strcmp(s, "SCMP_ACT_ERRNO"))
		*out = RET_ERRNO(e), *raw = SCMP_ACT_ERRNO(e);
	else
		fail_msg("action %s", s);
}

static void read_profile(const char *path, struct profile *p)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	yaml_parser_t ps;
	yaml_document_t d;
	assert_true(yaml_parser_initialize(&ps));
	yaml_parser_set_input_file(&ps, f);
	assert_true(yaml_parser_load(&ps, &d));
	yaml_node_t *root = yaml_document_get_root_node(&d);
	if (get(&d, root, "linux"))
		root = get(&d, get(&d, root, "linux"), "seccomp");
	memset(p, 0, sizeof(*p));
	action(get(&d, root, "defaultAction"), get(&d, root, "defaultErrnoRet"),
	       get(&d, root, "defaultErrno"), &p->dflt, &p->dflt_raw);
	yaml_node_t *sc = get(&d, root, "syscalls");
	for (yaml_node_item_t *i = sc->data.sequence.items.start;
	     i < sc->data.sequence.items.top; i++) {
		yaml_node_t *n = yaml_document_get_node(&d, *i);
		struct pentry *e = &p->e[p->n++];
		assert_true(p->n <= MAX_ENTRIES);
		yaml_node_t *names = get(&d, n, "names");
		if (present(names)) {
			for (yaml_node_item_t *k =
				 names->data.sequence.items.start;
			     k < names->data.sequence.items.top; k++)
				snprintf(e->names[e->nnames++], 40, "%s",
					 str(yaml_document_get_node(&d, *k)));
		} else {
			snprintf(e->names[e->nnames++], 40, "%s",
				 str(get(&d, n, "name")));
		}
		action(get(&d, n, "action"), get(&d, n, "errnoRet"),
		       get(&d, n, "errno"), &e->ret, &e->raw);
		yaml_node_t *args = get(&d, n, "args");
		for (size_t k = 0; k < list_len(args); k++) {
			yaml_node_t *a = yaml_document_get_node(
			    &d, args->data.sequence.items.start[k]);
			struct pcmp *c = &e->cmps[e->ncmps++];
			c->index = (unsigned)num(get(&d, a, "index"));
			c->value = num(get(&d, a, "value"));
			c->value_two = num(get(&d, a, "valueTwo"));
			snprintf(c->op, sizeof(c->op), "%s",
				 str(get(&d, a, "op")));
		}
		yaml_node_t *inc = get(&d, n, "includes");
		yaml_node_t *exc = get(&d, n, "excludes");
		yaml_node_t *ia = get(&d, inc, "arches");
		e->applies = list_len(get(&d, inc, "caps")) == 0 &&
			     (list_len(ia) == 0 || list_has(&d, ia, "amd64")) &&
			     !list_has(&d, get(&d, exc, "arches"), "amd64") &&
			     !present(get(&d, exc, "minKernel"));
	}
	yaml_document_delete(&d);
	yaml_parser_delete(&ps);
	fclose(f);
}

static bool cmp_holds(const struct pcmp *c, const uint64_t args[6])
{
	uint64_t a = args[c->index];
	if (!strcmp(c->op, "SCMP_CMP_EQ"))
		return a == c->value;
	if (!strcmp(c->op, "SCMP_CMP_NE"))
		return a != c->value;
	if (!strcmp(c->op, "SCMP_CMP_LT"))
		return a < c->value;
	if (!strcmp(c->op, "SCMP_CMP_LE"))
		return a <= c->value;
	if (!strcmp(c->op, "SCMP_CMP_GT"))
		return a > c->value;
	if (!strcmp(c->op, "SCMP_CMP_GE"))
		return a >= c->value;
	if (!strcmp(c->op, "SCMP_CMP_MASKED_EQ"))
		return (a & c->value) == c->value_two;
	fail_msg("op %s", c->op);
	return false;
}

static bool entry_matches(const struct pentry *e, const uint64_t args[6])
{
	bool twice = false;
	for (int i = 0; i < e->ncmps; i++)
		for (int j = 0; j < i; j++)
			twice |= e->cmps[i].index == e->cmps[j].index;
	for (int i = 0; i < e->ncmps; i++) {
		bool h = cmp_holds(&e->cmps[i], args);
		if (twice && h)
			return true;
		if (!twice && !h)
			return false;
	}
	return !twice;
}

#define AMBIGUOUS 0xa3b16000u

/* What the profile answers for syscall `name` with args. */
static uint32_t profile_eval(const struct profile *p, const char *name,
			     const uint64_t args[6])
{
	uint32_t found = 0;
	bool any = false;
	if (!name)
		return p->dflt;
	for (int i = 0; i < p->n; i++) {
		const struct pentry *e = &p->e[i];
		bool named = false;
		for (int k = 0; k < e->nnames; k++)
			named |= !strcmp(e->names[k], name);
		if (!named || !e->applies || e->raw == p->dflt_raw || e->ncmps)
			continue;
		return e->ret; /* the first unconditional entry */
	}
	for (int i = 0; i < p->n; i++) {
		const struct pentry *e = &p->e[i];
		bool named = false;
		for (int k = 0; k < e->nnames; k++)
			named |= !strcmp(e->names[k], name);
		if (!named || !e->applies || e->raw == p->dflt_raw ||
		    !entry_matches(e, args))
			continue;
		if (any && found != e->ret)
			return AMBIGUOUS;
		found = e->ret;
		any = true;
	}
	return any ? found : p->dflt;
}

/* ------------------------------------------------------------ importing */

static const char *incdirs[] = {"stdlib-policies"};

/* Import path; returns the text (malloc'd) or NULL with *err filled. */
static char *import_file(const char *path, struct ward_notes *warnings,
			 ward_err *err)
{
	uint8_t *data = NULL;
	size_t len = 0;
	assert_int_equal(ward_read_file(path, 1u << 24, &data, &len), 0);
	struct ward_import_opts o = {.arch = WARD_ARCH_X86_64,
				     .source = path,
				     .incdirs = incdirs,
				     .nincdirs = 1};
	char *text = NULL;
	int rc = ward_import_docker((const char *)data, len, &o, &text,
				    warnings, err);
	free(data);
	return rc == 0 ? text : NULL;
}

static char *import_text(const char *json, struct ward_notes *warnings,
			 ward_err *err)
{
	struct ward_import_opts o = {.arch = WARD_ARCH_X86_64,
				     .source = "x.json",
				     .incdirs = incdirs,
				     .nincdirs = 1};
	char *text = NULL;
	if (ward_import_docker(json, strlen(json), &o, &text, warnings, err) <
	    0)
		return NULL;
	return text;
}

static int strictness(uint32_t r);

/* `net none` (no net section) refuses socket() but for AF_UNIX (docs/
 * spec.md 5.3): does it refuse this call? */
static bool net_refuses(const uint64_t args[6])
{
	return args[0] != AF_UNIX;
}

/* Compile policy text through the compiler's own path; the program. */
static struct sock_filter *compile_text(const char *text, uint32_t *n)
{
	char path[] = "/tmp/ward-import-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	FILE *null = fopen("/dev/null", "w");
	struct ward_opts o = {.incdirs = incdirs,
			      .nincdirs = 1,
			      .arch = WARD_ARCH_X86_64,
			      .format = WARD_DIAG_TEXT,
			      .color = WARD_COLOR_NEVER,
			      .diag_out = null};
	uint8_t *blob = NULL;
	size_t len = 0;
	int rc = ward_driver_compile(path, &o, &blob, &len);
	fclose(null);
	unlink(path);
	if (rc != WARDC_OK)
		fail_msg("the imported policy does not compile:\n%s", text);
	struct ward_blob b;
	ward_err err = {0};
	assert_int_equal(ward_blob_read(blob, len, 0, &b, &err), 0);
	*n = b.policy.seccomp.ninsns;
	struct sock_filter *p = malloc(*n * sizeof(*p));
	assert_non_null(p);
	memcpy(p, b.policy.seccomp.insns, *n * sizeof(*p));
	ward_blob_release(&b);
	free(blob);
	return p;
}

static uint32_t run(const struct sock_filter *p, uint32_t n, uint32_t arch,
		    int32_t nr, const uint64_t args[6])
{
	struct seccomp_data d = {.nr = nr, .arch = arch};
	int fault;
	memcpy(d.args, args, sizeof(d.args));
	uint32_t r = ward_bpf_run(p, n, &d, &fault, NULL);
	return fault ? 0xdeadbeef : r;
}

/* ------------------------------------------------------------ round trip */

static void add_val(uint64_t *v, unsigned *n, uint64_t x)
{
	for (unsigned i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	if (*n < 32)
		v[(*n)++] = x;
}

struct trip {
	const struct profile *p;
	const struct sock_filter *prog;
	uint32_t n;
	unsigned calls, bad;
};

/* The seccomp answers in the language's order of strictness. */
static int strictness(uint32_t r)
{
	switch (r & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ALLOW:
		return 0;
	case SECCOMP_RET_LOG:
		return 1;
	case SECCOMP_RET_ERRNO:
		return 2 + (4096 - (int)(r & SECCOMP_RET_DATA));
	case SECCOMP_RET_TRAP:
		return 5000;
	}
	return 6000;
}

static void trip_check(struct trip *t, int32_t nr, const char *name,
		       const uint64_t args[6])
{
	uint32_t want = profile_eval(t->p, name, args);
	/* What the broker answers: a kill kills the sandbox, a recorded
	 * refusal is its errno (docs/spec.md 4.6) */
	uint32_t got =
	    rules_eval_answer(run(t->prog, t->n, AUDIT_ARCH_X86_64, nr, args));
	if (want == AMBIGUOUS)
		fail_msg("the fixture is ambiguous for %s", name);
	/* `net none` narrows what the profile allows of socket(): with the
	 * default's refusal when that refuses, else EAFNOSUPPORT */
	if (nr == 41 && net_refuses(args) && strictness(want) < 2)
		want = strictness(t->p->dflt) >= 2
			   ? t->p->dflt
			   : SECCOMP_RET_ERRNO | EAFNOSUPPORT;
	t->calls++;
	if (got != want && t->bad++ < 5)
		fprintf(stderr,
			"  %s(0x%llx, 0x%llx, 0x%llx): policy 0x%08x, "
			"profile 0x%08x\n",
			name, (unsigned long long)args[0],
			(unsigned long long)args[1],
			(unsigned long long)args[2], got, want);
}

static void round_trip(const char *name)
{
	char path[128], expected[128];
	snprintf(path, sizeof(path), "tests/export/%s.json", name);
	snprintf(expected, sizeof(expected), "tests/export/%s.ward.expected",
		 name);
	struct ward_pool *pool = ward_pool_new();
	struct ward_notes warnings = {.pool = pool};
	ward_err err = {0};
	char *text = import_file(path, &warnings, &err);
	if (!text)
		fail_msg("%s: %s", path, err.msg);

	if (getenv("WARD_REGEN")) {
		FILE *f = fopen(expected, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	}
	uint8_t *want = NULL;
	size_t wlen = 0;
	if (ward_read_file(expected, 1u << 20, &want, &wlen) < 0)
		fail_msg("cannot read %s (WARD_REGEN=1 writes it)", expected);
	if (wlen != strlen(text) || memcmp(want, text, wlen)) {
		fprintf(stderr, "---- got:\n%s", text);
		fail_msg("%s differs (WARD_REGEN=1 rewrites it)", expected);
	}
	free(want);

	struct profile *p = calloc(1, sizeof(*p));
	assert_non_null(p);
	read_profile(path, p);
	struct trip t = {.p = p};
	t.prog = compile_text(text, &t.n);
	uint64_t rng = 5, args[6];
	for (int32_t nr = 0; nr < 1024; nr++) {
		char *sys =
		    seccomp_syscall_resolve_num_arch(WARD_ARCH_X86_64, nr);
		memset(args, 0, sizeof(args));
		trip_check(&t, nr, sys, args);
		for (int a = 0; a < 6; a++)
			args[a] = rr_next(&rng);
		trip_check(&t, nr, sys, args);
		if (!sys)
			continue;
		/* the values the profile compares this syscall's arguments
		 * with, their neighbours and masks */
		uint64_t vals[6][32];
		unsigned nv[6] = {0};
		for (int a = 0; a < 6; a++) {
			add_val(vals[a], &nv[a], 0);
			add_val(vals[a], &nv[a], UINT64_MAX);
		}
		for (int i = 0; i < p->n; i++) {
			bool named = false;
			for (int k = 0; k < p->e[i].nnames; k++)
				named |= !strcmp(p->e[i].names[k], sys);
			for (int c = 0; named && c < p->e[i].ncmps; c++) {
				const struct pcmp *pc = &p->e[i].cmps[c];
				uint64_t *v = vals[pc->index];
				unsigned *n = &nv[pc->index];
				add_val(v, n, pc->value);
				add_val(v, n, pc->value - 1);
				add_val(v, n, pc->value + 1);
				add_val(v, n, pc->value_two);
				add_val(v, n, pc->value_two | ~pc->value);
				add_val(v, n, pc->value_two ^ 1);
				add_val(v, n, pc->value_two | (1ull << 40));
			}
		}
		uint64_t combos = 1;
		for (int a = 0; a < 6; a++)
			combos *= nv[a];
		if (combos == 64) /* no comparison: zero and ~0 everywhere */
			combos = 0;
		if (combos && combos <= 4096) {
			/* the whole cross product */
			for (uint64_t k = 0; k < combos; k++) {
				uint64_t r = k;
				for (int a = 0; a < 6; a++) {
					args[a] = vals[a][r % nv[a]];
					r /= nv[a];
				}
				trip_check(&t, nr, sys, args);
			}
		}
		for (unsigned k = 0; combos > 4096 && k < 4096; k++) {
			for (int a = 0; a < 6; a++)
				args[a] = vals[a][rr_below(&rng, nv[a])];
			trip_check(&t, nr, sys, args);
		}
		free(sys);
	}
	/* the x32 ABI and i386 are killed, whatever the profile listed */
	memset(args, 0, sizeof(args));
	assert_int_equal(run(t.prog, t.n, AUDIT_ARCH_X86_64, 0x40000000, args),
			 SECCOMP_RET_KILL_PROCESS);
	assert_int_equal(run(t.prog, t.n, AUDIT_ARCH_I386, 20, args),
			 SECCOMP_RET_KILL_PROCESS);
	if (t.bad)
		fail_msg("%s: %u of %u calls differ", name, t.bad, t.calls);
	assert_true(t.calls >= 2048);
	free((void *)t.prog);
	free(p);
	free(text);
	ward_pool_free(pool);
}

static void test_round_trips(void **state)
{
	for (size_t i = 0; i < ARRAY_LEN(fixtures); i++)
		round_trip(fixtures[i]);
}

/* ------------------------------------------------------------ specifics */

static void assert_warnings(const struct ward_notes *w, const char *const *want,
			    size_t n)
{
	for (size_t i = 0; i < w->n && i < n; i++)
		assert_string_equal(w->items[i], want[i]);
	assert_int_equal(w->n, n);
}

/* What libseccomp silences, and names nobody knows, are warned about. */
static void test_warnings(void **state)
{
	struct ward_pool *pool = ward_pool_new();
	struct ward_notes w = {.pool = pool};
	ward_err err = {0};
	char *text = import_file("tests/export/default-allow.json", &w, &err);
	assert_non_null(text);
	static const char *const allow[] = {
	    "tests/export/default-allow.json:36:14: `chroot`: libseccomp "
	    "keeps the first unconditional rule (entry 3, errno EPERM)",
	    "tests/export/default-allow.json:30:14: `unshare`: the condition "
	    "is ignored: libseccomp lets the unconditional entry 5 decide",
	};
	assert_warnings(&w, allow, ARRAY_LEN(allow));
	assert_non_null(strstr(text, "\terrno EPERM chroot, mount, pivot_root, "
				     "umount2, unshare;\n"));
	assert_non_null(strstr(text, "\tkill ioctl if arg1 == 0x5412;\n"));
	free(text);

	w.n = 0;
	text = import_file("tests/export/default-deny.json", &w, &err);
	assert_non_null(text);
	static const char *const deny[] = {
	    "tests/export/default-deny.json:84:5: `no_such_syscall`: unknown "
	    "syscall, skipped",
	};
	assert_warnings(&w, deny, ARRAY_LEN(deny));
	assert_non_null(strstr(text, "#   - entry 5, no_such_syscall: unknown "
				     "syscall, skipped\n"));
	assert_non_null(strstr(text, "#   - entry 5, vm86: a syscall of "
				     "another architecture only\n"));
	free(text);
	ward_pool_free(pool);
}

/* A group is used only when every one of its syscalls has the action. */
static void test_groups_never_widen(void **state)
{
	static const char all[] =
	    "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 38,"
	    " \"syscalls\": [{\"names\": [\"clock_getres\", \"clock_gettime\","
	    " \"clock_nanosleep\", \"gettimeofday\", \"nanosleep\", "
	    "\"time\"%s],"
	    " \"action\": \"SCMP_ACT_ALLOW\"}]}";
	char json[512];
	struct ward_pool *pool = ward_pool_new();
	struct ward_notes w = {.pool = pool};
	ward_err err = {0};

	snprintf(json, sizeof(json), all, "");
	char *text = import_text(json, &w, &err);
	assert_non_null(text);
	assert_non_null(strstr(text, "use groups;\n"));
	assert_non_null(strstr(text, "\tallow @clock;\n"));
	free(text);

	/* one member less: no group */
	char *cut = strstr(json, ", \"time\"");
	memmove(cut, cut + 8, strlen(cut + 8) + 1);
	text = import_text(json, &w, &err);
	assert_non_null(text);
	assert_null(strstr(text, "@clock"));
	assert_null(strstr(text, "use groups;"));
	assert_non_null(strstr(text, "\tallow clock_getres, clock_gettime, "
				     "clock_nanosleep, gettimeofday,\n"
				     "\t\tnanosleep;\n"));
	free(text);

	/* a member with a condition: no group either */
	snprintf(json, sizeof(json), "%s",
		 "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\":"
		 " 38, \"syscalls\": [{\"names\": [\"clock_getres\","
		 " \"clock_gettime\", \"clock_nanosleep\", \"gettimeofday\","
		 " \"nanosleep\"], \"action\": \"SCMP_ACT_ALLOW\"},"
		 " {\"names\": [\"time\"], \"action\": \"SCMP_ACT_KILL\","
		 " \"args\": [{\"index\": 0, \"value\": 1, \"op\":"
		 " \"SCMP_CMP_EQ\"}]}]}");
	text = import_text(json, &w, &err);
	if (!text)
		fail_msg("%s\n%s", err.msg, json);
	assert_null(strstr(text, "@clock"));
	assert_non_null(strstr(text, "\tkill time if arg0 == 0x1;\n"));
	free(text);
	ward_pool_free(pool);
}

/* Malformed profiles: the place and the reason, exactly. */
static void test_errors(void **state)
{
	static const struct {
		const char *json, *msg;
	} cases[] = {
	    {"", "x.json:1:1: the file is empty"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": "
	     "1.0}",
	     "x.json:1:56: an errno value must be an unsigned integer, not "
	     "`1.0`"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": -1}",
	     "x.json:1:56: an errno value must not be negative"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": "
	     "1e3}",
	     "x.json:1:56: an errno value must be an unsigned integer, not "
	     "`1e3`"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": "
	     "010}",
	     "x.json:1:56: an errno value must be an unsigned integer, not "
	     "`010`"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": "
	     "\"1\"}",
	     "x.json:1:56: an errno value must be a number, not a string"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 0}",
	     "x.json:1:56: errno 0 makes the call succeed without running it; "
	     "ward has no such action"},
	    {"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"defaultErrnoRet\": 1}",
	     "x.json:1:56: an errno value with `SCMP_ACT_ALLOW` (runtimes "
	     "refuse it)"},
	    {"{\"defaultAction\": \"A\", \"defaultAction\": \"B\"}",
	     "x.json:1:24: `defaultAction` appears twice"},
	    {"{\"defaultAction\": \"SCMP_ACT_FOO\"}",
	     "x.json:1:19: unknown action `SCMP_ACT_FOO`"},
	    {"{\"syscalls\": []}", "x.json:1:1: the profile has no "
				   "`defaultAction`"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": "
	     "[{\"names\":"
	     " [\"x\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": [{\"index\":"
	     " 1, \"value\": 18446744073709551616, \"op\": "
	     "\"SCMP_CMP_EQ\"}]}]}",
	     "x.json:1:126: `value` is larger than 2^64-1"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": "
	     "[{\"names\":"
	     " [\"x\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": [{\"index\":"
	     " 6, \"op\": \"SCMP_CMP_EQ\"}]}]}",
	     "x.json:1:114: argument index 6 is not 0..5"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": "
	     "[{\"names\":"
	     " [\"x\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": [{\"index\":"
	     " 1, \"op\": \"SCMP_CMP_MASKED_NE\"}]}]}",
	     "x.json:1:123: unknown operator `SCMP_CMP_MASKED_NE`"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"name\":"
	     " \"read\", \"names\": [\"x\"], \"action\": \"SCMP_ACT_ALLOW\"}]}",
	     "x.json:1:50: an entry has `name` or `names`, not both"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"x\": "
	     "\"\\ud83d\\ude00\"}",
	     "x.json:1:45: not valid JSON: found invalid Unicode character "
	     "escape code"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\\u0000\"}",
	     "x.json:1:19: a string holds a NUL character"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\"}\n--- {}",
	     "x.json:2:1: more than one document"},
	    {"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": ["
	     "{\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ALLOW\", "
	     "\"args\":"
	     " [{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]},"
	     "{\"names\": [\"socket\"], \"action\": \"SCMP_ACT_KILL\", "
	     "\"args\":"
	     " [{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]}]}",
	     "x.json:1:157: `socket` gets kill here and allow in entry 1 "
	     "under the same condition (runtimes refuse it)"},
	};
	struct ward_pool *pool = ward_pool_new();
	struct ward_notes w = {.pool = pool};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		ward_err err = {0};
		char *text = import_text(cases[i].json, &w, &err);
		if (text)
			fail_msg("case %zu imported:\n%s", i, text);
		if (strcmp(err.msg, cases[i].msg))
			fail_msg("case %zu: `%s`, wanted `%s`", i, err.msg,
				 cases[i].msg);
	}
	ward_pool_free(pool);
}

/* Compact JSON, escapes, and a whole config.json (its linux.seccomp). */
static void test_json_forms(void **state)
{
	struct ward_pool *pool = ward_pool_new();
	struct ward_notes w = {.pool = pool};
	ward_err err = {0};
	char *text = import_text(
	    "{\"ociVersion\":\"1.0.2\",\"linux\":{\"seccomp\":{"
	    "\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":38,"
	    "\"syscalls\":[{\"names\":[\"\\u0072ead\"],\"action\":"
	    "\"SCMP_ACT_ALLOW\",\"comment\":\"a \\\"b\\\" \\/ \\u00e9\\tc\"},"
	    "{\"names\":[\"write\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":"
	    "[{\"index\":0,\"value\":18446744073709551615,\"op\":"
	    "\"SCMP_CMP_EQ\"}],\"comment\":\"a \\\"b\\\" \\/ "
	    "\\u00e9\\tc\"}]}}}",
	    &w, &err);
	if (!text)
		fail_msg("%s", err.msg);
	assert_non_null(strstr(text, "\tallow read;\n"));
	assert_non_null(strstr(text, "\t# a \"b\" / \xc3\xa9 c\n"
				     "\tallow write if arg0 == "
				     "0xffffffffffffffff;\n"));
	assert_non_null(strstr(text, "policy x;\n"));
	free(text);
	ward_pool_free(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trips),
	    cmocka_unit_test(test_warnings),
	    cmocka_unit_test(test_groups_never_widen),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_json_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
