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
#include "syscall_names.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

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

void ward_sdenials_read(struct srv *s)
{
	struct ward_denial_event e;

	if (s->cfg->events < 0)
		return;
	/* bounded: the socket holds what the broker sent, and it waits */
	for (int i = 0; i < 4096; i++) {
		ssize_t n = recv(s->cfg->events, &e, sizeof(e), MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		if (n != (ssize_t)sizeof(e) || e.magic != WARD_DENIAL_MAGIC)
			s->den.garbage++;
		else
			event(s, &e);
	}
}

void ward_sdenials_start(struct srv *s)
{
	struct sdenials *d = &s->den;

	ward_sdenials_read(s);
	for (size_t i = 0; i < d->n; i++) {
		d->k[i].base = d->k[i].total;
		d->k[i].in_cell = false;
	}
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
	fprintf(f, "],\"lost\":%llu,\"dropped\":%llu}",
		(unsigned long long)(d->lost - d->lost_base),
		(unsigned long long)(d->dropped - d->dropped_base));
}
