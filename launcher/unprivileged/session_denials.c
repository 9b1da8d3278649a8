/* SPDX-License-Identifier: MIT */
/*
 * session_denials.c: the policy's refusals per cell (docs/spec.md 7.6).
 * The broker sends one event a recorded refusal before it answers the
 * call (denial_event.h), with its running count of that call: a cell's
 * count is the last count read by its end less the last one read by its
 * start, so a call refused in two cells is in both with each one's count,
 * and an event lost in between is made up by the next.
 */
#include "session_srv.h"

#include "denial_event.h"
#include "json.h"
#include "report_net.h"
#include "syscall_names.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* How long S waits for the courier's snapshot or diff of a cell. */
#define FILES_WAIT_MS 5000

static struct sdenial *key(struct sdenials *d,
			   const struct ward_denial_event *e)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->k[i].nr == e->nr && d->k[i].arch == e->arch &&
		    d->k[i].errno_nr == e->errno_nr)
			return &d->k[i];
	if (d->n == DENIAL_KEYS)
		return NULL;
	d->k[d->n] = (struct sdenial){
	    .nr = e->nr, .arch = e->arch, .errno_nr = e->errno_nr};
	return &d->k[d->n++];
}

static void event(struct srv *s, const struct ward_denial_event *e)
{
	struct sdenials *d = &s->den;
	struct sdenial *k = key(d, e);

	if (e->lost > d->lost)
		d->lost = e->lost;
	if (!k) {
		d->dropped++;
		return;
	}
	/* 0: the broker's own table was full; counted here */
	k->total = e->total > k->total ? e->total : k->total + !e->total;
	if (s->running && !k->in_cell) {
		k->in_cell = true;
		memcpy(k->args, e->args, sizeof(k->args));
	}
}

/* A network attempt's fields, as the run report names them (4.8, 5.9). */
static void spell_attempt(FILE *f, const struct ward_net_record *n)
{
	char a[INET6_ADDRSTRLEN] = "";
	const char *call = n->call == WARD_NC_SOCKET	? "socket"
			   : n->call == WARD_NC_CONNECT ? "connect"
			   : n->call == WARD_NC_SENDTO	? "sendto"
							: NULL;
	bool dest =
	    (n->family == 4 || n->family == 6) && n->call != WARD_NC_SOCKET;

	if (dest)
		inet_ntop(n->family == 4 ? AF_INET : AF_INET6, n->addr, a,
			  sizeof(a));
	fputs("{\"call\":", f);
	ward_json_str(f, call ? call : ward_syscall_name(n->nr));
	fputs(",\"family\":", f);
	ward_json_str(f, n->family == 4	  ? "ipv4"
			 : n->family == 6 ? "ipv6"
					  : NULL);
	fputs(",\"protocol\":", f);
	ward_json_str(f, n->proto == IPPROTO_TCP   ? "tcp"
			 : n->proto == IPPROTO_UDP ? "udp"
						   : NULL);
	fputs(",\"address\":", f);
	ward_json_str(f, dest ? a : NULL);
	fputs(",\"port\":", f);
	ward_json_u64_or_null(f, dest, n->port);
	fprintf(f, ",\"domain\":%u,\"errno\":", n->domain);
	ward_json_str(f, n->err ? strerrorname_np(n->err) : NULL);
	/* a relayed connection refused on its server name: which, and why */
	if (n->relay) {
		fputs(",\"relay\":", f);
		ward_report_relay(f, n);
	}
	fputc('}', f);
}

/* A refused DNS query's fields, as the run report's network.dns. */
static void spell_query(FILE *f, const struct ward_dns_record *q)
{
	fputs("{\"name\":", f);
	ward_json_str(f, q->name);
	fputs(",\"type\":", f);
	if (q->qtype == 1 || q->qtype == 28)
		ward_json_str(f, q->qtype == 1 ? "A" : "AAAA");
	else
		fprintf(f, "%u", q->qtype);
	fputs(",\"verdict\":", f);
	ward_json_str(f,
		      q->verdict == WARD_DNS_REFUSED ? "refused" : "malformed");
	fputc('}', f);
}

static void net_event(struct srv *s, struct ward_net_event *e)
{
	struct sdenials *d = &s->den;
	struct snetdenial *k = NULL;

	if (e->lost > d->lost)
		d->lost = e->lost;
	if (e->kind != WARD_NETEV_ATTEMPT && e->kind != WARD_NETEV_DNS) {
		d->garbage++;
		return;
	}
	for (size_t i = 0; i < d->nnet && !k; i++)
		if (d->net[i].kind == e->kind && d->net[i].index == e->index)
			k = &d->net[i];
	if (!k && d->nnet < NETDENIAL_KEYS) {
		FILE *f;

		k = &d->net[d->nnet];
		*k = (struct snetdenial){.kind = e->kind, .index = e->index};
		/* the broker's strings, ended whatever it sent */
		e->r.net.name[sizeof(e->r.net.name) - 1] = '\0';
		e->r.dns.name[sizeof(e->r.dns.name) - 1] = '\0';
		f = fmemopen(k->json, sizeof(k->json), "w");
		if (!f)
			return;
		if (e->kind == WARD_NETEV_ATTEMPT)
			spell_attempt(f, &e->r.net);
		else
			spell_query(f, &e->r.dns);
		/* cut short (it cannot be: a name is 255 bytes): nothing */
		if (ferror(f) || ftell(f) >= (long)sizeof(k->json) - 1) {
			fclose(f);
			return;
		}
		fclose(f);
		d->nnet++;
	}
	if (!k) {
		d->dropped++;
		return;
	}
	k->total = e->total > k->total ? e->total : k->total + !e->total;
}

/* The courier's answer: kept when it is the one asked for. */
static void files(struct srv *s, const uint8_t *b, size_t n)
{
	struct sdenials *d = &s->den;
	struct ward_cell_msg a;

	memcpy(&a, b, sizeof(a));
	if (a.kind != d->files_kind || a.cell != d->files_cell || d->files_got)
		return;
	d->files_got = true;
	free(d->files);
	d->files = NULL;
	/* a JSON array of the courier's making, or nothing */
	if (a.kind == WARD_CELL_END && n > sizeof(a) && b[sizeof(a)] == '[' &&
	    (d->files = malloc(n - sizeof(a) + 1))) {
		memcpy(d->files, b + sizeof(a), n - sizeof(a));
		d->files[n - sizeof(a)] = '\0';
	}
}

void ward_sdenials_read(struct srv *s)
{
	static uint8_t b[sizeof(struct ward_cell_msg) + WARD_CELL_DIFF_BYTES];

	if (s->cfg->events < 0 || s->den.eof)
		return;
	/* bounded: the socket holds what the broker sent, and it waits */
	for (int i = 0; i < 4096; i++) {
		ssize_t n = recv(s->cfg->events, b, sizeof(b), MSG_DONTWAIT);
		uint32_t magic;

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			s->den.eof = true;
		if (n <= 0)
			return;
		memcpy(&magic, b, n >= 4 ? 4 : 0);
		if (n == (ssize_t)sizeof(struct ward_denial_event) &&
		    magic == WARD_DENIAL_MAGIC) {
			struct ward_denial_event e;

			memcpy(&e, b, sizeof(e));
			event(s, &e);
		} else if (n == (ssize_t)sizeof(struct ward_net_event) &&
			   magic == WARD_NETEVENT_MAGIC) {
			struct ward_net_event e;

			memcpy(&e, b, sizeof(e));
			net_event(s, &e);
		} else if (n >= (ssize_t)sizeof(struct ward_cell_msg) &&
			   magic == WARD_CELLDIFF_MAGIC)
			files(s, b, (size_t)n);
		else
			s->den.garbage++;
	}
}

void ward_sfiles_ask(struct srv *s, uint32_t kind)
{
	struct sdenials *d = &s->den;
	struct ward_cell_msg q = {WARD_CELLSNAP_MAGIC, kind, s->cur.id};
	uint64_t until = ward_snow_ms() + FILES_WAIT_MS;

	free(d->files);
	d->files = NULL;
	d->files_kind = kind;
	d->files_cell = s->cur.id;
	d->files_got = false;
	if (s->cfg->events < 0 || d->eof ||
	    send(s->cfg->events, &q, sizeof(q), MSG_DONTWAIT | MSG_NOSIGNAL) !=
		(ssize_t)sizeof(q))
		return;
	/* The one wait of S's on a peer, bounded: the courier is ward's
	 * own, and the cell must not start before its snapshot. */
	while (!d->files_got && !d->eof) {
		uint64_t now = ward_snow_ms();
		struct pollfd p = {s->cfg->events, POLLIN, 0};

		if (now >= until || poll(&p, 1, (int)(until - now)) == 0)
			return;
		ward_sdenials_read(s);
	}
}

void ward_sfiles_json(struct srv *s, FILE *f)
{
	fprintf(f, ",\"files\":%s", s->den.files ? s->den.files : "null");
	free(s->den.files);
	s->den.files = NULL;
}

void ward_sdenials_start(struct srv *s)
{
	struct sdenials *d = &s->den;

	ward_sdenials_read(s);
	for (size_t i = 0; i < d->n; i++) {
		d->k[i].base = d->k[i].total;
		d->k[i].in_cell = false;
	}
	for (size_t i = 0; i < d->nnet; i++)
		d->net[i].base = d->net[i].total;
	d->lost_base = d->lost;
	d->dropped_base = d->dropped;
}

void ward_sdenials_json(struct srv *s, FILE *f)
{
	struct sdenials *d = &s->den;
	bool any = false;

	if (s->cfg->events < 0) {
		fputs(",\"denials\":null", f);
		return;
	}
	ward_sdenials_read(s);
	fputs(",\"denials\":{\"seccomp\":[", f);
	for (size_t i = 0; i < d->n; i++) {
		const struct sdenial *k = &d->k[i];
		const char *name = ward_syscall_name(k->nr);

		if (k->total <= k->base)
			continue;
		fprintf(f, "%s{\"syscall\":", any ? "," : "");
		ward_json_str(f, name);
		fprintf(f,
			",\"nr\":%d,\"arch\":%u,\"errno\":%u,\"count\":%llu,"
			"\"args\":[%llu,%llu,%llu]}",
			k->nr, k->arch, k->errno_nr,
			(unsigned long long)(k->total - k->base),
			(unsigned long long)k->args[0],
			(unsigned long long)k->args[1],
			(unsigned long long)k->args[2]);
		any = true;
	}
	for (uint32_t kind = WARD_NETEV_ATTEMPT; kind <= WARD_NETEV_DNS;
	     kind++) {
		fputs(kind == WARD_NETEV_ATTEMPT ? "],\"network\":["
						 : "],\"dns\":[",
		      f);
		any = false;
		for (size_t i = 0; i < d->nnet; i++) {
			const struct snetdenial *k = &d->net[i];
			size_t len = strlen(k->json);

			if (k->kind != kind || k->total <= k->base || !len)
				continue;
			/* the spelled object, its count added */
			fprintf(f, "%s%.*s,\"count\":%llu}", any ? "," : "",
				(int)(len - 1), k->json,
				(unsigned long long)(k->total - k->base));
			any = true;
		}
	}
	fprintf(f, "],\"lost\":%llu,\"dropped\":%llu}",
		(unsigned long long)(d->lost - d->lost_base),
		(unsigned long long)(d->dropped - d->dropped_base));
}
