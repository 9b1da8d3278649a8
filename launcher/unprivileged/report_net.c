/* SPDX-License-Identifier: MIT */
/*
 * report_net.c: see report_net.h.
 */
#include "report_net.h"

#include "http_proxy.h"

#include "blob.h"
#include "json.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

static void put_first(FILE *f, const struct timespec *t)
{
	fputs(", \"first\": ", f);
	ward_json_time(f, t);
}

static void put_errno(FILE *f, int e)
{
	ward_json_str(f, e ? strerrorname_np(e) : NULL);
}

/* A syscall's name: the policy's, else this machine's table. */
static const char *syscall_name(const struct ward_report *r, int32_t nr,
				uint32_t arch)
{
	const struct ward_violation v = {
	    .seen = true, .nr_known = true, .nr = nr, .arch = arch};

	return ward_violation_name(r->policy, &v);
}

/* ------------------------------------------------------------ seccomp */

static void put_kill(FILE *f, const struct ward_violation *v)
{
	fputs("{\"syscall\": ", f);
	ward_json_str(f, v->name);
	fputs(", \"nr\": ", f);
	if (v->nr_known)
		fprintf(f, "%d, \"arch\": ", v->nr);
	else
		fputs("null, \"arch\": ", f);
	ward_json_str(f, v->nr_known ? ward_arch_name(v->arch) : NULL);
	fputs(", \"action\": \"kill\", \"errno\": null, \"count\": 1, "
	      "\"first\": null, \"args\": null}",
	      f);
}

static void put_refusal(FILE *f, const struct ward_report *r,
			const struct ward_syscall_record *s)
{
	char action[64];

	snprintf(action, sizeof(action), "errno %s",
		 strerrorname_np((int)s->errno_nr)
		     ? strerrorname_np((int)s->errno_nr)
		     : "?");
	fputs("{\"syscall\": ", f);
	ward_json_str(f, syscall_name(r, s->nr, s->arch));
	fprintf(f, ", \"nr\": %d, \"arch\": ", s->nr);
	ward_json_str(f, ward_arch_name(s->arch));
	fputs(", \"action\": ", f);
	ward_json_str(f, action);
	fputs(", \"errno\": ", f);
	put_errno(f, (int)s->errno_nr);
	fprintf(f, ", \"count\": %llu", (unsigned long long)s->count);
	put_first(f, &s->first);
	fputs(", \"args\": [", f);
	for (int i = 0; i < 6; i++)
		fprintf(f, "%s\"0x%llx\"", i ? ", " : "",
			(unsigned long long)s->args[i]);
	fputs("]}", f);
}

/* ------------------------------------------------------------ network */

static const char *call_name(const struct ward_report *r,
			     const struct ward_net_record *n)
{
	switch (n->call) {
	case WARD_NC_SOCKET:
		return "socket";
	case WARD_NC_CONNECT:
		return "connect";
	case WARD_NC_SENDTO:
		return "sendto";
	default:
		return syscall_name(r, n->nr,
				    r->policy ? r->policy->seccomp.arch : 0);
	}
}

static const char *verdict_name(uint8_t v)
{
	return v == WARD_NV_ALLOWED   ? "allowed"
	       : v == WARD_NV_LOCAL   ? "local"
	       : v == WARD_NV_REFUSED ? "refused"
				      : NULL;
}

void ward_report_relay(FILE *f, const struct ward_net_record *n)
{
	static const char *const ends[] = {
	    [WARD_RELAY_CLOSED] = "closed",
	    [WARD_RELAY_NO_SNI] = "refused: no server name",
	    [WARD_RELAY_ECH] = "refused: encrypted ClientHello",
	    [WARD_RELAY_INVALID] = "refused: not a ClientHello",
	    [WARD_RELAY_OTHER] = "refused: another name's server",
	    [WARD_RELAY_TIMEOUT] = "refused: no ClientHello in time",
	    [WARD_RELAY_FAILED] = "failed",
	    [WARD_RELAY_RUN_END] = "open at the run's end",
	    [WARD_RELAY_PROXY_REFUSED] = "refused by the upstream proxy",
	    [WARD_RELAY_PROXY_INVALID] = "failed: the upstream proxy's reply "
					 "is not HTTP",
	    [WARD_RELAY_PROXY_TIMEOUT] = "failed: no reply from the upstream "
					 "proxy in time",
	};

	if (!n->relay || n->relay >= ARRAY_LEN(ends)) {
		fputs("null", f);
		return;
	}
	fputs("{\"server_name\": ", f);
	ward_json_str(f, n->sni[0] ? n->sni : NULL);
	fprintf(f, ", \"sent\": %llu, \"received\": %llu, \"ended\": ",
		(unsigned long long)n->sent, (unsigned long long)n->received);
	ward_json_str(f, ends[n->relay]);
	/* Through ward --upstream-proxy: its reply's status (null before
	 * one came); absent otherwise. */
	if (n->proxy) {
		fputs(", \"proxy_status\": ", f);
		if (n->proxy >= 100)
			fprintf(f, "%u", (unsigned)n->proxy);
		else
			fputs("null", f);
	}
	fputc('}', f);
}

static void put_attempt(FILE *f, const struct ward_report *r,
			const struct ward_net_record *n)
{
	char a[INET6_ADDRSTRLEN] = "";
	const char *proto = n->proto == IPPROTO_TCP   ? "tcp"
			    : n->proto == IPPROTO_UDP ? "udp"
						      : NULL;

	if (n->family)
		inet_ntop(n->family == 4 ? AF_INET : AF_INET6, n->addr, a,
			  sizeof(a));
	fputs("{\"layer\": \"broker\", \"call\": ", f);
	ward_json_str(f, call_name(r, n));
	fputs(", \"verdict\": ", f);
	ward_json_str(f, verdict_name(n->verdict));
	fputs(", \"family\": ", f);
	ward_json_str(f, n->family == 4	  ? "ipv4"
			 : n->family == 6 ? "ipv6"
					  : NULL);
	/* A name for TCP and UDP, the number for another protocol. */
	fputs(", \"protocol\": ", f);
	if (!proto && n->proto)
		fprintf(f, "%u", n->proto);
	else
		ward_json_str(f, proto);
	/* A destination for connect and sendto only. */
	fputs(", \"address\": ", f);
	ward_json_str(f, n->family && n->call != WARD_NC_SOCKET ? a : NULL);
	fputs(", \"port\": ", f);
	ward_json_u64_or_null(f, n->family && n->call != WARD_NC_SOCKET,
			      n->port);
	if (n->call == WARD_NC_OTHER)
		fputs(", \"domain\": null, \"type\": null", f);
	else
		fprintf(f, ", \"domain\": %u, \"type\": %u", n->domain,
			n->type);
	fputs(", \"errno\": ", f);
	put_errno(f, n->err);
	/* Allowed by a name rule: the name whose answer gave the address. */
	fputs(", \"name\": ", f);
	ward_json_str(f, n->name[0] ? n->name : NULL);
	fputs(", \"relay\": ", f);
	ward_report_relay(f, n);
	fprintf(f, ", \"count\": %llu", (unsigned long long)n->count);
	put_first(f, &n->first);
	fputc('}', f);
}

static const char *dns_verdict(uint8_t v)
{
	return v == WARD_DNS_ANSWERED	 ? "answered"
	       : v == WARD_DNS_REFUSED	 ? "refused"
	       : v == WARD_DNS_FAILED	 ? "failed"
	       : v == WARD_DNS_MALFORMED ? "malformed"
					 : NULL;
}

static void put_addr_list(FILE *f, uint8_t n, const uint8_t *fam,
			  size_t fstride, const uint8_t *addr, size_t astride)
{
	fputc('[', f);
	for (uint8_t i = 0; i < n; i++) {
		char a[INET6_ADDRSTRLEN] = "";

		inet_ntop(fam[i * fstride] == 4 ? AF_INET : AF_INET6,
			  addr + i * astride, a, sizeof(a));
		fputs(i ? ", " : "", f);
		ward_json_str(f, a);
	}
	fputc(']', f);
}

/* A query the DNS stub answered (docs/spec.md 5.11). */
static void put_query(FILE *f, const struct ward_dns_record *q)
{
	fputs("{\"name\": ", f);
	ward_json_str(f, q->name);
	fputs(", \"type\": ", f);
	if (q->qtype == 1 || q->qtype == 28)
		ward_json_str(f, q->qtype == 1 ? "A" : "AAAA");
	else
		fprintf(f, "%u", q->qtype);
	fputs(", \"verdict\": ", f);
	ward_json_str(f, dns_verdict(q->verdict));
	fputs(", \"addresses\": ", f);
	put_addr_list(f, q->naddrs, q->family, 1, q->addr[0],
		      sizeof(q->addr[0]));
	fputs(", \"blocked\": ", f);
	put_addr_list(f, q->nblocked, q->blocked[0], sizeof(q->blocked[0]),
		      q->blocked[0] + 1, sizeof(q->blocked[0]));
	fputs(", \"ttl\": ", f);
	ward_json_u64_or_null(f,
			      q->verdict == WARD_DNS_ANSWERED &&
				  (q->qtype == 1 || q->qtype == 28),
			      q->ttl);
	fprintf(f, ", \"synthetic\": %s, \"count\": %llu",
		q->synthetic ? "true" : "false", (unsigned long long)q->count);
	put_first(f, &q->first);
	fputc('}', f);
}

/* The broker's facts, when it recorded (NULL otherwise). */
static const struct ward_broker_facts *broker(const struct ward_report *r)
{
	return r->broker && r->broker->records ? r->broker : NULL;
}

void ward_report_denials(FILE *f, const struct ward_report *r)
{
	const struct ward_violation *v = r->outcome ? r->violation : NULL;
	const struct ward_broker_facts *b = broker(r);
	bool first = true;

	fputs("{\"seccomp\": [", f);
	if (v && v->seen) {
		put_kill(f, v);
		first = false;
	}
	for (uint32_t i = 0; b && i < b->nsys; i++) {
		fputs(first ? "" : ", ", f);
		put_refusal(f, r, &b->sys[i]);
		first = false;
	}
	fputs("], \"seccomp_dropped\": ", f);
	ward_json_u64_or_null(f, b, b ? b->sys_dropped : 0);
	fputs(", \"network\": ", f);
	if (!b && !r->net_checked) {
		fputs("null", f);
	} else {
		first = true;
		fputc('[', f);
		for (uint32_t i = 0; b && i < b->nnet; i++) {
			if (b->net[i].verdict != WARD_NV_REFUSED)
				continue;
			fputs(first ? "" : ", ", f);
			put_attempt(f, r, &b->net[i]);
			first = false;
		}
		/* The second layer's own (root mode): what the programs
		 * refused that reached them. */
		for (size_t i = 0; r->net_checked && i < r->nnet; i++) {
			fputs(first ? "" : ", ", f);
			fputs("{\"layer\": \"cgroup-bpf\", \"denied\": ", f);
			ward_json_str(f, r->net[i].what);
			fprintf(f, ", \"count\": %llu}",
				(unsigned long long)r->net[i].count);
			first = false;
		}
		fputc(']', f);
	}
	fputs(", \"network_dropped\": ", f);
	ward_json_u64_or_null(f, b, b ? b->net_dropped : 0);
	fputc('}', f);
}

void ward_report_network(FILE *f, const struct ward_report *r)
{
	const struct ward_broker_facts *b = broker(r);
	bool list;

	if (!r->policy) {
		fputs("null", f);
		return;
	}
	list = r->policy->net.mode == WARD_NET_ALLOWLIST;
	fputs("{\"mode\": ", f);
	ward_json_str(f, list ? "allow-list" : "none");
	/* What enforced it: a namespace of the sandbox's own always; with
	 * an allow-list, the broker, and the cgroup programs where they
	 * were attached (root mode, cgroup2). */
	fputs(", \"layers\": [", f);
	if (r->started) {
		fputs("\"namespace\"", f);
		if (list && b && b->ran)
			fputs(", \"broker\"", f);
		if (r->net_checked)
			fputs(", \"cgroup-bpf\"", f);
	}
	fputs("], \"attempts\": ", f);
	if (!b) {
		fputs("null", f);
	} else {
		fputc('[', f);
		for (uint32_t i = 0; i < b->nnet; i++) {
			fputs(i ? ", " : "", f);
			put_attempt(f, r, &b->net[i]);
		}
		fputc(']', f);
	}
	fputs(", \"attempts_dropped\": ", f);
	ward_json_u64_or_null(f, b, b ? b->net_dropped : 0);
	/* Names: every query of the stub's. */
	fputs(", \"dns\": ", f);
	if (!b || !list || !r->policy->net.nnames) {
		fputs("null", f);
	} else {
		fputc('[', f);
		for (uint32_t i = 0; i < b->ndns; i++) {
			fputs(i ? ", " : "", f);
			put_query(f, &b->dns[i]);
		}
		fputc(']', f);
	}
	/* ward --upstream-proxy: where the name rules' connections went */
	fputs(", \"upstream_proxy\": ", f);
	ward_json_str(f,
		      list && r->policy->net.nnames ? ward_proxy_text() : NULL);
	fputs(", \"dns_dropped\": ", f);
	ward_json_u64_or_null(f, b && list && r->policy->net.nnames,
			      b ? b->dns_dropped : 0);
	fputs(", \"broker\": ", f);
	if (!r->broker || !r->started) {
		fputs("null", f);
	} else {
		fprintf(f,
			"{\"records\": %s, \"notifications\": %llu, "
			"\"throttled\": %llu, \"error\": ",
			r->broker->records ? "true" : "false",
			(unsigned long long)r->broker->notified,
			(unsigned long long)r->broker->throttled);
		ward_json_str(f, r->broker->error[0] ? r->broker->error : NULL);
		fputc('}', f);
	}
	fputc('}', f);
}

void ward_report_denials_summary(FILE *f, const struct ward_report *r)
{
	const struct ward_broker_facts *b = broker(r);
	uint64_t refused = 0, calls = 0;

	if (!b)
		return;
	for (uint32_t i = 0; i < b->nsys; i++)
		calls += b->sys[i].count;
	for (uint32_t i = 0; i < b->nnet; i++)
		if (b->net[i].verdict == WARD_NV_REFUSED)
			refused += b->net[i].count;
	if (calls || refused)
		fprintf(f,
			"ward:   refused and recorded: %llu syscall(s), %llu "
			"network attempt(s)\n",
			(unsigned long long)(calls + b->sys_dropped),
			(unsigned long long)(refused + b->net_dropped));
}
