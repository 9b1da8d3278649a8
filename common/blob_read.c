/* SPDX-License-Identifier: MIT */
/*
 * blob_read.c: the policy blob reader, the single source of truth for the
 * format (docs/spec.md part 2). It runs in the launcher on a file that may
 * have been tampered with, so it trusts nothing:
 *
 *   - every access goes through a cursor that checks the bytes are there;
 *   - every count is checked against the bytes that remain before anything
 *     is allocated for it, and every integer is checked before it indexes
 *     a table;
 *   - the whole blob is validated before the caller sees any of it.
 *
 * The header and directory are checked first (framing, digest, tiling),
 * then each section is parsed in directory order.
 */
#include "blob_read.h"

#include "answer_ranges.h"
#include "blob.h"
#include "net_layout.h"
#include "sha256.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

/* The characters allowed in names, with how messages spell them. */
struct charset {
	const char *chars, *desc;
};
#define ALNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
static const struct charset name_chars = {ALNUM "_-", "A-Za-z0-9_-"};
static const struct charset syscall_chars = {ALNUM "_", "A-Za-z0-9_"};
static const struct charset dns_chars = {ALNUM "._-", "A-Za-z0-9._-"};
static const struct charset hostname_chars = {ALNUM ".-", "A-Za-z0-9.-"};

static const char *const section_names[WARD_SEC_KNOWN_MAX + 1] = {
    [WARD_SEC_META] = "meta",
    [WARD_SEC_IDENTITY] = "identity",
    [WARD_SEC_ENV] = "env",
    [WARD_SEC_MOUNTS] = "mounts",
    [WARD_SEC_LIMITS] = "limits",
    [WARD_SEC_NETWORK] = "network",
    [WARD_SEC_SECCOMP] = "seccomp",
    [WARD_SEC_RULES] = "rules",
    [WARD_SEC_EXPORT] = "export",
    [WARD_SEC_NET_BPF] = "net-bpf",
    [WARD_SEC_EXEC] = "exec",
    [WARD_SEC_LANDLOCK] = "landlock",
    [WARD_SEC_NET_NAMES] = "net-names",
};

static bool known_section(uint32_t type)
{
	return type >= 1 && type <= WARD_SEC_KNOWN_MAX && section_names[type];
}

const char *ward_arch_name(uint32_t arch)
{
	switch (arch) {
	case WARD_ARCH_X86_64:
		return "x86_64";
	case WARD_ARCH_AARCH64:
		return "aarch64";
	}
	return NULL;
}

static const char *const export_types[] = {
    "text", "png",  "jpeg", "gif",  "webp", "pdf",
    "zip",  "gzip", "svg",  "html", "tar",
};
_Static_assert(ARRAY_LEN(export_types) == 11 &&
		   WARD_EXPORT_T_ALL == (1u << ARRAY_LEN(export_types)) - 1,
	       "one name per export type bit");

const char *ward_export_type_name(uint32_t bit)
{
	if (!bit || (bit & (bit - 1)) || !(bit & WARD_EXPORT_T_ALL))
		return NULL;
	return export_types[__builtin_ctz(bit)];
}

uint32_t ward_export_type_bit(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(export_types); i++)
		if (!strcmp(export_types[i], name))
			return 1u << i;
	return 0;
}

/* A cursor over one section, and where it stands, for messages:
 * "blob: section 3 (mounts) entry 2: ...". */
struct cur {
	const uint8_t *p; /* the section's first byte */
	size_t len, pos;
	size_t base;	  /* the section's offset in the file */
	uint32_t sec;	  /* index in the directory, or NO_SECTION */
	const char *name; /* the section's type, if known */
	unsigned depth;	  /* entries being read: "syscall 4 condition 1" */
	const char *lvl[3];
	uint32_t idx[3];
	ward_err *err;
};

#define NO_SECTION UINT32_MAX /* header and directory messages */

/* Fail with "blob: section 3 (mounts) entry 2: " and the message. The
 * longest prefix ("section 65535 (identity) syscall 4294967295 condition
 * 4294967295 comparison 4294967295: ") fits where[] with room to spare. */
__attribute__((format(printf, 2, 3))) static int bad(struct cur *c,
						     const char *fmt, ...)
{
	char where[160] = "", what[256];
	int n = 0;
	va_list ap;

	if (c->sec != NO_SECTION) {
		n = snprintf(where, sizeof(where), "section %u", c->sec);
		if (c->name)
			n += snprintf(where + n, sizeof(where) - (size_t)n,
				      " (%s)", c->name);
		for (unsigned i = 0; i < c->depth; i++)
			n += snprintf(where + n, sizeof(where) - (size_t)n,
				      " %s %u", c->lvl[i], c->idx[i]);
		snprintf(where + n, sizeof(where) - (size_t)n, ": ");
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return ward_fail(c->err, 0, "blob: %s%s", where, what);
}

/* Enter entry idx at nesting level lvl ("entry", "rule", ...). */
static void at(struct cur *c, unsigned lvl, const char *name, uint32_t idx)
{
	c->depth = lvl + 1;
	c->lvl[lvl] = name;
	c->idx[lvl] = idx;
}

/* The next n bytes, or NULL (with the error filled) if they are not there. */
static const uint8_t *take(struct cur *c, size_t n)
{
	const uint8_t *r = c->p + c->pos;

	if (n > c->len - c->pos) {
		bad(c, "truncated: %zu bytes needed at offset %zu, %zu left", n,
		    c->base + c->pos, c->len - c->pos);
		return NULL;
	}
	c->pos += n;
	return r;
}

/* Refuse a count of entries of at least min_size bytes each that cannot
 * fit in what is left of the section: checked before any allocation. */
static int fits(struct cur *c, uint32_t n, size_t min_size, const char *what)
{
	size_t total;

	if (__builtin_mul_overflow((size_t)n, min_size, &total) ||
	    total > c->len - c->pos)
		return bad(c, "%u %s cannot fit in the %zu bytes left", n, what,
			   c->len - c->pos);
	return 0;
}

static int zero(struct cur *c, const uint8_t *r, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (r[i])
			return bad(c, "%s is not zero", what);
	return 0;
}

/* A fixed record of n bytes whose bytes [z, z + zn) are reserved zeros. */
static const uint8_t *rec(struct cur *c, size_t n, size_t z, size_t zn)
{
	const uint8_t *r = take(c, n);

	return r && zero(c, r + z, zn, "reserved field") == 0 ? r : NULL;
}

/* A string: u32 length n, n bytes, NUL, zero padding to a multiple of 8.
 * bytes: interior NULs are allowed (file contents). */
static int str(struct cur *c, const char *what, size_t max, bool bytes,
	       const char **s, size_t *n)
{
	const uint8_t *r, *d;
	uint32_t len;

	if (!(r = take(c, 4)))
		return -1;
	len = ward_le32(r);
	if (len > max)
		return bad(c, "%s is longer than %zu bytes", what, max);
	if (!(d = take(c, (size_t)len + 1)))
		return -1;
	if (d[len] != '\0')
		return bad(c, "%s is not NUL-terminated", what);
	if (!bytes && memchr(d, '\0', len))
		return bad(c, "%s contains a NUL byte", what);
	if (c->pos % 8) {
		size_t npad = 8 - c->pos % 8;
		if (!(r = take(c, npad)) || zero(c, r, npad, "padding") < 0)
			return -1;
	}
	*s = (const char *)d;
	if (n)
		*n = len;
	return 0;
}

/* A string of at most max characters from set; empty only if may_be_empty. */
static int word(struct cur *c, const char *what, size_t max,
		const struct charset *set, bool may_be_empty, const char **s)
{
	size_t n;

	if (str(c, what, max, false, s, &n) < 0)
		return -1;
	if (n == 0 && !may_be_empty)
		return bad(c, "%s is empty", what);
	if (strspn(*s, set->chars) != n)
		return bad(c, "%s contains a character outside [%s]", what,
			   set->desc);
	return 0;
}

/* An absolute, normalised path: no "." or ".." component, no "//", no
 * trailing "/" except for "/" itself. */
static int path(struct cur *c, const char *what, const char **out)
{
	const char *s, *p, *e;
	size_t n;

	if (str(c, what, WARD_BLOB_PATH_MAX, false, out, &n) < 0)
		return -1;
	s = *out;
	if (s[0] != '/')
		return bad(c, "%s is not absolute", what);
	if (n > 1 && s[n - 1] == '/')
		return bad(c, "%s has a trailing /", what);
	for (p = s; n > 1 && *p; p = e) {
		e = strchrnul(p + 1, '/');
		if (e == p + 1)
			return bad(c, "%s contains //", what);
		if ((e == p + 2 && p[1] == '.') ||
		    (e == p + 3 && p[1] == '.' && p[2] == '.'))
			return bad(c, "%s has a . or .. component", what);
	}
	return 0;
}

/* Arrays are allocated only after fits() has bounded their count. */
static void *array(struct cur *c, uint32_t n, size_t size)
{
	void *a;

	if (n == 0)
		return NULL;
	if (!(a = calloc(n, size)))
		ward_fail(c->err, ENOMEM, "blob: section %u (%s)", c->sec,
			  c->name);
	return a;
}
#define ALLOC(c, ptr, n)                                                       \
	((n) == 0 || ((ptr) = array((c), (n), sizeof(*(ptr)))) != NULL)

/* A u32 count and a reserved u32 that must be zero. */
static int count(struct cur *c, uint32_t *n)
{
	const uint8_t *r = rec(c, 8, 4, 4);

	if (!r)
		return -1;
	*n = ward_le32(r);
	return 0;
}

/* ------------------------------------------------------------ sections */

static int read_meta(struct cur *c, struct ward_policy *p)
{
	const uint8_t *r = take(c, 32);
	const char *s;
	size_t n;

	if (!r)
		return -1;
	memcpy(p->meta.source_digest, r, 32);
	if (word(c, "policy name", WARD_BLOB_NAME_MAX, &name_chars, false,
		 &p->meta.policy_name) < 0 ||
	    str(c, "compiler version", WARD_BLOB_NAME_MAX, false, &s, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return bad(c, "compiler version is not printable");
	if (n == 0)
		return bad(c, "compiler version is empty");
	p->meta.compiler_version = s;
	return 0;
}

static int read_identity(struct cur *c, struct ward_identity *id)
{
	const uint8_t *r = take(c, 16);

	if (!r)
		return -1;
	id->uid = ward_le32(r);
	id->gid = ward_le32(r + 4);
	id->caps_keep = ward_le64(r + 8);
	if (id->uid > WARD_BLOB_ID_MAX || id->gid > WARD_BLOB_ID_MAX)
		return bad(c, "uid %u or gid %u is outside 0..%u", id->uid,
			   id->gid, WARD_BLOB_ID_MAX);
	if (id->caps_keep >> (WARD_BLOB_CAP_LAST + 1))
		return bad(c, "unknown capability bits above %u",
			   WARD_BLOB_CAP_LAST);
	/* "" keeps the launcher's default hostname. */
	if (word(c, "hostname", WARD_BLOB_HOSTNAME_MAX, &hostname_chars, true,
		 &id->hostname) < 0)
		return -1;
	return path(c, "workdir", &id->workdir);
}

/* Duplicate names: sort (name, index) pairs and compare neighbours. */
struct named {
	const char *s;
	uint32_t i;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int r = strcmp(x->s, y->s);

	return r ? r : (x->i > y->i) - (x->i < y->i);
}

static int unique(struct cur *c, struct named *v, uint32_t n, const char *what)
{
	if (n < 2)
		return 0;
	qsort(v, n, sizeof(*v), cmp_named);
	for (uint32_t k = 1; k < n; k++)
		if (!strcmp(v[k - 1].s, v[k].s)) {
			at(c, 0, "entry", v[k].i);
			return bad(c, "duplicate %s (entry %u has it too)",
				   what, v[k - 1].i);
		}
	return 0;
}

static int read_env(struct cur *c, struct ward_policy *p)
{
	struct ward_env_var *env = NULL;
	_cleanup_free_ struct named *names = NULL;
	uint32_t n;

	if (count(c, &n) < 0 ||
	    fits(c, n, WARD_BLOB_ENV_FIXED + WARD_BLOB_STR_MIN, "entries") <
		0 ||
	    !ALLOC(c, env, n))
		return -1;
	p->env = env;
	p->nenv = n;
	if (!ALLOC(c, names, n))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *r;
		size_t nlen, vlen = 0;
		uint32_t flags;

		at(c, 0, "entry", i);
		if (!(r = rec(c, WARD_BLOB_ENV_FIXED, 4, 4)))
			return -1;
		flags = ward_le32(r);
		if (flags & ~WARD_ENV_F_VALUE)
			return bad(c, "unknown flag bits 0x%x",
				   flags & ~WARD_ENV_F_VALUE);
		if (str(c, "name", WARD_BLOB_ENV_MAX, false, &env[i].name,
			&nlen) < 0)
			return -1;
		if (nlen == 0)
			return bad(c, "name is empty");
		if (strchr(env[i].name, '='))
			return bad(c, "name contains '='");
		if ((flags & WARD_ENV_F_VALUE) &&
		    str(c, "value", WARD_BLOB_ENV_MAX, false, &env[i].value,
			&vlen) < 0)
			return -1;
		if (nlen + vlen + 2 > WARD_BLOB_ENV_MAX)
			return bad(c, "NAME=VALUE is longer than %u bytes",
				   WARD_BLOB_ENV_MAX - 1);
		names[i] = (struct named){env[i].name, i};
	}
	c->depth = 0;
	return unique(c, names, n, "name");
}

/* What each mount kind takes; everything else must be zero or empty. The
 * rw and exec flags are the launcher's to interpret for every kind;
 * optional is for binds only. */
enum { ARG_NONE, ARG_HOSTPATH, ARG_TARGET, ARG_SLOT, ARG_DATA };
static const struct {
	const char *name;
	uint8_t arg;
	bool size, mode;
} mount_kinds[] = {
    [WARD_MNT_BIND] = {"bind", ARG_HOSTPATH, false, false},
    [WARD_MNT_TMPFS] = {"tmpfs", ARG_NONE, true, true},
    [WARD_MNT_PROC] = {"proc", ARG_NONE, false, false},
    [WARD_MNT_DEV] = {"dev", ARG_NONE, false, false},
    [WARD_MNT_FILE] = {"file", ARG_DATA, false, true},
    [WARD_MNT_SYMLINK] = {"symlink", ARG_TARGET, false, false},
    [WARD_MNT_SLOT] = {"slot", ARG_SLOT, false, false},
    [WARD_MNT_DIR] = {"dir", ARG_NONE, false, true},
};

const char *ward_mount_kind_name(uint32_t kind)
{
	return kind < ARRAY_LEN(mount_kinds) && mount_kinds[kind].name
		   ? mount_kinds[kind].name
		   : "?";
}

static int read_mount_arg(struct cur *c, struct ward_mount *m, uint8_t arg)
{
	const char *s;
	size_t n;

	switch (arg) {
	case ARG_HOSTPATH:
		return path(c, "source", &m->src);
	case ARG_SLOT:
		return word(c, "slot name", WARD_BLOB_NAME_MAX, &name_chars,
			    false, &m->src);
	case ARG_TARGET:
		if (str(c, "link target", WARD_BLOB_PATH_MAX, false, &m->src,
			&n) < 0)
			return -1;
		return n ? 0 : bad(c, "link target is empty");
	case ARG_DATA:
		if (str(c, "file contents", WARD_BLOB_FILE_MAX, true, &s, &n) <
		    0)
			return -1;
		m->data = (const uint8_t *)s;
		m->data_len = n;
		return 0;
	}
	if (str(c, "source", WARD_BLOB_FILE_MAX, true, &s, &n) < 0)
		return -1;
	return n ? bad(c, "this kind of mount takes no source or contents") : 0;
}

static int read_mounts(struct cur *c, struct ward_policy *p)
{
	struct ward_mount *mnt = NULL;
	_cleanup_free_ struct named *dsts = NULL;
	uint32_t n;

	if (count(c, &n) < 0 ||
	    fits(c, n, WARD_BLOB_MOUNT_FIXED + 2 * WARD_BLOB_STR_MIN,
		 "entries") < 0 ||
	    !ALLOC(c, mnt, n))
		return -1;
	p->mounts = mnt;
	p->nmounts = n;
	if (n == 0)
		return bad(c, "no mounts: the root tmpfs \"/\" is missing");
	if (!ALLOC(c, dsts, n))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		struct ward_mount *m = &mnt[i];
		const uint8_t *r;

		at(c, 0, "entry", i);
		if (!(r = rec(c, WARD_BLOB_MOUNT_FIXED, 20, 4)))
			return -1;
		m->kind = ward_le32(r);
		m->flags = ward_le32(r + 4);
		m->size = ward_le64(r + 8);
		m->mode = ward_le32(r + 16);
		if (m->kind == 0 || m->kind >= ARRAY_LEN(mount_kinds))
			return bad(c, "unknown mount kind %u", m->kind);
		if (m->flags & ~WARD_MNT_F_ALL)
			return bad(c, "unknown flag bits 0x%x",
				   m->flags & ~WARD_MNT_F_ALL);
		if ((m->flags & WARD_MNT_F_OPTIONAL) &&
		    m->kind != WARD_MNT_BIND)
			return bad(c, "optional on a %s mount",
				   mount_kinds[m->kind].name);
		/* A read-write slot is a tmpfs of its size during the run:
		 * it must have one; a read-only one must not. */
		if ((mount_kinds[m->kind].size ||
		     (m->kind == WARD_MNT_SLOT && (m->flags & WARD_MNT_F_RW)))
			? m->size == 0
			: m->size != 0)
			return bad(c, "size %llu on a %s mount",
				   (unsigned long long)m->size,
				   mount_kinds[m->kind].name);
		if (m->mode > (mount_kinds[m->kind].mode ? 07777u : 0u))
			return bad(c, "mode 0%o on a %s mount", m->mode,
				   mount_kinds[m->kind].name);
		if (path(c, "destination", &m->dst) < 0 ||
		    read_mount_arg(c, m, mount_kinds[m->kind].arg) < 0)
			return -1;
		if (i == 0 &&
		    (m->kind != WARD_MNT_TMPFS || strcmp(m->dst, "/")))
			return bad(c, "the first mount is not the root tmpfs "
				      "\"/\"");
		dsts[i] = (struct named){m->dst, i};
	}
	c->depth = 0;
	return unique(c, dsts, n, "destination");
}

#define KIB (1ull << 10)
#define MIB (1ull << 20)
#define GIB (1ull << 30)
#define TIB (1ull << 40)
#define DAY (24 * 3600 * 1000ull) /* milliseconds */

/* docs/spec.md 1.7.5, in base units (bytes, ms, thousandths of a CPU). */
static const struct {
	const char *name;
	uint64_t min, max;
} limit_ranges[WARD_LIM_COUNT] = {
    [WARD_LIM_MEMORY] = {"memory", MIB, TIB},
    [WARD_LIM_SWAP] = {"swap", 0, TIB},
    [WARD_LIM_CPU] = {"cpu", 10, 1024000},
    [WARD_LIM_PIDS] = {"pids", 1, 4194304},
    [WARD_LIM_WALL] = {"wall", 1, 7 * DAY},
    [WARD_LIM_GRACE] = {"grace", 0, 3600 * 1000},
    [WARD_LIM_CPUTIME] = {"cputime", 1000, 7 * DAY},
    [WARD_LIM_NOFILE] = {"nofile", 1, 1048576},
    [WARD_LIM_FILESIZE] = {"filesize", 0, TIB},
    [WARD_LIM_NPROC] = {"nproc", 1, 4194304},
    [WARD_LIM_STACK] = {"stack", 64 * KIB, GIB},
    [WARD_LIM_MEMLOCK] = {"memlock", 0, GIB},
    [WARD_LIM_CORE] = {"core", 0, TIB},
    [WARD_LIM_STDOUT] = {"stdout", 0, TIB},
    [WARD_LIM_STDERR] = {"stderr", 0, TIB},
    [WARD_LIM_OUTPUT] = {"output", 0, TIB},
    [WARD_LIM_SIGPENDING] = {"sigpending", 0, 4194304},
    [WARD_LIM_MSGQUEUE] = {"msgqueue", 0, GIB},
    [WARD_LIM_INOTIFY_INSTANCES] = {"inotify-instances", 0, 65536},
    [WARD_LIM_INOTIFY_WATCHES] = {"inotify-watches", 0, 16777216},
    [WARD_LIM_FANOTIFY_GROUPS] = {"fanotify-groups", 0, 65536},
    [WARD_LIM_FANOTIFY_MARKS] = {"fanotify-marks", 0, 16777216},
    [WARD_LIM_SLOT_SIZE] = {"slot-size", MIB, TIB},
    [WARD_LIM_OOM] = {"oom", 0, 1},
    [WARD_LIM_STDOUT_MODE] = {"stdout-mode", 0, 1},
    [WARD_LIM_STDERR_MODE] = {"stderr-mode", 0, 1},
    [WARD_LIM_STDOUT_AT_CAP] = {"stdout-at-cap", 0, 1},
    [WARD_LIM_STDERR_AT_CAP] = {"stderr-at-cap", 0, 1},
};

static int read_limits(struct cur *c, struct ward_limits *l)
{
	uint32_t n;

	if (count(c, &n) < 0 || fits(c, n, WARD_BLOB_LIMIT_SIZE, "limits") < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *r;
		uint32_t key;
		uint64_t v;

		at(c, 0, "entry", i);
		if (!(r = rec(c, WARD_BLOB_LIMIT_SIZE, 4, 4)))
			return -1;
		key = ward_le32(r);
		v = ward_le64(r + 8);
		if (key >= WARD_LIM_COUNT)
			return bad(c, "unknown limit key %u", key);
		if (l->set >> key)
			return bad(
			    c, "limit %s %s", limit_ranges[key].name,
			    (l->set >> key) & 1
				? "appears twice"
				: "is out of order (keys must increase)");
		if (v < limit_ranges[key].min || v > limit_ranges[key].max)
			return bad(c, "limit %s = %llu is outside %llu..%llu",
				   limit_ranges[key].name,
				   (unsigned long long)v,
				   (unsigned long long)limit_ranges[key].min,
				   (unsigned long long)limit_ranges[key].max);
		l->set |= 1ull << key;
		l->value[key] = v;
	}
	return 0;
}

/* family 4 or 6; for IPv4 the last 12 bytes must be zero. */
static int address(struct cur *c, uint8_t family, const uint8_t *addr)
{
	if (family != 4 && family != 6)
		return bad(c, "unknown address family %u", family);
	if (family == 4)
		return zero(c, addr + 4, 12, "IPv4 address tail");
	return 0;
}

static int read_rule(struct cur *c, struct ward_net_rule *nr)
{
	const uint8_t *r = rec(c, WARD_BLOB_RULE_SIZE, 3, 1);
	unsigned bits;

	if (!r)
		return -1;
	nr->proto = r[0];
	nr->family = r[1];
	nr->prefix = r[2];
	nr->port_lo = ward_le16(r + 4);
	nr->port_hi = ward_le16(r + 6);
	memcpy(nr->addr, r + 8, 16);
	if (nr->proto != 6 && nr->proto != 17)
		return bad(c, "unknown protocol %u", nr->proto);
	if (address(c, nr->family, nr->addr) < 0)
		return -1;
	bits = nr->family == 4 ? 32 : 128;
	if (nr->prefix > bits)
		return bad(c, "prefix /%u is longer than %u", nr->prefix, bits);
	for (unsigned b = nr->prefix; b < bits; b++)
		if (nr->addr[b / 8] & (0x80 >> (b % 8)))
			return bad(c,
				   "address has bits set past its /%u prefix",
				   nr->prefix);
	if (nr->port_lo == 0 || nr->port_lo > nr->port_hi)
		return bad(c,
			   "port range %u-%u is not within 1..65535 in order",
			   nr->port_lo, nr->port_hi);
	return 0;
}

static int read_network(struct cur *c, struct ward_net *net)
{
	const uint8_t *r = rec(c, 16, 12, 4);
	struct ward_net_rule *rules = NULL;
	struct ward_net_host *hosts = NULL;

	if (!r)
		return -1;
	net->mode = ward_le32(r);
	net->nrules = ward_le32(r + 4);
	net->nhosts = ward_le32(r + 8);
	if (net->mode > WARD_NET_ALLOWLIST)
		return bad(c, "unknown network mode %u", net->mode);
	if (net->mode == WARD_NET_NONE && (net->nrules || net->nhosts))
		return bad(c, "net none with %u rules and %u hosts",
			   net->nrules, net->nhosts);
	if (fits(c, net->nrules, WARD_BLOB_RULE_SIZE, "rules") < 0 ||
	    !ALLOC(c, rules, net->nrules))
		return -1;
	net->rules = rules;
	for (uint32_t i = 0; i < net->nrules; i++) {
		at(c, 0, "rule", i);
		if (read_rule(c, &rules[i]) < 0)
			return -1;
	}
	c->depth = 0;
	if (fits(c, net->nhosts, WARD_BLOB_HOST_FIXED + WARD_BLOB_STR_MIN,
		 "hosts") < 0 ||
	    !ALLOC(c, hosts, net->nhosts))
		return -1;
	net->hosts = hosts;
	for (uint32_t i = 0; i < net->nhosts; i++) {
		at(c, 0, "host", i);
		if (!(r = rec(c, WARD_BLOB_HOST_FIXED, 1, 7)))
			return -1;
		hosts[i].family = r[0];
		memcpy(hosts[i].addr, r + 8, 16);
		if (address(c, hosts[i].family, hosts[i].addr) < 0 ||
		    word(c, "host name", WARD_BLOB_DNSNAME_MAX, &dns_chars,
			 false, &hosts[i].name) < 0)
			return -1;
	}
	return 0;
}

/* A name in the compiler's normal form (docs/spec.md 5.11): labels of 1..63
 * bytes of [a-z0-9-], not starting or ending with `-`, the first one `*`
 * exactly when it is a wildcard. The launcher matches on it as it is. */
static int dns_pattern(struct cur *c, const char *n, bool wildcard)
{
	const char *p = n;

	if (wildcard != (strncmp(n, "*.", 2) == 0))
		return bad(c,
			   "domain name `%s`: the wildcard flag and its `*.` "
			   "disagree",
			   n);
	p += wildcard ? 2 : 0;
	for (;;) {
		size_t l = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789-");

		if (l == 0 || l > 63 || p[0] == '-' || p[l - 1] == '-' ||
		    (p[l] != '.' && p[l] != '\0'))
			return bad(c, "domain name `%s` is not in normal form",
				   n);
		if (p[l] == '\0')
			return 0;
		p += l + 1;
	}
}

/* The compiler's order: by name, then ports (one protocol). */
static int name_cmp(const struct ward_net_name *x,
		    const struct ward_net_name *y)
{
	int d = strcmp(x->name, y->name);

	if (d)
		return d;
	if (x->port_lo != y->port_lo)
		return x->port_lo < y->port_lo ? -1 : 1;
	return x->port_hi == y->port_hi ? 0 : x->port_hi < y->port_hi ? -1 : 1;
}

/* The end of a prefix's network: its address with the host bits set. */
static void prefix_last(const struct ward_net_prefix *p, uint8_t out[16])
{
	unsigned bits = p->family == 4 ? 32 : 128;

	memcpy(out, p->addr, 16);
	for (unsigned b = p->prefix; b < bits; b++)
		out[b / 8] |= (uint8_t)(0x80 >> (b % 8));
}

/* Is f wholly inside one of the n refused ranges? */
static bool covered(const struct ward_net_prefix *r, uint32_t n,
		    const struct ward_net_prefix *f)
{
	for (uint32_t i = 0; i < n; i++)
		if (ward_prefix_covers(&r[i], f))
			return true;
	return false;
}

/* The refused ranges of answers (docs/spec.md 5.11): networks in normal
 * form, sorted by (family, address), disjoint, holding every fixed range
 * and its IPv6 embeddings: a blob that would let an answer lead to
 * loopback or the metadata address is refused, whoever wrote it. */
static int read_refused(struct cur *c, struct ward_net *net)
{
	struct ward_net_prefix *rs = NULL;
	const uint8_t *r;

	if (net->nrefused == 0)
		return bad(c, "no refused ranges (the fixed ones are always "
			      "there)");
	if (net->nrefused > WARD_BLOB_REFUSED_MAX)
		return bad(c, "%u refused ranges, more than %u", net->nrefused,
			   WARD_BLOB_REFUSED_MAX);
	if (fits(c, net->nrefused, WARD_BLOB_RANGE_SIZE, "refused ranges") <
		0 ||
	    !ALLOC(c, rs, net->nrefused))
		return -1;
	net->refused = rs;
	for (uint32_t i = 0; i < net->nrefused; i++) {
		struct ward_net_prefix *x = &rs[i];
		unsigned bits;
		uint8_t last[16];

		at(c, 0, "refused range", i);
		if (!(r = rec(c, WARD_BLOB_RANGE_SIZE, 2, 6)))
			return -1;
		x->family = r[0];
		x->prefix = r[1];
		memcpy(x->addr, r + 8, 16);
		if (address(c, x->family, x->addr) < 0)
			return -1;
		bits = x->family == 4 ? 32 : 128;
		if (x->prefix > bits)
			return bad(c, "prefix length %u is more than %u",
				   x->prefix, bits);
		for (unsigned b = x->prefix; b < bits; b++)
			if (x->addr[b / 8] & (0x80 >> (b % 8)))
				return bad(c,
					   "address bits set past the prefix "
					   "length %u",
					   x->prefix);
		if (!i || rs[i - 1].family < x->family)
			continue;
		prefix_last(&rs[i - 1], last);
		if (rs[i - 1].family > x->family ||
		    memcmp(last, x->addr, 16) >= 0)
			return bad(c, "refused ranges are not sorted and "
				      "disjoint");
	}
	c->depth = 0;
	for (size_t i = 0; i < ward_answers_nfixed; i++) {
		const struct ward_net_prefix *f = &ward_answers_fixed[i];
		struct ward_net_prefix e[WARD_ANSWERS_EMBED];
		size_t ne = f->family == 4 ? ward_prefix_embed(f, e) : 0;
		bool ok = covered(rs, net->nrefused, f);

		for (size_t k = 0; k < ne; k++)
			ok = ok && covered(rs, net->nrefused, &e[k]);
		if (!ok)
			return bad(c,
				   "the refused ranges leave out the fixed "
				   "range %zu (or an IPv6 form of it)",
				   i);
	}
	return 0;
}

static int read_net_names(struct cur *c, struct ward_net *net)
{
	struct ward_net_name *names = NULL;
	const uint8_t *r;

	if (!(r = take(c, 8)))
		return -1;
	net->nnames = ward_le32(r);
	net->nrefused = ward_le32(r + 4);
	if (net->mode != WARD_NET_ALLOWLIST || net->nnames == 0)
		return bad(c,
			   "%u names outside an allow-list (the section "
			   "is left out then)",
			   net->nnames);
	if (fits(c, net->nnames, WARD_BLOB_NAME_FIXED + WARD_BLOB_STR_MIN,
		 "names") < 0 ||
	    !ALLOC(c, names, net->nnames))
		return -1;
	net->names = names;
	for (uint32_t i = 0; i < net->nnames; i++) {
		struct ward_net_name *n = &names[i];
		size_t len;

		at(c, 0, "name", i);
		if (!(r = rec(c, WARD_BLOB_NAME_FIXED, 2, 2)))
			return -1;
		n->proto = r[0];
		n->flags = r[1];
		n->port_lo = ward_le16(r + 4);
		n->port_hi = ward_le16(r + 6);
		if (n->proto != 6)
			return bad(c, "protocol %u (names are TCP only)",
				   n->proto);
		if (n->flags & ~WARD_NET_NAME_WILDCARD)
			return bad(c, "unknown name flags 0x%x", n->flags);
		if (n->port_lo == 0 || n->port_lo > n->port_hi)
			return bad(c,
				   "port range %u-%u is not within 1..65535 "
				   "in order",
				   n->port_lo, n->port_hi);
		if (str(c, "domain name", WARD_BLOB_DNSNAME_MAX, false,
			&n->name, &len) < 0 ||
		    dns_pattern(c, n->name, n->flags & WARD_NET_NAME_WILDCARD) <
			0)
			return -1;
		if (i && name_cmp(&names[i - 1], n) >= 0)
			return bad(c, "names are not sorted and unique");
	}
	c->depth = 0;
	return read_refused(c, net);
}

/* A program list, so that a later version can carry one per arch; v1
 * holds exactly one, for the header's arch. */
static int read_seccomp(struct cur *c, struct ward_seccomp *sc, uint32_t arch)
{
	struct sock_filter *insns = NULL;
	const uint8_t *r;
	uint32_t nprogs;

	if (count(c, &nprogs) < 0)
		return -1;
	if (nprogs != 1)
		return bad(c, "%u programs, version 1 holds exactly one",
			   nprogs);
	at(c, 0, "program", 0);
	if (!(r = take(c, 8)))
		return -1;
	sc->arch = ward_le32(r);
	sc->ninsns = ward_le32(r + 4);
	if (sc->arch != arch)
		return bad(c, "program arch 0x%08x is not the header's 0x%08x",
			   sc->arch, arch);
	if (sc->ninsns == 0 || sc->ninsns > WARD_BLOB_INSNS_MAX)
		return bad(c, "%u instructions, not within 1..%u", sc->ninsns,
			   WARD_BLOB_INSNS_MAX);
	if (fits(c, sc->ninsns, WARD_BLOB_INSN_SIZE, "instructions") < 0 ||
	    !ALLOC(c, insns, sc->ninsns))
		return -1;
	sc->insns = insns;
	if (!(r = take(c, (size_t)sc->ninsns * WARD_BLOB_INSN_SIZE)))
		return -1;
	for (uint32_t i = 0; i < sc->ninsns; i++, r += WARD_BLOB_INSN_SIZE)
		insns[i] = (struct sock_filter){ward_le16(r), r[2], r[3],
						ward_le32(r + 4)};
	return 0;
}

static int action(struct cur *c, const uint8_t *r, struct ward_action *a)
{
	uint32_t w = ward_le32(r + 4);

	a->kind = ward_le32(r);
	a->errno_nr = w & 0xffff;
	a->via = w >> 16;
	if (a->kind > WARD_ACT_KILL)
		return bad(c, "unknown action %u", a->kind);
	if (a->kind == WARD_ACT_ERRNO	 ? a->errno_nr < 1 || a->errno_nr > 4095
	    : a->via == WARD_VIA_OBSERVE ? a->errno_nr > 63
					 : a->errno_nr != 0)
		return bad(c, "errno %u with action %u (errno takes 1..4095)",
			   a->errno_nr, a->kind);
	/* Who answers: a recorded refusal is an errno, a brokered call an
	 * allow; nothing else goes through the broker but a kill. */
	if (a->kind == WARD_ACT_ERRNO
		? a->via != WARD_VIA_NONE && a->via != WARD_VIA_RECORD &&
		      a->via != WARD_VIA_RECORD_NET
	    : a->kind == WARD_ACT_ALLOW
		? a->via != WARD_VIA_NONE && a->via != WARD_VIA_CONNECT &&
		      a->via != WARD_VIA_SENDTO && a->via != WARD_VIA_OBSERVE
		: a->via != WARD_VIA_NONE)
		return bad(c, "action %u with via %u", a->kind, a->via);
	return 0;
}

static int read_cond(struct cur *c, struct ward_cond_rule *cr)
{
	const uint8_t *r = rec(c, WARD_BLOB_COND_SIZE, 12, 4);
	struct ward_cmp *cmps = NULL;
	uint32_t n;

	if (!r || action(c, r, &cr->action) < 0)
		return -1;
	n = ward_le32(r + 8);
	if (n == 0)
		return bad(c, "no comparisons");
	if (fits(c, n, WARD_BLOB_CMP_SIZE, "comparisons") < 0 ||
	    !ALLOC(c, cmps, n))
		return -1;
	cr->cmps = cmps;
	cr->ncmps = n;
	for (uint32_t i = 0; i < n; i++) {
		at(c, 2, "comparison", i);
		if (!(r = rec(c, WARD_BLOB_CMP_SIZE, 2, 6)))
			return -1;
		cmps[i] = (struct ward_cmp){r[0], r[1], ward_le64(r + 8),
					    ward_le64(r + 16)};
		if (cmps[i].arg > 5)
			return bad(c, "argument index %u is not within 0..5",
				   cmps[i].arg);
		if (cmps[i].op > WARD_CMP_MASKED_NE)
			return bad(c, "unknown comparison %u", cmps[i].op);
		if (cmps[i].op < WARD_CMP_MASKED_EQ && cmps[i].mask)
			return bad(c, "mask on an unmasked comparison");
	}
	return 0;
}

static int read_rules(struct cur *c, struct ward_rules *rl)
{
	const uint8_t *r = rec(c, 16, 12, 4);
	struct ward_syscall_rule *sys = NULL;
	uint32_t n;

	if (!r || action(c, r, &rl->default_action) < 0)
		return -1;
	n = ward_le32(r + 8);
	if (fits(c, n, WARD_BLOB_SYS_FIXED + WARD_BLOB_STR_MIN, "syscalls") <
		0 ||
	    !ALLOC(c, sys, n))
		return -1;
	rl->syscalls = sys;
	rl->nsyscalls = n;
	for (uint32_t i = 0; i < n; i++) {
		struct ward_syscall_rule *s = &sys[i];
		struct ward_cond_rule *conds = NULL;
		uint32_t flags, nc;

		at(c, 0, "syscall", i);
		if (!(r = rec(c, WARD_BLOB_SYS_FIXED, 20, 4)) ||
		    action(c, r + 8, &s->fallback) < 0)
			return -1;
		s->nr = (int32_t)ward_le32(r);
		flags = ward_le32(r + 4);
		nc = ward_le32(r + 16);
		if (s->nr < 0 || (i > 0 && s->nr <= sys[i - 1].nr))
			return bad(c,
				   "number %d is negative or not above the "
				   "previous one",
				   s->nr);
		if (flags & ~WARD_SYS_F_FALLBACK)
			return bad(c, "unknown flag bits 0x%x",
				   flags & ~WARD_SYS_F_FALLBACK);
		s->has_fallback = flags & WARD_SYS_F_FALLBACK;
		if (!s->has_fallback &&
		    (s->fallback.kind || s->fallback.errno_nr))
			return bad(c, "fallback action without the flag");
		if (word(c, "name", WARD_BLOB_SYSCALL_MAX, &syscall_chars,
			 false, &s->name) < 0 ||
		    fits(c, nc, WARD_BLOB_COND_SIZE + WARD_BLOB_CMP_SIZE,
			 "conditions") < 0 ||
		    !ALLOC(c, conds, nc))
			return -1;
		s->conds = conds;
		s->nconds = nc;
		for (uint32_t j = 0; j < nc; j++) {
			at(c, 1, "condition", j);
			if (read_cond(c, &conds[j]) < 0)
				return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ net-bpf */

/* The shape of each map, by role (net_layout.h). */
static const struct {
	uint32_t type, key_size, value_size, flags;
} net_maps[WARD_BLOB_NETMAPS + 1] = {
    [WARD_NET_MAP_ALLOW4] = {BPF_MAP_TYPE_LPM_TRIE, WARD_NET_KEY4_SIZE,
			     WARD_NET_VALUE_SIZE, BPF_F_NO_PREALLOC},
    [WARD_NET_MAP_ALLOW6] = {BPF_MAP_TYPE_LPM_TRIE, WARD_NET_KEY6_SIZE,
			     WARD_NET_VALUE_SIZE, BPF_F_NO_PREALLOC},
    [WARD_NET_MAP_DENIED] = {BPF_MAP_TYPE_HASH, WARD_NET_DENIED_KEY_SIZE,
			     WARD_NET_DENIED_VALUE_SIZE, BPF_F_NO_PREALLOC},
};

/* A trie entry: the prefix fits the address, no bit is set past it; the
 * port slots of each protocol are used ones (1 <= lo <= hi), sorted and
 * apart, then unused ones (lo 1, hi 0). */
static int trie_entry(struct cur *c, const uint8_t *e, uint32_t ks)
{
	uint32_t plen = ward_le32(e), bits = (ks - 4) * 8;

	if (plen > bits)
		return bad(c, "prefix /%u is longer than %u", plen, bits);
	for (uint32_t b = plen; b < bits; b++)
		if (e[4 + b / 8] & (0x80 >> (b % 8)))
			return bad(c, "key has bits set past its /%u prefix",
				   plen);
	for (int p = 0; p < 2; p++) {
		const uint8_t *v = e + ks + (p ? WARD_NET_UDP_BASE : 0);
		uint32_t prev_hi = 0;
		bool unused = false;

		for (int i = 0; i < WARD_NET_PORT_SLOTS; i++) {
			uint16_t lo = ward_le16(v + i * WARD_NET_SLOT_SIZE);
			uint16_t hi = ward_le16(v + i * WARD_NET_SLOT_SIZE + 2);

			if (lo == 1 && hi == 0) {
				unused = true;
				continue;
			}
			if (unused || lo == 0 || lo > hi ||
			    (i && lo <= prev_hi + 1))
				return bad(c,
					   "port slot %d (%u-%u) is not a "
					   "sorted, separate range",
					   i, lo, hi);
			prev_hi = hi;
		}
	}
	return 0;
}

static int read_net_map(struct cur *c, uint32_t i, struct ward_net_map *m)
{
	const uint8_t *r = rec(c, WARD_BLOB_NETMAP_FIXED, 28, 4);
	const char *data;
	size_t n, rec_size;

	if (!r)
		return -1;
	*m = (struct ward_net_map){ward_le32(r),
				   ward_le32(r + 4),
				   ward_le32(r + 8),
				   ward_le32(r + 12),
				   ward_le32(r + 16),
				   ward_le32(r + 20),
				   NULL,
				   ward_le32(r + 24)};
	if (m->role != i + 1)
		return bad(c, "role %u, expected %u (%s)", m->role, i + 1,
			   ward_net_map_name(i + 1));
	if (m->type != net_maps[m->role].type ||
	    m->key_size != net_maps[m->role].key_size ||
	    m->value_size != net_maps[m->role].value_size ||
	    m->flags != net_maps[m->role].flags)
		return bad(c,
			   "type %u, key %u, value %u, flags 0x%x are not "
			   "those of the %s map",
			   m->type, m->key_size, m->value_size, m->flags,
			   ward_net_map_name(m->role));
	if (m->role == WARD_NET_MAP_DENIED
		? m->max_entries != WARD_NET_DENIED_MAX || m->nentries != 1
		: m->nentries > WARD_NET_TRIE_MAX ||
		      m->max_entries != (m->nentries ? m->nentries : 1))
		return bad(c, "%u entries in a map of %u", m->nentries,
			   m->max_entries);
	rec_size = (size_t)m->key_size + m->value_size;
	if (str(c, "entries", WARD_BLOB_FILE_MAX, true, &data, &n) < 0)
		return -1;
	if (n != (size_t)m->nentries * rec_size)
		return bad(c, "%zu bytes of entries, %u entries take %zu", n,
			   m->nentries, (size_t)m->nentries * rec_size);
	m->entries = (const uint8_t *)data;
	if (m->role == WARD_NET_MAP_DENIED)
		return zero(c, m->entries, rec_size, "the overflow entry");
	for (uint32_t k = 0; k < m->nentries; k++) {
		const uint8_t *e = m->entries + k * rec_size;

		at(c, 1, "entry", k);
		if (trie_entry(c, e, m->key_size) < 0)
			return -1;
		if (k && memcmp(e - rec_size, e, m->key_size) >= 0)
			return bad(c, "keys are not in increasing order");
	}
	return 0;
}

/* The instructions the compiler emits (compiler/codegen/net_bpf.c), and nothing
 * else: the kernel's verifier checks the program; this keeps a forged blob
 * from reaching it with anything but these. */
static bool net_opcode(uint8_t code)
{
	static const uint8_t ok[] = {
	    BPF_ALU64 | BPF_MOV | BPF_K,
	    BPF_ALU64 | BPF_MOV | BPF_X,
	    BPF_ALU64 | BPF_ADD | BPF_K,
	    BPF_ALU64 | BPF_AND | BPF_K,
	    BPF_ALU64 | BPF_RSH | BPF_K,
	    BPF_ALU | BPF_END | BPF_TO_BE,
	    BPF_LDX | BPF_MEM | BPF_B,
	    BPF_LDX | BPF_MEM | BPF_H,
	    BPF_LDX | BPF_MEM | BPF_W,
	    BPF_LDX | BPF_MEM | BPF_DW,
	    BPF_ST | BPF_MEM | BPF_B,
	    BPF_ST | BPF_MEM | BPF_H,
	    BPF_ST | BPF_MEM | BPF_W,
	    BPF_ST | BPF_MEM | BPF_DW,
	    BPF_STX | BPF_MEM | BPF_B,
	    BPF_STX | BPF_MEM | BPF_H,
	    BPF_STX | BPF_MEM | BPF_W,
	    BPF_STX | BPF_MEM | BPF_DW,
	    BPF_STX | BPF_ATOMIC | BPF_DW,
	    BPF_LD | BPF_IMM | BPF_DW,
	    BPF_JMP | BPF_JA,
	    BPF_JMP | BPF_JEQ | BPF_K,
	    BPF_JMP | BPF_JNE | BPF_K,
	    BPF_JMP | BPF_JEQ | BPF_X,
	    BPF_JMP | BPF_JLT | BPF_X,
	    BPF_JMP | BPF_JLE | BPF_X,
	    BPF_JMP32 | BPF_JNE | BPF_K,
	    BPF_JMP | BPF_CALL,
	    BPF_JMP | BPF_EXIT,
	};

	return memchr(ok, code, sizeof(ok)) != NULL;
}

static int check_insns(struct cur *c, const struct ward_bpf_insn *in,
		       uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint8_t code = in[i].code, cls = BPF_CLASS(code);
		unsigned dst = in[i].regs & 0xf, src = in[i].regs >> 4;

		at(c, 1, "instruction", i);
		if (!net_opcode(code))
			return bad(c, "opcode 0x%02x is not allowed", code);
		if (dst > 10 || src > 10 ||
		    (dst == 10 && cls != BPF_ST && cls != BPF_STX))
			return bad(c, "bad register r%u or r%u", dst, src);
		if (code == (BPF_LD | BPF_IMM | BPF_DW)) {
			if (i + 1 >= n || in[i + 1].code || in[i + 1].regs ||
			    in[i + 1].off || src > BPF_PSEUDO_MAP_FD ||
			    (src && (in[i].imm || in[i + 1].imm)))
				return bad(c, "malformed 64-bit load");
			i++;
			continue;
		}
		if (code == (BPF_JMP | BPF_CALL) &&
		    (in[i].regs || in[i].off ||
		     (in[i].imm != BPF_FUNC_map_lookup_elem &&
		      in[i].imm != BPF_FUNC_map_update_elem &&
		      in[i].imm != BPF_FUNC_skb_load_bytes)))
			return bad(c, "call of helper %d is not allowed",
				   in[i].imm);
		if (code == (BPF_STX | BPF_ATOMIC | BPF_DW) &&
		    in[i].imm != BPF_ADD)
			return bad(c, "atomic operation 0x%x is not allowed",
				   in[i].imm);
		if ((cls == BPF_JMP || cls == BPF_JMP32) &&
		    code != (BPF_JMP | BPF_CALL) &&
		    code != (BPF_JMP | BPF_EXIT)) {
			int64_t to = (int64_t)i + 1 + in[i].off;
			if (to < 0 || to >= n ||
			    (to > 0 &&
			     in[to - 1].code == (BPF_LD | BPF_IMM | BPF_DW)))
				return bad(c,
					   "jump to %lld is outside the "
					   "program or inside an "
					   "instruction",
					   (long long)to);
		}
	}
	if (in[n - 1].code != (BPF_JMP | BPF_EXIT))
		return bad(c, "the last instruction is not an exit");
	return 0;
}

static int read_net_prog(struct cur *c, uint32_t i, struct ward_net_prog *p,
			 uint32_t prev_attach)
{
	const uint8_t *r = rec(c, WARD_BLOB_NETPROG_FIXED, 12, 4);
	struct ward_bpf_insn *in = NULL;

	if (!r)
		return -1;
	p->type = ward_le32(r);
	p->attach_type = ward_le32(r + 4);
	p->ninsns = ward_le32(r + 8);
	if (!ward_net_prog_name(p->type, p->attach_type))
		return bad(c, "program type %u cannot attach at %u", p->type,
			   p->attach_type);
	if (i && p->attach_type <= prev_attach)
		return bad(c, "attach type %u is repeated or out of order",
			   p->attach_type);
	if (p->ninsns == 0 || p->ninsns > WARD_BLOB_INSNS_MAX)
		return bad(c, "%u instructions, not within 1..%u", p->ninsns,
			   WARD_BLOB_INSNS_MAX);
	if (fits(c, p->ninsns, WARD_BLOB_INSN_SIZE, "instructions") < 0 ||
	    !ALLOC(c, in, p->ninsns))
		return -1;
	p->insns = in;
	if (!(r = take(c, (size_t)p->ninsns * WARD_BLOB_INSN_SIZE)))
		return -1;
	for (uint32_t k = 0; k < p->ninsns; k++, r += WARD_BLOB_INSN_SIZE)
		in[k] = (struct ward_bpf_insn){r[0], r[1],
					       (int16_t)ward_le16(r + 2),
					       (int32_t)ward_le32(r + 4)};
	return check_insns(c, in, p->ninsns);
}

/* Relocations, sorted by (program, instruction): exactly one for every
 * map load, and only there. */
static int read_net_relocs(struct cur *c, struct ward_net_bpf *b,
			   struct ward_net_reloc *rl)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < b->nrelocs; i++) {
		const uint8_t *r = take(c, WARD_BLOB_NETRELOC_SIZE);
		if (!r)
			return -1;
		rl[i] = (struct ward_net_reloc){ward_le16(r), ward_le16(r + 2),
						ward_le32(r + 4)};
	}
	for (uint32_t p = 0; p < b->nprogs; p++) {
		const struct ward_net_prog *pr = &b->progs[p];
		for (uint32_t i = 0; i < pr->ninsns; i++) {
			if (pr->insns[i].code != (BPF_LD | BPF_IMM | BPF_DW))
				continue;
			if (pr->insns[i].regs >> 4 != BPF_PSEUDO_MAP_FD) {
				i++;
				continue;
			}
			at(c, 0, "relocation", k);
			if (k >= b->nrelocs || rl[k].prog != p ||
			    rl[k].insn != i)
				return bad(c,
					   "program %u instruction %u loads "
					   "a map without its relocation",
					   p, i);
			if (rl[k].map >= b->nmaps)
				return bad(c, "map %u does not exist",
					   rl[k].map);
			k++;
			i++;
		}
	}
	if (k != b->nrelocs) {
		at(c, 0, "relocation", k);
		return bad(c, "does not name a map load");
	}
	return 0;
}

static int read_net_bpf(struct cur *c, struct ward_net *net)
{
	const uint8_t *r = rec(c, WARD_BLOB_NETBPF_HDR, 12, 4);
	struct ward_net_bpf *b = &net->bpf;
	struct ward_net_map *maps = NULL;
	struct ward_net_prog *progs = NULL;
	struct ward_net_reloc *relocs = NULL;
	uint32_t nmaps, nprogs, nrelocs;

	if (!r)
		return -1;
	nmaps = ward_le32(r);
	nprogs = ward_le32(r + 4);
	nrelocs = ward_le32(r + 8);
	if (nmaps != WARD_BLOB_NETMAPS || nprogs != WARD_BLOB_NETPROGS)
		return bad(
		    c, "%u maps and %u programs, version 1 has %u and %u",
		    nmaps, nprogs, WARD_BLOB_NETMAPS, WARD_BLOB_NETPROGS);
	/* Counts are set once their arrays exist (release walks them). */
	if (!ALLOC(c, maps, nmaps) || !ALLOC(c, progs, nprogs)) {
		free(maps);
		return -1;
	}
	*b = (struct ward_net_bpf){maps, nmaps, progs, nprogs, NULL, 0};
	for (uint32_t i = 0; i < nmaps; i++) {
		at(c, 0, "map", i);
		if (read_net_map(c, i, &maps[i]) < 0)
			return -1;
	}
	for (uint32_t i = 0; i < nprogs; i++) {
		at(c, 0, "program", i);
		if (read_net_prog(c, i, &progs[i],
				  i ? progs[i - 1].attach_type : 0) < 0)
			return -1;
	}
	c->depth = 0;
	if (fits(c, nrelocs, WARD_BLOB_NETRELOC_SIZE, "relocations") < 0 ||
	    !ALLOC(c, relocs, nrelocs))
		return -1;
	b->relocs = relocs;
	b->nrelocs = nrelocs;
	return read_net_relocs(c, b, relocs);
}

/* The section and the network section agree: programs only for an
 * allow-list. (An allow-list without them is refused by the launcher,
 * ward_net_check_host: nothing would enforce it.) */
static int net_bpf_matches(const struct ward_policy *p, ward_err *err)
{
	if (p->net.mode == WARD_NET_NONE && p->net.bpf.nprogs)
		return ward_fail(err, 0,
				 "blob: a net-bpf section in a `net none` "
				 "policy");
	return 0;
}

/* --------------------------------------------------------------- export */

/* A glob on a file's base name: printable ASCII, no `/`, not empty. */
static int glob(struct cur *c, const char **out)
{
	size_t n;

	if (str(c, "name glob", WARD_BLOB_GLOB_MAX, false, out, &n) < 0)
		return -1;
	if (n == 0)
		return bad(c, "name glob is empty");
	for (size_t i = 0; i < n; i++)
		if ((*out)[i] < 0x20 || (*out)[i] > 0x7e || (*out)[i] == '/')
			return bad(c, "name glob contains a character outside "
				      "printable ASCII or a /");
	return 0;
}

/* The rule's slot is a read-write slot of the mount table (read before:
 * sections come in type order), named by one rule only. */
static int export_slot(struct cur *c, const struct ward_policy *p,
		       const struct ward_export_rule *rules, uint32_t i)
{
	const char *slot = rules[i].slot;
	bool found = false;

	for (uint32_t k = 0; k < i; k++)
		if (!strcmp(rules[k].slot, slot))
			return bad(c, "slot %s has a rule already (rule %u)",
				   slot, k);
	for (uint32_t k = 0; k < p->nmounts; k++)
		if (p->mounts[k].kind == WARD_MNT_SLOT &&
		    !strcmp(p->mounts[k].src, slot)) {
			if (!(p->mounts[k].flags & WARD_MNT_F_RW))
				return bad(c, "slot %s is read-only", slot);
			found = true;
		}
	return found ? 0 : bad(c, "no slot %s in the mount table", slot);
}

static int read_export(struct cur *c, struct ward_policy *p)
{
	struct ward_export_rule *rules = NULL;
	uint32_t n;

	if (count(c, &n) < 0 ||
	    fits(c, n, WARD_BLOB_EXPORT_FIXED + WARD_BLOB_STR_MIN, "rules") <
		0 ||
	    !ALLOC(c, rules, n))
		return -1;
	p->exports = rules;
	p->nexports = n;
	/* Present only with rules: one encoding per policy. */
	if (n == 0)
		return bad(c, "no rules (the section is left out instead)");
	for (uint32_t i = 0; i < n; i++) {
		struct ward_export_rule *e = &rules[i];
		const char **names = NULL;
		const uint8_t *r;
		uint32_t nnames;

		at(c, 0, "rule", i);
		if (!(r = take(c, WARD_BLOB_EXPORT_FIXED)))
			return -1;
		e->max_files = ward_le32(r);
		e->types = ward_le32(r + 4);
		e->per_file = ward_le64(r + 8);
		e->total = ward_le64(r + 16);
		e->on_violation = ward_le32(r + 24);
		nnames = ward_le32(r + 28);
		if (e->max_files == 0 || e->max_files > WARD_BLOB_EXPORT_FILES)
			return bad(c, "%u files, not within 1..%u",
				   e->max_files, WARD_BLOB_EXPORT_FILES);
		if (e->types == 0 || (e->types & ~WARD_EXPORT_T_ALL))
			return bad(c,
				   "content types 0x%x: none, or unknown "
				   "bits",
				   e->types);
		if (e->per_file == 0 || e->per_file > WARD_BLOB_EXPORT_BYTES ||
		    e->total > WARD_BLOB_EXPORT_BYTES)
			return bad(c,
				   "per-file %llu or total %llu is outside "
				   "1..%llu",
				   (unsigned long long)e->per_file,
				   (unsigned long long)e->total,
				   (unsigned long long)WARD_BLOB_EXPORT_BYTES);
		if (e->on_violation > WARD_EXPORT_SKIP)
			return bad(c, "unknown violation action %u",
				   e->on_violation);
		if (nnames > WARD_BLOB_EXPORT_NAMES)
			return bad(c, "%u name globs, more than %u", nnames,
				   WARD_BLOB_EXPORT_NAMES);
		if (word(c, "slot name", WARD_BLOB_NAME_MAX, &name_chars, false,
			 &e->slot) < 0 ||
		    export_slot(c, p, rules, i) < 0 ||
		    fits(c, nnames, WARD_BLOB_STR_MIN, "name globs") < 0 ||
		    !ALLOC(c, names, nnames))
			return -1;
		e->names = names;
		e->nnames = nnames;
		for (uint32_t k = 0; k < nnames; k++) {
			at(c, 1, "name", k);
			if (glob(c, &names[k]) < 0)
				return -1;
		}
	}
	return 0;
}

/* --------------------------------------------------------------- frame */

void ward_blob_content_digest(const uint8_t *buf, size_t len, uint8_t out[32])
{
	struct ward_sha256 h;

	ward_sha256_init(&h);
	ward_sha256_update(&h, buf, WARD_BLOB_OFF_DIGEST);
	ward_sha256_update(&h, buf + WARD_BLOB_HDR_SIZE,
			   len - WARD_BLOB_HDR_SIZE);
	ward_sha256_final(&h, out);
}

static const char *arch_str(uint32_t arch, char buf[16])
{
	const char *name = ward_arch_name(arch);

	if (name)
		return name;
	snprintf(buf, 16, "0x%08x", arch);
	return buf;
}

/* The header, then the directory: sections tile the body exactly, in
 * directory order, each a multiple of 8 bytes, types strictly increasing. */
static int read_frame(const uint8_t *buf, size_t len, uint32_t expected_arch,
		      struct ward_blob *b, ward_err *err)
{
	struct cur h = {.sec = NO_SECTION, .err = err};
	uint32_t arch, req, nsect, seen = 0;
	uint64_t total, off;
	uint8_t digest[32];
	char a1[16], a2[16];

	if (len < WARD_BLOB_HDR_SIZE)
		return bad(&h, "truncated: %zu bytes, less than a header", len);
	if (memcmp(buf, WARD_BLOB_MAGIC, WARD_BLOB_MAGIC_LEN))
		return bad(&h, "bad magic: not a ward policy blob");
	b->format_version = ward_le16(buf + WARD_BLOB_OFF_VERSION);
	if (b->format_version != WARD_BLOB_VERSION)
		return bad(&h, "format version %u is not supported (only %u)",
			   b->format_version, WARD_BLOB_VERSION);
	total = ward_le64(buf + WARD_BLOB_OFF_LENGTH);
	if (total != len)
		return bad(&h, "the header says %llu bytes, the file has %zu",
			   (unsigned long long)total, len);
	/* Authenticate the header before believing anything else in it. */
	memcpy(b->content_digest, buf + WARD_BLOB_OFF_DIGEST, 32);
	ward_blob_content_digest(buf, len, digest);
	if (memcmp(digest, b->content_digest, 32))
		return bad(&h, "digest mismatch: the blob was modified after "
			       "compilation");
	arch = ward_le32(buf + WARD_BLOB_OFF_ARCH);
	if (!ward_arch_name(arch))
		return bad(&h, "unknown arch 0x%08x", arch);
	if (expected_arch && arch != expected_arch)
		return bad(&h, "compiled for %s, this host is %s",
			   arch_str(arch, a1), arch_str(expected_arch, a2));
	req = ward_le32(buf + WARD_BLOB_OFF_REQ);
	if (req & ~WARD_REQ_ALL)
		return bad(&h, "unknown requirement bits 0x%x",
			   req & ~WARD_REQ_ALL);
	if (ward_le32(buf + WARD_BLOB_OFF_RESERVED))
		return bad(&h, "header reserved field is not zero");
	b->policy.arch = arch;
	b->policy.requirements = req;

	nsect = ward_le16(buf + WARD_BLOB_OFF_NSECT);
	off = WARD_BLOB_HDR_SIZE + (uint64_t)nsect * WARD_BLOB_DIRENT_SIZE;
	if (off > len)
		return bad(&h, "the directory of %u sections runs past the end",
			   nsect);
	for (uint32_t i = 0, prev = 0; i < nsect; i++) {
		const uint8_t *d = buf + WARD_BLOB_HDR_SIZE +
				   (size_t)i * WARD_BLOB_DIRENT_SIZE;
		uint32_t type = ward_le32(d), flags = ward_le32(d + 4);
		uint64_t soff = ward_le64(d + 8), slen = ward_le64(d + 16);
		bool known = known_section(type);
		bool critical = type != WARD_SEC_RULES;

		h.sec = i;
		if (soff != off)
			return bad(&h,
				   "offset %llu, expected %llu (sections "
				   "tile the body in order)",
				   (unsigned long long)soff,
				   (unsigned long long)off);
		if (slen % 8 || slen > len - off)
			return bad(&h,
				   "length %llu is not a multiple of 8 or "
				   "runs past the end",
				   (unsigned long long)slen);
		if (type <= prev)
			return bad(&h, "type %u %s", type,
				   type == 0	  ? "is invalid"
				   : type == prev ? "appears twice"
						  : "is out of order");
		if (flags & ~WARD_BLOB_SEC_CRITICAL)
			return bad(&h, "unknown flag bits 0x%x",
				   flags & ~WARD_BLOB_SEC_CRITICAL);
		if (!known && (flags & WARD_BLOB_SEC_CRITICAL))
			return bad(&h, "unknown critical section type %u",
				   type);
		if (known && critical != (flags & WARD_BLOB_SEC_CRITICAL))
			return bad(&h, "the %s section must%s be critical",
				   section_names[type], critical ? "" : " not");
		seen |= known ? 1u << type : 0;
		prev = type;
		off += slen;
	}
	h.sec = NO_SECTION;
	if (off != len)
		return bad(&h, "%llu bytes after the last section",
			   (unsigned long long)(len - off));
	for (uint32_t t = 1; t <= WARD_SEC_KNOWN_MAX; t++)
		if (known_section(t) && t != WARD_SEC_RULES &&
		    t != WARD_SEC_EXPORT && t != WARD_SEC_NET_BPF &&
		    t != WARD_SEC_EXEC && t != WARD_SEC_LANDLOCK &&
		    t != WARD_SEC_NET_NAMES && !(seen & (1u << t)))
			return bad(&h, "the %s section is missing",
				   section_names[t]);
	return 0;
}

/* exec (type 12): u32 flags, u32 reserved. Present only when a flag is
 * set: one encoding per policy. */
static int read_exec(struct cur *c, struct ward_policy *p)
{
	const uint8_t *r = rec(c, 8, 4, 4);
	uint32_t flags;

	if (!r)
		return -1;
	flags = ward_le32(r);
	if (flags & ~(uint32_t)WARD_EXEC_MEMFD)
		return bad(c, "unknown exec flags 0x%x",
			   flags & ~(uint32_t)WARD_EXEC_MEMFD);
	if (flags == 0)
		return bad(c, "no exec flag set (the section is left out "
			      "then)");
	p->exec = flags;
	return 0;
}

/* The lowest Landlock ABI that knows all these rights and scopes. */
uint32_t ward_landlock_min_abi(uint64_t fs, uint64_t scoped)
{
	if (scoped)
		return 6;
	if (fs & WARD_LL_FS_IOCTL_DEV)
		return 5;
	if (fs & WARD_LL_FS_TRUNCATE)
		return 3;
	if (fs & WARD_LL_FS_REFER)
		return 2;
	return 1;
}

/* landlock (type 13): u32 mode, u32 abi, u64 handled_fs, u64 scoped,
 * u32 nrules, u32 reserved; per rule u64 access, u32 flags, u32 reserved,
 * str path. Present unless `landlock off;`: one encoding per policy. */
static int read_landlock(struct cur *c, struct ward_policy *p)
{
	struct ward_landlock *ll = &p->landlock;
	struct ward_landlock_rule *rules = NULL;
	const uint8_t *r = rec(c, WARD_BLOB_LL_HDR, 28, 4);

	if (!r)
		return -1;
	ll->mode = ward_le32(r);
	ll->abi = ward_le32(r + 4);
	ll->handled_fs = ward_le64(r + 8);
	ll->scoped = ward_le64(r + 16);
	ll->nrules = ward_le32(r + 24);
	if (ll->mode != WARD_LANDLOCK_PREFER &&
	    ll->mode != WARD_LANDLOCK_REQUIRE)
		return bad(c, "unknown mode %u", ll->mode);
	if (!ll->handled_fs || (ll->handled_fs & ~WARD_LL_FS_ALL) ||
	    (ll->scoped & ~WARD_LL_SCOPE_ALL))
		return bad(c,
			   "unknown or no access rights (0x%llx, scopes "
			   "0x%llx)",
			   (unsigned long long)ll->handled_fs,
			   (unsigned long long)ll->scoped);
	if (ll->abi < ward_landlock_min_abi(ll->handled_fs, ll->scoped) ||
	    ll->abi > WARD_LL_ABI_MAX)
		return bad(c,
			   "ABI %u is below what its rights need (%u) or "
			   "above %u",
			   ll->abi,
			   ward_landlock_min_abi(ll->handled_fs, ll->scoped),
			   WARD_LL_ABI_MAX);
	if (fits(c, ll->nrules, WARD_BLOB_LL_FIXED + WARD_BLOB_STR_MIN,
		 "rules") < 0 ||
	    !ALLOC(c, rules, ll->nrules))
		return -1;
	ll->rules = rules;
	for (uint32_t i = 0; i < ll->nrules; i++) {
		at(c, 0, "rule", i);
		if (!(r = rec(c, WARD_BLOB_LL_FIXED, 12, 4)))
			return -1;
		rules[i].access = ward_le64(r);
		rules[i].flags = ward_le32(r + 8);
		if (!rules[i].access || (rules[i].access & ~ll->handled_fs))
			return bad(c, "access 0x%llx: none, or not handled",
				   (unsigned long long)rules[i].access);
		if (rules[i].flags & ~(uint32_t)WARD_LL_R_OPTIONAL)
			return bad(c, "unknown flags 0x%x", rules[i].flags);
		if (path(c, "path", &rules[i].path) < 0)
			return -1;
	}
	c->depth = 0;
	return 0;
}

static int read_section(struct cur *c, uint32_t type, struct ward_blob *b)
{
	struct ward_policy *p = &b->policy;

	switch (type) {
	case WARD_SEC_META:
		return read_meta(c, p);
	case WARD_SEC_IDENTITY:
		return read_identity(c, &p->identity);
	case WARD_SEC_ENV:
		return read_env(c, p);
	case WARD_SEC_MOUNTS:
		return read_mounts(c, p);
	case WARD_SEC_LIMITS:
		return read_limits(c, &p->limits);
	case WARD_SEC_NETWORK:
		return read_network(c, &p->net);
	case WARD_SEC_SECCOMP:
		return read_seccomp(c, &p->seccomp, p->arch);
	case WARD_SEC_RULES:
		b->has_rules = true;
		return read_rules(c, &p->rules);
	case WARD_SEC_EXPORT:
		return read_export(c, p);
	case WARD_SEC_NET_BPF:
		return read_net_bpf(c, &p->net);
	case WARD_SEC_EXEC:
		return read_exec(c, p);
	case WARD_SEC_LANDLOCK:
		return read_landlock(c, p);
	case WARD_SEC_NET_NAMES:
		return read_net_names(c, &p->net);
	}
	return 0; /* unknown and not critical: skipped */
}

static int read_all(const uint8_t *buf, size_t len, uint32_t expected_arch,
		    struct ward_blob *b, ward_err *err)
{
	uint32_t nsect;

	if (read_frame(buf, len, expected_arch, b, err) < 0)
		return -1;
	nsect = ward_le16(buf + WARD_BLOB_OFF_NSECT);
	for (uint32_t i = 0; i < nsect; i++) {
		const uint8_t *d = buf + WARD_BLOB_HDR_SIZE +
				   (size_t)i * WARD_BLOB_DIRENT_SIZE;
		uint32_t type = ward_le32(d);
		size_t off = (size_t)ward_le64(d + 8);
		struct cur c = {.p = buf + off,
				.len = (size_t)ward_le64(d + 16),
				.base = off,
				.sec = i,
				.name = known_section(type)
					    ? section_names[type]
					    : "unknown",
				.err = err};

		if (read_section(&c, type, b) < 0)
			return -1;
		c.depth = 0;
		if (known_section(type) && c.pos != c.len)
			return bad(&c, "%zu unexpected bytes at offset %zu",
				   c.len - c.pos, c.base + c.pos);
	}
	if (net_bpf_matches(&b->policy, err) < 0)
		return -1;
	/* `landlock require;` is both the section's mode and the header's
	 * requirement, which a launcher checks before anything else. */
	if (!(b->policy.requirements & WARD_REQ_LANDLOCK) !=
	    (b->policy.landlock.mode != WARD_LANDLOCK_REQUIRE)) {
		struct cur h = {.sec = NO_SECTION, .err = err};
		return bad(&h, "the Landlock requirement and the landlock "
			       "section's mode disagree");
	}
	ward_sha256(buf, len, b->file_digest);
	return 0;
}

int ward_blob_read(const uint8_t *buf, size_t len, uint32_t expected_arch,
		   struct ward_blob *out, ward_err *err)
{
	memset(out, 0, sizeof(*out));
	if (read_all(buf, len, expected_arch, out, err) < 0) {
		ward_blob_release(out);
		return -1;
	}
	return 0;
}

void ward_blob_release(struct ward_blob *b)
{
	struct ward_policy *p = &b->policy;

	for (uint32_t i = 0; i < p->rules.nsyscalls; i++) {
		const struct ward_syscall_rule *s = &p->rules.syscalls[i];
		for (uint32_t j = 0; j < s->nconds; j++)
			free((void *)s->conds[j].cmps);
		free((void *)s->conds);
	}
	free((void *)p->rules.syscalls);
	free((void *)p->seccomp.insns);
	for (uint32_t i = 0; i < p->net.bpf.nprogs; i++)
		free((void *)p->net.bpf.progs[i].insns);
	free((void *)p->net.bpf.progs);
	free((void *)p->net.bpf.maps);
	free((void *)p->net.bpf.relocs);
	free((void *)p->net.rules);
	free((void *)p->net.hosts);
	free((void *)p->net.names);
	free((void *)p->net.refused);
	for (uint32_t i = 0; i < p->nexports; i++)
		free((void *)p->exports[i].names);
	free((void *)p->exports);
	free((void *)p->mounts);
	free((void *)p->env);
	free((void *)p->landlock.rules);
	memset(b, 0, sizeof(*b));
}
