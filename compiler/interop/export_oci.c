/* SPDX-License-Identifier: MIT */
/*
 * export_oci.c: `wardc export --format oci`: the runtime-spec config.json
 * of a policy (docs/export.md), and the notes of what a format cannot say.
 *
 * The config is complete but for root.path ("rootfs", the bundle's
 * directory) and process.args, which are the caller's, unless it is a
 * bundle's (export_bundle.c). It mirrors what ward's launcher does when
 * run as root: the sandbox user is mapped to the unprivileged host user
 * 65534 in a user namespace of its own, with every namespace new, the root
 * read-only, no_new_privs, the capabilities the policy keeps in all five
 * sets (the launcher keeps them across execve through the ambient set) and
 * none other.
 *
 * Only what both crun (1.8) and runc (1.1) accept, as found running every
 * stdlib profile under both (tests/e2e/export_runtimes.sh):
 *   - container root is mapped too (to host 65533): runc refuses a user
 *     namespace without it ("no user mapping found");
 *   - a bind of a file has no recursive options (rro, rnosuid...): crun
 *     opens the target of those as a directory ("Not a directory"), and a
 *     file has no mounts below it anyway;
 *   - /dev and /proc are always mounted: both runtimes create their
 *     default devices under /dev whatever the config says (without a /dev
 *     mount, in the bundle's own rootfs), and runc's init reads
 *     /proc/self/fd before exec. A policy without them gets a tmpfs at
 *     /dev and a proc that shows only the sandbox's own processes
 *     (subset=pid, hidepid=invisible), noted;
 *   - comparison values below 2^63 (export_values.c).
 */
#include "export.h"

#include "consts.h"
#include "describe.h"
#include "rules_meaning.h"
#include "seccomp_args.h"
#include "sha256.h"
#include "syscalls.h"
#include "units.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---------------------------------------------------------------- notes */

void ward_note(struct ward_notes *n, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if (n->n == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 16;
		const char **v = ward_pool_array(n->pool, cap, sizeof(*v));
		if (n->n)
			memcpy(v, n->items, n->n * sizeof(*v));
		n->items = v;
		n->cap = cap;
	}
	n->items[n->n++] = ward_pool_strdup(n->pool, s);
	free(s);
}

/* ----------------------------------------------------------- config.json */

/* The cpu controller's period: 100 ms, the kernel's default. */
#define CPU_PERIOD_US 100000u

static struct doc *str_list(struct ward_pool *p, const char *const *v, size_t n)
{
	struct doc *l = doc_list(p);
	for (size_t i = 0; i < n; i++)
		doc_add(l, NULL, doc_str(p, v[i]));
	return l;
}

static struct doc *caps_list(struct ward_pool *p, uint64_t keep)
{
	struct doc *l = doc_list(p);
	for (int c = 0; c < 64; c++) {
		const char *name;

		if (!((keep >> c) & 1))
			continue;
		name = ward_cap_name(c);
		doc_add(
		    l, NULL,
		    doc_str(p, name ? name : ward_pool_printf(p, "CAP_%d", c)));
	}
	return l;
}

static void add_rlimit(struct ward_pool *p, struct doc *list, const char *type,
		       uint64_t value)
{
	struct doc *r = doc_add(list, NULL, doc_map(p));
	doc_set_str(p, r, "type", type);
	doc_set_uint(p, r, "hard", value);
	doc_set_uint(p, r, "soft", value);
}

static struct doc *process_doc(struct ward_pool *p,
			       const struct ward_policy *pol,
			       const struct ward_oci_opts *o,
			       struct ward_notes *notes)
{
	struct doc *proc = doc_map(p);
	struct doc *user;
	struct doc *env;
	struct doc *caps;
	static const char *const sets[] = {
	    "bounding", "effective", "inheritable", "permitted", "ambient"};
	struct doc *rlimits;
	const struct ward_limits *l;

	static const struct {
		enum ward_limit k;
		const char *type;
	} rl[] = {
	    {WARD_LIM_NOFILE, "RLIMIT_NOFILE"},
	    {WARD_LIM_NPROC, "RLIMIT_NPROC"},
	    {WARD_LIM_FILESIZE, "RLIMIT_FSIZE"},
	    {WARD_LIM_STACK, "RLIMIT_STACK"},
	    {WARD_LIM_MEMLOCK, "RLIMIT_MEMLOCK"},
	    {WARD_LIM_CORE, "RLIMIT_CORE"},
	    {WARD_LIM_SIGPENDING, "RLIMIT_SIGPENDING"},
	    {WARD_LIM_MSGQUEUE, "RLIMIT_MSGQUEUE"},
	};

	doc_set_bool(p, proc, "terminal", false);
	user = doc_add(proc, "user", doc_map(p));
	doc_set_uint(p, user, "uid", pol->identity.uid);
	doc_set_uint(p, user, "gid", pol->identity.gid);
	/* the caller's, unless given */
	doc_add(proc, "args", str_list(p, o->args, o->nargs));
	env = doc_add(proc, "env", doc_list(p));
	for (uint32_t i = 0; i < pol->nenv; i++) {
		const struct ward_env_var *v = &pol->env[i];
		if (v->value)
			doc_add(env, NULL,
				doc_str(p, ward_pool_printf(p, "%s=%s", v->name,
							    v->value)));
		else
			ward_note(notes,
				  "env: `inherit %s` passes the caller's value "
				  "at launch; a config.json is fixed: add it "
				  "to process.env",
				  v->name);
	}
	doc_set_str(p, proc, "cwd",
		    pol->identity.workdir ? pol->identity.workdir : "/");

	/* Kept capabilities are in all five sets, as the launcher keeps them
	 * across execve for a non-root user (ambient). */
	caps = doc_add(proc, "capabilities", doc_map(p));
	for (size_t i = 0; i < ARRAY_LEN(sets); i++)
		doc_add(caps, sets[i], caps_list(p, pol->identity.caps_keep));

	rlimits = doc_add(proc, "rlimits", doc_list(p));
	l = &pol->limits;
	/* the policy's values, else the launcher's defaults (core 0, memlock
	 * 8M, sigpending 1024, msgqueue 256K: policy.h) */
	for (size_t i = 0; i < ARRAY_LEN(rl); i++) {
		uint64_t v;
		if (ward_limit_effective(l, rl[i].k, &v))
			add_rlimit(p, rlimits, rl[i].type, v);
	}
	if (ward_limit_is_set(l, WARD_LIM_CPUTIME))
		add_rlimit(p, rlimits, "RLIMIT_CPU",
			   (l->value[WARD_LIM_CPUTIME] + 999) / 1000);
	doc_set_bool(p, proc, "noNewPrivileges", true);
	return proc;
}

/* "rbind,ro,rro,nosuid,rnosuid,...": ward makes every bind recursive, and
 * every mount below it read-only, nosuid and nodev too. A file has no
 * mounts below it, and crun opens the target of recursive options as a
 * directory: a file's bind has none. */
static struct doc *bind_options(struct ward_pool *p, uint32_t flags,
				bool is_file)
{
	bool rw = flags & WARD_MNT_F_RW, exec = flags & WARD_MNT_F_EXEC;
	const char *dir[] = {"rbind",
			     rw ? "rw" : "ro",
			     rw ? "rrw" : "rro",
			     "nosuid",
			     "rnosuid",
			     "nodev",
			     "rnodev",
			     exec ? "exec" : "noexec",
			     exec ? NULL : "rnoexec"};
	const char *file[] = {"rbind", rw ? "rw" : "ro", "nosuid", "nodev",
			      exec ? "exec" : "noexec"};
	if (is_file)
		return str_list(p, file, ARRAY_LEN(file));
	return str_list(p, dir, exec ? 8 : 9);
}

/* What a bind's source is on this machine: 'd' a directory, 'f' anything
 * else, 0 missing. (The config is for this machine's runtime: a source
 * that is another type there makes the runtime fail, as ward would.) */
static char source_type(const char *src)
{
	struct stat st;
	if (stat(src, &st) < 0)
		return 0;
	return S_ISDIR(st.st_mode) ? 'd' : 'f';
}

static struct doc *mount_doc(struct ward_pool *p, struct doc *list,
			     const char *dst, const char *type, const char *src)
{
	struct doc *m = doc_add(list, NULL, doc_map(p));
	doc_set_str(p, m, "destination", dst);
	doc_set_str(p, m, "type", type);
	doc_set_str(p, m, "source", src);
	return m;
}

/* A minimal /dev as runtimes make it: a tmpfs they fill with the default
 * devices (null, zero, full, random, urandom, tty, ptmx and the fd
 * links), a private devpts and a /dev/shm, the sizes the launcher uses. */
static void dev_mounts(struct ward_pool *p, struct doc *list, const char *dst,
		       struct ward_notes *notes)
{
	struct doc *m = mount_doc(p, list, dst, "tmpfs", "tmpfs");
	const char *dev[] = {"nosuid", "noexec", "strictatime", "mode=755",
			     "size=64k"};
	const char *pts[] = {"nosuid", "noexec", "newinstance", "ptmxmode=0666",
			     "mode=0620"};
	const char *shm[] = {"nosuid", "noexec", "nodev", "mode=1777",
			     "size=65536k"};

	doc_add(m, "options", str_list(p, dev, ARRAY_LEN(dev)));
	m = mount_doc(p, list, ward_pool_printf(p, "%s/pts", dst), "devpts",
		      "devpts");
	doc_add(m, "options", str_list(p, pts, ARRAY_LEN(pts)));
	m = mount_doc(p, list, ward_pool_printf(p, "%s/shm", dst), "tmpfs",
		      "shm");
	doc_add(m, "options", str_list(p, shm, ARRAY_LEN(shm)));
	if (strcmp(dst, "/dev"))
		ward_note(notes,
			  "fs: `dev %s`: a tmpfs, devpts and shm there, but "
			  "runtimes create the device nodes under /dev only",
			  dst);
}

/* A read-write slot: a tmpfs of its size in ward (a copy of the host
 * directory), the host directory itself in a runtime. */
static void slot_size_note(struct ward_pool *p, const struct ward_mount *m,
			   struct ward_notes *notes)
{
	/* A file slot stays a bind in ward too, bounded by `filesize`. */
	if (m->kind != WARD_MNT_SLOT || !(m->flags & WARD_MNT_F_RW))
		return;
	ward_note(notes,
		  "fs: slot `%s` at %s: ward mounts a read-write directory "
		  "slot as a tmpfs of %s holding a copy of the host directory, "
		  "copied back after the run (a run writes at most that to "
		  "the host's disk); here it is the host directory itself, "
		  "live both ways and bounded only by its filesystem's free "
		  "space: give a directory on a filesystem of that size",
		  m->src, m->dst, ward_size_str(p, m->size));
}

static const char *slot_source(const struct ward_oci_opts *o,
			       struct ward_pool *p, const char *slot)
{
	for (size_t i = 0; i < o->nslots; i++)
		if (!strcmp(o->slot_names[i], slot))
			return o->slot_paths[i];
	return ward_pool_printf(p, "${WARD_SLOT_%s}", slot);
}

static void bind_mount(struct ward_pool *p, struct doc *list,
		       const struct ward_mount *m,
		       const struct ward_oci_opts *o, struct ward_notes *notes)
{
	char type = source_type(m->src);
	struct doc *d;

	if (!type && o->bundle && (m->flags & WARD_MNT_F_OPTIONAL)) {
		ward_note(notes,
			  "fs: `bind %s at %s` is optional and %s is missing "
			  "here: left out, as ward would skip it",
			  m->src, m->dst, m->src);
		return;
	}
	d = mount_doc(p, list, m->dst, "bind", m->src);
	doc_add(d, "options", bind_options(p, m->flags, type == 'f'));
	if ((m->flags & WARD_MNT_F_OPTIONAL) && !o->bundle)
		ward_note(notes,
			  "fs: `bind %s at %s` is optional in the policy; the "
			  "runtime fails when %s is missing",
			  m->src, m->dst, m->src);
}

static bool has_mount_at(const struct ward_policy *pol, const char *dst)
{
	for (uint32_t i = 1; i < pol->nmounts; i++)
		if (!strcmp(pol->mounts[i].dst, dst))
			return true;
	return false;
}

/* What a runtime adds to any container, given its own place: see the top
 * of this file. */
static void runtime_mounts(struct ward_pool *p, const struct ward_policy *pol,
			   struct doc *list, struct ward_notes *notes)
{
	if (!has_mount_at(pol, "/dev")) {
		const char *o[] = {"nosuid", "noexec", "mode=755", "size=64k"};
		struct doc *m = mount_doc(p, list, "/dev", "tmpfs", "tmpfs");
		doc_add(m, "options", str_list(p, o, ARRAY_LEN(o)));
		ward_note(notes,
			  "fs: no `dev`: runtimes create their default devices "
			  "(null, zero, full, random, urandom, tty) under /dev "
			  "in any container; here in a tmpfs of its own");
	}
	if (!has_mount_at(pol, "/proc")) {
		const char *o[] = {"nosuid", "nodev", "noexec", "subset=pid",
				   "hidepid=invisible"};
		struct doc *m = mount_doc(p, list, "/proc", "proc", "proc");
		doc_add(m, "options", str_list(p, o, ARRAY_LEN(o)));
		ward_note(notes,
			  "fs: no `proc` at /proc: runc's init reads "
			  "/proc/self/fd before exec; a proc that shows only "
			  "the sandbox's own processes (subset=pid, "
			  "hidepid=invisible) is mounted there");
	}
}

static struct doc *mounts_doc(struct ward_pool *p,
			      const struct ward_policy *pol,
			      const struct ward_oci_opts *o,
			      struct ward_notes *notes)
{
	struct doc *list = doc_list(p);
	/* mounts[0] is ward's own root, an empty tmpfs: root.path instead */
	for (uint32_t i = 1; i < pol->nmounts; i++) {
		const struct ward_mount *m = &pol->mounts[i];
		struct doc *d;
		switch (m->kind) {
		case WARD_MNT_BIND:
			bind_mount(p, list, m, o, notes);
			break;
		case WARD_MNT_SLOT: {
			const char *src = slot_source(o, p, m->src);

			d = mount_doc(p, list, m->dst, "bind", src);
			doc_add(d, "options", bind_options(p, m->flags, false));
			if (!o->bundle)
				ward_note(notes,
					  "fs: slot `%s` at %s: its source is "
					  "the placeholder ${WARD_SLOT_%s}: "
					  "replace it with the host path",
					  m->src, m->dst, m->src);
			if (!o->bundle || source_type(src) == 'd')
				slot_size_note(p, m, notes);
			break;
		}
		case WARD_MNT_TMPFS: {
			const char *t[] = {
			    "nosuid",
			    "nodev",
			    (m->flags & WARD_MNT_F_EXEC) ? "exec" : "noexec",
			    ward_pool_printf(p, "size=%llu",
					     (unsigned long long)m->size),
			    ward_pool_printf(p, "mode=%o", m->mode),
			    ward_pool_printf(p, "uid=%u", pol->identity.uid),
			    ward_pool_printf(p, "gid=%u", pol->identity.gid)};
			d = mount_doc(p, list, m->dst, "tmpfs", "tmpfs");
			doc_add(d, "options", str_list(p, t, ARRAY_LEN(t)));
			break;
		}
		case WARD_MNT_PROC: {
			const char *t[] = {"nosuid", "nodev", "noexec"};

			d = mount_doc(p, list, m->dst, "proc", "proc");
			doc_add(d, "options", str_list(p, t, ARRAY_LEN(t)));
			break;
		}
		case WARD_MNT_DEV:
			dev_mounts(p, list, m->dst, notes);
			break;
		case WARD_MNT_FILE:
			if (!o->bundle)
				ward_note(notes,
					  "fs: `file %s` (%llu bytes, mode "
					  "%04o): OCI has no inline files: put "
					  "it in the root filesystem",
					  m->dst,
					  (unsigned long long)m->data_len,
					  m->mode);
			break;
		case WARD_MNT_SYMLINK:
			if (!o->bundle)
				ward_note(notes,
					  "fs: `symlink %s -> %s`: put it in "
					  "the root filesystem",
					  m->dst, m->src);
			break;
		case WARD_MNT_DIR:
			if (!o->bundle)
				ward_note(notes,
					  "fs: `dir %s` (mode %04o): put it in "
					  "the root filesystem",
					  m->dst, m->mode);
			break;
		}
	}
	runtime_mounts(p, pol, list, notes);
	return list;
}

static struct doc *resources_doc(struct ward_pool *p,
				 const struct ward_policy *pol,
				 struct ward_notes *notes)
{
	const struct ward_limits *l = &pol->limits;
	struct doc *r = doc_map(p);
	bool mem = ward_limit_is_set(l, WARD_LIM_MEMORY);
	if (mem || ward_limit_is_set(l, WARD_LIM_SWAP)) {
		struct doc *m = doc_add(r, "memory", doc_map(p));
		if (mem)
			doc_set_uint(p, m, "limit", l->value[WARD_LIM_MEMORY]);
		/* OCI's swap is memory plus swap */
		if (mem && ward_limit_is_set(l, WARD_LIM_SWAP))
			doc_set_uint(p, m, "swap",
				     l->value[WARD_LIM_MEMORY] +
					 l->value[WARD_LIM_SWAP]);
		else if (!mem)
			ward_note(notes, "limits: `swap` without `memory`: "
					 "OCI's memory.swap counts memory "
					 "and swap together");
		if (pol->requirements & WARD_REQ_CGROUP_SWAP)
			ward_note(notes,
				  "limits: runtimes ignore memory.swap "
				  "quietly where swap accounting is off; ward "
				  "refuses to run there");
	}
	if (ward_limit_is_set(l, WARD_LIM_CPU)) {
		struct doc *c = doc_add(r, "cpu", doc_map(p));
		doc_set_uint(p, c, "quota",
			     l->value[WARD_LIM_CPU] * CPU_PERIOD_US / 1000);
		doc_set_uint(p, c, "period", CPU_PERIOD_US);
	}
	if (ward_limit_is_set(l, WARD_LIM_PIDS)) {
		struct doc *c = doc_add(r, "pids", doc_map(p));
		doc_set_uint(p, c, "limit", l->value[WARD_LIM_PIDS]);
	}
	return r;
}

/* The sandbox's id to WARD_OCI_HOST_ID and, unless it is 0, container
 * root to WARD_OCI_HOST_ROOT_ID (runc wants a mapping for root). */
static void id_mapping(struct ward_pool *p, struct doc *lx, const char *key,
		       uint32_t id)
{
	struct doc *l = doc_add(lx, key, doc_list(p));
	struct doc *m;

	if (id != 0) {
		m = doc_add(l, NULL, doc_map(p));
		doc_set_uint(p, m, "containerID", 0);
		doc_set_uint(p, m, "hostID", WARD_OCI_HOST_ROOT_ID);
		doc_set_uint(p, m, "size", 1);
	}
	m = doc_add(l, NULL, doc_map(p));
	doc_set_uint(p, m, "containerID", id);
	doc_set_uint(p, m, "hostID", WARD_OCI_HOST_ID);
	doc_set_uint(p, m, "size", 1);
}

/* What neither a runtime nor the kernel can be told through config.json. */
static void limits_notes(struct ward_pool *p, const struct ward_policy *pol,
			 struct ward_notes *notes)
{
	static const enum ward_limit caller[] = {
	    WARD_LIM_WALL,	   WARD_LIM_GRACE,  WARD_LIM_STDOUT,
	    WARD_LIM_STDERR,	   WARD_LIM_OUTPUT, WARD_LIM_STDOUT_AT_CAP,
	    WARD_LIM_STDERR_AT_CAP};
	const struct ward_limits *l = &pol->limits;
	for (size_t i = 0; i < ARRAY_LEN(caller); i++)
		if (ward_limit_is_set(l, caller[i]))
			ward_note(notes,
				  "limits: `%s %s`: OCI runtimes have no such "
				  "limit; the caller must enforce it",
				  describe_limit_name(caller[i]),
				  describe_limit_value(p, caller[i],
						       l->value[caller[i]]));
	/* Not emitted as linux.resources.unified: cgroup v1 has no
	 * memory.oom.group, and the runtime test runs them on v1 (a hybrid
	 * host with the v2 mount hidden: docs/export.md 2.1). */
	if (ward_limit_is_set(l, WARD_LIM_MEMORY) && !ward_oom_process(l))
		ward_note(notes,
			  "limits: `oom group` (the default): an OOM kill ends "
			  "the whole run in ward (memory.oom.group); runtimes "
			  "leave the other processes running: on cgroup v2, "
			  "set memory.oom.group to 1 in "
			  "linux.resources.unified");
	ward_userns_notes(p, pol, notes);
	ward_identity_output_notes(pol, notes,
				   "the container has only process.user's "
				   "ids (no additionalGids here)");
}

void ward_userns_notes(struct ward_pool *p, const struct ward_policy *pol,
		       struct ward_notes *notes)
{
	/* limits of the sandbox's user namespace, which the launcher always
	 * sets (policy.h: the policy's, else its defaults) */
	static const enum ward_limit userns[] = {
	    WARD_LIM_INOTIFY_INSTANCES, WARD_LIM_INOTIFY_WATCHES,
	    WARD_LIM_FANOTIFY_GROUPS, WARD_LIM_FANOTIFY_MARKS};
	const struct ward_limits *l = &pol->limits;

	for (size_t i = 0; i < ARRAY_LEN(userns); i++) {
		uint64_t v;
		if (ward_limit_effective(l, userns[i], &v))
			ward_note(notes,
				  "limits: `%s %s`: a limit of the sandbox's "
				  "user namespace, which runtimes do not set: "
				  "the container takes from its host user's "
				  "count",
				  describe_limit_name(userns[i]),
				  describe_limit_value(p, userns[i], v));
	}
	if (!(pol->exec & WARD_EXEC_MEMFD))
		ward_note(notes,
			  "exec: `memfd noexec` (the default): ward makes "
			  "memfds non-executable (vm.memfd_noexec = 2 in the "
			  "sandbox's pid namespace, or a seccomp guard); "
			  "runtimes do not, so a memfd the program writes can "
			  "be executed");
}

void ward_identity_output_notes(const struct ward_policy *pol,
				struct ward_notes *notes, const char *groups)
{
	static const char *const stream[] = {"stdout", "stderr"};

	if (pol->requirements & WARD_REQ_HOST_GROUPS)
		ward_note(notes,
			  "identity: `groups keep`: a rootless ward run lets "
			  "the caller's supplementary groups follow the "
			  "sandbox; here %s, which is narrower",
			  groups);
	for (int i = 0; i < 2; i++)
		if (ward_stream_text(&pol->limits, i))
			ward_note(notes,
				  "output: `%s text`: ward delivers the stream "
				  "safe to display (controls, invalid UTF-8 "
				  "and bidirectional overrides written as "
				  "escapes); the runtime passes the bytes as "
				  "they are: escape them before a terminal or "
				  "a web log shows them",
				  stream[i]);
}

void ward_export_rule_notes(const struct ward_policy *pol,
			    struct ward_notes *notes)
{
	for (uint32_t i = 0; i < pol->nexports; i++)
		ward_note(notes,
			  "export: the rules for slot `%s` (at most %u files, "
			  "types and sizes checked by content): nothing copies "
			  "results out for you; apply the same checks",
			  pol->exports[i].slot, pol->exports[i].max_files);
}

void ward_net_notes(struct ward_pool *p, const struct ward_policy *pol,
		    struct ward_notes *notes, const char *instead)
{
	if (pol->net.mode != WARD_NET_ALLOWLIST)
		return;
	for (uint32_t i = 0; i < pol->net.nrules; i++)
		ward_note(notes, "net: `allow %s`: %s",
			  describe_net_rule(p, &pol->net.rules[i]), instead);
	for (uint32_t i = 0; i < pol->net.nnames; i++)
		ward_note(notes,
			  "net: `allow %s`: by name, its addresses learned at "
			  "run time from ward's DNS stub: %s",
			  describe_net_name(p, &pol->net.names[i]), instead);
	for (uint32_t i = 0; i < pol->net.nhosts; i++)
		ward_note(notes, "net: `host %s = %s`: an /etc/hosts entry",
			  pol->net.hosts[i].name,
			  describe_addr(p, pol->net.hosts[i].family,
					pol->net.hosts[i].addr));
}

/*
 * The syscalls runc 1.1's init makes after it loads the filter and before
 * the program's execve (libcontainer/standard_init_linux.go: close the
 * pipes, open and write the exec fifo through /proc/self/fd, check that it
 * is procfs, close the fds; the Go runtime's threads meanwhile: futexes,
 * signals for preemption, sleeps, the poller). Found by running the strict
 * profile under runc until twelve runs in a row started cleanly. crun loads
 * the filter right before execve and needs none of them.
 */
static const char *const runc_init_syscalls[] = {
    "close",	    "openat",	      "fstat",	      "fstatfs",
    "fcntl",	    "getdents64",     "getpid",	      "gettid",
    "tgkill",	    "futex",	      "nanosleep",    "sched_yield",
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack",
    "madvise",	    "epoll_pwait",    "epoll_ctl",
};

static int cmp_nr(const void *a, const void *b)
{
	const struct ward_syscall_rule *x = a, *y = b;
	return (x->nr > y->nr) - (x->nr < y->nr);
}

/* rules, with each syscall of runc_init_syscalls that they do not allow
 * whatever its arguments allowed (noted). */
static struct ward_rules runtime_init_rules(struct ward_pool *p,
					    const struct ward_policy *pol,
					    struct ward_notes *notes)
{
	const struct ward_rules *in = &pol->rules;
	const struct ward_action allow = {.kind = WARD_ACT_ALLOW};
	size_t max = in->nsyscalls + ARRAY_LEN(runc_init_syscalls);
	struct ward_syscall_rule *sc = ward_pool_array(p, max, sizeof(*sc));
	struct ward_rules out = *in;
	const char *added = NULL;
	uint32_t n = in->nsyscalls;

	memcpy(sc, in->syscalls, n * sizeof(*sc));
	for (size_t i = 0; i < ARRAY_LEN(runc_init_syscalls); i++) {
		const char *name = runc_init_syscalls[i];
		int32_t nr = ward_sys_nr(pol->arch, name);
		struct ward_syscall_rule *r = NULL;
		struct ward_action a;

		if (nr < 0)
			continue;
		for (uint32_t k = 0; k < n && !r; k++)
			if (sc[k].nr == nr)
				r = &sc[k];
		if (r ? ward_syscall_const_action(r, &in->default_action, &a) &&
			    ward_action_cmp(&a, &allow) == 0
		      : ward_action_cmp(&in->default_action, &allow) == 0)
			continue;
		if (!r)
			r = &sc[n++];
		*r = (struct ward_syscall_rule){.nr = nr,
						.name = name,
						.has_fallback = true,
						.fallback = allow};
		added =
		    added ? ward_pool_printf(p, "%s, %s", added, name) : name;
	}
	qsort(sc, n, sizeof(*sc), cmp_nr);
	out.syscalls = sc;
	out.nsyscalls = n;
	if (added)
		ward_note(notes,
			  "seccomp: allowed for runc's own init, which makes "
			  "them after it loads the filter (--allow-runtime-"
			  "init): %s; the policy refuses them, and the program "
			  "can make them too",
			  added);
	return out;
}

/* The note when runc could not start the program under these rules. */
static void runtime_init_note(const struct ward_policy *pol,
			      struct ward_notes *notes, struct ward_pool *p)
{
	struct ward_notes probe = {.pool = p};

	(void)runtime_init_rules(p, pol, &probe);
	if (probe.n)
		ward_note(notes,
			  "seccomp: runc makes calls of its own after it loads "
			  "the filter that this policy refuses: runc cannot "
			  "start it (crun can); --allow-runtime-init allows "
			  "them (a widening)");
}

struct doc *ward_export_oci(struct ward_pool *p, const struct ward_policy *pol,
			    const struct ward_oci_opts *o,
			    struct ward_notes *notes, ward_err *err)
{
	static const struct ward_oci_opts plain = {0};
	struct ward_xseccomp x;
	struct ward_rules rules = pol->rules;
	struct doc *cfg;
	struct doc *root;
	struct doc *lx;
	struct doc *ns;
	static const char *const types[] = {"pid",   "network", "ipc", "uts",
					    "mount", "cgroup",	"user"};
	struct doc *ann;
	char hex[65];

	if (!o)
		o = &plain;
	if (o->runtime_init)
		rules = runtime_init_rules(p, pol, notes);
	else
		runtime_init_note(pol, notes, p);
	if (ward_export_seccomp(p, &rules, pol->arch, rules.default_action, &x,
				err) < 0 ||
	    ward_xseccomp_int63(p, &x, notes, err) < 0 ||
	    ward_xseccomp_check(&x, pol->arch, err) < 0)
		return NULL;

	cfg = doc_map(p);
	doc_set_str(p, cfg, "ociVersion", "1.0.2");
	doc_add(cfg, "process", process_doc(p, pol, o, notes));
	root = doc_add(cfg, "root", doc_map(p));
	doc_set_str(p, root, "path", "rootfs");
	doc_set_bool(p, root, "readonly", true);
	doc_set_str(p, cfg, "hostname",
		    pol->identity.hostname[0] ? pol->identity.hostname
					      : "ward");
	doc_add(cfg, "mounts", mounts_doc(p, pol, o, notes));

	lx = doc_add(cfg, "linux", doc_map(p));
	id_mapping(p, lx, "uidMappings", pol->identity.uid);
	id_mapping(p, lx, "gidMappings", pol->identity.gid);
	ns = doc_add(lx, "namespaces", doc_list(p));
	for (size_t i = 0; i < ARRAY_LEN(types); i++)
		doc_set_str(p, doc_add(ns, NULL, doc_map(p)), "type", types[i]);
	doc_add(lx, "resources", resources_doc(p, pol, notes));
	doc_add(lx, "seccomp", ward_xseccomp_doc(p, &x, pol->arch, true));

	ward_xseccomp_runtime_notes(p, &x, pol->arch, notes);
	ward_note(notes,
		  "seccomp: other architectures and the x32 ABI get the "
		  "runtime's bad-architecture action (libseccomp's "
		  "SCMP_ACT_KILL: the thread) where ward kills the process");
	ward_net_notes(p, pol, notes,
		       "not expressed: the container's network namespace "
		       "has no route out until the caller's network setup "
		       "allows exactly this");
	limits_notes(p, pol, notes);
	ward_export_rule_notes(pol, notes);

	ann = doc_add(cfg, "annotations", doc_map(p));
	doc_set_str(p, ann, "io.ward.policy", pol->meta.policy_name);
	ward_hex(pol->meta.source_digest, 32, hex);
	doc_set_str(p, ann, "io.ward.source-digest",
		    ward_pool_printf(p, "sha256:%s", hex));
	if (notes->n) {
		const char *all = "";
		for (size_t i = 0; i < notes->n; i++)
			all = ward_pool_printf(p, "%s%s%s", all, i ? "\n" : "",
					       notes->items[i]);
		doc_set_str(p, ann, "io.ward.not-expressed", all);
	}
	return cfg;
}
