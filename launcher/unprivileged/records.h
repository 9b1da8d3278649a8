/* SPDX-License-Identifier: MIT */
/*
 * records.h: what the broker saw, in the bounded tables of struct
 * ward_broker_facts (facts.h). A call like one already kept only counts;
 * a new one takes a free entry, or counts in *_dropped when there is none:
 * however many calls a sandbox makes, the tables, hence the report, stay
 * the size they are.
 */
#ifndef WARD_RECORDS_H
#define WARD_RECORDS_H

#include "broker_facts.h"
#include "facts.h"

#include <linux/seccomp.h>

/* A refused syscall, answered with errno e. */
void ward_record_syscall(struct ward_broker_facts *f,
			 const struct seccomp_data *d, uint32_t e);

/* A network attempt: r's fields but count and first are the key. Returns
 * the entry's index, or -1 when it counted in net_dropped. */
int ward_record_net(struct ward_broker_facts *f,
		    const struct ward_net_record *r);

#endif
