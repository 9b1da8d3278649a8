/* SPDX-License-Identifier: MIT */
/*
 * allowlist.c: see allowlist.h.
 */
#include "allowlist.h"

#include "policy.h" /* WARD_ARCH_* */

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAXINSNS 512

#define STMT(c, k) ((struct sock_filter)BPF_STMT((c), (k)))
#define JEQ(k, jt, jf)                                                         \
	((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (jt),    \
				      (jf)))
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define RET(k)	  STMT(BPF_RET | BPF_K, (k))

uint32_t ward_native_arch(void)
{
#if defined(__x86_64__)
	return WARD_ARCH_X86_64;
#elif defined(__aarch64__)
	return WARD_ARCH_AARCH64;
#else
	return 0; /* unknown: every blob is refused as "another arch", and
		   * every call of ward's own processes kills them */
#endif
}

static bool checked(const struct ward_allow_arg *args, size_t nargs, int nr)
{
	for (size_t j = 0; j < nargs; j++)
		if (args[j].nr == nr)
			return true;
	return false;
}

int ward_allowlist_install(const int *allow, size_t nallow,
			   const struct ward_allow_arg *args, size_t nargs,
			   ward_err *err)
{
	struct sock_filter f[MAXINSNS];
	struct sock_fprog prog = {.filter = f};
	size_t n = 0, need = 8 + nallow, nplain = 0;

	for (size_t j = 0; j < nargs; j++)
		need += 4 + args[j].nvalues;
	/* Every jump below must fit its 8 bits. */
	if (need > MAXINSNS || nallow > 250)
		return ward_fail(err, 0, "seccomp: an allow-list of %zu calls",
				 nallow);
	f[n++] =
	    STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = JEQ(ward_native_arch(), 1, 0);
	f[n++] = RET(SECCOMP_RET_KILL_PROCESS);
	f[n++] =
	    STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
	/* The x32 ABI shares the architecture value (Kafel's lesson). */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
					      0x40000000u, 0, 1);
	f[n++] = RET(SECCOMP_RET_KILL_PROCESS);
#endif
	/* The calls allowed with some arguments only: a block each, which
	 * returns; past it, A still holds the number. */
	for (size_t j = 0; j < nargs; j++) {
		const struct ward_allow_arg *a = &args[j];

		f[n++] = JEQ((uint32_t)a->nr, 0, (uint8_t)(a->nvalues + 3));
		f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(a->arg));
		for (size_t i = 0; i < a->nvalues; i++)
			f[n++] =
			    JEQ(a->values[i], (uint8_t)(a->nvalues - i), 0);
		f[n++] = RET(SECCOMP_RET_ERRNO | EPERM);
		f[n++] = RET(SECCOMP_RET_ALLOW);
	}
	for (size_t i = 0; i < nallow; i++)
		nplain += !checked(args, nargs, allow[i]);
	for (size_t i = 0, k = 0; i < nallow; i++)
		if (!checked(args, nargs, allow[i]))
			/* A match jumps to the allow at the end. */
			f[n++] =
			    JEQ((uint32_t)allow[i], (uint8_t)(nplain - k++), 0);
	f[n++] = RET(SECCOMP_RET_ERRNO | EPERM);
	f[n++] = RET(SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return ward_fail(err, errno, "seccomp: a filter of its own");
	return 0;
}
