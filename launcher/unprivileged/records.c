/* SPDX-License-Identifier: MIT */
/*
 * records.c: see records.h.
 */
#include "records.h"

#include <string.h>
#include <time.h>

void ward_record_syscall(struct ward_broker_facts *f,
			 const struct seccomp_data *d, uint32_t e)
{
	struct ward_syscall_record *r;

	for (uint32_t i = 0; i < f->nsys; i++) {
		r = &f->sys[i];
		if (r->nr == d->nr && r->arch == d->arch && r->errno_nr == e) {
			r->count++;
			return;
		}
	}
	if (f->nsys == WARD_RECORD_SYSCALLS) {
		f->sys_dropped++;
		return;
	}
	r = &f->sys[f->nsys++];
	memset(r, 0, sizeof(*r));
	r->nr = d->nr;
	r->arch = d->arch;
	r->errno_nr = e;
	r->count = 1;
	clock_gettime(CLOCK_REALTIME, &r->first);
	memcpy(r->args, d->args, sizeof(r->args));
}

/* The key: everything but the counters. */
static bool same(const struct ward_net_record *a,
		 const struct ward_net_record *b)
{
	return !a->relay && a->call == b->call && a->verdict == b->verdict &&
	       a->family == b->family && a->proto == b->proto &&
	       a->port == b->port && a->domain == b->domain &&
	       a->type == b->type && a->nr == b->nr && a->err == b->err &&
	       !memcmp(a->addr, b->addr, sizeof(a->addr)) &&
	       !strcmp(a->name, b->name);
}

int ward_record_net(struct ward_broker_facts *f,
		    const struct ward_net_record *r)
{
	struct ward_net_record *e;

	for (uint32_t i = 0; i < f->nnet && !r->relay; i++)
		if (same(&f->net[i], r)) {
			f->net[i].count++;
			return (int)i;
		}
	if (f->nnet == WARD_RECORD_NET) {
		f->net_dropped++;
		return -1;
	}
	e = &f->net[f->nnet++];
	*e = *r;
	e->count = 1;
	clock_gettime(CLOCK_REALTIME, &e->first);
	return (int)(f->nnet - 1);
}
