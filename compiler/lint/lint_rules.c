/* SPDX-License-Identifier: MIT */
/*
 * lint_rules.c: THE catalogue of `wardc lint`. One entry per rule; the
 * printers (--list-rules, docs/lint.md, SARIF's rule metadata) and the
 * score read it, so a rule is described in one place only.
 *
 * Ids are stable: a rule that goes away leaves its id unused. W1xx files,
 * W2xx syscalls, W3xx network, W4xx resources, W5xx identity and
 * environment, W9xx the suppression comments themselves. Retired: W229
 * (socket allowed for families beyond local and IP), since the compiler
 * narrows socket() to what the `net` section needs (net_apply.c).
 *
 * Weights: the exposure score (lint.c) is the weight of the failing checks
 * on a fixed scale, 10.0 at LINT_SCORE_FULL (1000). A check is named by
 * `check`; rules that measure the same exposure (the default action, the
 * egress list, the memory bound) share one, so that a policy pays for it
 * once, at its worst rule's weight. Weight 0: not about exposure
 * (compatibility, speed, the suppression comments, a dead limit).
 *
 * Calibrated on docs/lint.md's reference table (tests/lint/run.sh checks
 * its order): a way out of the sandbox or into the kernel's widest
 * surfaces (host root, default allow, open egress, admin capabilities,
 * mount, bpf, module loading, new namespaces) weighs over 200, so that one
 * alone fails the recommended `--threshold 2`; the three limits that stop
 * a run from taking the host down (memory 100, pids 80, wall 60) fail it
 * together, not one by one.
 */
#include "lint_internal.h"

#include "danger.h"

#include <string.h>

#define SEV_E WARD_SEV_ERROR
#define SEV_W WARD_SEV_WARNING
#define SEV_N WARD_SEV_NOTE

/* The syscall families: danger.h. */

const struct lint_rule lint_rules[] = {
    /* ------------------------------------------------------------ files */
    {
	.id = "W101",
	.name = "host-root-bind",
	.severity = SEV_E,
	.weight = 350,
	.check = "host-paths",
	.area = "filesystem",
	.security_severity = "9.5",
	.summary = "the host's root directory is bound into the sandbox",
	.explanation =
	    "`bind /` puts the whole host file system in the sandbox: its "
	    "configuration, its users' homes, the sockets of its daemons (a "
	    "container runtime's socket is root on the host), /proc and "
	    "/sys. Whatever else the policy narrows, the file boundary is "
	    "gone, and read-only does not help much: secrets are read, not "
	    "written.",
	.fix = "bind only what the program needs (`bind /usr;` and the few "
	       "files of /etc it reads); the stdlib's `use base;` is a "
	       "reviewed start",
	.run = lint_fs_root_bind,
    },
    {
	.id = "W102",
	.name = "sensitive-host-bind",
	.severity = SEV_E,
	.weight = 200,
	.check = "host-paths",
	.area = "filesystem",
	.security_severity = "8.0",
	.summary = "a sensitive host path is bound into the sandbox",
	.explanation =
	    "Some host paths hand out more than files: /run, /var/run and "
	    "any *.sock hold the sockets of the host's daemons (docker.sock "
	    "is root on the host); /proc and /sys describe and steer the "
	    "host's kernel and processes, /dev its devices; /home and /root "
	    "hold its users' keys and tokens; /etc/shadow, /etc/ssh and "
	    "/etc/ssl/private its secrets; /var/lib/docker and "
	    "/var/lib/kubelet other workloads; the host's /tmp the sockets "
	    "of its desktop. A bind of an ancestor (/etc, /var) brings them "
	    "along.",
	.fix = "bind the one file or directory the program needs "
	       "(/etc/ssl/certs, not /etc); give per-run data through a slot; "
	       "for /proc and /dev write `proc;` and `dev;`, the sandbox's own",
	.run = lint_fs_sensitive_bind,
    },
    {
	.id = "W103",
	.name = "writable-host-bind",
	.severity = SEV_W,
	.weight = 100,
	.check = "writable-host",
	.area = "filesystem",
	.security_severity = "6.0",
	.summary = "a host path is bound writable",
	.explanation =
	    "A writable bind lets the sandboxed code change the host's "
	    "files, and every run of the policy shares them: one run can "
	    "plant a file for the next, or for the host's own programs. "
	    "Writable slots are different, and fine: a slot's host "
	    "directory is named by the caller at each launch (`ward --slot "
	    "output=DIR`), so the caller gives every run a fresh directory "
	    "and decides what to keep of it.",
	.fix = "use a slot (`slot output at /output rw;`) for what the "
	       "caller exports and a tmpfs for scratch space; keep host binds "
	       "read-only",
	.run = lint_fs_writable_bind,
    },
    {
	.id = "W104",
	.name = "writable-exec-mount",
	.severity = SEV_W,
	.weight = 60,
	.check = "write-exec",
	.area = "filesystem",
	.security_severity = "5.0",
	.summary = "a mount is both writable and executable",
	.explanation =
	    "Code that can write a file where it can also execute it brings "
	    "its own programs: a downloaded binary, a compiled exploit, a "
	    "library to preload. With every writable mount noexec, the "
	    "native code that runs comes from the read-only mounts the "
	    "policy chose. Some workloads must write and run (a compiler "
	    "profile runs what it built): suppress the finding there, with "
	    "the reason.",
	.fix = "leave scratch space noexec (the default for tmpfs and "
	       "writable binds); where the workload needs it, keep one "
	       "executable scratch directory and say why: "
	       "`# lint: allow W104 -- reason`",
	.run = lint_fs_write_exec,
    },
    {
	.id = "W105",
	.name = "tmpfs-over-memory",
	.severity = SEV_W,
	.weight = 30,
	.check = "memory",
	.area = "resources",
	.security_severity = "3.0",
	.summary = "tmpfs mounts can hold more than the memory limit",
	.explanation =
	    "tmpfs pages are memory, charged to the sandbox's cgroup. When "
	    "the sizes of the tmpfs mounts add up to more than the memory "
	    "limit, filling them ends in an OOM kill rather than in ENOSPC, "
	    "and the run report says the program ran out of memory when it "
	    "wrote too much.",
	.fix = "make the tmpfs sizes add up to less than `memory`, with room "
	       "left for the program itself",
	.run = lint_fs_tmpfs_memory,
    },
    {
	.id = "W106",
	.name = "memfd-exec",
	.severity = SEV_W,
	.weight = 60,
	.check = "write-exec",
	.area = "filesystem",
	.security_severity = "5.0",
	.summary = "the sandbox may execute memfds",
	.explanation =
	    "A memfd (memfd_create) is a file in memory, on no mount: the "
	    "noexec of the writable mounts does not reach it, and "
	    "execveat(fd, \"\", AT_EMPTY_PATH) runs whatever the sandbox "
	    "wrote into it, a downloaded or generated binary included. By "
	    "default the launcher makes memfds non-executable "
	    "(vm.memfd_noexec = 2 in the sandbox's pid namespace, or a "
	    "seccomp filter where it cannot). `memfd exec` gives that up; "
	    "it is the same exposure as a writable, executable mount, and "
	    "is scored as one.",
	.fix = "leave memfds non-executable (remove `memfd exec`); a JIT "
	       "that maps code from a memfd (mmap with PROT_EXEC) does not "
	       "need it, only one that execs the file does",
	.run = lint_fs_memfd_exec,
    },
    {
	.id = "W107",
	.name = "slot-size-default",
	.severity = SEV_W,
	.weight = 0, /* said, not scored: the bound holds whatever it is */
	.check = "resource-limits",
	.area = "filesystem",
	.security_severity = "3.0",
	.summary = "a read-write slot has no size of its own",
	.explanation =
	    "During a run a read-write slot is a tmpfs of a size, copied back "
	    "to its host directory afterwards: that size is what the run can "
	    "put on the host's disk, and it counts against the memory limit. "
	    "A slot without `size` and a policy without a `slot-size` limit "
	    "get ward's default (64M), which suits no workload in particular: "
	    "say what the slot is for.",
	.fix = "write the slot's size (`slot output at /output rw size 40M;`) "
	       "or a `slot-size` limit for every read-write slot",
	.run = lint_fs_slot_size,
    },
    {
	.id = "W108",
	.name = "landlock-off",
	.severity = SEV_W,
	.weight = 10,
	.check = "landlock",
	.area = "filesystem",
	.security_severity = "3.0",
	.summary = "the file boundary has one layer: `landlock off`",
	.explanation =
	    "By default the compiler turns the mount table into a Landlock "
	    "rule set that the launcher applies from inside the sandbox, so "
	    "that a mistake in the mount table (a lost read-only flag, a "
	    "mount made wrong) is still refused by the other layer. `landlock "
	    "off` leaves the mount table alone as the file boundary.",
	.fix = "remove `landlock off;` (`landlock prefer;`, the default, "
	       "runs on a kernel without Landlock too); `landlock require;` "
	       "refuses to run without it",
	.run = lint_fs_landlock_off,
    },

    /* --------------------------------------------------------- syscalls */
    {
	.id = "W201",
	.name = "default-allow",
	.severity = SEV_E,
	.weight = 350,
	.check = "default-action",
	.area = "syscalls",
	.security_severity = "9.5",
	.summary = "the default action allows every syscall the policy does "
		   "not name",
	.explanation =
	    "With `default allow` (or `default log`, which allows too) the "
	    "filter is a deny-list: every syscall the author did not think "
	    "of is allowed, including those added to the kernel after the "
	    "policy was written. The dangerous syscalls it lets through are "
	    "reported one family at a time as well.",
	.fix = "write `syscalls default errno ENOSYS { ... }` and allow what "
	       "the program needs (`use groups;`, then "
	       "`allow @system-service;`)",
	.run = lint_sys_default_allow,
    },
    {
	.id = "W202",
	.name = "default-eperm",
	.severity = SEV_W,
	.weight = 0,
	.check = "default-action",
	.area = "syscalls",
	.summary = "the default action is errno EPERM",
	.explanation =
	    "A program that calls a syscall the policy does not name gets "
	    "EPERM, which libc takes for \"forbidden\" rather than "
	    "\"missing\": glibc falls back from clone3 to clone only on "
	    "ENOSYS (Docker's EPERM broke it), and many programs give up on "
	    "EPERM. ENOSYS makes an unknown syscall look like one the kernel "
	    "lacks, and the fallback runs. Not an exposure: a compatibility "
	    "trap.",
	.fix = "write `syscalls default errno ENOSYS`; refuse by name the "
	       "syscalls that must fail as forbidden "
	       "(`errno EPERM @privileged;`)",
	.run = lint_sys_default_eperm,
    },
    {
	.id = "W203",
	.name = "default-trap",
	.severity = SEV_N,
	.weight = 20,
	.check = "default-action",
	.area = "syscalls",
	.security_severity = "2.0",
	.summary = "the default action is trap",
	.explanation =
	    "`trap` sends SIGSYS, which the sandboxed program may catch: "
	    "its handler then decides what follows every refused syscall. "
	    "The call itself does not run, but the program sees each "
	    "refusal and can work around it, and a program without a "
	    "handler dies of a signal that reads like a crash.",
	.fix = "use `errno ENOSYS` as the default, and `kill` for the calls "
	       "that can only be an attack",
	.run = lint_sys_default_trap,
    },
    {
	.id = "W204",
	.name = "default-kill",
	.severity = SEV_N,
	.weight = 0,
	.check = "default-action",
	.area = "syscalls",
	.summary = "the default action is kill",
	.explanation =
	    "With `default kill`, a program that probes for a newer syscall "
	    "(clone3, faccessat2, statx) is killed instead of falling back, "
	    "so a policy that worked breaks when a library is upgraded. It "
	    "is not less safe than ENOSYS: the refused call does not run "
	    "either way.",
	.fix = "use `errno ENOSYS` as the default and `kill` for the "
	       "syscalls that can only be an attack",
	.run = lint_sys_default_kill,
    },
    {
	.id = "W205",
	.name = "log-rule",
	.severity = SEV_N,
	.weight = 0,
	.check = "log-rules",
	.area = "syscalls",
	.summary = "a `log` rule allows what it logs",
	.explanation =
	    "`log` allows the call and writes a line to the kernel log for "
	    "each one. It is meant for writing a policy (run the workload, "
	    "read what it needed); left in a production policy it allows "
	    "the calls and fills the host's log at the sandboxed code's "
	    "pace.",
	.fix = "decide: `allow` the calls the program needs, refuse the "
	       "others",
	.run = lint_sys_log_rule,
    },
    {
	.id = "W210",
	.name = "ptrace-allowed",
	.severity = SEV_E,
	.weight = 100,
	.check = "ptrace",
	.area = "syscalls",
	.security_severity = "8.5",
	.summary = "ptrace is allowed",
	.explanation =
	    "ptrace reads and writes the memory and registers of another "
	    "process: it is how debuggers work, and how code injection and, "
	    "before Linux 4.8, seccomp bypasses worked (a tracer could "
	    "change a syscall after the filter had allowed it). It is also "
	    "a large and often patched kernel interface.",
	.fix = "refuse it: `errno EPERM ptrace;` (the stdlib's @debug holds "
	       "it)",
	.run = lint_sys_family,
	.syscalls = ward_danger_ptrace,
    },
    {
	.id = "W211",
	.name = "process-memory-allowed",
	.severity = SEV_E,
	.weight = 60,
	.check = "process-memory",
	.area = "syscalls",
	.security_severity = "7.5",
	.summary = "a syscall that reaches into other processes is allowed",
	.explanation =
	    "process_vm_readv and process_vm_writev copy memory between "
	    "processes, pidfd_getfd takes another process's file "
	    "descriptor, process_madvise changes another's memory, kcmp "
	    "compares the kernel objects of two processes. Each is ptrace "
	    "by another name, allowed whenever ptrace would be.",
	.fix = "refuse them: `errno EPERM @debug;` (stdlib groups)",
	.run = lint_sys_family,
	.syscalls = ward_danger_procmem,
    },
    {
	.id = "W212",
	.name = "mount-allowed",
	.severity = SEV_E,
	.weight = 250,
	.check = "mount",
	.area = "syscalls",
	.security_severity = "8.0",
	.summary = "a syscall that mounts or changes the root is allowed",
	.explanation =
	    "Mounting is how a process in a user namespace of its own "
	    "rebuilds its view of the files: it unmounts what hides a path, "
	    "remounts read-only mounts, mounts filesystems whose kernel code "
	    "was never meant for untrusted images. The launcher has built "
	    "the mount table already; the program has no reason to change "
	    "it.",
	.fix = "refuse them: `errno EPERM @mount;`",
	.run = lint_sys_family,
	.syscalls = ward_danger_mount,
    },
    {
	.id = "W213",
	.name = "bpf-allowed",
	.severity = SEV_E,
	.weight = 250,
	.check = "bpf",
	.area = "syscalls",
	.security_severity = "8.0",
	.summary = "bpf is allowed",
	.explanation =
	    "bpf loads programs into the kernel and reads and writes its "
	    "maps. The verifier that keeps those programs safe has been the "
	    "source of a long line of privilege escalations; most "
	    "distributions switch unprivileged BPF off for that reason.",
	.fix = "refuse it: `errno EPERM bpf;` (in the stdlib's @privileged)",
	.run = lint_sys_family,
	.syscalls = ward_danger_bpf,
    },
    {
	.id = "W214",
	.name = "perf-event-allowed",
	.severity = SEV_E,
	.weight = 60,
	.check = "perf",
	.area = "syscalls",
	.security_severity = "7.0",
	.summary = "perf_event_open is allowed",
	.explanation =
	    "Performance counters measure other code running on the same "
	    "CPU (a side channel), and the perf subsystem is a frequent "
	    "source of kernel bugs; most distributions restrict it to "
	    "privileged users.",
	.fix = "refuse it: `errno EPERM perf_event_open;` (in the stdlib's "
	       "@debug)",
	.run = lint_sys_family,
	.syscalls = ward_danger_perf,
    },
    {
	.id = "W215",
	.name = "keyring-allowed",
	.severity = SEV_E,
	.weight = 50,
	.check = "keyring",
	.area = "syscalls",
	.security_severity = "6.5",
	.summary = "a kernel keyring syscall is allowed",
	.explanation =
	    "The kernel keyrings are not namespaced like the rest of the "
	    "sandbox: a user's keyrings can be shared with processes of the "
	    "same uid outside it, and the keyring code has had its share of "
	    "escalations. Programs almost never need it.",
	.fix = "refuse them: `errno EPERM @keyring;`",
	.run = lint_sys_family,
	.syscalls = ward_danger_keyring,
    },
    {
	.id = "W216",
	.name = "userfaultfd-allowed",
	.severity = SEV_E,
	.weight = 60,
	.check = "userfaultfd",
	.area = "syscalls",
	.security_severity = "7.0",
	.summary = "userfaultfd is allowed",
	.explanation =
	    "userfaultfd lets a process stall the kernel at a page fault of "
	    "its choosing, for as long as it likes: the standard tool for "
	    "winning races in kernel exploits. Few programs use it (live "
	    "migration, some garbage collectors).",
	.fix = "refuse it: `errno EPERM userfaultfd;`",
	.run = lint_sys_family,
	.syscalls = ward_danger_uffd,
    },
    {
	.id = "W217",
	.name = "io-uring-allowed",
	.severity = SEV_E,
	.weight = 80,
	.check = "io-uring",
	.area = "syscalls",
	.security_severity = "7.5",
	.summary = "io_uring is allowed",
	.explanation =
	    "io_uring performs reads, writes, opens, connects and more from "
	    "a ring buffer, without a syscall per operation: seccomp never "
	    "sees those operations, so a filter that refuses openat or "
	    "connect does not refuse them through io_uring. It has also "
	    "been among the largest sources of kernel escalations.",
	.fix = "refuse them: `errno EPERM @io-uring;`",
	.run = lint_sys_family,
	.syscalls = ward_danger_uring,
    },
    {
	.id = "W218",
	.name = "namespaces-allowed",
	.severity = SEV_E,
	.weight = 250,
	.check = "namespaces",
	.area = "syscalls",
	.security_severity = "8.0",
	.summary = "unshare or setns is allowed",
	.explanation =
	    "A process that creates a user namespace is root in it, with "
	    "every capability over the namespaces it creates next: mounts, "
	    "network devices, nftables. That opens kernel code written for "
	    "administrators to any process, and most container escapes of "
	    "recent years began there.",
	.fix = "refuse them: `errno EPERM @namespaces;`",
	.run = lint_sys_family,
	.syscalls = ward_danger_ns,
    },
    {
	.id = "W219",
	.name = "clone-namespaces",
	.severity = SEV_E,
	.weight = 250,
	.check = "namespaces",
	.area = "syscalls",
	.security_severity = "8.0",
	.summary = "clone is allowed with namespace flags",
	.explanation =
	    "clone with CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET or another "
	    "CLONE_NEW* flag creates namespaces as unshare does. Threads and "
	    "fork need clone; nothing in a sandbox needs it whatever the "
	    "flags.",
	.fix = "allow it without those flags only: `allow clone if flags & "
	       "clone-namespaces == 0; errno EPERM clone;` (clone-namespaces "
	       "comes with `use groups;`)",
	.run = lint_sys_clone_ns,
    },
    {
	.id = "W220",
	.name = "clone3-allowed",
	.severity = SEV_W,
	.weight = 50,
	.check = "namespaces",
	.area = "syscalls",
	.security_severity = "6.0",
	.summary = "clone3 is allowed",
	.explanation =
	    "clone3 takes its flags in a structure in memory, which seccomp "
	    "cannot read: a filter cannot allow clone3 for threads and "
	    "refuse it for namespaces. glibc falls back to clone when "
	    "clone3 fails with ENOSYS, and clone's flags are in a register "
	    "the filter checks.",
	.fix = "refuse it: `errno ENOSYS clone3;`, and check clone's flags",
	.run = lint_sys_family,
	.syscalls = ward_danger_clone3,
    },
    {
	.id = "W221",
	.name = "file-handles-allowed",
	.severity = SEV_E,
	.weight = 80,
	.check = "file-handles",
	.area = "syscalls",
	.security_severity = "8.0",
	.summary = "a file-handle syscall is allowed",
	.explanation =
	    "open_by_handle_at opens a file by its handle, without a path: "
	    "with CAP_DAC_READ_SEARCH it reaches files outside the "
	    "sandbox's mounts (the \"shocker\" escape from Docker). "
	    "name_to_handle_at makes the handles and is of no use without "
	    "it.",
	.fix = "refuse them: `errno EPERM open_by_handle_at, "
	       "name_to_handle_at;`",
	.run = lint_sys_family,
	.syscalls = ward_danger_handle,
    },
    {
	.id = "W222",
	.name = "reboot-allowed",
	.severity = SEV_E,
	.weight = 30,
	.check = "reboot",
	.area = "syscalls",
	.security_severity = "6.0",
	.summary = "kexec or reboot is allowed",
	.explanation =
	    "kexec_load and kexec_file_load load a new kernel; reboot "
	    "restarts or halts the machine. They need CAP_SYS_BOOT in the "
	    "host's namespace, which the sandbox never has, so a call can "
	    "only fail, or succeed through a kernel bug.",
	.fix = "refuse them: `errno EPERM @reboot;`",
	.run = lint_sys_family,
	.syscalls = ward_danger_reboot,
    },
    {
	.id = "W223",
	.name = "kernel-modules-allowed",
	.severity = SEV_E,
	.weight = 250,
	.check = "modules",
	.area = "syscalls",
	.security_severity = "6.0",
	.summary = "a kernel module syscall is allowed",
	.explanation =
	    "Loading a module is running code in the kernel. The syscalls "
	    "need CAP_SYS_MODULE in the host's namespace, so allowing them "
	    "can only help an exploit.",
	.fix = "refuse them: `errno EPERM @module;`",
	.run = lint_sys_family,
	.syscalls = ward_danger_module,
    },
    {
	.id = "W224",
	.name = "swap-syscalls-allowed",
	.severity = SEV_W,
	.weight = 20,
	.check = "swap-syscalls",
	.area = "syscalls",
	.security_severity = "4.0",
	.summary = "swapon or swapoff is allowed",
	.explanation =
	    "Switching swap areas on and off acts on the whole host and "
	    "needs CAP_SYS_ADMIN there: allowing the calls can only help an "
	    "exploit.",
	.fix = "refuse them: `errno EPERM @swap;`",
	.run = lint_sys_family,
	.syscalls = ward_danger_swap,
    },
    {
	.id = "W225",
	.name = "raw-io-allowed",
	.severity = SEV_E,
	.weight = 30,
	.check = "raw-io",
	.area = "syscalls",
	.security_severity = "6.0",
	.summary = "iopl or ioperm is allowed",
	.explanation =
	    "iopl and ioperm give a process the machine's I/O ports (x86 "
	    "only). They need CAP_SYS_RAWIO, which the sandbox never has.",
	.fix = "refuse them: `errno EPERM @raw-io;`",
	.run = lint_sys_family,
	.syscalls = ward_danger_rawio,
    },
    {
	.id = "W226",
	.name = "personality-unrestricted",
	.severity = SEV_W,
	.weight = 20,
	.check = "personality",
	.area = "syscalls",
	.security_severity = "4.0",
	.summary = "personality is allowed for every persona",
	.explanation =
	    "personality switches execution domains: ADDR_NO_RANDOMIZE "
	    "turns address-space randomisation off for the programs the "
	    "process executes next, READ_IMPLIES_EXEC makes readable memory "
	    "executable, and old domains bring old, little-tested code. "
	    "Programs only query it (persona 0xffffffff) or set the "
	    "default, PER_LINUX (0).",
	.fix = "allow the query and the default only: `allow personality if "
	       "persona == 0xffffffff || persona == 0;`",
	.run = lint_sys_personality,
    },
    {
	.id = "W227",
	.name = "privileged-allowed",
	.severity = SEV_W,
	.weight = 30,
	.check = "privileged",
	.area = "syscalls",
	.security_severity = "5.0",
	.summary = "a privileged or obsolete syscall is allowed",
	.explanation =
	    "These syscalls change what the host shares (its clocks, host "
	    "and domain names, quotas, the kernel log, process accounting, "
	    "fanotify marks) or are legacy interfaces (uselib, modify_ldt, "
	    "nfsservctl, _sysctl) with a history of bugs. Most need a "
	    "capability the sandbox never has, so a call can only fail, or "
	    "succeed through a kernel bug.",
	.fix = "refuse them: `errno EPERM @privileged, @obsolete, "
	       "@cpu-emulation;`",
	.run = lint_sys_family,
	.syscalls = ward_danger_priv,
    },
    {
	.id = "W228",
	.name = "ioctl-unrestricted",
	.severity = SEV_W,
	.weight = 40,
	.check = "ioctl",
	.area = "syscalls",
	.security_severity = "5.0",
	.summary = "ioctl is allowed for every request",
	.explanation =
	    "ioctl is a thousand syscalls behind one number: every driver "
	    "adds requests of its own, and terminal requests such as TIOCSTI "
	    "(push input into a terminal) and TIOCLINUX have been used to "
	    "escape sandboxes that shared a terminal. Programs need a "
	    "handful: TCGETS for isatty, FIONREAD, FIONBIO, FIOCLEX.",
	.fix = "allow the requests the program uses: `allow ioctl if request "
	       "== TCGETS || request == FIONBIO; errno ENOTTY ioctl;`",
	.run = lint_sys_ioctl,
    },
    {
	.id = "W230",
	.name = "hot-path-arguments",
	.severity = SEV_N,
	.weight = 0,
	.check = "hot-path",
	.area = "syscalls",
	.summary = "a frequent syscall is checked by argument",
	.explanation =
	    "Since Linux 5.11 the kernel remembers, per syscall, that a "
	    "filter allows it whatever the arguments, and then skips the "
	    "filter: such a call costs nothing. A syscall with a condition "
	    "cannot be cached and runs the filter on every call; for read, "
	    "write, mmap, futex and the other calls a program makes "
	    "thousands of times a second, that shows. Not an exposure: a "
	    "cost.",
	.fix = "allow the frequent syscalls without a condition; check "
	       "arguments on rare calls (clone, socket, ioctl, personality)",
	.run = lint_sys_hot_path,
    },

    /* ---------------------------------------------------------- network */
    {
	.id = "W301",
	.name = "egress-anywhere",
	.severity = SEV_E,
	.weight = 350,
	.check = "egress",
	.area = "network",
	.security_severity = "9.0",
	.summary = "the egress allow-list is open to every address",
	.explanation =
	    "An allow rule for 0.0.0.0/0 or ::/0 lets the sandbox reach "
	    "every host: the Internet, to send data out, and the host's "
	    "private networks and the cloud's metadata service "
	    "(169.254.169.254), which hands out the machine's credentials.",
	.fix = "name the hosts the program needs and pin them: `host mirror "
	       "= 192.0.2.10; allow tcp mirror port 443;`",
	.run = lint_net_world,
    },
    {
	.id = "W302",
	.name = "egress-wide-network",
	.severity = SEV_W,
	.weight = 120,
	.check = "egress",
	.area = "network",
	.security_severity = "6.0",
	.summary = "an egress rule allows a very large network",
	.explanation =
	    "A rule for a network wider than /16 (IPv4) or /32 (IPv6) allows "
	    "tens of thousands of hosts or more, which no one can review. It "
	    "is almost always a shortcut for a few servers.",
	.fix = "allow the hosts the program needs, each pinned with `host "
	       "NAME = ADDR;`",
	.run = lint_net_wide,
    },
    {
	.id = "W303",
	.name = "egress-private-network",
	.severity = SEV_W,
	.weight = 150,
	.check = "egress",
	.area = "network",
	.security_severity = "7.0",
	.summary = "an egress rule reaches a private or link-local network",
	.explanation =
	    "Private (10/8, 172.16/12, 192.168/16, fc00::/7), shared "
	    "carrier-grade NAT (100.64/10) and link-local (169.254/16, "
	    "fe80::/10) networks are where a host's internal services live: "
	    "databases, admin interfaces, container runtimes, the cloud's "
	    "metadata service. Code that reaches them is inside the "
	    "perimeter the network was built on.",
	.fix = "allow the one internal host the program needs, pinned with "
	       "`host`, on its port; never a whole private network",
	.run = lint_net_private,
    },
    {
	.id = "W304",
	.name = "egress-metadata",
	.severity = SEV_E,
	.weight = 300,
	.check = "egress",
	.area = "network",
	.security_severity = "9.0",
	.summary = "an egress rule reaches a cloud metadata address",
	.explanation =
	    "169.254.169.254 (and fd00:ec2::254, 169.254.170.2, "
	    "100.100.100.200) is a cloud's instance metadata service: it "
	    "gives the machine's identity and temporary credentials to "
	    "whoever asks from the machine. Sandboxed code that reaches it "
	    "acts as the host in the cloud account.",
	.fix = "remove the rule; no sandboxed workload needs the metadata "
	       "service",
	.run = lint_net_metadata,
    },
    {
	.id = "W305",
	.name = "egress-raw-address",
	.severity = SEV_N,
	.weight = 0,
	.check = "egress-review",
	.area = "network",
	.summary = "an egress rule names a raw address",
	.explanation =
	    "`allow tcp 203.0.113.7 port 443` tells a reviewer nothing about "
	    "what the address is. A pinned name says it, and the pin (`host "
	    "NAME = ADDR;`) also puts the name in the sandbox's /etc/hosts, "
	    "so that the program connects without DNS. A network "
	    "(`10.1.2.0/24`) cannot be pinned and is not reported here.",
	.fix = "pin the host and allow it by name: `host mirror = "
	       "203.0.113.7; allow tcp mirror port 443;`",
	.run = lint_net_raw_addr,
    },
    {
	.id = "W306",
	.name = "egress-dns",
	.severity = SEV_W,
	.weight = 60,
	.check = "dns",
	.area = "network",
	.security_severity = "5.0",
	.summary = "an egress rule allows DNS",
	.explanation =
	    "A rule that allows port 53 lets the sandbox query name servers: "
	    "names then resolve at run time to addresses no one reviewed, "
	    "and queries carry data out (DNS tunnelling) where every other "
	    "way is closed. With `host` pins the sandbox needs no DNS: the "
	    "pinned names are in its /etc/hosts.",
	.fix = "pin the names the program uses with `host NAME = ADDR;` and "
	       "remove port 53",
	.run = lint_net_dns,
    },
    {
	.id = "W307",
	.name = "egress-port-range",
	.severity = SEV_W,
	.weight = 30,
	.check = "ports",
	.area = "network",
	.security_severity = "4.0",
	.summary = "an egress rule allows a wide port range",
	.explanation =
	    "A rule for more than 1024 ports (1-65535 at worst) allows every "
	    "service the destination runs, not the one the program talks "
	    "to.",
	.fix = "allow the ports the program uses: `port 443` or "
	       "`port 80, 443`",
	.run = lint_net_ports,
    },
    {
	.id = "W308",
	.name = "egress-wildcard-name",
	.severity = SEV_W,
	.weight = 40,
	.check = "egress-names",
	.area = "network",
	.security_severity = "5.0",
	.summary = "an egress rule allows a wildcard domain name",
	.explanation =
	    "`allow tcp name \"*.files.example\" port 443;` allows every "
	    "name below files.example, one or more labels deep: whatever "
	    "the domain's owner, or anyone who controls its DNS, names "
	    "there, and whatever addresses those names are given, shared "
	    "CDN addresses included. wardc refuses a wildcard directly "
	    "under a public suffix (`*.com`, `*.co.uk`); a wildcard under "
	    "one organisation's domain is allowed, and scored here.",
	.fix = "name the hosts the program needs (`index.example`, "
	       "`files.example`); keep a wildcard for a file host whose "
	       "names change",
	.run = lint_net_wildcard,
    },
    {
	.id = "W309",
	.name = "egress-answers-private",
	.severity = SEV_W,
	.weight = 80,
	.check = "egress-names",
	.area = "network",
	.security_severity = "6.0",
	.summary = "DNS answers may lead into a private network",
	.explanation =
	    "`allow answers 10.0.0.0/8;` lets an answer for an allowed "
	    "name make an address of that private network reachable. "
	    "Whoever controls the DNS of an allowed name (a wildcard's "
	    "domain above all) can then point it at any host of the "
	    "network on the rule's ports (DNS rebinding): the sandbox "
	    "reaches inside the host's network by a name. Without it an "
	    "answer naming 10/8, 100.64/10, 172.16/12, 192.168/16 or "
	    "fc00::/7 is refused, as loopback and link-local always are.",
	.fix = "allow the smallest network the names' servers are in "
	       "(`allow answers 10.20.30.0/28;`), or pin them by address "
	       "with `host` and a literal rule",
	.run = lint_net_answers,
    },

    /* -------------------------------------------------------- resources */
    {
	.id = "W401",
	.name = "no-memory-limit",
	.severity = SEV_W,
	.weight = 100,
	.check = "memory",
	.area = "resources",
	.security_severity = "6.0",
	.policy_only = true,
	.summary = "no memory limit",
	.explanation =
	    "Without `memory` the sandbox can take all of the host's memory, "
	    "and the kernel's OOM killer then chooses among all the host's "
	    "processes. With it, the sandbox's cgroup is killed alone and "
	    "the run report says why.",
	.fix = "add `memory 512M; swap 0;` to `limits`, sized for the "
	       "workload",
	.run = lint_lim_memory,
    },
    {
	.id = "W402",
	.name = "no-pids-limit",
	.severity = SEV_W,
	.weight = 80,
	.check = "pids",
	.area = "resources",
	.security_severity = "6.0",
	.policy_only = true,
	.summary = "no pids limit",
	.explanation =
	    "Without `pids` a fork bomb fills the host's process table, and "
	    "every other workload on the host fails to start processes. The "
	    "limit counts threads too: leave room for the runtime's thread "
	    "pools.",
	.fix = "add `pids 256;` (or what the workload needs) to `limits`",
	.run = lint_lim_pids,
    },
    {
	.id = "W403",
	.name = "no-wall-limit",
	.severity = SEV_W,
	.weight = 60,
	.check = "wall",
	.area = "resources",
	.security_severity = "5.0",
	.policy_only = true,
	.summary = "no wall-clock limit",
	.explanation =
	    "Without `wall` a run that sleeps, waits on a pipe or spins "
	    "under its CPU quota never ends: the caller waits for ever and "
	    "the sandbox keeps its memory and processes. `cputime` does not "
	    "catch a program that waits.",
	.fix = "add `wall 30s;` (or what the workload needs) to `limits`",
	.run = lint_lim_wall,
    },
    {
	.id = "W404",
	.name = "no-output-limit",
	.severity = SEV_W,
	.weight = 40,
	.check = "output",
	.area = "resources",
	.security_severity = "4.0",
	.policy_only = true,
	.summary = "the output streams are not bounded",
	.explanation =
	    "stdout and stderr are read by the supervisor, on the host. "
	    "Without `stdout` and `stderr`, or `output`, a program that "
	    "prints in a loop fills the caller's memory or disk; with them "
	    "the supervisor keeps the first bytes, digests the rest and "
	    "records that the cap was hit.",
	.fix = "add `stdout 1M; stderr 1M; output 2M;` to `limits`",
	.run = lint_lim_output,
    },
    {
	.id = "W405",
	.name = "swap-allowed",
	.severity = SEV_W,
	.weight = 20,
	.check = "memory",
	.area = "resources",
	.security_severity = "3.0",
	.summary = "swap is allowed on top of the memory limit",
	.explanation =
	    "With `swap` above 0, or no `swap` limit (the host's default "
	    "then applies), a sandbox at its memory limit is swapped out "
	    "instead of killed: it slows the whole host down, and its "
	    "memory, secrets included, is written to the host's disk.",
	.fix = "write `swap 0;` beside `memory`",
	.run = lint_lim_swap,
    },
    {
	.id = "W406",
	.name = "no-cpu-limit",
	.severity = SEV_N,
	.weight = 20,
	.check = "cpu",
	.area = "resources",
	.security_severity = "3.0",
	.policy_only = true,
	.summary = "no CPU limit",
	.explanation =
	    "Without `cpu` (a quota) the sandbox can use every CPU of the "
	    "host, and without `cputime` a busy loop runs until `wall`. "
	    "Neither lets it out, but either lets one run starve the "
	    "others.",
	.fix = "add `cpu 0.5;` to `limits`, and a `cputime` below `cpu` x "
	       "`wall` (`cputime 14s;` with `wall 30s`: W412)",
	.run = lint_lim_cpu,
    },
    {
	.id = "W407",
	.name = "core-dumps",
	.severity = SEV_N,
	.weight = 20,
	.check = "core",
	.area = "resources",
	.security_severity = "2.0",
	.summary = "core dumps are enabled",
	.explanation =
	    "A crashing program writes its memory to a core file in its "
	    "working directory, which may be an output slot the caller "
	    "exports: the secrets the program held leave with it. Without a "
	    "`core` limit the launcher sets RLIMIT_CORE to 0.",
	.fix = "remove `core` from `limits` (or write `core 0;`)",
	.run = lint_lim_core,
    },
    /* The export caps: the output channel, like W404 (one check). */
    {
	.id = "W408",
	.name = "export-no-total-cap",
	.severity = SEV_W,
	.weight = 40,
	.check = "output",
	.area = "resources",
	.security_severity = "4.0",
	.summary = "an export has per-file caps but no total cap",
	.explanation =
	    "`files` and `per-file` bound each file, not what they add up "
	    "to: 20 files of 5M are 100M (the first seed). What the exporter "
	    "copies lands on the caller's disk and in front of whatever "
	    "reads the results; without `total`, a run that writes many "
	    "files at the per-file cap takes the whole product out. "
	    "`wardc explain` shows the bound, min(files x per-file, total).",
	.fix = "add `total 40M;` (or what the results need) to the `export` "
	       "section",
	.run = lint_export_total,
    },
    {
	.id = "W409",
	.name = "export-active-content",
	.severity = SEV_N,
	.weight = 20,
	.check = "output",
	.area = "resources",
	.security_severity = "3.0",
	.summary = "an export lets out content that its reader executes",
	.explanation =
	    "The exporter checks content types by their bytes, but it does "
	    "not clean what it lets out: an HTML or SVG file runs scripts in "
	    "the browser that opens it; an archive (zip, tar, gzip) is "
	    "refused when an entry would unpack outside, as a link or a "
	    "device, or past the caps, but the files it holds are not typed: "
	    "an executable or an HTML page leaves inside it. The attack then "
	    "moves from the sandbox to the viewer (the first seed).",
	.fix = "export data (`text`, `png`, `pdf`) and render it outside, or "
	       "open these files only in a viewer that does not run them",
	.run = lint_export_active,
    },
    {
	.id = "W410",
	.name = "writable-slot-not-exported",
	.severity = SEV_W,
	.weight = 40,
	.check = "export-rules",
	.area = "resources",
	.security_severity = "4.0",
	.policy_only = true,
	.summary = "a writable slot has no export rules",
	.explanation =
	    "What a run leaves in a writable slot is the untrusted code's "
	    "output: symlinks to the caller's files, FIFOs that block a "
	    "reader, a million files, names with terminal escapes, content "
	    "whose type lies. The exporter checks it against the policy's "
	    "`export` section before anything reaches the caller (`ward "
	    "--export-dir`), all or nothing; without one, `--export-dir` is "
	    "refused and the only way out is the raw slot, unchecked (the "
	    "first seed: only permitted artefacts leave).",
	.fix = "add `export SLOT { files 20; per-file 5M; total 40M; types "
	       "text; }` sized for the results, or make the slot read-only if "
	       "nothing comes back through it",
	.run = lint_export_missing,
    },
    {
	.id = "W411",
	.name = "oom-process",
	.severity = SEV_W,
	.weight = 30,
	.check = "memory",
	.area = "resources",
	.security_severity = "3.0",
	.policy_only = true,
	.summary = "an OOM kill ends only its victim",
	.explanation =
	    "By default an OOM kill anywhere in the sandbox ends the whole run "
	    "(seed 000: past a limit, end the whole process group), reason "
	    "`oom_killed`. With `oom process` the kernel kills one victim and "
	    "the rest goes on: a parent whose worker died of the memory limit "
	    "can still exit 0 with a wrong result, and the report's reason "
	    "says `exited`.",
	.fix = "remove `oom process;` unless the workload restarts its own "
	       "workers and checks their exits",
	.run = lint_lim_oom_process,
    },
    {
	.id = "W412",
	.name = "dead-limit",
	.severity = SEV_W,
	.weight = 0,
	.check = "dead-limits",
	.area = "resources",
	.security_severity = "2.0",
	.summary = "a limit can never be reached",
	.explanation =
	    "Another limit or the mounts always come first: `cputime` at or "
	    "above `cpu` x `wall` (one process cannot use more CPU time than "
	    "the whole cgroup gets before the wall ends the run); `filesize` "
	    "at or above the largest file the sandbox can hold (its writable "
	    "tmpfs mounts and slots, /dev/shm, memfds when memfd_create may "
	    "be called, and `memory` + `swap` over all of them; a writable "
	    "bind is unbounded). (A `stdout` or `stderr` cap above `output` "
	    "is the compiler's own warning.) "
	    "The limit reads like a boundary and is none: the report can "
	    "never give its reason (a CPU-bound run ends `timeout`, not "
	    "`cpu_time`), and a reviewer who trusts it misjudges the policy. "
	    "Not an exposure (the tighter limit holds), so it does not count "
	    "in the score.",
	.fix = "lower the limit below what comes first (`cputime 14s` with "
	       "`cpu 0.5` and `wall 30s`), or remove it",
	.run = lint_lim_dead,
    },

    /* ------------------------------------------ identity and environment */
    {
	.id = "W501",
	.name = "root-user",
	.severity = SEV_W,
	.weight = 60,
	.check = "user",
	.area = "identity",
	.security_severity = "5.0",
	.summary = "the sandbox runs as root (uid or gid 0)",
	.explanation =
	    "uid 0 inside the sandbox is not root on the host (the user "
	    "namespace maps it to an unprivileged id), but it owns the "
	    "sandbox's files and namespaces, programs take it as licence to "
	    "administer, and one kernel bug away it is the better place to "
	    "start from.",
	.fix = "write `user 1000; group 1000;` (the default), or the ids "
	       "the workload expects",
	.run = lint_id_root,
    },
    {
	.id = "W502",
	.name = "capabilities-kept",
	.severity = SEV_W,
	.weight = 100,
	.check = "capabilities",
	.area = "identity",
	.security_severity = "6.0",
	.summary = "capabilities are kept",
	.explanation =
	    "Capabilities kept in the sandbox hold over its namespaces only, "
	    "but they open kernel code an unprivileged process cannot "
	    "reach: every one widens the attack surface, and no_new_privs "
	    "does not take them away.",
	.fix = "write `capabilities none;` (the default); a server that "
	       "wants a low port can listen on a high one",
	.run = lint_id_caps,
    },
    {
	.id = "W503",
	.name = "admin-capabilities-kept",
	.severity = SEV_E,
	.weight = 300,
	.check = "capabilities",
	.area = "identity",
	.security_severity = "8.5",
	.summary = "an administrative capability is kept",
	.explanation =
	    "CAP_SYS_ADMIN, CAP_NET_ADMIN, CAP_SYS_PTRACE, CAP_SYS_MODULE, "
	    "CAP_BPF and their kind are near-root: over the sandbox's "
	    "namespaces they allow mounts, network configuration, tracing "
	    "and BPF, the kernel interfaces most escapes go through; "
	    "CAP_DAC_READ_SEARCH enables open_by_handle_at.",
	.fix = "write `capabilities none;`; a workload that truly needs one "
	       "belongs in a virtual machine",
	.run = lint_id_admin_caps,
    },
    {
	.id = "W504",
	.name = "secret-in-policy",
	.severity = SEV_E,
	.weight = 150,
	.check = "secrets",
	.area = "identity",
	.security_severity = "8.0",
	.summary = "an environment variable holds what looks like a secret",
	.explanation =
	    "A token, password or key written in a policy is in its version "
	    "history, in every blob compiled from it (the blob records the "
	    "environment) and in the output of `wardc explain`; and it is "
	    "handed to the sandboxed code, the code the sandbox does not "
	    "trust.",
	.fix = "remove it; if the task needs a credential, give it a narrow, "
	       "short-lived one at launch, in a file of a slot the caller "
	       "fills per run",
	.run = lint_env_secret_value,
    },
    {
	.id = "W505",
	.name = "secret-inherited",
	.severity = SEV_W,
	.weight = 120,
	.check = "secrets",
	.area = "identity",
	.security_severity = "7.0",
	.summary = "an environment variable that looks like a secret is "
		   "inherited",
	.explanation =
	    "`inherit` passes the caller's value into the sandbox: a token "
	    "in the caller's environment (a CI job's, an agent framework's) "
	    "becomes readable by the untrusted code, which can send it out "
	    "through any channel it has, stdout included. The control "
	    "plane's credentials never enter the sandbox.",
	.fix = "stop inheriting it; give the task a credential of its own, "
	       "scoped to it, when it needs one",
	.run = lint_env_secret_inherit,
    },
    {
	.id = "W506",
	.name = "inherited-code-path",
	.severity = SEV_W,
	.weight = 60,
	.check = "inherited-code-path",
	.area = "identity",
	.security_severity = "5.0",
	.summary = "an inherited variable chooses which code runs",
	.explanation =
	    "PATH, LD_PRELOAD, LD_LIBRARY_PATH, PYTHONPATH, NODE_OPTIONS, "
	    "BASH_ENV and their kind decide which programs and libraries "
	    "are loaded. Inherited, they make the sandbox run what the "
	    "caller's environment says rather than what was reviewed, and "
	    "one policy behaves differently from one caller to the next.",
	.fix = "set the value in the policy (`PATH = \"/usr/bin:/bin\";`) "
	       "instead of inheriting it",
	.run = lint_env_inherit_path,
    },
    {
	.id = "W507",
	.name = "revealing-hostname",
	.severity = SEV_N,
	.weight = 10,
	.check = "hostname",
	.area = "identity",
	.security_severity = "2.0",
	.summary = "the hostname looks like a real host's",
	.explanation =
	    "The hostname is visible to the sandboxed code. A real host's "
	    "name (this machine's, or a fully qualified one) tells it where "
	    "it runs: which organisation, which cluster, which machine to "
	    "aim at. The sandbox needs a name, not that one.",
	.fix = "keep the default, `hostname \"sandbox\";`, or another "
	       "neutral name",
	.run = lint_id_hostname,
    },
    {
	.id = "W508",
	.name = "identity-not-named",
	.severity = SEV_W,
	.weight = 30,
	.check = "identity-named",
	.area = "identity",
	.security_severity = "3.0",
	.policy_only = true,
	.summary = "the policy does not name the sandbox's user and group",
	.explanation =
	    "Without `user` and `group` in an `identity` section the sandbox "
	    "runs as the default, 1000: safe today, but chosen by no one "
	    "who reviewed the policy, and a reader cannot tell the "
	    "difference from an oversight (the seeds: name the user "
	    "explicitly, never rely on a default). An explicit identity is "
	    "also what `wardc explain` and the run report can be checked "
	    "against.",
	.fix = "write `identity { user 1000; group 1000; capabilities none; "
	       "}` (or the ids the workload expects)",
	.run = lint_id_named,
    },

    /* ------------------------------------------- the suppression comments */
    {
	.id = LINT_ID_NO_REASON,
	.name = "suppression-without-reason",
	.severity = SEV_W,
	.weight = 0,
	.check = "suppressions",
	.area = "lint",
	.summary = "a suppression comment gives no reason",
	.explanation =
	    "A suppression records a decision: that the finding is "
	    "intended, and why. Without the why, the next reviewer cannot "
	    "tell a deliberate choice from a silenced warning. A "
	    "suppression without a reason suppresses nothing.",
	.fix = "add the reason after `--`: `# lint: allow W104 -- the "
	       "compiler profile runs what it builds`",
    },
    {
	.id = LINT_ID_UNUSED,
	.name = "unused-suppression",
	.severity = SEV_W,
	.weight = 0,
	.check = "suppressions",
	.area = "lint",
	.summary = "a suppression comment matches no finding",
	.explanation =
	    "The rule it names does not fire on the statement it stands by: "
	    "the policy changed, or the comment is in the wrong place (on "
	    "the statement's line, or in the comment lines right above it). "
	    "Left there, it would hide the finding if the problem came "
	    "back.",
	.fix = "remove the comment, or move it next to the statement the "
	       "finding points at",
    },
    {
	.id = LINT_ID_BAD,
	.name = "malformed-suppression",
	.severity = SEV_W,
	.weight = 0,
	.check = "suppressions",
	.area = "lint",
	.summary = "a lint comment cannot be read",
	.explanation =
	    "A comment that starts with `lint:` is a directive, written "
	    "`# lint: allow W104, W105 -- reason`. This one does not follow "
	    "that form, or names a rule that does not exist or cannot be "
	    "suppressed (the W9xx rules), and that part suppresses nothing.",
	.fix = "write `# lint: allow WNNN -- reason`, with ids from `wardc "
	       "lint --list-rules`",
    },
};

const size_t lint_nrules = sizeof(lint_rules) / sizeof(lint_rules[0]);

const struct lint_rule *lint_rule_find(const char *id)
{
	for (size_t i = 0; i < lint_nrules; i++)
		if (strcmp(lint_rules[i].id, id) == 0)
			return &lint_rules[i];
	return NULL;
}
