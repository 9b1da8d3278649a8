/* SPDX-License-Identifier: MIT */
/*
 * proc_mask.h: what of the sandbox's /proc the launcher hides or makes
 * read-only, part of the contract so that `wardc explain` says what the
 * launcher does (docs/spec.md 3.5). Paths are relative to the proc mount;
 * one that this kernel does not have is skipped.
 *
 * The list is moby's (MaskedPaths and ReadonlyPaths of Docker's default
 * spec, with /proc/interrupts of its newer ones), plus the host facts any
 * user may read that a sandbox has no use for: the kernel's command line
 * (boot parameters, the root device), the symbol names of kallsyms, the
 * boot id (identifies the host across runs), the loaded modules, the
 * swap files' host paths and every host user's key counts (key-users).
 */
#ifndef WARD_PROC_MASK_H
#define WARD_PROC_MASK_H

/* An empty read-only file is bound over each of these: reads see nothing. */
static const char *const ward_proc_masked_files[] = {
    "cmdline",	   "kallsyms",
    "kcore",	   "keys",
    "key-users",   "latency_stats",
    "timer_list",  "timer_stats",
    "sched_debug", "interrupts",
    "modules",	   "swaps",
    "config.gz",   "sys/kernel/random/boot_id",
};

/* An empty read-only directory is bound over each of these. */
static const char *const ward_proc_masked_dirs[] = {"acpi", "asound", "scsi"};

/* Bound over themselves read-only (no write to the kernel's settings or
 * devices through them, whatever capabilities a policy keeps). */
static const char *const ward_proc_readonly[] = {"bus", "fs", "irq", "sys",
						 "sysrq-trigger"};

#endif
