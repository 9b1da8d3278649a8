/* SPDX-License-Identifier: MIT */
/*
 * danger.c: see danger.h. Names a target lacks are skipped by the users.
 */
#include "danger.h"

#include <stddef.h>
#include <string.h>

const char *const ward_danger_ptrace[] = {"ptrace", NULL};
const char *const ward_danger_procmem[] = {"process_vm_readv",
					   "process_vm_writev",
					   "pidfd_getfd",
					   "process_madvise",
					   "kcmp",
					   NULL};
const char *const ward_danger_mount[] = {
    "mount",	 "umount",	  "umount2", "pivot_root", "chroot",
    "fsopen",	 "fsconfig",	  "fsmount", "fspick",	   "move_mount",
    "open_tree", "mount_setattr", NULL};
const char *const ward_danger_bpf[] = {"bpf", NULL};
const char *const ward_danger_perf[] = {"perf_event_open", NULL};
const char *const ward_danger_keyring[] = {"add_key", "keyctl", "request_key",
					   NULL};
const char *const ward_danger_uffd[] = {"userfaultfd", NULL};
const char *const ward_danger_uring[] = {"io_uring_setup", "io_uring_enter",
					 "io_uring_register", NULL};
const char *const ward_danger_ns[] = {"unshare", "setns", NULL};
const char *const ward_danger_clone3[] = {"clone3", NULL};
const char *const ward_danger_handle[] = {"open_by_handle_at",
					  "name_to_handle_at", NULL};
const char *const ward_danger_reboot[] = {"kexec_load", "kexec_file_load",
					  "reboot", NULL};
const char *const ward_danger_module[] = {
    "init_module", "finit_module", "delete_module", "create_module", NULL};
const char *const ward_danger_swap[] = {"swapon", "swapoff", NULL};
const char *const ward_danger_rawio[] = {"iopl", "ioperm", NULL};
const char *const ward_danger_priv[] = {
    "acct",	     "quotactl",       "quotactl_fd",
    "syslog",	     "settimeofday",   "clock_settime",
    "clock_adjtime", "adjtimex",       "sethostname",
    "setdomainname", "fanotify_init",  "vhangup",
    "nfsservctl",    "lookup_dcookie", "uselib",
    "modify_ldt",    "_sysctl",	       NULL};

static const char *const *const families[] = {
    ward_danger_ptrace, ward_danger_procmem, ward_danger_mount,
    ward_danger_bpf,	ward_danger_perf,    ward_danger_keyring,
    ward_danger_uffd,	ward_danger_uring,   ward_danger_ns,
    ward_danger_clone3, ward_danger_handle,  ward_danger_reboot,
    ward_danger_module, ward_danger_swap,    ward_danger_rawio,
    ward_danger_priv,
};

bool ward_danger_syscall(const char *name)
{
	for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++)
		for (const char *const *n = families[f]; *n; n++)
			if (strcmp(*n, name) == 0)
				return true;
	return false;
}
