/* Built-in argument names of common syscalls (spec appendix A), so that a
 * condition can say `socket if domain == AF_UNIX` without naming the
 * arguments itself. The names are those of the man pages' prototypes (section
 * 2), for the raw syscall: where the raw order differs between targets
 * (clone: x86_64 passes child_tid before tls, aarch64 after), the table holds
 * one order per target. */
#ifndef WARD_SYSCALL_ARGS_H
#define WARD_SYSCALL_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* The index (0..5) of ARGNAME among SYSCALL's arguments on ARCH (a
 * WARD_ARCH_* of policy.h), or -1 if the table has no such syscall or no
 * such argument. Only the table's names are known here: the positional names
 * arg0..arg5 are the caller's business (beware: prctl's man-page names are
 * option, arg2, arg3, arg4, arg5, so its `arg2` is argument 1). */
int ward_syscall_arg_index(const char *syscall, const char *argname,
			   uint32_t arch);

/* SYSCALL's argument names on ARCH, *n of them; NULL (and *n = 0) if the
 * table has no entry for SYSCALL. */
const char *const *ward_syscall_arg_names(const char *syscall, uint32_t arch,
					  size_t *n);

/* Iteration for `wardc args`: the syscalls of the table, sorted by name. */
size_t ward_syscall_args_count(void);
const char *ward_syscall_args_syscall(size_t i);

#endif
