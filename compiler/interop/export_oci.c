/* SPDX-License-Identifier: MIT */
/*
 * export_oci.c: `wardc export --format oci`: the runtime-spec config.json
 * of a policy (docs/export.md), and the notes of what a format cannot say.
 *
 * The config is complete but for root.path ("rootfs", the bundle's
 * directory) and process.args, which are the caller's. It mirrors what
 * ward's launcher does when run as root: the sandbox user is mapped to the
 * unprivileged host user 65534 in a user namespace of its own, with every
 * namespace new, the root read-only, no_new_privs, the capabilities the
 * policy keeps in all five sets (the launcher keeps them across execve
 * through the ambient set) and none other.
 */
#include "export.h"

#include "consts.h"
#include "describe.h"
#include "sha256.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

/* The host uid and gid the sandbox user maps to, as ward's launcher does
 * when it runs as root (--host-uid and --host-gid default). */
#define OCI_HOST_ID 65534u

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
	};

	doc_set_bool(p, proc, "terminal", false);
	user = doc_add(proc, "user", doc_map(p));
	doc_set_uint(p, user, "uid", pol->identity.uid);
	doc_set_uint(p, user, "gid", pol->identity.gid);
	doc_add(proc, "args", doc_list(p)); /* the caller's */
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
	for (size_t i = 0; i < ARRAY_LEN(rl); i++)
		if (ward_limit_is_set(l, rl[i].k))
			add_rlimit(p, rlimits, rl[i].type, l->value[rl[i].k]);
	if (ward_limit_is_set(l, WARD_LIM_CPUTIME))
		add_rlimit(p, rlimits, "RLIMIT_CPU",
			   (l->value[WARD_LIM_CPUTIME] + 999) / 1000);
	/* the launcher sets no core dumps unless the policy says */
	add_rlimit(p, rlimits, "RLIMIT_CORE",
		   ward_limit_is_set(l, WARD_LIM_CORE) ? l->value[WARD_LIM_CORE]
						       : 0);
	doc_set_bool(p, proc, "noNewPrivileges", true);
	return proc;
}

/* "rbind,ro,rro,nosuid,rnosuid,...": ward makes every bind recursive, and
 * every mount below it read-only, nosuid and nodev too. */
static struct doc *bind_options(struct ward_pool *p, uint32_t flags)
{
	bool rw = flags & WARD_MNT_F_RW, exec = flags & WARD_MNT_F_EXEC;
	const char *opts[] = {"rbind",
			      rw ? "rw" : "ro",
			      rw ? "rrw" : "rro",
			      "nosuid",
			      "rnosuid",
			      "nodev",
			      "rnodev",
			      exec ? "exec" : "noexec",
			      exec ? NULL : "rnoexec"};
	return str_list(p, opts, exec ? 8 : 9);
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

static struct doc *mounts_doc(struct ward_pool *p,
			      const struct ward_policy *pol,
			      struct ward_notes *notes)
{
	struct doc *list = doc_list(p);
	/* mounts[0] is ward's own root, an empty tmpfs: root.path instead */
	for (uint32_t i = 1; i < pol->nmounts; i++) {
		const struct ward_mount *m = &pol->mounts[i];
		struct doc *d;
		switch (m->kind) {
		case WARD_MNT_BIND:
			d = mount_doc(p, list, m->dst, "bind", m->src);
			doc_add(d, "options", bind_options(p, m->flags));
			if (m->flags & WARD_MNT_F_OPTIONAL)
				ward_note(notes,
					  "fs: `bind %s at %s` is optional in "
					  "the policy; the runtime fails when "
					  "%s is missing",
					  m->src, m->dst, m->src);
			break;
		case WARD_MNT_SLOT:
			d = mount_doc(
			    p, list, m->dst, "bind",
			    ward_pool_printf(p, "${WARD_SLOT_%s}", m->src));
			doc_add(d, "options", bind_options(p, m->flags));
			ward_note(notes,
				  "fs: slot `%s` at %s: its source is the "
				  "placeholder ${WARD_SLOT_%s}: replace it "
				  "with the host path",
				  m->src, m->dst, m->src);
			break;
		case WARD_MNT_TMPFS: {
			const char *o[] = {
			    "nosuid",
			    "nodev",
			    (m->flags & WARD_MNT_F_EXEC) ? "exec" : "noexec",
			    ward_pool_printf(p, "size=%llu",
					     (unsigned long long)m->size),
			    ward_pool_printf(p, "mode=%o", m->mode),
			    ward_pool_printf(p, "uid=%u", pol->identity.uid),
			    ward_pool_printf(p, "gid=%u", pol->identity.gid)};
			d = mount_doc(p, list, m->dst, "tmpfs", "tmpfs");
			doc_add(d, "options", str_list(p, o, ARRAY_LEN(o)));
			break;
		}
		case WARD_MNT_PROC: {
			const char *o[] = {"nosuid", "nodev", "noexec"};

			d = mount_doc(p, list, m->dst, "proc", "proc");
			doc_add(d, "options", str_list(p, o, ARRAY_LEN(o)));
			break;
		}
		case WARD_MNT_DEV:
			dev_mounts(p, list, m->dst, notes);
			break;
		case WARD_MNT_FILE:
			ward_note(notes,
				  "fs: `file %s` (%llu bytes, mode %04o): "
				  "OCI has no inline files: put it in the "
				  "root filesystem",
				  m->dst, (unsigned long long)m->data_len,
				  m->mode);
			break;
		case WARD_MNT_SYMLINK:
			ward_note(notes,
				  "fs: `symlink %s -> %s`: put it in the root "
				  "filesystem",
				  m->dst, m->src);
			break;
		case WARD_MNT_DIR:
			ward_note(notes,
				  "fs: `dir %s` (mode %04o): put it in the "
				  "root filesystem",
				  m->dst, m->mode);
			break;
		}
	}
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

static void id_mapping(struct ward_pool *p, struct doc *lx, const char *key,
		       uint32_t id)
{
	struct doc *m =
	    doc_add(doc_add(lx, key, doc_list(p)), NULL, doc_map(p));
	doc_set_uint(p, m, "containerID", id);
	doc_set_uint(p, m, "hostID", OCI_HOST_ID);
	doc_set_uint(p, m, "size", 1);
}

/* What neither a runtime nor the kernel can be told through config.json. */
static void limits_notes(struct ward_pool *p, const struct ward_policy *pol,
			 struct ward_notes *notes)
{
	static const enum ward_limit caller[] = {
	    WARD_LIM_WALL, WARD_LIM_GRACE, WARD_LIM_STDOUT, WARD_LIM_STDERR,
	    WARD_LIM_OUTPUT};
	const struct ward_limits *l = &pol->limits;
	for (size_t i = 0; i < ARRAY_LEN(caller); i++)
		if (ward_limit_is_set(l, caller[i]))
			ward_note(notes,
				  "limits: `%s %s`: OCI runtimes have no such "
				  "limit; the caller must enforce it",
				  describe_limit_name(caller[i]),
				  describe_limit_value(p, caller[i],
						       l->value[caller[i]]));
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
	for (uint32_t i = 0; i < pol->net.nhosts; i++)
		ward_note(notes, "net: `host %s = %s`: an /etc/hosts entry",
			  pol->net.hosts[i].name,
			  describe_addr(p, pol->net.hosts[i].family,
					pol->net.hosts[i].addr));
}

struct doc *ward_export_oci(struct ward_pool *p, const struct ward_policy *pol,
			    struct ward_notes *notes, ward_err *err)
{
	struct ward_xseccomp x;
	struct doc *cfg;
	struct doc *root;
	struct doc *lx;
	struct doc *ns;
	static const char *const types[] = {"pid",   "network", "ipc", "uts",
					    "mount", "cgroup",	"user"};
	struct doc *ann;
	char hex[65];

	if (ward_export_seccomp(p, &pol->rules, pol->arch,
				pol->rules.default_action, &x, err) < 0 ||
	    ward_xseccomp_check(&x, pol->arch, err) < 0)
		return NULL;

	cfg = doc_map(p);
	doc_set_str(p, cfg, "ociVersion", "1.0.2");
	doc_add(cfg, "process", process_doc(p, pol, notes));
	root = doc_add(cfg, "root", doc_map(p));
	doc_set_str(p, root, "path", "rootfs");
	doc_set_bool(p, root, "readonly", true);
	doc_set_str(p, cfg, "hostname",
		    pol->identity.hostname[0] ? pol->identity.hostname
					      : "ward");
	doc_add(cfg, "mounts", mounts_doc(p, pol, notes));

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
