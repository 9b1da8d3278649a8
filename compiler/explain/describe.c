/* SPDX-License-Identifier: MIT */
/*
 * describe.c: the parts of a compiled policy in the words a reviewer reads
 * (describe.h): mounts as the fs section would write them, comparisons
 * with the argument's name ("arg0 (domain) == 0x1"), a syscall's decision
 * list, network rules, the launcher's requirements. explain and diff print
 * the same part with the same words, so that a diff line can be found in
 * an explanation. Values in units and actions are spelled by the checker's
 * units.c and rules_meaning.c, which its messages use too.
 */
#include "describe.h"

#include "blob_read.h"
#include "rules_meaning.h"
#include "syscall_args.h"
#include "units.h"
#include "util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

const char *describe_arch(uint32_t arch)
{
	switch (arch) {
	case WARD_ARCH_X86_64:
		return "x86_64";
	case WARD_ARCH_AARCH64:
		return "aarch64";
	}
	return "unknown";
}

static const char *const limit_names[WARD_LIM_COUNT] = {
    [WARD_LIM_MEMORY] = "memory",
    [WARD_LIM_SWAP] = "swap",
    [WARD_LIM_CPU] = "cpu",
    [WARD_LIM_PIDS] = "pids",
    [WARD_LIM_WALL] = "wall",
    [WARD_LIM_GRACE] = "grace",
    [WARD_LIM_CPUTIME] = "cputime",
    [WARD_LIM_NOFILE] = "nofile",
    [WARD_LIM_FILESIZE] = "filesize",
    [WARD_LIM_NPROC] = "nproc",
    [WARD_LIM_STACK] = "stack",
    [WARD_LIM_MEMLOCK] = "memlock",
    [WARD_LIM_CORE] = "core",
    [WARD_LIM_STDOUT] = "stdout",
    [WARD_LIM_STDERR] = "stderr",
    [WARD_LIM_OUTPUT] = "output",
    [WARD_LIM_SIGPENDING] = "sigpending",
    [WARD_LIM_MSGQUEUE] = "msgqueue",
    [WARD_LIM_INOTIFY_INSTANCES] = "inotify-instances",
    [WARD_LIM_INOTIFY_WATCHES] = "inotify-watches",
    [WARD_LIM_FANOTIFY_GROUPS] = "fanotify-groups",
    [WARD_LIM_FANOTIFY_MARKS] = "fanotify-marks",
    [WARD_LIM_SLOT_SIZE] = "slot-size",
    [WARD_LIM_OOM] = "oom",
    [WARD_LIM_STDOUT_MODE] = "stdout-mode",
    [WARD_LIM_STDERR_MODE] = "stderr-mode",
    [WARD_LIM_STDOUT_AT_CAP] = "stdout-at-cap",
    [WARD_LIM_STDERR_AT_CAP] = "stderr-at-cap",
};

const char *describe_limit_name(enum ward_limit k)
{
	return k < WARD_LIM_COUNT && limit_names[k] ? limit_names[k] : "?";
}

const char *describe_limit_value(struct ward_pool *p, enum ward_limit k,
				 uint64_t v)
{
	switch (k) {
	case WARD_LIM_CPU:
		return ward_cpu_str(p, v);
	case WARD_LIM_WALL:
	case WARD_LIM_GRACE:
	case WARD_LIM_CPUTIME:
		return ward_duration_str(p, v);
	case WARD_LIM_PIDS:
	case WARD_LIM_NOFILE:
	case WARD_LIM_NPROC:
	case WARD_LIM_SIGPENDING:
	case WARD_LIM_INOTIFY_INSTANCES:
	case WARD_LIM_INOTIFY_WATCHES:
	case WARD_LIM_FANOTIFY_GROUPS:
	case WARD_LIM_FANOTIFY_MARKS:
		return ward_pool_printf(p, "%llu", (unsigned long long)v);
	case WARD_LIM_OOM:
		return v ? "process" : "group";
	case WARD_LIM_STDOUT_MODE:
	case WARD_LIM_STDERR_MODE:
		return v ? "text" : "raw";
	case WARD_LIM_STDOUT_AT_CAP:
	case WARD_LIM_STDERR_AT_CAP:
		return v ? "kill" : "truncate";
	default:
		return ward_size_str(p, v);
	}
}

const char *describe_mount_kind(uint32_t kind)
{
	return ward_mount_kind_name(kind);
}

const char *describe_mount_flags(struct ward_pool *p,
				 const struct ward_mount *m)
{
	bool rw = m->flags & WARD_MNT_F_RW;
	switch (m->kind) {
	case WARD_MNT_SYMLINK:
		return "";
	case WARD_MNT_FILE:
	case WARD_MNT_DIR:
		return "ro";
	case WARD_MNT_PROC:
		return "rw,noexec,nosuid,nodev";
	case WARD_MNT_DEV:
		return "nosuid,noexec";
	default:
		break;
	}
	if (m->kind == WARD_MNT_TMPFS && strcmp(m->dst, "/") == 0)
		return "ro after setup,nosuid,nodev";
	return ward_pool_printf(
	    p, "%s,%s,nosuid,nodev%s", rw ? "rw" : "ro",
	    (m->flags & WARD_MNT_F_EXEC) ? "exec" : "noexec",
	    (m->flags & WARD_MNT_F_OPTIONAL) ? ",optional" : "");
}

const char *describe_mount(struct ward_pool *p, const struct ward_mount *m)
{
	const char *flags = describe_mount_flags(p, m);
	switch (m->kind) {
	case WARD_MNT_BIND:
		return ward_pool_printf(p, "bind %s %s", m->src, flags);
	case WARD_MNT_SLOT:
		/* a read-write slot's size is what it may put on the host's
		 * disk, so explain and diff show it */
		if (m->size)
			return ward_pool_printf(p, "slot %s size %s %s", m->src,
						ward_size_str(p, m->size),
						flags);
		return ward_pool_printf(p, "slot %s %s", m->src, flags);
	case WARD_MNT_TMPFS:
		return ward_pool_printf(p, "tmpfs size %s mode %04o %s",
					ward_size_str(p, m->size), m->mode,
					flags);
	case WARD_MNT_FILE:
		return ward_pool_printf(p, "file %s mode %04o",
					ward_size_str(p, m->data_len), m->mode);
	case WARD_MNT_SYMLINK:
		return ward_pool_printf(p, "symlink -> %s", m->src);
	case WARD_MNT_DIR:
		return ward_pool_printf(p, "dir mode %04o", m->mode);
	default:
		return ward_pool_printf(p, "%s %s",
					describe_mount_kind(m->kind), flags);
	}
}

const char *describe_cmp(struct ward_pool *p, const char *syscall,
			 uint32_t arch, const struct ward_cmp *c)
{
	size_t n = 0;
	const char *const *names = ward_syscall_arg_names(syscall, arch, &n);
	const char *arg =
	    c->arg < n && names
		? ward_pool_printf(p, "arg%u (%s)", c->arg, names[c->arg])
		: ward_pool_printf(p, "arg%u", c->arg);
	unsigned long long v = (unsigned long long)c->value,
			   m = (unsigned long long)c->mask;
	static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};
	switch (c->op) {
	case WARD_CMP_MASKED_EQ:
		return ward_pool_printf(p, "%s & %#llx == %#llx", arg, m, v);
	case WARD_CMP_MASKED_NE:
		return ward_pool_printf(p, "%s & %#llx != %#llx", arg, m, v);
	default:
		return ward_pool_printf(
		    p, "%s %s %#llx", arg,
		    c->op < ARRAY_LEN(ops) ? ops[c->op] : "?", v);
	}
}

const char *describe_syscall(struct ward_pool *p, uint32_t arch,
			     const struct ward_syscall_rule *r,
			     struct ward_action def)
{
	struct ward_action otherwise = r->has_fallback ? r->fallback : def;
	const char *s = "";

	if (!r->nconds)
		return ward_action_name(p, otherwise);
	for (uint32_t i = 0; i < r->nconds; i++) {
		const struct ward_cond_rule *c = &r->conds[i];
		const char *cond = "";
		for (uint32_t k = 0; k < c->ncmps; k++)
			cond = ward_pool_printf(
			    p, "%s%s%s", cond, k ? " && " : "",
			    describe_cmp(p, r->name, arch, &c->cmps[k]));
		s = ward_pool_printf(p, "%s%s if %s; ", s,
				     ward_action_name(p, c->action), cond);
	}
	return ward_pool_printf(p, "%selse %s", s,
				ward_action_name(p, otherwise));
}

const char *describe_addr(struct ward_pool *p, uint8_t family,
			  const uint8_t addr[16])
{
	char a[INET6_ADDRSTRLEN];
	inet_ntop(family == 4 ? AF_INET : AF_INET6, addr, a, sizeof(a));
	return ward_pool_strdup(p, a);
}

const char *describe_net_rule(struct ward_pool *p,
			      const struct ward_net_rule *r)
{
	const char *a = describe_addr(p, r->family, r->addr);
	const char *ports =
	    r->port_lo == r->port_hi
		? ward_pool_printf(p, "%u", r->port_lo)
		: ward_pool_printf(p, "%u-%u", r->port_lo, r->port_hi);
	return ward_pool_printf(p, "%s %s/%u port %s",
				r->proto == IPPROTO_UDP ? "udp" : "tcp", a,
				r->prefix, ports);
}

const char *describe_net_name(struct ward_pool *p,
			      const struct ward_net_name *n)
{
	const char *ports =
	    n->port_lo == n->port_hi
		? ward_pool_printf(p, "%u", n->port_lo)
		: ward_pool_printf(p, "%u-%u", n->port_lo, n->port_hi);
	return ward_pool_printf(p, "%s name %s port %s",
				n->proto == IPPROTO_UDP ? "udp" : "tcp",
				n->name, ports);
}

const char *describe_requirements(struct ward_pool *p, uint32_t req)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
	    {WARD_REQ_CGROUP_MEMORY, "cgroup-memory"},
	    {WARD_REQ_CGROUP_SWAP, "cgroup-swap"},
	    {WARD_REQ_CGROUP_PIDS, "cgroup-pids"},
	    {WARD_REQ_CGROUP_CPU, "cgroup-cpu"},
	    {WARD_REQ_NET_BPF, "net-bpf"},
	    {WARD_REQ_LANDLOCK, "landlock"},
	    {WARD_REQ_SECCOMP_NOTIFY, "seccomp-notify"},
	    {WARD_REQ_HOST_GROUPS, "host-groups"},
	    {WARD_REQ_SECCOMP_ANSWER, "seccomp-answer"},
	    {WARD_REQ_RECORD, "record"},
	    {WARD_REQ_NET_BROKER, "net-broker"},
	    {WARD_REQ_NET_NAMES, "net-names"},
	};
	const char *s = "";
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		if (req & names[i].bit)
			s = ward_pool_printf(p, "%s%s%s", s, *s ? " " : "",
					     names[i].name);
	return *s ? s : "nothing";
}
