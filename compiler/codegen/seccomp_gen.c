/* SPDX-License-Identifier: MIT */
/*
 * seccomp_gen.c: the seccomp program of a rule table (seccomp_gen.h).
 *
 * 1. A libseccomp filter: the policy's default action, the target as its
 *    only architecture, bad-architecture action KILL_PROCESS (libseccomp
 *    then also kills the x32 ABI on x86_64; the tests check it in the
 *    generated code), no no_new_privs of its own (the launcher sets it).
 *    Each syscall whose action does not depend on its arguments gets an
 *    unconditional rule (none if it is the default); each argument-checked
 *    syscall number k gets a marker, "ret TRACE(k)", which no policy uses.
 * 2. The program is exported through a memfd.
 * 3. The argument checks of syscall k (seccomp_args.c) are appended, and
 *    every "ret TRACE(k)" becomes a jump to them. A jump replaces a return
 *    one for one, so no offset of libseccomp's code changes, and the
 *    appended code reloads whatever it compares.
 */
#include "seccomp_gen.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "bpf_info.h"
#include "rules_meaning.h"

/* The markers' return values: TRACE with the checked syscall's index
 * below 0x8000; from 0x8000 up, a return the broker answers (a `kill`, a
 * recorded refusal, a brokered call: see scmp_action), whose data bits
 * (policy.h, below 0x8000) are the rest of the marker. */
#define MARKER(k)	    (SECCOMP_RET_TRACE | (k))
#define NOTIFY_MARKER(data) (0x8000u | (data))
#define MAX_MARKERS	    0x8000u
#define ERRNO_MAX	    4094 /* libseccomp 2.5.4 refuses ERRNO(4095) */

static void scmp_releasep(scmp_filter_ctx *ctx)
{
	if (*ctx)
		seccomp_release(*ctx);
}
#define _cleanup_scmp_ __attribute__((cleanup(scmp_releasep)))

static void bpf_buf_freep(struct ward_bpf_buf *b)
{
	ward_bpf_buf_free(b);
}

static uint32_t scmp_action(const struct ward_action *a)
{
	/* A `kill`, a recorded refusal or a brokered call is a user
	 * notification that the launcher's broker answers (docs/spec.md
	 * 4.6): a kill by killing the sandbox and naming the syscall.
	 * libseccomp gets a marker, replaced by splice(): its own
	 * SCMP_ACT_NOTIFY would probe the compiling host's kernel, and a
	 * compile must not depend on it. The bad-architecture action stays
	 * KILL_PROCESS. */
	if (ward_action_notifies(a))
		return SCMP_ACT_TRACE(
		    NOTIFY_MARKER(ward_action_notify_data(a)));
	switch (a->kind) {
	case WARD_ACT_ALLOW:
		return SCMP_ACT_ALLOW;
	case WARD_ACT_LOG:
		return SCMP_ACT_LOG;
	case WARD_ACT_ERRNO:
		return SCMP_ACT_ERRNO(a->errno_nr);
	case WARD_ACT_TRAP:
		return SCMP_ACT_TRAP;
	default:
		return SCMP_ACT_KILL_PROCESS; /* not reached: a kill notifies */
	}
}

static int check_action(const struct ward_action *a, const char *what,
			ward_err *err)
{
	if (a->kind > WARD_ACT_KILL)
		return ward_fail(err, 0, "seccomp: %s: unknown action %u", what,
				 a->kind);
	if (a->kind == WARD_ACT_ERRNO &&
	    (a->errno_nr < 1 || a->errno_nr > ERRNO_MAX))
		return ward_fail(err, 0, "seccomp: %s: errno %u outside 1..%u",
				 what, a->errno_nr, ERRNO_MAX);
	if (a->via > WARD_NOTIFY_MAX ||
	    (a->via &&
	     a->kind != (a->via <= WARD_VIA_RECORD_NET ? WARD_ACT_ERRNO
						       : WARD_ACT_ALLOW)))
		return ward_fail(err, 0, "seccomp: %s: action %u via %u", what,
				 a->kind, a->via);
	return 0;
}

static int check_rules(const struct ward_rules *rules, ward_err *err)
{
	char what[96];

	if (check_action(&rules->default_action, "default action", err) < 0)
		return -1;
	for (uint32_t i = 0; i < rules->nsyscalls; i++) {
		const struct ward_syscall_rule *sc = &rules->syscalls[i];
		snprintf(what, sizeof(what), "syscall %s (nr %d)",
			 sc->name ? sc->name : "?", sc->nr);
		if (sc->nr < 0 || sc->nr >= 0x40000000)
			return ward_fail(err, 0, "seccomp: %s: bad number",
					 what);
		if (i > 0 && sc->nr <= rules->syscalls[i - 1].nr)
			return ward_fail(err, 0,
					 "seccomp: %s: syscalls not sorted by "
					 "number, or repeated",
					 what);
		if (sc->has_fallback &&
		    check_action(&sc->fallback, what, err) < 0)
			return -1;
		for (uint32_t j = 0; j < sc->nconds; j++)
			if (check_action(&sc->conds[j].action, what, err) < 0)
				return -1;
		if (ward_args_check(sc, err) < 0)
			return -1;
	}
	return 0;
}

/*
 * The number libseccomp's rule API wants for syscall nr of the target.
 * libseccomp takes numbers of the architecture it was built for and, for
 * a filter on another architecture, translates them by name; a number of
 * the target is therefore mapped back to the native number of the same
 * name first, and the round trip is checked. (A syscall the native
 * architecture lacks has a negative "pseudo" number there, which libseccomp
 * translates like any other.)
 */
static int api_nr(uint32_t arch, const struct ward_syscall_rule *sc, int *out,
		  ward_err *err)
{
	int native;

	if (arch == seccomp_arch_native()) {
		*out = sc->nr;
		return 0;
	}
	_cleanup_free_ char *name =
	    seccomp_syscall_resolve_num_arch(arch, sc->nr);
	if (!name)
		return ward_fail(err, 0,
				 "seccomp: syscall %s (nr %d) is unknown to "
				 "libseccomp on the target",
				 sc->name ? sc->name : "?", sc->nr);
	native = seccomp_syscall_resolve_name_arch(SCMP_ARCH_NATIVE, name);
	if (native == __NR_SCMP_ERROR ||
	    seccomp_syscall_resolve_name_arch(arch, name) != sc->nr)
		return ward_fail(err, 0,
				 "seccomp: syscall %s (nr %d): libseccomp "
				 "cannot map it to the target",
				 name, sc->nr);
	*out = native;
	return 0;
}

static int set_attr(scmp_filter_ctx ctx, enum scmp_filter_attr attr,
		    uint32_t value, const char *name, ward_err *err)
{
	int rc = seccomp_attr_set(ctx, attr, value);
	if (rc < 0)
		return ward_fail(err, -rc, "seccomp_attr_set %s", name);
	return 0;
}

static scmp_filter_ctx new_filter(const struct ward_rules *rules, uint32_t arch,
				  uint32_t optimize, ward_err *err)
{
	_cleanup_scmp_ scmp_filter_ctx ctx =
	    seccomp_init(scmp_action(&rules->default_action));
	uint32_t native;

	if (!ctx) {
		ward_fail(err, ENOMEM, "seccomp_init");
		return NULL;
	}
	/* the AUDIT_ARCH_* values are libseccomp's architecture tokens */
	native = seccomp_arch_native();
	if (arch != native) {
		int rc = seccomp_arch_add(ctx, arch);
		if (rc == 0)
			rc = seccomp_arch_remove(ctx, native);
		if (rc < 0) {
			ward_fail(err, -rc, "seccomp_arch_add 0x%08x", arch);
			return NULL;
		}
	}
	if (set_attr(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS,
		     "ACT_BADARCH", err) < 0 ||
	    set_attr(ctx, SCMP_FLTATR_CTL_NNP, 0, "CTL_NNP", err) < 0 ||
	    set_attr(ctx, SCMP_FLTATR_CTL_OPTIMIZE, optimize, "CTL_OPTIMIZE",
		     err) < 0)
		return NULL;
	return steal_pointer(&ctx);
}

static int add_rule(scmp_filter_ctx ctx, uint32_t arch, uint32_t action,
		    const struct ward_syscall_rule *sc, ward_err *err)
{
	int nr = 0;
	int rc;

	if (api_nr(arch, sc, &nr, err) < 0)
		return -1;
	rc = seccomp_rule_add_exact(ctx, action, nr, 0);
	if (rc < 0)
		return ward_fail(err, -rc, "seccomp_rule_add %s (nr %d)",
				 sc->name ? sc->name : "?", sc->nr);
	return 0;
}

/* libseccomp's program, read back from a memfd into b. */
static int export_program(scmp_filter_ctx ctx, struct ward_bpf_buf *b,
			  ward_err *err)
{
	_cleanup_close_ int fd = memfd_create("ward-seccomp", MFD_CLOEXEC);
	struct stat stb;
	int rc;
	size_t size;
	size_t done = 0;

	if (fd < 0)
		return ward_fail(err, errno, "memfd_create");
	rc = seccomp_export_bpf(ctx, fd);
	if (rc < 0)
		return ward_fail(err, -rc, "seccomp_export_bpf");
	if (fstat(fd, &stb) < 0)
		return ward_fail(err, errno, "fstat memfd");
	size = (size_t)stb.st_size;
	if (size == 0 || size % sizeof(struct sock_filter))
		return ward_fail(err, 0,
				 "seccomp_export_bpf: %zu bytes is not a "
				 "program",
				 size);
	b->insns = malloc(size);
	if (!b->insns)
		return ward_fail(err, ENOMEM, "seccomp: program");
	b->n = b->cap = (uint32_t)(size / sizeof(struct sock_filter));
	while (done < size) {
		ssize_t got = pread(fd, (char *)b->insns + done, size - done,
				    (off_t)done);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return ward_fail(err, got < 0 ? errno : EIO,
					 "read memfd");
		done += (size_t)got;
	}
	return 0;
}

/* Append the argument checks of each marked syscall and point its markers
 * at them. checked[k]: the syscall of marker k. */
static int splice(struct ward_bpf_buf *b, const struct ward_rules *rules,
		  const uint32_t *checked, uint32_t nchecked, ward_err *err)
{
	_cleanup_free_ uint32_t *start =
	    calloc(nchecked ? nchecked : 1, sizeof(*start));
	_cleanup_free_ bool *used =
	    calloc(nchecked ? nchecked : 1, sizeof(*used));
	uint32_t frame = b->n;

	if (!start || !used)
		return ward_fail(err, ENOMEM, "seccomp: program");
	for (uint32_t k = 0; k < nchecked; k++) {
		start[k] = b->n;
		if (ward_args_emit(&rules->syscalls[checked[k]],
				   &rules->default_action, b, err) < 0)
			return -1;
	}
	for (uint32_t pc = 0; pc < frame; pc++) {
		struct sock_filter *f = &b->insns[pc];
		uint32_t k;

		if (f->code != (BPF_RET | BPF_K) ||
		    (f->k & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_TRACE)
			continue;
		k = f->k & SECCOMP_RET_DATA;
		if (k >= MAX_MARKERS) {
			f->k = SECCOMP_RET_USER_NOTIF | (k & ~MAX_MARKERS);
			continue;
		}
		if (k >= nchecked)
			return ward_fail(err, 0,
					 "seccomp: libseccomp returned an "
					 "unknown marker 0x%08x",
					 f->k);
		*f = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA,
						  start[k] - pc - 1);
		used[k] = true;
	}
	for (uint32_t k = 0; k < nchecked; k++) {
		const struct ward_syscall_rule *sc =
		    &rules->syscalls[checked[k]];
		if (!used[k])
			return ward_fail(err, 0,
					 "seccomp: syscall %s (nr %d) is "
					 "missing from libseccomp's program",
					 sc->name ? sc->name : "?", sc->nr);
	}
	return 0;
}

int ward_seccomp_compile_opts(const struct ward_rules *rules, uint32_t arch,
			      const struct ward_seccomp_opts *opts,
			      struct sock_filter **insns, uint32_t *ninsns,
			      ward_err *err)
{
	uint32_t optimize = opts && opts->optimize ? opts->optimize : 2;
	uint32_t nchecked = 0;

	if (arch != WARD_ARCH_X86_64 && arch != WARD_ARCH_AARCH64)
		return ward_fail(err, 0,
				 "seccomp: architecture 0x%08x is not a target",
				 arch);
	if (optimize > 2)
		return ward_fail(err, 0, "seccomp: optimize level %u",
				 optimize);
	if (check_rules(rules, err) < 0)
		return -1;

	_cleanup_scmp_ scmp_filter_ctx ctx =
	    new_filter(rules, arch, optimize, err);
	if (!ctx)
		return -1;
	_cleanup_free_ uint32_t *checked =
	    calloc(rules->nsyscalls ? rules->nsyscalls : 1, sizeof(*checked));
	if (!checked)
		return ward_fail(err, ENOMEM, "seccomp: rules");
	for (uint32_t i = 0; i < rules->nsyscalls; i++) {
		const struct ward_syscall_rule *sc = &rules->syscalls[i];
		struct ward_action a;
		uint32_t action;
		if (ward_syscall_const_action(sc, &rules->default_action, &a)) {
			if (ward_action_cmp(&a, &rules->default_action) == 0)
				continue; /* libseccomp's default does it */
			action = scmp_action(&a);
		} else {
			if (nchecked == MAX_MARKERS)
				return ward_fail(err, 0,
						 "seccomp: more than %u "
						 "argument-checked syscalls",
						 MAX_MARKERS);
			action = SCMP_ACT_TRACE(nchecked);
			checked[nchecked++] = i;
		}
		if (add_rule(ctx, arch, action, sc, err) < 0)
			return -1;
	}

	__attribute__((cleanup(bpf_buf_freep))) struct ward_bpf_buf b = {0};
	if (export_program(ctx, &b, err) < 0 ||
	    splice(&b, rules, checked, nchecked, err) < 0)
		return -1;
	if (b.n > BPF_MAXINSNS)
		return ward_fail(err, 0,
				 "seccomp: the program has %u instructions, "
				 "more than the kernel's limit of %u",
				 b.n, BPF_MAXINSNS);
	if (ward_bpf_check(b.insns, b.n, err) < 0)
		return -1;
	*ninsns = b.n;
	*insns = steal_pointer(&b.insns);
	return 0;
}

/* Does a return of the program notify, with data bits matching mask? */
static bool notifies(const struct sock_filter *insns, uint32_t ninsns,
		     uint32_t mask)
{
	for (uint32_t i = 0; i < ninsns; i++)
		if (insns[i].code == (BPF_RET | BPF_K) &&
		    (insns[i].k & SECCOMP_RET_ACTION_FULL) ==
			SECCOMP_RET_USER_NOTIF &&
		    (!mask || (insns[i].k & mask)))
			return true;
	return false;
}

bool ward_seccomp_notifies(const struct sock_filter *insns, uint32_t ninsns)
{
	return notifies(insns, ninsns, 0);
}

bool ward_seccomp_answers(const struct sock_filter *insns, uint32_t ninsns)
{
	return notifies(insns, ninsns, SECCOMP_RET_DATA);
}

int ward_seccomp_compile(const struct ward_rules *rules, uint32_t arch,
			 struct sock_filter **insns, uint32_t *ninsns,
			 ward_err *err)
{
	return ward_seccomp_compile_opts(rules, arch, NULL, insns, ninsns, err);
}
