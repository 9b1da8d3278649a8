/* SPDX-License-Identifier: MIT */
/*
 * seccomp_gen.c: the seccomp program of a rule table (seccomp_gen.h).
 *
 * 1. A libseccomp filter: a marker as its default action, the target as
 *    its only architecture, bad-architecture action KILL_PROCESS
 *    (libseccomp then also kills the x32 ABI on x86_64; the tests check it
 *    in the generated code), no no_new_privs of its own (the launcher sets
 *    it). Each syscall whose action does not depend on its arguments gets
 *    an unconditional rule (none if it is the default); each
 *    argument-checked syscall number k gets a marker, "ret TRACE(k)",
 *    which no policy uses.
 * 2. The program is exported through a memfd.
 * 3. The syscalls libseccomp has no name for on the target (those of
 *    Linux 6.8 and later in 2.5.4: mseal, statmount, ...) get a dispatch
 *    of ward's own, appended: "ld nr; jeq N; ret ACTION ...; ret DEFAULT".
 *    libseccomp's rule API takes numbers of the compiling machine's
 *    architecture and translates them to the target's by name, so it can
 *    take such a syscall by number on a native target only, and a blob
 *    must not depend on the machine that compiles it: they go to ward's
 *    dispatch on every machine.
 * 4. The argument checks of syscall k (seccomp_args.c) are appended, and
 *    every "ret TRACE(k)" becomes a jump to them; every default marker
 *    becomes the default's return, or a jump to ward's dispatch; every
 *    marker from NOTIFY_BASE up becomes SECCOMP_RET_USER_NOTIF with its
 *    data bits, for the broker (docs/spec.md 4.6). A jump
 *    replaces a return one for one, so no offset of libseccomp's code
 *    changes, and the appended code reloads whatever it compares.
 */
#include "seccomp_gen.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "bpf_info.h"
#include "rules_meaning.h"

/* The markers' return values: TRACE with the checked syscall's index
 * below DEFAULT_MARKER; DEFAULT_MARKER for libseccomp's default action
 * (splice() makes it the default's return, or a jump to ward's own
 * dispatch); from NOTIFY_BASE up, a return the broker answers (a `kill`, a
 * recorded refusal, a brokered call: see scmp_action), whose data bits
 * (policy.h, below 0x8000) are the rest of the marker. */
#define NOTIFY_BASE	    0x8000u
#define NOTIFY_MARKER(data) (NOTIFY_BASE | (data))
#define DEFAULT_MARKER	    (NOTIFY_BASE - 1)
#define MAX_MARKERS	    DEFAULT_MARKER /* argument-checked syscalls */
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
 * Whether libseccomp's own dispatch can hold syscall nr of the target, and
 * the number its rule API wants for it (*out). libseccomp takes numbers of
 * the architecture it was built for and, for a filter on another
 * architecture, translates them by name; a number of the target is
 * therefore mapped back to the native number of the same name first, and
 * the round trip is checked. (A syscall the native architecture lacks has
 * a negative "pseudo" number there, which libseccomp translates like any
 * other.) A syscall libseccomp cannot name on the target is refused on
 * every machine, native or not: the program must not depend on where it
 * is compiled.
 */
static bool api_nr(uint32_t arch, const struct ward_syscall_rule *sc, int *out)
{
	int native;

	_cleanup_free_ char *name =
	    seccomp_syscall_resolve_num_arch(arch, sc->nr);
	if (!name)
		return false;
	if (arch == seccomp_arch_native()) {
		*out = sc->nr;
		return true;
	}
	native = seccomp_syscall_resolve_name_arch(SCMP_ARCH_NATIVE, name);
	if (native == __NR_SCMP_ERROR ||
	    seccomp_syscall_resolve_name_arch(arch, name) != sc->nr)
		return false;
	*out = native;
	return true;
}

static int set_attr(scmp_filter_ctx ctx, enum scmp_filter_attr attr,
		    uint32_t value, const char *name, ward_err *err)
{
	int rc = seccomp_attr_set(ctx, attr, value);
	if (rc < 0)
		return ward_fail(err, -rc, "seccomp_attr_set %s", name);
	return 0;
}

static scmp_filter_ctx new_filter(uint32_t arch, uint32_t optimize,
				  ward_err *err)
{
	/* The default is a marker: splice() makes it the default's return,
	 * or a jump to ward's own dispatch (see the top of this file). */
	_cleanup_scmp_ scmp_filter_ctx ctx =
	    seccomp_init(SCMP_ACT_TRACE(DEFAULT_MARKER));
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

static int add_rule(scmp_filter_ctx ctx, int nr, uint32_t action,
		    const struct ward_syscall_rule *sc, ward_err *err)
{
	int rc = seccomp_rule_add_exact(ctx, action, nr, 0);
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

/* A syscall in ward's own dispatch: its constant return, or the marker of
 * its argument checks; at, the dispatch's instruction to patch. */
struct own_sys {
	int32_t nr;
	bool checked;
	uint32_t ret_or_k;
	uint32_t at;
};

/* The dispatch of the syscalls libseccomp cannot name, appended to b:
 * "ld nr; jeq N, 0, 1; ret A (or ja to its checks)...; ret default". */
static int emit_own(struct ward_bpf_buf *b, struct own_sys *own, uint32_t nown,
		    uint32_t dflt, ward_err *err)
{
	int rc = ward_bpf_push(
	    b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					    offsetof(struct seccomp_data, nr)));

	for (uint32_t j = 0; rc == 0 && j < nown; j++) {
		struct sock_filter then =
		    own[j].checked
			? (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, 0)
			: (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						       own[j].ret_or_k);
		rc = ward_bpf_push(
		    b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						    (uint32_t)own[j].nr, 0, 1));
		own[j].at = b->n;
		if (rc == 0)
			rc = ward_bpf_push(b, then);
	}
	if (rc == 0)
		rc = ward_bpf_push(
		    b, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, dflt));
	return rc < 0 ? ward_fail(err, ENOMEM, "seccomp: program") : 0;
}

/* Append ward's dispatch (if any) and the argument checks of each marked
 * syscall, and point the markers at them. checked[k]: the syscall of
 * marker k. */
static int splice(struct ward_bpf_buf *b, const struct ward_rules *rules,
		  const uint32_t *checked, uint32_t nchecked,
		  struct own_sys *own, uint32_t nown, ward_err *err)
{
	uint32_t frame = b->n;
	uint32_t dflt = ward_action_ret(&rules->default_action);

	/* ward's dispatch right after the frame, before the checks it may
	 * jump to (BPF jumps only forward) */
	if (nown > 0 && emit_own(b, own, nown, dflt, err) < 0)
		return -1;
	_cleanup_free_ uint32_t *start =
	    calloc(nchecked ? nchecked : 1, sizeof(*start));
	_cleanup_free_ bool *used =
	    calloc(nchecked ? nchecked : 1, sizeof(*used));
	if (!start || !used)
		return ward_fail(err, ENOMEM, "seccomp: program");
	for (uint32_t k = 0; k < nchecked; k++) {
		start[k] = b->n;
		if (ward_args_emit(&rules->syscalls[checked[k]],
				   &rules->default_action, b, err) < 0)
			return -1;
	}
	for (uint32_t j = 0; j < nown; j++) {
		uint32_t k = own[j].ret_or_k;
		if (!own[j].checked)
			continue;
		b->insns[own[j].at].k = start[k] - own[j].at - 1;
		used[k] = true;
	}
	for (uint32_t pc = 0; pc < frame; pc++) {
		struct sock_filter *f = &b->insns[pc];
		uint32_t k;

		if (f->code != (BPF_RET | BPF_K) ||
		    (f->k & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_TRACE)
			continue;
		k = f->k & SECCOMP_RET_DATA;
		if (k >= NOTIFY_BASE) {
			f->k = SECCOMP_RET_USER_NOTIF | (k & ~NOTIFY_BASE);
			continue;
		}
		if (k == DEFAULT_MARKER) {
			if (nown)
				*f = (struct sock_filter)BPF_STMT(
				    BPF_JMP | BPF_JA, frame - pc - 1);
			else
				f->k = dflt;
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
	uint32_t nown = 0; /* syscalls in ward's own dispatch */

	if (arch != WARD_ARCH_X86_64 && arch != WARD_ARCH_AARCH64)
		return ward_fail(err, 0,
				 "seccomp: architecture 0x%08x is not a target",
				 arch);
	if (optimize > 2)
		return ward_fail(err, 0, "seccomp: optimize level %u",
				 optimize);
	if (check_rules(rules, err) < 0)
		return -1;

	_cleanup_scmp_ scmp_filter_ctx ctx = new_filter(arch, optimize, err);
	if (!ctx)
		return -1;
	_cleanup_free_ uint32_t *checked =
	    calloc(rules->nsyscalls ? rules->nsyscalls : 1, sizeof(*checked));
	_cleanup_free_ struct own_sys *own =
	    calloc(rules->nsyscalls ? rules->nsyscalls : 1, sizeof(*own));
	if (!checked || !own)
		return ward_fail(err, ENOMEM, "seccomp: rules");
	for (uint32_t i = 0; i < rules->nsyscalls; i++) {
		const struct ward_syscall_rule *sc = &rules->syscalls[i];
		struct ward_action a;
		uint32_t action;
		bool is_const =
		    ward_syscall_const_action(sc, &rules->default_action, &a);
		int nr = 0;

		if (is_const &&
		    ward_action_cmp(&a, &rules->default_action) == 0)
			continue; /* the default does it */
		if (!is_const) {
			if (nchecked == MAX_MARKERS)
				return ward_fail(err, 0,
						 "seccomp: more than %u "
						 "argument-checked syscalls",
						 MAX_MARKERS);
			checked[nchecked++] = i;
		}
		if (!api_nr(arch, sc, &nr)) {
			/* sorted by number, as the rules are */
			own[nown++] = (struct own_sys){
			    .nr = sc->nr,
			    .checked = !is_const,
			    .ret_or_k =
				is_const ? ward_action_ret(&a) : nchecked - 1};
			continue;
		}
		action =
		    is_const ? scmp_action(&a) : SCMP_ACT_TRACE(nchecked - 1);
		if (add_rule(ctx, nr, action, sc, err) < 0)
			return -1;
	}

	__attribute__((cleanup(bpf_buf_freep))) struct ward_bpf_buf b = {0};
	if (export_program(ctx, &b, err) < 0 ||
	    splice(&b, rules, checked, nchecked, own, nown, err) < 0)
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
