/* SPDX-License-Identifier: MIT */
/*
 * refusal_probe.c: the calls a sandbox should refuse, one line each,
 * "NAME ERRNO" (or "NAME ok"), for tests/e2e/export_runtimes.sh, which
 * runs it under ward and, through `wardc export --bundle`, under crun and
 * runc, and compares the lines. Built static: the strict profile has no
 * /usr. Every call gets harmless arguments (zeros, NULL): when a policy
 * allows one, the kernel refuses it or it does nothing to anything but
 * the sandbox's own namespaces. It refuses to run as root: on a host, as
 * root, sethostname(NULL, 0) would blank the host's name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Syscalls newer than the build machine's headers (Debian 12's are Linux
 * 6.1): their x86_64 numbers, from common/syscalls.tsv. */
#ifdef __x86_64__
#ifndef SYS_cachestat
#define SYS_cachestat 451
#endif
#ifndef SYS_statmount
#define SYS_statmount 457
#endif
#ifndef SYS_listmount
#define SYS_listmount 458
#endif
#ifndef SYS_lsm_list_modules
#define SYS_lsm_list_modules 461
#endif
#ifndef SYS_mseal
#define SYS_mseal 462
#endif
#endif

#define CALL(n)                                                                \
	{                                                                      \
#n, SYS_##n                                                    \
	}

static const struct {
	const char *name;
	long nr;
} calls[] = {
    CALL(mount),
    CALL(umount2),
    CALL(pivot_root),
    CALL(chroot),
    CALL(swapon),
    CALL(swapoff),
    CALL(reboot),
    CALL(init_module),
    CALL(finit_module),
    CALL(delete_module),
    CALL(kexec_load),
    CALL(kexec_file_load),
    CALL(ptrace),
    CALL(process_vm_readv),
    CALL(process_vm_writev),
    CALL(bpf),
    CALL(perf_event_open),
    CALL(unshare),
    CALL(setns),
    CALL(keyctl),
    CALL(add_key),
    CALL(request_key),
    CALL(acct),
    CALL(sethostname),
    CALL(setdomainname),
    CALL(settimeofday),
    CALL(clock_settime),
    CALL(iopl),
    CALL(ioperm),
    CALL(open_by_handle_at),
    CALL(userfaultfd),
    CALL(io_uring_setup),
    CALL(fsopen),
    CALL(fsmount),
    CALL(move_mount),
    CALL(open_tree),
    CALL(mount_setattr),
    CALL(quotactl),
    CALL(syslog),
    CALL(vhangup),
    CALL(uselib),
    CALL(lookup_dcookie),
    CALL(nfsservctl),
    CALL(create_module),
    CALL(personality),
    /* left to the policies' default (ENOSYS) */
    CALL(kcmp),
    CALL(fanotify_init),
    CALL(name_to_handle_at),
    CALL(pidfd_getfd),
    CALL(migrate_pages),
    CALL(move_pages),
    CALL(mbind),
    CALL(cachestat),
    CALL(statmount),
    CALL(listmount),
    CALL(lsm_list_modules),
    CALL(mseal),
};

int main(void)
{
	char line[96];

	if (getuid() == 0 || geteuid() == 0) {
		static const char no[] = "refusal_probe: not as root: it is "
					 "for inside a sandbox\n";
		return write(2, no, sizeof(no) - 1) < 0 ? 3 : 2;
	}
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		/* personality(0xffffffff) only asks; any other persona is a
		 * change the policies refuse */
		long a0 = calls[i].nr == SYS_personality ? 0x0400000 : 0;
		long r = syscall(calls[i].nr, a0, 0, 0, 0, 0, 0);
		const char *e = r >= 0 ? "ok" : strerrorname_np(errno);
		int n = snprintf(line, sizeof(line), "%s %s\n", calls[i].name,
				 e ? e : "?");
		if (write(1, line, (size_t)n) != n)
			return 1;
	}
	return 0;
}
