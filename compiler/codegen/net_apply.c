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

static void hosts_file(struct apply *ap)
{
	struct ward_policy *p = ap->p;
	const struct ward_net *n = &p->net;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	uint8_t *data;
	struct ward_mount *m;
	struct ward_loc *w;

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
	data = ward_pool_alloc(ap->pool, len + 1);
	memcpy(data, buf, len);
	free(buf);

	/* Last: its parents, if any, come before it. */
	m = ward_pool_array(ap->pool, p->nmounts + 1, sizeof(*m));
	w = ward_pool_array(ap->pool, p->nmounts + 1, sizeof(*w));
	memcpy(m, p->mounts, p->nmounts * sizeof(*m));
	memcpy(w, ap->where->mounts, p->nmounts * sizeof(*w));
	m[0].size += (len + 4095) & ~4095ull; /* it lives on the root */
	m[p->nmounts] = (struct ward_mount){
	    .kind = WARD_MNT_FILE,
	    .dst = WARD_HOSTS_PATH,
	    .mode = 0444,
	    .data = data,
	    .data_len = len,
	};
	w[p->nmounts] = ap->where->net;
	p->mounts = m;
	ap->where->mounts = w;
	p->nmounts++;
}

/* ------------------------------------------------------------ programs */

static void programs(struct apply *ap)
{
	struct ward_net *n = &ap->p->net;
	uint32_t bad_rule = 0;
	ward_err err = {0};

	if (n->mode != WARD_NET_ALLOWLIST)
		return;
	if (ward_net_bpf_build(ap->pool, n, &n->bpf, &bad_rule, &err) < 0) {
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
	programs(&ap);
	return ward_diags_errors(d) > errors ? -1 : 0;
}
