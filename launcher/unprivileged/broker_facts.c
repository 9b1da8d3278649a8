/* SPDX-License-Identifier: MIT */
/*
 * broker_facts.c: see broker_facts.h.
 */
#include "broker_facts.h"

#include <string.h>

void ward_broker_facts_take(const struct ward_broker_carried *c,
			    struct ward_broker_facts *f)
{
	memset(f, 0, sizeof(*f));
	if (!c->records || c->len != sizeof(*f))
		return;
	memcpy(f, c->bytes, sizeof(*f));
	f->records = true;
	f->error[sizeof(f->error) - 1] = '\0';
}
