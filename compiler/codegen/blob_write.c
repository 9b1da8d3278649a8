/* SPDX-License-Identifier: MIT */
/*
 * blob_write.c: the policy blob writer. It lays a struct ward_policy out as
 * docs/spec.md part 2 describes, byte by byte, through explicit little-endian
 * stores into a growing buffer: nothing is copied from memory as a struct,
 * so there is no uninitialised padding, and nothing depends on the time or
 * the host. The layout's checks live in the reader, which the writer runs
 * on its own output.
 */
#include "blob_write.h"

#include "blob.h"
#include "blob_read.h"
#include "sha256.h"

#include <errno.h>
#include <string.h>

struct out {
	uint8_t *p;
	size_t len, cap;
	bool oom;
	const char *too_long; /* the first string over the format's limit */
};

static void put(struct out *o, const void *d, size_t n)
{
	if (o->oom || n == 0)
		return;
	if (n > o->cap - o->len) {
		size_t cap = o->cap ? o->cap : 4096;
		uint8_t *p;

		while (cap - o->len < n && cap < SIZE_MAX / 2)
			cap *= 2;
		if (cap - o->len < n || !(p = realloc(o->p, cap))) {
			o->oom = true;
			return;
		}
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->len, d, n);
	o->len += n;
}

static void put8(struct out *o, uint8_t v)
{
	put(o, &v, 1);
}

static void put16(struct out *o, uint16_t v)
{
	uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};

	put(o, b, 2);
}

static void put32(struct out *o, uint32_t v)
{
	put16(o, (uint16_t)v);
	put16(o, (uint16_t)(v >> 16));
}

static void put64(struct out *o, uint64_t v)
{
	put32(o, (uint32_t)v);
	put32(o, (uint32_t)(v >> 32));
}

static void pad8(struct out *o)
{
	while (!o->oom && o->len % 8)
		put8(o, 0);
}

static void set16(struct out *o, size_t at, uint16_t v)
{
	o->p[at] = (uint8_t)v;
	o->p[at + 1] = (uint8_t)(v >> 8);
}

static void set32(struct out *o, size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		o->p[at + i] = (uint8_t)(v >> (8 * i));
}

static void set64(struct out *o, size_t at, uint64_t v)
{
	set32(o, at, (uint32_t)v);
	set32(o, at + 4, (uint32_t)(v >> 32));
}

/* u32 length, bytes, NUL, zero padding to 8. */
static void put_bytes(struct out *o, const char *what, const void *s, size_t n)
{
	if (n > WARD_BLOB_FILE_MAX) {
		if (!o->too_long)
			o->too_long = what;
		n = 0;
	}
	put32(o, (uint32_t)n);
	put(o, s, n);
	put8(o, 0);
	pad8(o);
}

static void put_str(struct out *o, const char *what, const char *s)
{
	put_bytes(o, what, s ? s : "", s ? strlen(s) : 0);
}

static void put_action(struct out *o, const struct ward_action *a)
{
	put32(o, a->kind);
	put32(o, a->errno_nr | a->via << 16);
}

/* ------------------------------------------------------------ sections */

static void write_meta(struct out *o, const struct ward_policy *p)
{
	put(o, p->meta.source_digest, 32);
	put_str(o, "policy name", p->meta.policy_name);
	put_str(o, "compiler version", p->meta.compiler_version);
}

static void write_identity(struct out *o, const struct ward_policy *p)
{
	put32(o, p->identity.uid);
	put32(o, p->identity.gid);
	put64(o, p->identity.caps_keep);
	put_str(o, "hostname", p->identity.hostname);
	put_str(o, "workdir", p->identity.workdir);
}

static void write_env(struct out *o, const struct ward_policy *p)
{
	put32(o, p->nenv);
	put32(o, 0);
	for (uint32_t i = 0; i < p->nenv; i++) {
		const struct ward_env_var *e = &p->env[i];

		put32(o, e->value ? WARD_ENV_F_VALUE : 0);
		put32(o, 0);
		put_str(o, "env name", e->name);
		if (e->value)
			put_str(o, "env value", e->value);
	}
}

static void write_mounts(struct out *o, const struct ward_policy *p)
{
	put32(o, p->nmounts);
	put32(o, 0);
	for (uint32_t i = 0; i < p->nmounts; i++) {
		const struct ward_mount *m = &p->mounts[i];

		put32(o, m->kind);
		put32(o, m->flags);
		put64(o, m->size);
		put32(o, m->mode);
		put32(o, 0);
		put_str(o, "mount destination", m->dst);
		/* One argument whose meaning depends on the kind. */
		if (m->kind == WARD_MNT_FILE)
			put_bytes(o, "file contents", m->data, m->data_len);
		else
			put_str(o, "mount source", m->src);
	}
}

static void write_limits(struct out *o, const struct ward_policy *p)
{
	const struct ward_limits *l = &p->limits;

	put32(o, (uint32_t)__builtin_popcountll(l->set));
	put32(o, 0);
	for (uint32_t k = 0; k < 64; k++) {
		if (!((l->set >> k) & 1))
			continue;
		put32(o, k);
		put32(o, 0);
		/* An unknown key (set by mistake) is written with value 0
		 * and refused by the reader. */
		put64(o, k < WARD_LIM_COUNT ? l->value[k] : 0);
	}
}

static void write_network(struct out *o, const struct ward_policy *p)
{
	const struct ward_net *n = &p->net;

	put32(o, n->mode);
	put32(o, n->nrules);
	put32(o, n->nhosts);
	put32(o, 0);
	for (uint32_t i = 0; i < n->nrules; i++) {
		const struct ward_net_rule *r = &n->rules[i];

		put8(o, r->proto);
		put8(o, r->family);
		put8(o, r->prefix);
		put8(o, 0);
		put16(o, r->port_lo);
		put16(o, r->port_hi);
		put(o, r->addr, 16);
	}
	for (uint32_t i = 0; i < n->nhosts; i++) {
		const struct ward_net_host *h = &n->hosts[i];

		put8(o, h->family);
		for (int k = 0; k < 7; k++)
			put8(o, 0);
		put(o, h->addr, 16);
		put_str(o, "host name", h->name);
	}
}

static bool has_net_names(const struct ward_policy *p)
{
	return p->net.nnames != 0;
}

/* net-names (type 14): u32 count, u32 refused ranges, then per name u8
 * proto, u8 flags, u16 reserved, u16 port_lo, u16 port_hi and the name's
 * string; then per refused range u8 family, u8 prefix, 6 reserved bytes
 * and the 16-byte address. */
static void write_net_names(struct out *o, const struct ward_policy *p)
{
	const struct ward_net *n = &p->net;

	put32(o, n->nnames);
	put32(o, n->nrefused);
	for (uint32_t i = 0; i < n->nnames; i++) {
		const struct ward_net_name *nm = &n->names[i];

		put8(o, nm->proto);
		put8(o, nm->flags);
		put16(o, 0);
		put16(o, nm->port_lo);
		put16(o, nm->port_hi);
		put_str(o, "domain name", nm->name);
	}
	for (uint32_t i = 0; i < n->nrefused; i++) {
		const struct ward_net_prefix *r = &n->refused[i];

		put8(o, r->family);
		put8(o, r->prefix);
		for (int z = 0; z < 6; z++)
			put8(o, 0);
		put(o, r->addr, 16);
	}
}

static void write_seccomp(struct out *o, const struct ward_policy *p)
{
	const struct ward_seccomp *s = &p->seccomp;

	put32(o, 1); /* programs: one per arch, v1 holds one */
	put32(o, 0);
	put32(o, s->arch);
	put32(o, s->ninsns);
	for (uint32_t i = 0; i < s->ninsns; i++) {
		put16(o, s->insns[i].code);
		put8(o, s->insns[i].jt);
		put8(o, s->insns[i].jf);
		put32(o, s->insns[i].k);
	}
}

static void write_rules(struct out *o, const struct ward_policy *p)
{
	const struct ward_rules *r = &p->rules;

	put_action(o, &r->default_action);
	put32(o, r->nsyscalls);
	put32(o, 0);
	for (uint32_t i = 0; i < r->nsyscalls; i++) {
		const struct ward_syscall_rule *s = &r->syscalls[i];

		put32(o, (uint32_t)s->nr);
		put32(o, s->has_fallback ? WARD_SYS_F_FALLBACK : 0);
		put_action(o, &s->fallback);
		put32(o, s->nconds);
		put32(o, 0);
		put_str(o, "syscall name", s->name);
		for (uint32_t j = 0; j < s->nconds; j++) {
			const struct ward_cond_rule *c = &s->conds[j];

			put_action(o, &c->action);
			put32(o, c->ncmps);
			put32(o, 0);
			for (uint32_t k = 0; k < c->ncmps; k++) {
				put8(o, c->cmps[k].arg);
				put8(o, c->cmps[k].op);
				for (int z = 0; z < 6; z++)
					put8(o, 0);
				put64(o, c->cmps[k].mask);
				put64(o, c->cmps[k].value);
			}
		}
	}
}

/* The export section (docs/spec.md part 6): present with rules. */
static bool has_export(const struct ward_policy *p)
{
	return p->nexports > 0;
}

static void write_export(struct out *o, const struct ward_policy *p)
{
	put32(o, p->nexports);
	put32(o, 0);
	for (uint32_t i = 0; i < p->nexports; i++) {
		const struct ward_export_rule *e = &p->exports[i];

		put32(o, e->max_files);
		put32(o, e->types);
		put64(o, e->per_file);
		put64(o, e->total);
		put32(o, e->on_violation);
		put32(o, e->nnames);
		put_str(o, "export slot", e->slot);
		for (uint32_t k = 0; k < e->nnames; k++)
			put_str(o, "export name glob", e->names[k]);
	}
}

/* The network BPF section (docs/spec.md part 5): present with programs. */
static bool has_net_bpf(const struct ward_policy *p)
{
	return p->net.bpf.nprogs > 0;
}

static void write_net_bpf(struct out *o, const struct ward_policy *p)
{
	const struct ward_net_bpf *b = &p->net.bpf;

	put32(o, b->nmaps);
	put32(o, b->nprogs);
	put32(o, b->nrelocs);
	put32(o, 0);
	for (uint32_t i = 0; i < b->nmaps; i++) {
		const struct ward_net_map *m = &b->maps[i];

		put32(o, m->role);
		put32(o, m->type);
		put32(o, m->key_size);
		put32(o, m->value_size);
		put32(o, m->max_entries);
		put32(o, m->flags);
		put32(o, m->nentries);
		put32(o, 0);
		put_bytes(o, "map entries", m->entries,
			  (size_t)m->nentries * (m->key_size + m->value_size));
	}
	for (uint32_t i = 0; i < b->nprogs; i++) {
		const struct ward_net_prog *pr = &b->progs[i];

		put32(o, pr->type);
		put32(o, pr->attach_type);
		put32(o, pr->ninsns);
		put32(o, 0);
		for (uint32_t k = 0; k < pr->ninsns; k++) {
			put8(o, pr->insns[k].code);
			put8(o, pr->insns[k].regs);
			put16(o, (uint16_t)pr->insns[k].off);
			put32(o, (uint32_t)pr->insns[k].imm);
		}
	}
	for (uint32_t i = 0; i < b->nrelocs; i++) {
		put16(o, b->relocs[i].prog);
		put16(o, b->relocs[i].map);
		put32(o, b->relocs[i].insn);
	}
}

static bool has_exec(const struct ward_policy *p)
{
	return p->exec != 0;
}

static void write_exec(struct out *o, const struct ward_policy *p)
{
	put32(o, p->exec);
	put32(o, 0);
}

static bool has_landlock(const struct ward_policy *p)
{
	return p->landlock.mode != WARD_LANDLOCK_OFF;
}

static void write_landlock(struct out *o, const struct ward_policy *p)
{
	const struct ward_landlock *ll = &p->landlock;

	put32(o, ll->mode);
	put32(o, ll->abi);
	put64(o, ll->handled_fs);
	put64(o, ll->scoped);
	put32(o, ll->nrules);
	put32(o, 0);
	for (uint32_t i = 0; i < ll->nrules; i++) {
		put64(o, ll->rules[i].access);
		put32(o, ll->rules[i].flags);
		put32(o, 0);
		put_str(o, "landlock path", ll->rules[i].path);
	}
}

static const struct {
	uint32_t type;
	bool critical;
	void (*write)(struct out *, const struct ward_policy *);
	bool (*present)(const struct ward_policy *); /* NULL: always */
} sections[] = {
    {WARD_SEC_META, true, write_meta, NULL},
    {WARD_SEC_IDENTITY, true, write_identity, NULL},
    {WARD_SEC_ENV, true, write_env, NULL},
    {WARD_SEC_MOUNTS, true, write_mounts, NULL},
    {WARD_SEC_LIMITS, true, write_limits, NULL},
    {WARD_SEC_NETWORK, true, write_network, NULL},
    {WARD_SEC_SECCOMP, true, write_seccomp, NULL},
    {WARD_SEC_RULES, false, write_rules, NULL},
    {WARD_SEC_EXPORT, true, write_export, has_export},
    {WARD_SEC_NET_BPF, true, write_net_bpf, has_net_bpf},
    {WARD_SEC_EXEC, true, write_exec, has_exec},
    {WARD_SEC_LANDLOCK, true, write_landlock, has_landlock},
    {WARD_SEC_NET_NAMES, true, write_net_names, has_net_names},
};

int ward_blob_write_unchecked(const struct ward_policy *p, uint8_t **out,
			      size_t *len, ward_err *err)
{
	struct out o = {0};
	const size_t dir = WARD_BLOB_HDR_SIZE;
	uint8_t digest[32];
	size_t nsect = 0, d = 0;

	for (size_t i = 0; i < ARRAY_LEN(sections); i++)
		nsect += !sections[i].present || sections[i].present(p);
	/* Header and directory, filled in once the sections are laid out. */
	for (size_t i = 0;
	     i < WARD_BLOB_HDR_SIZE + nsect * WARD_BLOB_DIRENT_SIZE; i++)
		put8(&o, 0);
	for (size_t i = 0; i < ARRAY_LEN(sections); i++) {
		size_t start = o.len, ent = dir + d * WARD_BLOB_DIRENT_SIZE;

		if (sections[i].present && !sections[i].present(p))
			continue;
		d++;

		sections[i].write(&o, p);
		pad8(&o); /* every section already ends aligned */
		if (o.oom)
			break;
		set32(&o, ent, sections[i].type);
		set32(&o, ent + 4,
		      sections[i].critical ? WARD_BLOB_SEC_CRITICAL : 0);
		set64(&o, ent + 8, start);
		set64(&o, ent + 16, o.len - start);
	}
	if (o.oom) {
		free(o.p);
		return ward_fail(err, ENOMEM, "blob: write");
	}
	if (o.too_long) {
		free(o.p);
		return ward_fail(err, 0, "blob: %s is longer than %u bytes",
				 o.too_long, WARD_BLOB_FILE_MAX);
	}
	memcpy(o.p, WARD_BLOB_MAGIC, WARD_BLOB_MAGIC_LEN);
	set16(&o, WARD_BLOB_OFF_VERSION, WARD_BLOB_VERSION);
	set16(&o, WARD_BLOB_OFF_NSECT, (uint16_t)nsect);
	set32(&o, WARD_BLOB_OFF_ARCH, p->arch);
	set32(&o, WARD_BLOB_OFF_REQ, p->requirements);
	set64(&o, WARD_BLOB_OFF_LENGTH, o.len);
	ward_blob_content_digest(o.p, o.len, digest);
	memcpy(o.p + WARD_BLOB_OFF_DIGEST, digest, 32);
	*out = o.p;
	*len = o.len;
	return 0;
}

int ward_blob_write(const struct ward_policy *p, uint8_t **out, size_t *len,
		    ward_err *err)
{
	_cleanup_free_ uint8_t *buf = NULL;
	struct ward_blob check;
	ward_err why;
	size_t n;

	if (ward_blob_write_unchecked(p, &buf, &n, err) < 0)
		return -1;
	if (ward_blob_read(buf, n, 0, &check, &why) < 0)
		return ward_fail(err, why.code,
				 "blob: the policy fails the "
				 "reader's checks: %s",
				 why.msg + strlen("blob: "));
	ward_blob_release(&check);
	*out = steal_pointer(&buf);
	*len = n;
	return 0;
}
