/* SPDX-License-Identifier: MIT */
/*
 * dns.c: see dns.h. The messages are RFC 1035's: a 12-byte header, the
 * question (labels, type, class), resource records. The stub reads only
 * what it needs of a query (one question, class IN) and writes its answer
 * itself, so that nothing of the upstream's message but the addresses
 * reaches the sandbox.
 */
#include "dns.h"

#include "answer_ranges.h"
#include "broker_net.h"
#include "denial_event.h"
#include "dnsname_match.h"
#include "http_proxy.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define T_A	    1
#define T_AAAA	    28
#define C_IN	    1
#define R_SERVFAIL  2
#define R_NXDOMAIN  3
#define MSG_MAX	    1232 /* what EDNS recommends; queries are smaller */
#define LEARNED_MAX 1024
#define BATCH	    16 /* datagrams answered per wake-up */

struct learned {
	bool used;
	uint8_t family;
	uint8_t addr[16];
	char name[256];
	struct timespec until; /* CLOCK_MONOTONIC */
};

/* One broker per run, one process: the table is its own. */
static struct learned learned[LEARNED_MAX];

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static struct timespec mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t;
}

/* ------------------------------------------------------------ messages */

/* The question of a query (one, class IN) at q: its name, lower case and
 * dotted, into name; its type. The question's length, or 0. */
static size_t read_question(const uint8_t *m, size_t len, char *name,
			    uint16_t *type)
{
	size_t p = 12, o = 0;

	for (;;) {
		uint8_t l;

		if (p >= len)
			return 0;
		l = m[p++];
		if (l == 0)
			break;
		/* No compression in a question; RFC 1035's lengths. */
		if (l > 63 || p + l > len || o + l + 1 > 254)
			return 0;
		if (o)
			name[o++] = '.';
		for (uint8_t i = 0; i < l; i++) {
			char c = (char)m[p + i];

			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			/* A byte no allowed name has cannot match: kept
			 * out, so that the record is text. */
			if (!((c >= 'a' && c <= 'z') ||
			      (c >= '0' && c <= '9') || c == '-' || c == '_'))
				c = '?';
			name[o++] = c;
		}
		p += l;
	}
	name[o] = '\0';
	if (p + 4 > len || get16(m + p + 2) != C_IN)
		return 0;
	*type = get16(m + p);
	return p + 4 - 12;
}

/* Past a name of a message (compressed or not) at *p; false if it runs
 * out. */
static bool skip_name(const uint8_t *m, size_t len, size_t *p)
{
	while (*p < len) {
		uint8_t l = m[*p];

		if (l == 0) {
			(*p)++;
			return true;
		}
		if ((l & 0xc0) == 0xc0) {
			*p += 2;
			return *p <= len;
		}
		if (l > 63)
			return false;
		*p += 1 + l;
	}
	return false;
}

/* The addresses of the upstream's answer (its type qtype, class IN): those
 * outside the blob's refused ranges (the compiler's list, 5.11) into rec's
 * addresses, the others into its blocked ones.
 * The smallest TTL, or -1 when the message is not an answer to q. */
static long read_answer(const struct ward_net *net, const uint8_t *m,
			size_t len, uint16_t id, const uint8_t *q, size_t qlen,
			uint16_t qtype, struct ward_dns_record *rec, int *rcode)
{
	size_t p = 12 + qlen;
	uint16_t an;
	long ttl = -1;
	size_t alen = qtype == T_A ? 4 : 16;

	if (len < p || get16(m) != id || !(m[2] & 0x80) || get16(m + 4) != 1 ||
	    memcmp(m + 12, q, qlen) != 0)
		return -1;
	*rcode = m[3] & 0x0f;
	an = get16(m + 6);
	for (uint16_t i = 0; i < an; i++) {
		uint16_t type, class, rdlen;
		uint32_t t;

		if (!skip_name(m, len, &p) || p + 10 > len)
			break;
		type = get16(m + p);
		class = get16(m + p + 2);
		t = (uint32_t)get16(m + p + 4) << 16 | get16(m + p + 6);
		rdlen = get16(m + p + 8);
		p += 10;
		if (p + rdlen > len)
			break;
		if (type == qtype && class == C_IN && rdlen == alen) {
			uint8_t fam = qtype == T_A ? 4 : 6;
			uint8_t a[16] = {0};

			memcpy(a, m + p, alen);
			if (ward_answer_refused(net, fam, a)) {
				if (rec->nblocked < WARD_DNS_ADDRS) {
					rec->blocked[rec->nblocked][0] = fam;
					memcpy(rec->blocked[rec->nblocked] + 1,
					       a, 16);
					rec->nblocked++;
				}
			} else if (rec->naddrs < WARD_DNS_ADDRS) {
				rec->family[rec->naddrs] = fam;
				memcpy(rec->addr[rec->naddrs], a, 16);
				rec->naddrs++;
				if (ttl < 0 || t < (uint32_t)ttl)
					ttl = t > 0x7fffffff ? 0x7fffffff
							     : (long)t;
			}
		}
		p += rdlen;
	}
	return ttl < 0 ? 0 : ttl;
}

/* Ask the host's resolver. The answer's rcode, or -1 when none came in
 * time; rec gets the addresses and *ttl their time. */
static int ask_upstream(const struct ward_net *net, int up, const uint8_t *q,
			size_t qlen, uint16_t qtype,
			struct ward_dns_record *rec, long *ttl)
{
	uint8_t out[12 + 260], in[MSG_MAX];
	uint16_t id;
	struct timespec end = mono();
	int rcode = -1;

	if (up < 0 || qlen > sizeof(out) - 12 ||
	    getrandom(&id, sizeof(id), 0) != sizeof(id))
		return -1;
	memset(out, 0, 12);
	put16(out, id);
	out[2] = 0x01; /* RD */
	put16(out + 4, 1);
	memcpy(out + 12, q, qlen);
	/* The question as normalised: its type, class IN. */
	if (send(up, out, 12 + qlen, MSG_NOSIGNAL) < 0)
		return -1;
	end.tv_sec += WARD_DNS_UPSTREAM_MS / 1000;
	for (;;) {
		struct timespec now = mono();
		long ms = (end.tv_sec - now.tv_sec) * 1000 +
			  (end.tv_nsec - now.tv_nsec) / 1000000;
		struct pollfd pfd = {up, POLLIN, 0};
		struct iovec iov = {in, sizeof(in)};
		struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
		ssize_t n;

		if (ms <= 0 || poll(&pfd, 1, (int)ms) <= 0)
			return -1;
		n = recvmsg(up, &mh, MSG_DONTWAIT);
		if (n < 0)
			continue;
		/* A late answer to an earlier query is skipped. */
		*ttl = read_answer(net, in, (size_t)n, id, q, qlen, qtype, rec,
				   &rcode);
		if (*ttl >= 0)
			return rcode;
	}
}

/* The question in wire form, as the stub asks it (lower case). */
static size_t wire_question(const char *name, uint16_t type, uint8_t *out)
{
	size_t o = 0;

	for (const char *s = name; *s;) {
		size_t l = strcspn(s, ".");

		out[o++] = (uint8_t)l;
		memcpy(out + o, s, l);
		o += l;
		s += l;
		if (*s == '.')
			s++;
	}
	out[o++] = 0;
	put16(out + o, type);
	put16(out + o + 2, C_IN);
	return o + 4;
}

/* ------------------------------------------------------------ learning */

static void learn(const struct ward_dns_record *rec, long ttl)
{
	struct timespec now = mono();
	struct timespec until = now;

	if (ttl < WARD_DNS_TTL_FLOOR)
		ttl = WARD_DNS_TTL_FLOOR;
	if (ttl > WARD_DNS_TTL_CEIL)
		ttl = WARD_DNS_TTL_CEIL;
	until.tv_sec += ttl;
	for (uint8_t k = 0; k < rec->naddrs; k++) {
		struct learned *free_slot = NULL, *oldest = &learned[0];
		struct learned *l = NULL;

		for (size_t i = 0; i < LEARNED_MAX && !l; i++) {
			struct learned *e = &learned[i];

			if (e->used && e->family == rec->family[k] &&
			    !memcmp(e->addr, rec->addr[k], 16) &&
			    !strcmp(e->name, rec->name))
				l = e;
			else if (!e->used || e->until.tv_sec < now.tv_sec)
				free_slot = free_slot ? free_slot : e;
			else if (e->until.tv_sec < oldest->until.tv_sec)
				oldest = e;
		}
		if (!l)
			l = free_slot ? free_slot : oldest;
		l->used = true;
		l->family = rec->family[k];
		memcpy(l->addr, rec->addr[k], 16);
		snprintf(l->name, sizeof(l->name), "%s", rec->name);
		l->until = until;
	}
}

/* A learned entry for a->addr, still running, whose name (want's, when
 * want is not NULL) a TCP rule for a->port matches. */
static bool learned_match(const struct ward_broker *b,
			  const struct ward_addr *a, const char *want,
			  const char **name)
{
	const struct ward_net *net = &b->policy->net;
	struct timespec now = mono();

	if (!net->nnames || !a->family)
		return false;
	for (size_t i = 0; i < LEARNED_MAX; i++) {
		const struct learned *l = &learned[i];

		if (!l->used || l->family != a->family ||
		    memcmp(l->addr, a->addr, 16) != 0 ||
		    l->until.tv_sec < now.tv_sec ||
		    (l->until.tv_sec == now.tv_sec &&
		     l->until.tv_nsec <= now.tv_nsec) ||
		    (want && strcmp(want, l->name) != 0))
			continue;
		for (uint32_t k = 0; k < net->nnames; k++) {
			const struct ward_net_name *n = &net->names[k];

			if (n->proto == IPPROTO_TCP && a->port >= n->port_lo &&
			    a->port <= n->port_hi &&
			    ward_dnsname_match(n->name, l->name)) {
				*name = l->name;
				return true;
			}
		}
	}
	return false;
}

bool ward_dns_learned(const struct ward_broker *b, const struct ward_addr *a,
		      const char **name)
{
	return learned_match(b, a, NULL, name);
}

bool ward_dns_learned_as(const struct ward_broker *b, const struct ward_addr *a,
			 const char *name)
{
	const char *n;

	return learned_match(b, a, name, &n);
}

/* ------------------------------------------------------------ the proxy's */

/* Through ward --upstream-proxy every connection of a name rule is the
 * proxy's `CONNECT name:port` (relay.h), and the proxy resolves the name:
 * the host may have no DNS for the outside at all (CI and company networks
 * often have none). So the stub asks nobody: an allowed name's A query is
 * answered with an address of the stub's own for that name, the same
 * for the whole run, one name an address, from 198.18.0.0/15 (RFC 2544's
 * network for benchmarks, which no destination of the internet uses;
 * fake-IP DNS does the same); AAAA gets no address. The address is
 * learned for the name as an answer's is, so the connect, the relay's
 * server name check and the record work unchanged. */
#define SYNTH_MAX  4096
#define SYNTH_BASE 0xc6120001u /* 198.18.0.1 */
static char (*synth)[256];     /* the names, in the order first asked */
static size_t nsynth;

static bool synthesize(struct ward_dns_record *rec)
{
	size_t i = 0;
	uint32_t a;

	if (!synth && !(synth = calloc(SYNTH_MAX, sizeof(*synth))))
		return false;
	while (i < nsynth && strcmp(synth[i], rec->name) != 0)
		i++;
	if (i == nsynth) {
		if (nsynth == SYNTH_MAX)
			return false;
		snprintf(synth[nsynth++], sizeof(*synth), "%s", rec->name);
	}
	rec->synthetic = 1;
	if (rec->qtype != T_A)
		return true;
	a = htonl(SYNTH_BASE + (uint32_t)i);
	rec->family[0] = 4;
	memcpy(rec->addr[0], &a, 4);
	rec->naddrs = 1;
	return true;
}

/* ------------------------------------------------------------ records */

static int record_at(struct ward_broker_facts *f,
		     const struct ward_dns_record *r)
{
	struct ward_dns_record *e;

	for (uint32_t i = 0; i < f->ndns; i++)
		if (f->dns[i].qtype == r->qtype &&
		    f->dns[i].verdict == r->verdict &&
		    !strcmp(f->dns[i].name, r->name)) {
			f->dns[i].count++;
			return (int)i;
		}
	if (f->ndns == WARD_RECORD_DNS) {
		f->dns_dropped++;
		return -1;
	}
	e = &f->dns[f->ndns++];
	*e = *r;
	e->count = 1;
	clock_gettime(CLOCK_REALTIME, &e->first);
	return (int)(f->ndns - 1);
}

/* The query on the record; a refused or unreadable one to a session's
 * server too, before it is answered (docs/spec.md 7.6). */
static void record(struct ward_broker *b, const struct ward_dns_record *r)
{
	int i = record_at(b->f, r);

	if (r->verdict == WARD_DNS_REFUSED || r->verdict == WARD_DNS_MALFORMED)
		ward_broker_net_event(b, WARD_NETEV_DNS, i);
}

/* ------------------------------------------------------------ serving */

static bool allowed(const struct ward_net *net, const char *name)
{
	for (uint32_t i = 0; i < net->nnames; i++)
		if (ward_dnsname_match(net->names[i].name, name))
			return true;
	return false;
}

/* One query in m (len bytes): its answer into out. The answer's length,
 * 0 for none (not a query: dropped). */
static size_t answer(struct ward_broker *b, const uint8_t *m, size_t len,
		     uint8_t *out)
{
	static struct ward_dns_record rec;
	uint8_t q[260];
	size_t qlen, o;
	int rcode = 0;
	long ttl = 0;

	memset(&rec, 0, sizeof(rec));
	if (len < 12 || (m[2] & 0x80) || (m[2] & 0x78) || get16(m + 4) != 1 ||
	    !(qlen = read_question(m, len, rec.name, &rec.qtype))) {
		if (len >= 12 && !(m[2] & 0x80)) {
			rec.verdict = WARD_DNS_MALFORMED;
			record(b, &rec);
		}
		return 0;
	}
	if (!allowed(&b->policy->net, rec.name)) {
		rec.verdict = WARD_DNS_REFUSED;
		rcode = R_NXDOMAIN;
	} else if (rec.qtype != T_A && rec.qtype != T_AAAA) {
		/* An allowed name, another type (TXT, MX, HTTPS...): no
		 * data, and nothing asked of the upstream for it. */
		rec.verdict = WARD_DNS_ANSWERED;
	} else if (ward_proxy_on()) {
		if (synthesize(&rec)) {
			rec.verdict = WARD_DNS_ANSWERED;
			rec.ttl = WARD_DNS_TTL_CEIL;
			learn(&rec, WARD_DNS_TTL_CEIL);
		} else {
			rec.verdict = WARD_DNS_FAILED;
			rcode = R_SERVFAIL;
		}
	} else {
		size_t wl = wire_question(rec.name, rec.qtype, q);

		rcode = ask_upstream(&b->policy->net, b->dns_upstream, q, wl,
				     rec.qtype, &rec, &ttl);
		if (rcode < 0) {
			rec.verdict = WARD_DNS_FAILED;
			rec.naddrs = rec.nblocked = 0;
			rcode = R_SERVFAIL;
		} else {
			rec.verdict = WARD_DNS_ANSWERED;
			if (rcode != 0 && rcode != R_NXDOMAIN)
				rcode = R_SERVFAIL;
			if (rcode)
				rec.naddrs = 0;
			ttl = ttl < WARD_DNS_TTL_FLOOR	? WARD_DNS_TTL_FLOOR
			      : ttl > WARD_DNS_TTL_CEIL ? WARD_DNS_TTL_CEIL
							: ttl;
			rec.ttl = (uint32_t)ttl;
			learn(&rec, ttl);
		}
	}
	record(b, &rec);

	/* The answer: the query's id and question as asked, the addresses
	 * learned, nothing else of the upstream's. */
	memcpy(out, m, 12 + qlen);
	out[2] = (uint8_t)(0x80 | (m[2] & 0x01)); /* QR, RD as asked */
	out[3] = (uint8_t)(0x80 | rcode);	  /* RA */
	put16(out + 6, rec.naddrs);
	put16(out + 8, 0);
	put16(out + 10, 0);
	o = 12 + qlen;
	for (uint8_t k = 0; k < rec.naddrs; k++) {
		size_t al = rec.family[k] == 4 ? 4 : 16;

		put16(out + o, 0xc00c); /* the question's name */
		put16(out + o + 2, rec.qtype);
		put16(out + o + 4, C_IN);
		put16(out + o + 6, (uint16_t)(rec.ttl >> 16));
		put16(out + o + 8, (uint16_t)rec.ttl);
		put16(out + o + 10, (uint16_t)al);
		memcpy(out + o + 12, rec.addr[k], al);
		o += 12 + al;
	}
	return o;
}

void ward_dns_serve(struct ward_broker *b)
{
	static uint8_t in[MSG_MAX], out[MSG_MAX];

	for (int i = 0; i < BATCH; i++) {
		struct sockaddr_storage from;
		struct iovec iov = {in, sizeof(in)};
		struct msghdr mh = {.msg_name = &from,
				    .msg_namelen = sizeof(from),
				    .msg_iov = &iov,
				    .msg_iovlen = 1};
		ssize_t n = recvmsg(b->dns_stub, &mh, MSG_DONTWAIT);
		size_t o;

		if (n < 0)
			return;
		o = answer(b, in, (size_t)n, out);
		if (o) {
			struct iovec oiov = {out, o};
			struct msghdr omh = {.msg_name = &from,
					     .msg_namelen = mh.msg_namelen,
					     .msg_iov = &oiov,
					     .msg_iovlen = 1};

			sendmsg(b->dns_stub, &omh, MSG_DONTWAIT | MSG_NOSIGNAL);
		}
	}
}
