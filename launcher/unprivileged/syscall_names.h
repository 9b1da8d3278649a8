/* SPDX-License-Identifier: MIT */
/*
 * syscall_names.h: a syscall's name from its number on the launcher's own
 * architecture (generated table, launcher/unprivileged/syscall_names.c).
 */
#ifndef WARD_SYSCALL_NAMES_H
#define WARD_SYSCALL_NAMES_H

/* The name, or NULL when the headers ward was built with do not know it. */
const char *ward_syscall_name(int nr);

#endif
