/* SPDX-License-Identifier: MIT */
/*
 * cgroup_files.c: what is written into a run's cgroup files (the limits)
 * and what is read back from them (peaks and counters), for cgroup v1 and
 * v2 (cgroup.h).
 *
 *   limit    cgroup v2                    cgroup v1
 *   memory   memory.max                   memory.limit_in_bytes
 *   swap     memory.swap.max              memory.memsw.limit_in_bytes
 *                                          (memory + swap; without swap
 *                                          accounting, `swap 0` holds only
 *                                          on a host without swap)
 *   pids     pids.max                     pids.max
 *   cpu      cpu.max "QUOTA 100000"       cpu.cfs_period_us 100000,
 *                                          cpu.cfs_quota_us QUOTA
 *
 * QUOTA is the policy's thousandths of a CPU times 100 microseconds per
 * 100 ms period (cpu 0.5: 50000).
 */
#include "cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>

#define CPU_PERIOD_US 100000ull

static int put(int dirfd, const char *file, const char *text, ward_err *err)
{
	_cleanup_close_ int fd = -1;
	size_t n = strlen(text);

	/* No O_CREAT: a file the kernel does not offer is an error, never
	 * a new file. */
	fd = openat(dirfd, file, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return ward_fail(err, errno, "cgroup: open %s", file);
	if (write(fd, text, n) != (ssize_t)n)
		return ward_fail(err, errno, "cgroup: write %s to %s", text,
				 file);
	return 0;
}

static int put_u64(int dirfd, const char *file, uint64_t v, ward_err *err)
{
	char text[24];

	snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
	return put(dirfd, file, text, err);
}

static void record(struct ward_cgroup *cg, enum ward_limit k, uint64_t v,
		   int version, const char *file)
{
	struct ward_cg_applied *a;

	if (!cg || cg->napplied == WARD_CG_MAXAPPLIED)
		return;
	a = &cg->applied[cg->napplied++];
	a->limit = k;
	a->value = v;
	if (version)
		snprintf(a->where, sizeof(a->where), "cgroup v%d %s", version,
			 file);
	else
		snprintf(a->where, sizeof(a->where), "%s", file);
}

static bool has_file(int dirfd, const char *file)
{
	return faccessat(dirfd, file, F_OK, 0) == 0;
}

static int memory_limits(int dirfd, int v, const struct ward_limits *l,
			 bool host_swap, struct ward_cgroup *cg, ward_err *err)
{
	bool mem = ward_limit_is_set(l, WARD_LIM_MEMORY);
	bool swap = ward_limit_is_set(l, WARD_LIM_SWAP);
	uint64_t m = l->value[WARD_LIM_MEMORY], s = l->value[WARD_LIM_SWAP];
	const char *limit = v == 2 ? "memory.max" : "memory.limit_in_bytes";
	const char *sw =
	    v == 2 ? "memory.swap.max" : "memory.memsw.limit_in_bytes";

	if (swap && !mem)
		return ward_fail(err, 0,
				 "cgroup: a swap limit needs a memory limit");
	if (mem) {
		if (put_u64(dirfd, limit, m, err) < 0)
			return -1;
		record(cg, WARD_LIM_MEMORY, m, v, limit);
		/* An OOM kill of one process ends the whole group (the
		 * first seed): the kernel's own on cgroup2, the
		 * supervisor's on v1 (ward_cg_oom_watch). */
		if (v == 2 && !ward_oom_process(l) &&
		    put(dirfd, "memory.oom.group", "1", err) < 0)
			return -1;
		/* v1 has no oom.group: the kernel's killer is held back, so
		 * that a process at the limit waits (killable) instead of
		 * one victim dying while the rest goes on, and the
		 * supervisor, told by the OOM notification, kills all. */
		if (v == 1 && !ward_oom_process(l) &&
		    put(dirfd, "memory.oom_control", "1", err) < 0)
			return -1;
	}
	if (!swap)
		return 0;
	if (!has_file(dirfd, sw)) {
		/* No swap accounting: `swap 0` still holds where the host
		 * has no swap to give; any other swap limit cannot. */
		if (s == 0 && !host_swap) {
			if (cg)
				cg->swap_by_host = true;
			record(cg, WARD_LIM_SWAP, 0, 0,
			       "host: no swap configured (/proc/swaps)");
			return 0;
		}
		return ward_fail(err, 0,
				 "cgroup: the policy limits swap, and this "
				 "host has no swap accounting (%s is missing)"
				 "%s: boot with swapaccount=1",
				 sw, host_swap ? " while it has swap" : "");
	}
	/* v1 counts memory and swap together: memsw = memory + swap, set
	 * after memory (the kernel wants memsw >= memory at every step). */
	if (put_u64(dirfd, sw, v == 2 ? s : m + s, err) < 0)
		return -1;
	record(cg, WARD_LIM_SWAP, s, v, sw);
	return 0;
}

int ward_cg_write_limits(int dirfd, int version, uint32_t ctrls,
			 const struct ward_limits *l, bool host_swap,
			 struct ward_cgroup *cg, ward_err *err)
{
	if ((ctrls & WARD_CG_BIT(WARD_CG_MEMORY)) &&
	    memory_limits(dirfd, version, l, host_swap, cg, err) < 0)
		return -1;
	if ((ctrls & WARD_CG_BIT(WARD_CG_PIDS)) &&
	    ward_limit_is_set(l, WARD_LIM_PIDS)) {
		if (put_u64(dirfd, "pids.max", l->value[WARD_LIM_PIDS], err) <
		    0)
			return -1;
		record(cg, WARD_LIM_PIDS, l->value[WARD_LIM_PIDS], version,
		       "pids.max");
	}
	if ((ctrls & WARD_CG_BIT(WARD_CG_CPU)) &&
	    ward_limit_is_set(l, WARD_LIM_CPU)) {
		uint64_t quota = l->value[WARD_LIM_CPU] * 100;

		if (version == 2) {
			char text[48];

			snprintf(text, sizeof(text), "%llu %llu",
				 (unsigned long long)quota,
				 (unsigned long long)CPU_PERIOD_US);
			if (put(dirfd, "cpu.max", text, err) < 0)
				return -1;
			record(cg, WARD_LIM_CPU, l->value[WARD_LIM_CPU], 2,
			       "cpu.max");
		} else {
			if (put_u64(dirfd, "cpu.cfs_period_us", CPU_PERIOD_US,
				    err) < 0 ||
			    put_u64(dirfd, "cpu.cfs_quota_us", quota, err) < 0)
				return -1;
			record(cg, WARD_LIM_CPU, l->value[WARD_LIM_CPU], 1,
			       "cpu.cfs_quota_us");
		}
	}
	return 0;
}

/* ------------------------------------------------------------ counters */

static bool read_text(int dirfd, const char *file, char *buf, size_t len)
{
	_cleanup_close_ int fd = -1;
	ssize_t n;

	if (dirfd < 0)
		return false;
	fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (n = read(fd, buf, len - 1)) < 0)
		return false;
	buf[n] = '\0';
	return true;
}

static bool read_u64(int dirfd, const char *file, uint64_t *out)
{
	char buf[64], *end;

	if (!read_text(dirfd, file, buf, sizeof(buf)))
		return false;
	errno = 0;
	*out = strtoull(buf, &end, 10);
	return end != buf && !errno;
}

/* The value of "key N" in the text of a flat keyed file. */
static bool keyed_in(const char *buf, const char *key, uint64_t *out)
{
	size_t k = strlen(key);

	for (const char *line = buf; line && *line;) {
		const char *nl = strchr(line, '\n');

		if (!strncmp(line, key, k) && line[k] == ' ') {
			*out = strtoull(line + k + 1, NULL, 10);
			return true;
		}
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

/* The value of "key N" in a flat keyed file (memory.events, cpu.stat). */
static bool keyed(int dirfd, const char *file, const char *key, uint64_t *out)
{
	char buf[4096];

	return read_text(dirfd, file, buf, sizeof(buf)) &&
	       keyed_in(buf, key, out);
}

void ward_cg_read_stats_at(int mem_fd, int mem_v, int pids_fd, int cpu_fd,
			   int cpu_v, struct ward_cg_stats *st)
{
	uint64_t a, b;

	memset(st, 0, sizeof(*st));
	if (mem_fd >= 0 && mem_v == 2) {
		if (read_u64(mem_fd, "memory.peak", &st->mem_peak)) {
			st->have_mem_peak = true;
			st->mem_peak_src = "memory.peak";
		}
		if (keyed(mem_fd, "memory.events", "oom_kill",
			  &st->oom_kills)) {
			st->have_oom = true;
			st->oom_src = "memory.events";
			keyed(mem_fd, "memory.events", "max",
			      &st->mem_max_hits);
		}
	} else if (mem_fd >= 0) {
		if (read_u64(mem_fd, "memory.max_usage_in_bytes",
			     &st->mem_peak)) {
			st->have_mem_peak = true;
			st->mem_peak_src = "memory.max_usage_in_bytes";
		}
		if (keyed(mem_fd, "memory.oom_control", "oom_kill",
			  &st->oom_kills)) {
			st->have_oom = true;
			st->oom_src = "memory.oom_control";
			/* With memsw set, the combined counter may be the
			 * one that hits its limit. */
			if (read_u64(mem_fd, "memory.failcnt", &a) &&
			    read_u64(mem_fd, "memory.memsw.failcnt", &b))
				st->mem_max_hits = a > b ? a : b;
			else
				read_u64(mem_fd, "memory.failcnt",
					 &st->mem_max_hits);
		}
	}
	if (pids_fd >= 0) {
		if (read_u64(pids_fd, "pids.peak", &st->pids_peak)) {
			st->have_pids_peak = true;
			st->pids_peak_src = "pids.peak";
		}
		if (keyed(pids_fd, "pids.events", "max", &st->pids_max_hits))
			st->have_pids_events = true;
	}
	if (cpu_fd >= 0 && cpu_v == 2 &&
	    keyed(cpu_fd, "cpu.stat", "user_usec", &a) &&
	    keyed(cpu_fd, "cpu.stat", "system_usec", &b)) {
		st->have_cpu = true;
		st->cpu_user_usec = a;
		st->cpu_sys_usec = b;
		st->cpu_src = "cpu.stat";
	} else if (cpu_fd >= 0 && cpu_v == 1 &&
		   read_u64(cpu_fd, "cpuacct.usage_user", &a) &&
		   read_u64(cpu_fd, "cpuacct.usage_sys", &b)) {
		st->have_cpu = true;
		st->cpu_user_usec = a / 1000;
		st->cpu_sys_usec = b / 1000;
		st->cpu_src = "cpuacct.usage_user, cpuacct.usage_sys";
	}
}

void ward_cg_read_throttle(int cpu_fd, int version, struct ward_cg_stats *st)
{
	uint64_t n, t;

	if (cpu_fd < 0 || !keyed(cpu_fd, "cpu.stat", "nr_throttled", &n))
		return;
	if (version == 2 && keyed(cpu_fd, "cpu.stat", "throttled_usec", &t))
		st->throttled_usec = t;
	else if (version == 1 &&
		 keyed(cpu_fd, "cpu.stat", "throttled_time", &t))
		st->throttled_usec = t / 1000;
	else
		return;
	st->have_throttle = true;
	st->nr_throttled = n;
}

static int fd_of(const struct ward_cgroup *cg, int idx, int *version)
{
	if (idx < 0)
		return -1;
	*version = cg->dir[idx].version;
	return cg->dir[idx].fd;
}

void ward_cg_read_stats(const struct ward_cgroup *cg, struct ward_cg_stats *st)
{
	int mv = 0, pv = 0, cv = 0;
	int mem = fd_of(cg, cg->by_ctrl[WARD_CG_MEMORY], &mv);
	int pids = fd_of(cg, cg->by_ctrl[WARD_CG_PIDS], &pv);
	/* cgroup2's cpu.stat has user and system time without the cpu
	 * controller; v1 needs cpuacct. */
	int cpu = cg->v2 >= 0 ? fd_of(cg, cg->v2, &cv)
			      : fd_of(cg, cg->by_ctrl[WARD_CG_CPUACCT], &cv);

	if (!cg->active) {
		memset(st, 0, sizeof(*st));
		return;
	}
	int qv = 0, quota = fd_of(cg, cg->by_ctrl[WARD_CG_CPU], &qv);

	ward_cg_read_stats_at(mem, mv, pids, cpu, cv, st);
	ward_cg_read_throttle(quota, qv, st);
}

long ward_cg_pids_current(const struct ward_cgroup *cg)
{
	int v = 0, fd = fd_of(cg, cg->by_ctrl[WARD_CG_PIDS], &v);
	uint64_t n;

	if (fd < 0 || !read_u64(fd, "pids.current", &n))
		return -1;
	return (long)n;
}

/* ------------------------------------------------------------ OOM */

int ward_cg_oom_watch(const struct ward_cgroup *cg, ward_err *err)
{
	int v = 0, mem = fd_of(cg, cg->by_ctrl[WARD_CG_MEMORY], &v);
	_cleanup_close_ int ctl = -1, oom = -1, efd = -1;
	char text[64];

	if (mem < 0)
		return -1;
	/* cgroup2: memory.events is modified on every OOM kill, which
	 * poll() reports as POLLPRI (ward_cg_oom_events). */
	if (v == 2) {
		int fd = openat(mem, "memory.events", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return ward_fail(err, errno, "open memory.events");
		return fd;
	}
	/* v1: an eventfd registered for memory.oom_control. */
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	oom = openat(mem, "memory.oom_control", O_RDONLY | O_CLOEXEC);
	ctl = openat(mem, "cgroup.event_control", O_WRONLY | O_CLOEXEC);
	if (efd < 0 || oom < 0 || ctl < 0)
		return ward_fail(err, errno, "the v1 OOM notification");
	snprintf(text, sizeof(text), "%d %d", efd, oom);
	if (write(ctl, text, strlen(text)) != (ssize_t)strlen(text))
		return ward_fail(err, errno, "register for memory.oom_control");
	return steal_fd(&efd);
}

bool ward_cg_oom_killed(const struct ward_cgroup *cg, int watch_fd)
{
	int v = 0, mem = fd_of(cg, cg->by_ctrl[WARD_CG_MEMORY], &v);
	uint64_t n = 0, ticks = 0;

	if (mem < 0)
		return false;
	/* cgroup2: read through the watch itself, which re-arms it: until
	 * the descriptor that poll() waits on reads the file again, every
	 * poll() returns at once (kernfs keeps POLLPRI up since the last
	 * change, of any line: "max" moves each time the run reaches its
	 * limit, and the supervisor would spin for the rest of the run). */
	if (v == 2) {
		char buf[4096];
		ssize_t k = pread(watch_fd, buf, sizeof(buf) - 1, 0);

		if (k < 0)
			return false;
		buf[k] = '\0';
		return (keyed_in(buf, "oom_kill", &n) && n > 0) ||
		       (keyed_in(buf, "oom", &n) && n > 0);
	}
	/* v1: the notification is the OOM itself (the killer is held
	 * back: a process waits at the limit). */
	return read(watch_fd, &ticks, sizeof(ticks)) == sizeof(ticks) &&
	       ticks > 0;
}

short ward_cg_oom_events(const struct ward_cgroup *cg)
{
	int v = 0;

	/* Not POLLIN on cgroup2: a cgroup file, like any file, always
	 * reads as POLLIN, and poll() would never sleep (a supervisor
	 * spinning one CPU for the whole run on a pure-v2 host). */
	fd_of(cg, cg->by_ctrl[WARD_CG_MEMORY], &v);
	return v == 2 ? POLLPRI : POLLIN;
}
