/* SPDX-License-Identifier: MIT */
/*
 * report.c: see report.h; the schema is docs/spec.md part 4.
 */
#include "report.h"

#include "blob.h"
#include "blob_read.h"
#include "channel.h"
#include "evidence.h"
#include "report_net.h"
#include "sha256.h"
#include "syscall_names.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/utsname.h>

/* ------------------------------------------------------------ parts */

const char *ward_violation_name(const struct ward_policy *p,
				const struct ward_violation *v)
{
	const struct ward_rules *r = p ? &p->rules : NULL;

	if (!v->seen || !v->nr_known)
		return NULL;
	/* The policy's rule table first (it names what the policy's author
	 * wrote), then the table of the machine the blob is for. */
	for (uint32_t i = 0; r && i < r->nsyscalls; i++)
		if (r->syscalls[i].nr == v->nr && r->syscalls[i].name)
			return r->syscalls[i].name;
	return p && v->arch == p->seccomp.arch ? ward_syscall_name(v->nr)
					       : NULL;
}

static void put_cgroup(FILE *f, const struct ward_cgroup *cg)
{
	bool first = true;

	if (!cg || !cg->active) {
		fputs("null", f);
		return;
	}
	fputs("{\"version\": {", f);
	for (int c = 0; c < WARD_CG_NCTRL; c++) {
		if (cg->by_ctrl[c] < 0)
			continue;
		fprintf(f, "%s\"%s\": %d", first ? "" : ", ",
			ward_cg_ctrl_name(c), cg->dir[cg->by_ctrl[c]].version);
		first = false;
	}
	fputs("}, \"directories\": [", f);
	for (int i = 0; i < cg->ndirs; i++) {
		const struct ward_cg_dir *d = &cg->dir[i];

		fprintf(f, "%s{\"version\": %d, \"path\": ", i ? ", " : "",
			d->version);
		ward_json_str(f, d->path);
		fputs(", \"controllers\": [", f);
		first = true;
		for (int c = 0; c < WARD_CG_NCTRL; c++)
			if (d->ctrls & WARD_CG_BIT(c)) {
				fprintf(f, "%s\"%s\"", first ? "" : ", ",
					ward_cg_ctrl_name(c));
				first = false;
			}
		fputs("]}", f);
	}
	fputs("]}", f);
}

static void put_caps(FILE *f, uint64_t keep)
{
	bool first = true;

	fputc('[', f);
	for (int c = 0; c < 64; c++) {
		char *name;

		if (!((keep >> c) & 1))
			continue;
		name = cap_to_name(c);
		fputs(first ? "" : ", ", f);
		ward_json_str(f, name);
		cap_free(name);
		first = false;
	}
	fputc(']', f);
}

static void put_ids(FILE *f, const char *name, const uint32_t id[3])
{
	fprintf(f, "\"%s\": {\"real\": %u, \"effective\": %u, \"saved\": %u}",
		name, id[0], id[1], id[2]);
}

/* The Landlock layer: the ABI init applied (complete: all of the blob's
 * rights; else an older kernel's subset), or why none was. */
static void put_landlock(FILE *f, const struct ward_policy *p,
			 const struct ward_measured *m)
{
	static const char *const modes[] = {"off", "prefer", "require"};
	const struct ward_landlock *ll = &p->landlock;

	fprintf(f, ", \"landlock\": {\"mode\": \"%s\", \"applied\": %s",
		modes[ll->mode], m->landlock > 0 ? "true" : "false");
	if (m->landlock > 0)
		fprintf(f,
			", \"abi\": %d, \"blob_abi\": %u, \"complete\": "
			"%s, \"rules\": %u",
			m->landlock, ll->abi,
			(uint32_t)m->landlock >= ll->abi ? "true" : "false",
			ll->nrules);
	else if (m->landlock < 0)
		fprintf(f, ", \"why\": \"%s\"",
			-m->landlock == EOPNOTSUPP
			    ? "Landlock is not enabled (lsm= list)"
			    : "the kernel has no Landlock");
	fputc('}', f);
}

/* The target's credentials as it measured them just before its execve
 * (facts.h), never the policy's values: a reader sees what the kernel
 * held. */
static void put_identity(FILE *f, const struct ward_report *r)
{
	const struct ward_policy *p = r->policy;
	const struct ward_measured *m =
	    r->outcome && r->outcome->measured ? &r->outcome->id : NULL;

	if (!r->applied || !p || !r->mode || !m) {
		fputs("null", f);
		return;
	}
	fprintf(f,
		"{\"measured\": \"by the target, just before execve\", "
		"\"uid\": %u, \"gid\": %u, \"host_uid\": %u, \"host_gid\": "
		"%u, ",
		m->uid[1], m->gid[1], (unsigned)r->host_uid,
		(unsigned)r->host_gid);
	put_ids(f, "uids", m->uid);
	fputs(", ", f);
	put_ids(f, "gids", m->gid);
	fputs(", \"groups\": [", f);
	for (int i = 0; i < m->ngroups && i < WARD_MEASURED_GROUPS; i++)
		fprintf(f, "%s%u", i ? ", " : "", m->groups[i]);
	fputs("], \"host_groups\": ", f);
	if (r->nhost_groups < 0) {
		fputs("null", f);
	} else {
		fputc('[', f);
		for (int i = 0; i < r->nhost_groups; i++)
			fprintf(f, "%s%u", i ? ", " : "",
				(unsigned)r->host_groups[i]);
		fputc(']', f);
	}
	fputs(", \"capabilities\": ", f);
	put_caps(f, m->cap_eff | m->cap_prm);
	fputs(", \"capability_sets\": {\"effective\": ", f);
	put_caps(f, m->cap_eff);
	fputs(", \"permitted\": ", f);
	put_caps(f, m->cap_prm);
	fputs(", \"inheritable\": ", f);
	put_caps(f, m->cap_inh);
	fputs(", \"bounding\": ", f);
	put_caps(f, m->cap_bnd);
	fputs(", \"ambient\": ", f);
	put_caps(f, m->cap_amb);
	fprintf(f,
		"}, \"no_new_privs\": %s, \"securebits\": %d, \"dumpable\": "
		"%s, \"seccomp\": {\"installed\": %s, \"mode\": %d, "
		"\"arch\": ",
		m->no_new_privs == 1 ? "true" : "false", m->securebits,
		m->dumpable == 1 ? "true" : "false",
		m->seccomp == 2 ? "true" : "false", m->seccomp);
	ward_json_str(f, ward_arch_name(p->seccomp.arch));
	fprintf(f, ", \"instructions\": %u, \"kill_listener\": %s}",
		p->seccomp.ninsns, r->seccomp_listener ? "true" : "false");
	put_landlock(f, p, m);
	fputc('}', f);
}

static const struct {
	enum ward_limit k;
	const char *name, *unit, *where;
} limits[] = {
    {WARD_LIM_MEMORY, "memory", "bytes", NULL},
    {WARD_LIM_SWAP, "swap", "bytes", NULL},
    {WARD_LIM_CPU, "cpu", "millicpu", NULL},
    {WARD_LIM_PIDS, "pids", "tasks", NULL},
    {WARD_LIM_WALL, "wall", "ms", "supervisor: timerfd, then the kill"},
    {WARD_LIM_GRACE, "grace", "ms", "supervisor: SIGTERM, then the kill"},
    {WARD_LIM_CPUTIME, "cputime", "ms", "rlimit RLIMIT_CPU"},
    {WARD_LIM_NOFILE, "nofile", "files", "rlimit RLIMIT_NOFILE"},
    {WARD_LIM_FILESIZE, "filesize", "bytes", "rlimit RLIMIT_FSIZE"},
    {WARD_LIM_NPROC, "nproc", "processes", "rlimit RLIMIT_NPROC"},
    {WARD_LIM_STACK, "stack", "bytes", "rlimit RLIMIT_STACK"},
    {WARD_LIM_MEMLOCK, "memlock", "bytes", "rlimit RLIMIT_MEMLOCK"},
    {WARD_LIM_CORE, "core", "bytes", "rlimit RLIMIT_CORE"},
    {WARD_LIM_STDOUT, "stdout", "bytes", "courier: output pipe"},
    {WARD_LIM_STDERR, "stderr", "bytes", "courier: output pipe"},
    {WARD_LIM_OUTPUT, "output", "bytes", "courier: output pipes"},
    {WARD_LIM_SIGPENDING, "sigpending", "signals", "rlimit RLIMIT_SIGPENDING"},
    {WARD_LIM_MSGQUEUE, "msgqueue", "bytes", "rlimit RLIMIT_MSGQUEUE"},
    {WARD_LIM_INOTIFY_INSTANCES, "inotify-instances", "instances",
     "user namespace: user.max_inotify_instances"},
    {WARD_LIM_INOTIFY_WATCHES, "inotify-watches", "watches",
     "user namespace: user.max_inotify_watches"},
    {WARD_LIM_FANOTIFY_GROUPS, "fanotify-groups", "groups",
     "user namespace: user.max_fanotify_groups"},
    {WARD_LIM_FANOTIFY_MARKS, "fanotify-marks", "marks",
     "user namespace: user.max_fanotify_marks"},
    {WARD_LIM_SLOT_SIZE, "slot-size", "bytes",
     "the size of each read-write slot's tmpfs without its own"},
    {WARD_LIM_OOM, "oom", "1 = process, 0 = group",
     "memory.oom.group (cgroup2) or the supervisor (v1)"},
    {WARD_LIM_STDOUT_MODE, "stdout-mode", "1 = text, 0 = raw",
     "courier: escaped for display"},
    {WARD_LIM_STDERR_MODE, "stderr-mode", "1 = text, 0 = raw",
     "courier: escaped for display"},
    {WARD_LIM_STDOUT_AT_CAP, "stdout-at-cap", "1 = kill, 0 = truncate",
     "courier: the run ends past the cap"},
    {WARD_LIM_STDERR_AT_CAP, "stderr-at-cap", "1 = kill, 0 = truncate",
     "courier: the run ends past the cap"},
};

static void put_limits(FILE *f, const struct ward_report *r)
{
	const struct ward_limits *l;
	bool first = true;

	if (!r->started || !r->policy) {
		fputs("null", f);
		return;
	}
	l = &r->policy->limits;
	fputc('[', f);
	for (size_t i = 0; i < ARRAY_LEN(limits); i++) {
		enum ward_limit k = limits[i].k;
		bool set = ward_limit_is_set(l, k);
		const char *where = limits[i].where;
		char buf[160];
		uint64_t v = 0;

		/* What applies: the policy's, or the launcher's default
		 * (common/policy.h: core, memlock, the per-user counters). */
		if (!ward_limit_effective(l, k, &v))
			continue;
		if (!where) {
			where = "not applied";
			for (int j = 0; r->cg && j < r->cg->napplied; j++)
				if (r->cg->applied[j].limit == k)
					where = r->cg->applied[j].where;
		} else if (k == WARD_LIM_CPUTIME) {
			snprintf(
			    buf, sizeof(buf),
			    "rlimit RLIMIT_CPU %llu s (rounded up)",
			    (unsigned long long)(v / 1000 + (v % 1000 != 0)));
			where = buf;
		} else if (!set) {
			snprintf(buf, sizeof(buf), "%s (ward's default)",
				 where);
			where = buf;
		}
		fprintf(f,
			"%s{\"limit\": \"%s\", \"value\": %llu, \"unit\": "
			"\"%s\", \"default\": %s, \"enforced_by\": ",
			first ? "" : ", ", limits[i].name,
			(unsigned long long)v, limits[i].unit,
			set ? "false" : "true");
		ward_json_str(f, where);
		fputc('}', f);
		first = false;
	}
	fputc(']', f);
}

static uint64_t tv_usec(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000 + (uint64_t)tv->tv_usec;
}

/* Each writable mount: its size, its use at the end and at most (read
 * every WARD_COURIER_SAMPLE_MS and at the end), whether it was full, and
 * for a slot what was copied in and back (slotfs.h). */
static void put_mounts(FILE *f, const struct ward_report *r)
{
	fputc('[', f);
	for (size_t i = 0; i < r->nmounts; i++) {
		const struct ward_slotfs *m = &r->mounts[i];

		fprintf(f, "%s{\"path\": ", i ? ", " : "");
		ward_json_str(f, m->dst);
		fprintf(f,
			", \"kind\": \"%s\", \"size\": %llu, \"bytes_end\": "
			"%llu, \"bytes_peak\": %llu, \"full\": %s",
			m->host ? "slot" : "tmpfs", (unsigned long long)m->size,
			(unsigned long long)m->used_end,
			(unsigned long long)m->used_peak,
			m->full ? "true" : "false");
		fputs(", \"file_at_filesize\": ", f);
		ward_json_str(f, m->at_size ? m->at_size_path : NULL);
		if (m->host)
			fprintf(f,
				", \"copied_in\": {\"files\": %llu, \"bytes\": "
				"%llu, \"skipped\": %llu}, \"copied_back\": "
				"{\"files\": %llu, \"bytes\": %llu, "
				"\"skipped\": %llu, \"unchanged\": %llu}, "
				"\"deleted_inside_kept\": %llu",
				(unsigned long long)m->in.files,
				(unsigned long long)m->in.bytes,
				(unsigned long long)m->in.skipped,
				(unsigned long long)m->back.files,
				(unsigned long long)m->back.bytes,
				(unsigned long long)m->back.skipped,
				(unsigned long long)m->back.unchanged,
				(unsigned long long)m->kept_deleted);
		fputs(", \"error\": ", f);
		ward_json_str(f, m->error[0] ? m->error : NULL);
		fputc('}', f);
	}
	fputc(']', f);
}

static void put_peaks(FILE *f, const struct ward_report *r)
{
	const struct ward_cg_stats *st = r->stats;
	const struct ward_outcome *o = r->outcome;
	bool ru = o && o->have_rusage;

	if (!o) {
		fputs("null", f);
		return;
	}
	fputs("{\"memory_bytes\": ", f);
	if (st && st->have_mem_peak) {
		fprintf(f, "%llu, \"memory_source\": \"%s\"",
			(unsigned long long)st->mem_peak, st->mem_peak_src);
	} else if (ru) {
		fprintf(f,
			"%llu, \"memory_source\": \"rusage ru_maxrss (the "
			"largest single process)\"",
			(unsigned long long)o->rusage.ru_maxrss * 1024);
	} else {
		fputs("null, \"memory_source\": null", f);
	}
	fputs(", \"cpu_user_usec\": ", f);
	if (st && st->have_cpu)
		fprintf(f,
			"%llu, \"cpu_system_usec\": %llu, \"cpu_source\": "
			"\"%s\"",
			(unsigned long long)st->cpu_user_usec,
			(unsigned long long)st->cpu_sys_usec, st->cpu_src);
	else if (ru)
		fprintf(f,
			"%llu, \"cpu_system_usec\": %llu, \"cpu_source\": "
			"\"rusage\"",
			(unsigned long long)tv_usec(&o->rusage.ru_utime),
			(unsigned long long)tv_usec(&o->rusage.ru_stime));
	else
		fputs("null, \"cpu_system_usec\": null, \"cpu_source\": null",
		      f);
	fputs(", \"pids\": ", f);
	if (st && st->have_pids_peak)
		fprintf(f, "%llu, \"pids_source\": \"%s\"",
			(unsigned long long)st->pids_peak, st->pids_peak_src);
	else if (o->pids_sampled >= 0)
		fprintf(f,
			"%ld, \"pids_source\": \"pids.current, sampled every "
			"20 ms\"",
			o->pids_sampled);
	else
		fputs("null, \"pids_source\": null", f);
	fputs(", \"cpu_throttled_periods\": ", f);
	ward_json_u64_or_null(f, st && st->have_throttle,
			      st ? st->nr_throttled : 0);
	fputs(", \"cpu_throttled_usec\": ", f);
	ward_json_u64_or_null(f, st && st->have_throttle,
			      st ? st->throttled_usec : 0);
	fprintf(f,
		", \"wall_ms\": %llu, \"timers\": {\"sigterm_sent\": %s, "
		"\"ended_by_backstop\": %s}, \"mounts\": ",
		(unsigned long long)o->wall_ms, o->term_sent ? "true" : "false",
		o->backstop ? "true" : "false");
	put_mounts(f, r);
	fputc('}', f);
}

static void put_stream(FILE *f, const struct ward_stream *s)
{
	char hex[65];
	uint8_t tail[WARD_OUT_TAIL];
	size_t n = ward_output_tail(s, tail);

	ward_hex(s->digest, sizeof(s->digest), hex);
	fprintf(f,
		"{\"bytes\": %llu, \"kept\": %llu, \"truncated\": %s, "
		"\"mode\": \"%s\", \"escaped\": %llu, \"sha256\": \"%s\", "
		"\"tail\": ",
		(unsigned long long)s->total, (unsigned long long)s->kept,
		s->total > s->kept ? "true" : "false", s->text ? "text" : "raw",
		(unsigned long long)s->ts.escaped, hex);
	ward_json_bytes(f, tail, n);
	fputc('}', f);
}

static void put_output(FILE *f, const struct ward_report *r)
{
	if (!r->output || !r->outcome) {
		fputs("null", f);
		return;
	}
	fputs("{\"stdout\": ", f);
	put_stream(f, &r->output->s[WARD_STDOUT]);
	fputs(", \"stderr\": ", f);
	put_stream(f, &r->output->s[WARD_STDERR]);
	fputc('}', f);
}

static void put_oom(FILE *f, const struct ward_report *r)
{
	const struct ward_cg_stats *st = r->stats;
	const struct ward_verdict *v = r->verdict;

	if (!st || !st->have_oom) {
		fputs("null", f);
		return;
	}
	fprintf(f,
		"{\"oom_kill\": %llu, \"source\": \"%s\", \"limit_hits\": "
		"%llu, \"sigkill_at_limit\": %s, \"whole_run_killed\": %s}",
		(unsigned long long)st->oom_kills, st->oom_src,
		(unsigned long long)st->mem_max_hits,
		v && v->oom_sigkill_peak ? "true" : "false",
		r->outcome && r->outcome->stop == WARD_STOP_OOM ? "true"
								: "false");
}

static void put_flags(FILE *f, uint32_t flags)
{
	bool first = true;

	fputc('[', f);
	for (int i = 0; i < WARD_R_COUNT; i++)
		if (flags & WARD_R_BIT(i)) {
			fprintf(f, "%s\"%s\"", first ? "" : ", ",
				ward_reason_name(i));
			first = false;
		}
	fputc(']', f);
}

static void put_cleanup(FILE *f, const struct ward_report *r)
{
	if (!r->started) {
		fputs("null", f);
		return;
	}
	if (r->cg && r->cg->active && r->cleanup)
		fprintf(f,
			"{\"cgroup_removed\": %s, \"processes_left\": %u, "
			"\"checked_by\": \"cgroup.procs\"}",
			r->cleanup->removed ? "true" : "false",
			r->cleanup->procs_left);
	else
		fputs("{\"cgroup_removed\": null, \"processes_left\": 0, "
		      "\"checked_by\": \"pid namespace (init reaped)\"}",
		      f);
}

/* ------------------------------------------------------------ the run */
/* What an auditor needs to tell which run this was and to run it again:
 * the command line (bounded: at most RUN_ARGS arguments and RUN_ARGV_BYTES
 * bytes of them, each cut at RUN_ARG_BYTES), the kernel, and the mount
 * table the blob asked for with the host path given to each slot. */
#define RUN_ARGS       256
#define RUN_ARG_BYTES  4096
#define RUN_ARGV_BYTES 65536

static void put_argv(FILE *f, char *const *argv)
{
	size_t used = 0, n = 0;
	bool cut = false;

	if (!argv) {
		fputs("null, \"argv_truncated\": false", f);
		return;
	}
	fputc('[', f);
	for (; argv[n]; n++) {
		size_t len = strnlen(argv[n], RUN_ARG_BYTES + 1);

		if (n == RUN_ARGS || used + len > RUN_ARGV_BYTES) {
			cut = true;
			break;
		}
		if (len > RUN_ARG_BYTES) {
			len = RUN_ARG_BYTES;
			cut = true;
		}
		fputs(n ? ", " : "", f);
		ward_json_bytes(f, (const uint8_t *)argv[n], len);
		used += len;
	}
	fprintf(f, "], \"argv_truncated\": %s", cut ? "true" : "false");
}

static const char *slot_host(const struct ward_report *r, const char *name)
{
	for (size_t i = 0; name && i < r->nslots; i++)
		if (r->slots[i].name && !strcmp(r->slots[i].name, name))
			return r->slots[i].path;
	return NULL;
}

static void put_table(FILE *f, const struct ward_report *r)
{
	const struct ward_policy *p = r->policy;

	if (!p) {
		fputs("null", f);
		return;
	}
	fputc('[', f);
	for (size_t i = 0; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];
		bool has_size =
		    m->kind == WARD_MNT_TMPFS ||
		    (m->kind == WARD_MNT_SLOT && (m->flags & WARD_MNT_F_RW));

		fprintf(f, "%s{\"target\": ", i ? ", " : "");
		ward_json_str(f, m->dst);
		fprintf(f, ", \"kind\": \"%s\", \"source\": ",
			ward_mount_kind_name(m->kind));
		ward_json_str(f, m->kind == WARD_MNT_BIND ||
					 m->kind == WARD_MNT_SLOT ||
					 m->kind == WARD_MNT_SYMLINK
				     ? m->src
				     : NULL);
		fputs(", \"host_path\": ", f);
		ward_json_str(f, m->kind == WARD_MNT_SLOT ? slot_host(r, m->src)
				 : m->kind == WARD_MNT_BIND ? m->src
							    : NULL);
		fprintf(f,
			", \"rw\": %s, \"exec\": %s, \"optional\": %s, "
			"\"size\": ",
			m->flags & WARD_MNT_F_RW ? "true" : "false",
			m->flags & WARD_MNT_F_EXEC ? "true" : "false",
			m->flags & WARD_MNT_F_OPTIONAL ? "true" : "false");
		ward_json_u64_or_null(f, has_size, m->size);
		fputc('}', f);
	}
	fputc(']', f);
}

static void put_run(FILE *f, const struct ward_report *r)
{
	struct utsname u;
	bool have_u = uname(&u) == 0;

	fputs("{\"argv\": ", f);
	put_argv(f, r->argv);
	fputs(", \"kernel\": ", f);
	if (have_u) {
		fputs("{\"release\": ", f);
		ward_json_str(f, u.release);
		fputs(", \"version\": ", f);
		ward_json_str(f, u.version);
		fputs(", \"machine\": ", f);
		ward_json_str(f, u.machine);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fputs(", \"mounts\": ", f);
	put_table(f, r);
	fputs(", \"program\": ", f);
	ward_evidence_put_program(f, r->ev,
				  r->outcome && r->outcome->measured &&
				      r->outcome->end != WARD_END_EXEC &&
				      r->outcome->end != WARD_END_SETUP);
	fputs(", \"inputs\": ", f);
	ward_evidence_put_inputs(f, r->ev);
	fputs(", \"network\": ", f);
	ward_evidence_put_network(f, r->policy);
	fputc('}', f);
}

static void put_queue(FILE *f, const struct ward_queue *q)
{
	if (!q) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"ms\": %llu, \"ceiling\": %u, \"slot\": ",
		(unsigned long long)q->waited_ms, q->ceiling);
	ward_json_u64_or_null(f, q->slot >= 0, (uint64_t)q->slot);
	fprintf(f,
		", \"timeout_ms\": %llu, \"timed_out\": %s, \"host_wide\": "
		"%s, \"dir\": ",
		(unsigned long long)q->timeout_ms,
		q->timed_out ? "true" : "false",
		q->host_wide ? "true" : "false");
	ward_json_str(f, q->dir[0] ? q->dir : NULL);
	fprintf(f, ", \"ticket_ns\": %llu, \"admitted_ns\": ",
		(unsigned long long)q->ticket_ns);
	ward_json_u64_or_null(f, q->admitted_ns != 0, q->admitted_ns);
	fputc('}', f);
}

/* Each step's length in µs, from the marks in order (facts.h): a step
 * whose mark was not reached is null, and the next counts from the last
 * mark that was. */
static void put_timings(FILE *f, const struct ward_report *r)
{
	const struct ward_timings *t = r->t;
	const struct {
		const char *name;
		uint64_t mark;
	} steps[] = {
	    {"prepare", t ? t->prepared : 0}, {"queue", t ? t->admitted : 0},
	    {"courier", t ? t->courier : 0},  {"create", t ? t->created : 0},
	    {"spawn", t ? t->released : 0},   {"exec", r->exec_ns},
	    {"supervise", t ? t->ended : 0},  {"finish", t ? t->finished : 0},
	    {"deliver", r->done_ns},
	};
	uint64_t prev;

	if (!t || !t->start) {
		fputs("null", f);
		return;
	}
	prev = t->start;
	fputc('{', f);
	for (size_t i = 0; i < ARRAY_LEN(steps); i++) {
		uint64_t m = steps[i].mark;

		fprintf(f, "%s\"%s\": ", i ? ", " : "", steps[i].name);
		ward_json_u64_or_null(f, m >= prev && m, (m - prev) / 1000);
		if (m >= prev && m)
			prev = m;
	}
	fputs(", \"total\": ", f);
	ward_json_u64_or_null(f, r->done_ns >= t->start,
			      (r->done_ns - t->start) / 1000);
	fputc('}', f);
}

int ward_report_write(int fd, const struct ward_report *r, ward_err *err)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0, off = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return ward_fail(err, errno, "report");
	fprintf(f, "{\"report_version\": %d, \"ward_version\": ",
		WARD_REPORT_VERSION);
	ward_json_str(f, WARD_VERSION);
	fputs(", \"run_id\": ", f);
	ward_json_str(f, r->run_id);
	fputs(", \"policy\": {\"name\": ", f);
	ward_json_str(f, r->policy_name);
	fputs(", \"digest\": ", f);
	ward_json_str(f, r->digest_hex);
	fputs(", \"signed_by\": ", f);
	ward_json_str(f, r->signer);
	fputs("}, \"mode\": ", f);
	ward_json_str(f, r->mode);
	fputs(", \"run\": ", f);
	put_run(f, r);
	fputs(", \"created\": ", f);
	ward_json_time(f, &r->created);
	fputs(", \"destroyed\": ", f);
	ward_json_time(f, &r->destroyed);
	fputs(", \"reason\": ", f);
	ward_json_str(f, r->reason);
	fputs(", \"flags\": ", f);
	put_flags(f, r->flags);
	fprintf(f, ", \"exit_code\": %d, \"target_exit\": ", r->exit_code);
	ward_json_u64_or_null(f, r->target_exit >= 0, (uint64_t)r->target_exit);
	fputs(", \"signal\": ", f);
	ward_json_u64_or_null(f, r->signal > 0, (uint64_t)r->signal);
	fputs(", \"signal_name\": ", f);
	if (r->signal > 0)
		fprintf(f, "\"SIG%s\"", sigabbrev_np(r->signal));
	else
		fputs("null", f);
	fputs(", \"error\": ", f);
	ward_json_str(f, r->error);
	fputs(", \"cgroup\": ", f);
	put_cgroup(f, r->cg);
	fputs(", \"identity\": ", f);
	put_identity(f, r);
	fputs(", \"limits\": ", f);
	put_limits(f, r);
	fputs(", \"peaks\": ", f);
	put_peaks(f, r);
	fputs(", \"oom\": ", f);
	put_oom(f, r);
	fputs(", \"pids_refused\": ", f);
	ward_json_u64_or_null(f, r->stats && r->stats->have_pids_events,
			      r->stats ? r->stats->pids_max_hits : 0);
	fputs(", \"output\": ", f);
	put_output(f, r);
	fputs(", \"denials\": ", f);
	ward_report_denials(f, r); /* report_net.c */
	fputs(", \"network\": ", f);
	ward_report_network(f, r);
	fputs(", \"cleanup\": ", f);
	put_cleanup(f, r);
	fputs(", \"queue\": ", f);
	put_queue(f, r->queue);
	fputs(", \"timings_us\": ", f);
	put_timings(f, r);
	ward_channel_report(f, r->channel,
			    r->ws); /* workspace, files, export */
	fputs("}\n", f);
	if (fclose(f) != 0)
		return ward_fail(err, ENOMEM, "report");
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ward_fail(err, errno, "write the report");
		off += (size_t)n;
	}
	return 0;
}

void ward_report_summary(FILE *f, const struct ward_report *r)
{
	const struct ward_outcome *o = r->outcome;

	fprintf(f, "ward: %s: %s", r->run_id ? r->run_id : "-",
		r->reason ? r->reason : "?");
	if (r->target_exit >= 0)
		fprintf(f, " (exit %d)", r->target_exit);
	else if (r->signal > 0)
		fprintf(f, " (SIG%s)", sigabbrev_np(r->signal));
	if (o && r->violation && r->violation->seen)
		fprintf(f, ", syscall %s",
			r->violation->name ? r->violation->name : "?");
	fputc('\n', f);
	if (r->queue && (r->queue->waited_ms || r->queue->timed_out))
		fprintf(f, "ward:   queued %llu ms for one of %u slots%s\n",
			(unsigned long long)r->queue->waited_ms,
			r->queue->ceiling,
			r->queue->timed_out ? ": timed out" : "");
	if (o) {
		fprintf(f, "ward:   wall %llu ms",
			(unsigned long long)o->wall_ms);
		if (r->stats && r->stats->have_mem_peak)
			fprintf(f, ", memory peak %llu KiB",
				(unsigned long long)r->stats->mem_peak / 1024);
		if (r->stats && r->stats->have_cpu)
			fprintf(
			    f, ", cpu %llu ms user %llu ms system",
			    (unsigned long long)r->stats->cpu_user_usec / 1000,
			    (unsigned long long)r->stats->cpu_sys_usec / 1000);
		if (r->stats && r->stats->have_pids_peak)
			fprintf(f, ", pids peak %llu",
				(unsigned long long)r->stats->pids_peak);
		fputc('\n', f);
	}
	ward_report_denials_summary(f, r);
	for (int i = 0; r->output && o && i < 2; i++) {
		const struct ward_stream *s = &r->output->s[i];

		if (s->total)
			fprintf(f, "ward:   %s %llu bytes%s\n", s->name,
				(unsigned long long)s->total,
				s->total > s->kept ? ", truncated" : "");
	}
	if (r->cg && r->cg->active && r->cleanup)
		fprintf(f, "ward:   cgroup %s, %u processes left\n",
			r->cleanup->removed ? "removed" : "NOT removed",
			r->cleanup->procs_left);
}
