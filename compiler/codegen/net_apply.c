/* SPDX-License-Identifier: MIT */
/*
 * net_apply.c: what the `net` section adds to the rest of the policy, once
 * the checker has laid every section out (net_apply.h, docs/spec.md part
 * 5.1):
 *
 *   - the rule table's part (net_rules.c): socket() narrowed to the
 *     address families and socket types the network mode needs, connect()
 *     and sendto() routed through the socket broker, what would move a
 *     brokered socket refused; each rule at least as strict as what the
 *     call would get otherwise, so that the net section only ever takes
 *     permissions away;
 *   - /etc/hosts, written from the pinned hosts;
 *   - the eBPF programs and map contents of an allow-list (net_bpf.c).
 */
#include "net_apply.h"

#include "net_bpf.h"
#include "net_rules.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* One application: the checked policy, where its parts came from, and
 * where to report. */
struct apply {
	struct ward_pool *pool;
	struct ward_policy *p;
	struct ward_provenance *where;
	struct ward_diags *d;
	uint32_t scmp_arch; /* SCMP_ARCH_* of p->arch */
};

/* ------------------------------------------------------------ /etc/hosts */

/* A read-only file entry of the net section's, last in the mount table
 * (its parents, if any, come before it). */
static void add_file(struct apply *ap, const char *dst, char *buf, size_t len)
{
	struct ward_policy *p = ap->p;
	uint8_t *data = ward_pool_alloc(ap->pool, len + 1);
	struct ward_mount *m;
	struct ward_loc *w;

	memcpy(data, buf, len);
	free(buf);
	m = ward_pool_array(ap->pool, p->nmounts + 1, sizeof(*m));
	w = ward_pool_array(ap->pool, p->nmounts + 1, sizeof(*w));
	memcpy(m, p->mounts, p->nmounts * sizeof(*m));
	memcpy(w, ap->where->mounts, p->nmounts * sizeof(*w));
	m[0].size += (len + 4095) & ~4095ull; /* it lives on the root */
	m[p->nmounts] = (struct ward_mount){
	    .kind = WARD_MNT_FILE,
	    .dst = dst,
	    .mode = 0444,
	    .data = data,
	    .data_len = len,
	};
	w[p->nmounts] = ap->where->net;
	p->mounts = m;
	ap->where->mounts = w;
	p->nmounts++;
}

/*
 * Names: the sandbox's resolver is the broker's stub on its own loopback
 * (docs/spec.md 5.11), asked over UDP; and a generated nsswitch.conf whose
 * hosts are `files` only (base/core's) asks DNS after the files.
 */
static void resolver_files(struct apply *ap)
{
	struct ward_policy *p = ap->p;
	static const char conf[] = "nameserver 127.0.0.53\n"
				   "options ndots:1 timeout:2 attempts:2\n";
	static const char files[] = "hosts: files\n";
	struct ward_mount *mm;
	char *buf;

	if (p->net.mode != WARD_NET_ALLOWLIST || p->net.nnames == 0)
		return;
	mm = ward_pool_array(ap->pool, p->nmounts, sizeof(*mm));
	memcpy(mm, p->mounts, p->nmounts * sizeof(*mm));
	p->mounts = mm;
	for (uint32_t i = 1; i < p->nmounts; i++) {
		struct ward_mount *m = &mm[i];
		const char *at;
		size_t off, len = m->data_len;
		uint8_t *d;

		if (m->kind != WARD_MNT_FILE ||
		    strcmp(m->dst, "/etc/nsswitch.conf") != 0 ||
		    !(at = memmem(m->data, len, files, sizeof(files) - 1)) ||
		    (at != (const char *)m->data && at[-1] != '\n'))
			continue;
		off = (size_t)(at - (const char *)m->data);
		d = ward_pool_alloc(ap->pool, len + 5);
		memcpy(d, m->data, off);
		memcpy(d + off, "hosts: files dns\n", 17);
		memcpy(d + off + 17, m->data + off + sizeof(files) - 1,
		       len - off - (sizeof(files) - 1));
		m->data = d;
		m->data_len = len + 4;
	}
	buf = strdup(conf);
	if (!buf)
		abort(); /* the compiler's pool aborts on OOM too */
	add_file(ap, WARD_RESOLV_PATH, buf, sizeof(conf) - 1);
}

static void hosts_file(struct apply *ap)
{
	struct ward_policy *p = ap->p;
	const struct ward_net *n = &p->net;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	/* (An entry in its way is the checker's error: sema_net.c.) */
	if (n->mode != WARD_NET_ALLOWLIST || n->nhosts == 0)
		return;
	f = open_memstream(&buf, &len);
	if (!f)
		abort(); /* the compiler's pool aborts on OOM too */
	fputs("127.0.0.1 localhost\n"
	      "::1 localhost ip6-localhost ip6-loopback\n",
	      f);
	if (p->identity.hostname && p->identity.hostname[0])
		fprintf(f, "127.0.1.1 %s\n", p->identity.hostname);
	for (uint32_t i = 0; i < n->nhosts; i++) {
		char a[INET6_ADDRSTRLEN];
		inet_ntop(n->hosts[i].family == 4 ? AF_INET : AF_INET6,
			  n->hosts[i].addr, a, sizeof(a));
		fprintf(f, "%s %s\n", a, n->hosts[i].name);
	}
	fclose(f);
	add_file(ap, WARD_HOSTS_PATH, buf, len);
}

/* ------------------------------------------------------------ programs */

static void programs(struct apply *ap)
{
	struct ward_net *n = &ap->p->net;
	uint32_t bad_rule = 0;
	ward_err err = {0};

	struct ward_net wide;

	if (n->mode != WARD_NET_ALLOWLIST)
		return;
	/* Names: the programs cannot learn the stub's answers (their maps
	 * are frozen), so behind the broker they allow the names' TCP
	 * ports to any address; the broker alone holds the names to the
	 * addresses their answers gave (docs/spec.md 5.11). */
	wide = *n;
	if (n->nnames) {
		struct ward_net_rule *r = ward_pool_array(
		    ap->pool, n->nrules + 2 * n->nnames, sizeof(*r));

		memcpy(r, n->rules, n->nrules * sizeof(*r));
		for (uint32_t i = 0; i < n->nnames; i++)
			for (int k = 0; k < 2; k++)
				r[n->nrules + 2 * i + k] =
				    (struct ward_net_rule){
					.proto = IPPROTO_TCP,
					.family = k ? 6 : 4,
					.port_lo = n->names[i].port_lo,
					.port_hi = n->names[i].port_hi};
		wide.rules = r;
		wide.nrules = n->nrules + 2 * n->nnames;
	}
	if (ward_net_bpf_build(ap->pool, &wide, &n->bpf, &bad_rule, &err) < 0) {
		struct ward_loc loc =
		    ap->where->net_rules && bad_rule < n->nrules
			? ap->where->net_rules[bad_rule]
			: ap->where->net;
		ward_diag(ap->d, WARD_SEV_ERROR, loc, "%s", err.msg);
		ward_diag_help(ap->d, "merge the ports into ranges (`port "
				      "8000-8100`)");
	}
}

int ward_net_apply(struct ward_checked *c, struct ward_diags *d)
{
	struct apply ap = {
	    .pool = c->pool,
	    .p = &c->policy,
	    .where = &c->where,
	    .d = d,
	    .scmp_arch = c->policy.arch == WARD_ARCH_AARCH64 ? SCMP_ARCH_AARCH64
							     : SCMP_ARCH_X86_64,
	};
	unsigned errors = ward_diags_errors(d);

	struct ward_net_rules_ctx rx = {
	    .pool = ap.pool,
	    .p = ap.p,
	    .where = ap.where,
	    .d = d,
	    .scmp_arch = ap.scmp_arch,
	};

	ward_net_narrow_socket(&rx);
	ward_net_broker_rules(&rx);
	hosts_file(&ap);
	resolver_files(&ap);
	programs(&ap);
	return ward_diags_errors(d) > errors ? -1 : 0;
}
