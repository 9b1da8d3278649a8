/* SPDX-License-Identifier: MIT */
/*
 * danger.h: the syscall families that only an attack or a confused program
 * uses (mount, bpf, modules, namespaces, kexec, reboot, ptrace and the
 * rest). One table: lint scores a policy that allows them (W210..W227),
 * a recording blob refuses them (`wardc compile --record`), and `wardc
 * suggest` never allows them, whatever a record saw.
 */
#ifndef WARD_DANGER_H
#define WARD_DANGER_H

#include <stdbool.h>

extern const char *const ward_danger_ptrace[];
extern const char *const ward_danger_procmem[];
extern const char *const ward_danger_mount[];
extern const char *const ward_danger_bpf[];
extern const char *const ward_danger_perf[];
extern const char *const ward_danger_keyring[];
extern const char *const ward_danger_uffd[];
extern const char *const ward_danger_uring[];
extern const char *const ward_danger_ns[];
extern const char *const ward_danger_clone3[];
extern const char *const ward_danger_handle[];
extern const char *const ward_danger_reboot[];
extern const char *const ward_danger_module[];
extern const char *const ward_danger_swap[];
extern const char *const ward_danger_rawio[];
extern const char *const ward_danger_priv[];

/* Is the syscall in one of the families above? */
bool ward_danger_syscall(const char *name);

/* clone's flags that create namespaces (the stdlib's clone-namespaces). */
#define WARD_DANGER_CLONE_NS 0x7e020000ull

#endif
