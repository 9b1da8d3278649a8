/* SPDX-License-Identifier: MIT */
/*
 * hardening.c: see hardening.h. The order in which init calls these is
 * explained in docs/spec.md part 3.
 */
#include "hardening.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/syscall.h>

int ward_set_identity(const struct ward_identity *id, ward_err *err)
{
	if (setresgid(id->gid, id->gid, id->gid) < 0)
		return ward_fail(err, errno, "setresgid %u", id->gid);
	if (setresuid(id->uid, id->uid, id->uid) < 0)
		return ward_fail(err, errno, "setresuid %u", id->uid);
	return 0;
}

/* One capset of the three sets (the two 32-bit halves of each). */
static int capset_all(const uint64_t set[3])
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2] = {
	    {(uint32_t)set[0], (uint32_t)set[1], (uint32_t)set[2]},
	    {(uint32_t)(set[0] >> 32), (uint32_t)(set[1] >> 32),
	     (uint32_t)(set[2] >> 32)},
	};

	return (int)syscall(SYS_capset, &h, d);
}

int ward_drop_caps(uint64_t keep, ward_err *err)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2] = {{0}};
	cap_value_t last = cap_max_bits();
	uint64_t now[3]; /* effective, permitted, inheritable */
	const uint64_t kept[3] = {keep, keep, keep};

	if (syscall(SYS_capget, &h, d) < 0)
		return ward_fail(err, errno, "capget");
	now[0] = d[0].effective | (uint64_t)d[1].effective << 32;
	now[1] = d[0].permitted | (uint64_t)d[1].permitted << 32;

	/* The bounding set first, every capability not kept, while
	 * CAP_SETPCAP is still effective (there is no call for the whole
	 * set: one each). The target measures the set before its execve
	 * and the report shows it (ward_measure_self). */
	for (cap_value_t c = 0; c < last; c++)
		if (!((keep >> c) & 1) &&
		    prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0)
			return ward_fail(err, errno, "drop capability %d", c);
	/* Inheritable = what is kept (permitted and effective as they are,
	 * for the calls below); then the ambient set: emptied in one call,
	 * and the kept ones raised (each must be permitted and
	 * inheritable, as it is now). */
	now[2] = keep;
	if (capset_all(now) < 0)
		return ward_fail(err, errno,
				 "set the inheritable capabilities");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return ward_fail(err, errno, "clear the ambient capabilities");
	for (cap_value_t c = 0; c < last; c++)
		if (((keep >> c) & 1) &&
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, c, 0, 0) < 0)
			return ward_fail(err, errno, "ambient capability %d",
					 c);
	/* Then the securebits (CAP_SETPCAP again); permitted and effective
	 * last, since dropping them ends what the others need. */
	if (prctl(PR_SET_SECUREBITS,
		  SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
		      SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
		      SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
		      SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED,
		  0, 0, 0) < 0)
		return ward_fail(err, errno, "lock the securebits");
	if (capset_all(kept) < 0)
		return ward_fail(err, errno, "drop the capabilities");
	return 0;
}

int ward_no_new_privs(ward_err *err)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return ward_fail(err, errno, "prctl PR_SET_NO_NEW_PRIVS");
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int ward_close_fds_except(const int *keep, size_t n, ward_err *err)
{
	int sorted[16];
	unsigned from = 3;

	if (n > ARRAY_LEN(sorted))
		return ward_fail(err, EINVAL, "close_range");
	memcpy(sorted, keep, n * sizeof(int));
	qsort(sorted, n, sizeof(int), cmp_int);
	for (size_t i = 0; i <= n; i++) {
		unsigned to = i < n ? (unsigned)sorted[i] : ~0u;

		if (i < n && sorted[i] < 3)
			continue;
		if (to > from && close_range(from, to - 1, 0) < 0)
			return ward_fail(err, errno, "close_range %u-%u", from,
					 to - 1);
		from = to + 1;
	}
	return 0;
}

void ward_reset_signals(void)
{
	struct sigaction sa = {.sa_handler = SIG_DFL};
	sigset_t none;

	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &sa, NULL); /* EINVAL for glibc's own */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static const struct {
	enum ward_limit k;
	int res;
	const char *name;
} rlimits[] = {
    {WARD_LIM_NOFILE, RLIMIT_NOFILE, "nofile"},
    {WARD_LIM_FILESIZE, RLIMIT_FSIZE, "filesize"},
    {WARD_LIM_NPROC, RLIMIT_NPROC, "nproc"},
    {WARD_LIM_STACK, RLIMIT_STACK, "stack"},
    {WARD_LIM_MEMLOCK, RLIMIT_MEMLOCK, "memlock"},
    {WARD_LIM_CORE, RLIMIT_CORE, "core"},
    {WARD_LIM_CPUTIME, RLIMIT_CPU, "cputime"},
    {WARD_LIM_SIGPENDING, RLIMIT_SIGPENDING, "sigpending"},
    {WARD_LIM_MSGQUEUE, RLIMIT_MSGQUEUE, "msgqueue"},
};

int ward_set_rlimits(const struct ward_limits *l, ward_err *err)
{
	for (size_t i = 0; i < ARRAY_LEN(rlimits); i++) {
		struct rlimit rl;
		uint64_t v;

		if (!ward_limit_effective(l, rlimits[i].k, &v))
			continue;
		if (rlimits[i].k == WARD_LIM_CPUTIME)
			v = v / 1000 + (v % 1000 != 0); /* ms, rounded up */
		/* A default never fails a run: it is lowered to the
		 * caller's hard limit (lowering is always allowed). A limit
		 * the policy wrote is applied as written, or refused. */
		if (!ward_limit_is_set(l, rlimits[i].k) &&
		    getrlimit(rlimits[i].res, &rl) == 0 && rl.rlim_max < v)
			v = rl.rlim_max;
		rl.rlim_cur = rl.rlim_max = v;
		if (setrlimit(rlimits[i].res, &rl) < 0)
			return ward_fail(err, errno,
					 "limit %s %llu (above the caller's "
					 "hard limit?)",
					 rlimits[i].name,
					 (unsigned long long)v);
	}
	return 0;
}

int ward_loopback_up(ward_err *err)
{
	struct ifreq ifr = {.ifr_name = "lo"};
	_cleanup_close_ int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return ward_fail(err, errno, "socket for lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		return ward_fail(err, errno, "SIOCGIFFLAGS lo");
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		return ward_fail(err, errno, "SIOCSIFFLAGS lo");
	return 0;
}

int ward_dns_stub_socket(ward_err *err)
{
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons(53),
				.sin_addr.s_addr = htonl(WARD_DNS_STUB_ADDR)};
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (s < 0)
		return ward_fail(err, errno, "socket for the DNS stub");
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(s);
		return ward_fail(err, errno, "bind the DNS stub");
	}
	return s;
}

int ward_open_procfs(const char *path, int flags, ward_err *err)
{
	struct statfs sfs;
	int fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0) {
		int e = errno;

		ward_fail(err, e, "open %s", path);
		errno = e;
		return -1;
	}
	if (fstatfs(fd, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC) {
		close(fd);
		ward_fail(err, 0, "%s is not on procfs", path);
		errno = 0;
		return -1;
	}
	return fd;
}

int ward_forbid_userns(const char *procsys, ward_err *err)
{
	char path[256];
	_cleanup_close_ int fd = -1;

	snprintf(path, sizeof(path), "%s/user/max_user_namespaces", procsys);
	fd = ward_open_procfs(path, O_WRONLY, err);
	if (fd < 0)
		return -1;
	if (write(fd, "0", 1) != 1)
		return ward_fail(err, errno, "write %s", path);
	return 0;
}

/* One limit of the sandbox's user namespace: opened now, checked to be
 * procfs (CVE-2019-16884), written by ward_userns_limits_apply. ENOENT is
 * returned as -ENOENT: the caller decides what a missing one means. */
static int open_sysctl(struct ward_userns_limits *u, const char *procsys,
		       const char *name, uint64_t value, ward_err *err)
{
	char path[256];
	_cleanup_close_ int fd = -1;

	snprintf(path, sizeof(path), "%s/%s", procsys, name);
	fd = ward_open_procfs(path, O_WRONLY, err);
	if (fd < 0)
		return errno == ENOENT ? -ENOENT : -1;
	if (u->n >= ARRAY_LEN(u->fd))
		return ward_fail(err, 0, "%s: too many limits", path);
	u->name[u->n] = name;
	u->value[u->n] = value;
	u->fd[u->n++] = steal_fd(&fd);
	return 0;
}

int ward_userns_limits_open(struct ward_userns_limits *u, const char *procsys,
			    const struct ward_limits *l, ward_err *err)
{
	/* Namespaces: none at all below the sandbox's own. A process
	 * inside needs CAP_SYS_ADMIN in its namespace to make one, which
	 * no stdlib profile keeps, and user namespaces (the way to get it)
	 * are 0 already; this makes the kernel's count say so as well. The
	 * count is checked when a namespace is made, so init's own are not
	 * affected; but fsmount and open_tree make anonymous mount
	 * namespaces, which it counts too: hence written only once the
	 * mount table is built. A kernel without a kind (time namespaces
	 * before 5.6) has no file, and no such namespace to make. */
	static const char *const ns[] = {
	    "user/max_mnt_namespaces",	"user/max_net_namespaces",
	    "user/max_ipc_namespaces",	"user/max_pid_namespaces",
	    "user/max_uts_namespaces",	"user/max_cgroup_namespaces",
	    "user/max_time_namespaces",
	};
	/* Charged up the chain of user namespaces (ucounts): the sandbox's
	 * count bounds what it takes from its host user's (root's, in root
	 * mode, since root made the namespace). A kernel without the file
	 * cannot bound it: refuse (fail closed). */
	static const struct {
		enum ward_limit k;
		const char *name;
	} counters[] = {
	    {WARD_LIM_INOTIFY_INSTANCES, "user/max_inotify_instances"},
	    {WARD_LIM_INOTIFY_WATCHES, "user/max_inotify_watches"},
	    {WARD_LIM_FANOTIFY_GROUPS, "user/max_fanotify_groups"},
	    {WARD_LIM_FANOTIFY_MARKS, "user/max_fanotify_marks"},
	};

	*u = (struct ward_userns_limits){0};
	for (size_t i = 0; i < ARRAY_LEN(ns); i++)
		if (open_sysctl(u, procsys, ns[i], 0, err) == -1)
			return -1;
	for (size_t i = 0; i < ARRAY_LEN(counters); i++) {
		uint64_t v;
		int rc;

		if (!ward_limit_effective(l, counters[i].k, &v))
			continue;
		rc = open_sysctl(u, procsys, counters[i].name, v, err);
		if (rc == -ENOENT)
			return ward_fail(
			    err, 0,
			    "this kernel has no per-user-namespace "
			    "%s (Linux 5.13 and later have it): "
			    "the run could not be bounded",
			    counters[i].name);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int ward_userns_limits_apply(struct ward_userns_limits *u, ward_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < u->n; i++) {
		char buf[24];
		int n = snprintf(buf, sizeof(buf), "%llu",
				 (unsigned long long)u->value[i]);

		if (rc == 0 && write(u->fd[i], buf, (size_t)n) != n)
			rc = ward_fail(err, errno, "write /proc/sys/%s %s",
				       u->name[i], buf);
		close(u->fd[i]);
	}
	u->n = 0;
	return rc;
}

int ward_install_seccomp(const struct ward_seccomp *sc, int *listener,
			 ward_err *err)
{
	struct sock_fprog prog = {
	    .len = (unsigned short)sc->ninsns,
	    .filter = (struct sock_filter *)sc->insns,
	};
	long rc;

	/* With a listener, the call returns its descriptor (close-on-exec):
	 * the supervisor answers the program's USER_NOTIF returns. */
	rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		     listener ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0, &prog);
	if (rc < 0)
		return ward_fail(err, errno, "seccomp: install the filter");
	if (listener)
		*listener = (int)rc;
	return 0;
}

void ward_measure_self(struct ward_measured *m)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2] = {{0}};
	gid_t groups[WARD_MEASURED_GROUPS];
	int n;

	memset(m, 0, sizeof(*m));
	getresuid(&m->uid[0], &m->uid[1], &m->uid[2]);
	getresgid(&m->gid[0], &m->gid[1], &m->gid[2]);
	n = getgroups(WARD_MEASURED_GROUPS, groups);
	m->ngroups = n;
	for (int i = 0; i < n; i++)
		m->groups[i] = groups[i];
	if (syscall(SYS_capget, &h, d) == 0) {
		m->cap_eff = d[0].effective | (uint64_t)d[1].effective << 32;
		m->cap_prm = d[0].permitted | (uint64_t)d[1].permitted << 32;
		m->cap_inh = d[0].inheritable | (uint64_t)d[1].inheritable
						    << 32;
	}
	/* Every capability up to the kernel's last (past it the call fails
	 * with EINVAL, and no set holds one). Ambient ones only among the
	 * permitted and inheritable: the kernel keeps the ambient set a
	 * subset of both (capabilities(7)), so no other can be set. */
	for (int c = 0; c < 64; c++) {
		int in = prctl(PR_CAPBSET_READ, c, 0, 0, 0);

		if (in < 0)
			break;
		if (in == 1)
			m->cap_bnd |= 1ull << c;
		if (((m->cap_prm & m->cap_inh) >> c & 1) &&
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, c, 0, 0) == 1)
			m->cap_amb |= 1ull << c;
	}
	m->no_new_privs = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	m->securebits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	m->dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	/* The end of setup, for the report's "exec" step. */
	m->exec_ns = ward_now_ns();
}
