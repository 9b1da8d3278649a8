/* SPDX-License-Identifier: MIT */
/*
 * port_slots.c: see port_slots.h.
 */
#include "port_slots.h"

#include "util.h"

#include <stdlib.h>

static int cmp_range(const void *x, const void *y)
{
	const struct ward_port_range *a = x, *b = y;

	return a->lo != b->lo ? a->lo - b->lo : a->hi - b->hi;
}

size_t ward_ports_merge(struct ward_port_range *r, size_t n)
{
	size_t o = 0;

	qsort(r, n, sizeof(*r), cmp_range);
	for (size_t i = 0; i < n; i++) {
		if (o && (uint32_t)r[i].lo <= (uint32_t)r[o - 1].hi + 1) {
			if (r[i].hi > r[o - 1].hi)
				r[o - 1].hi = r[i].hi;
			continue;
		}
		r[o++] = r[i];
	}
	return o;
}

size_t ward_ports_read(const uint8_t *slots,
		       struct ward_port_range out[WARD_NET_PORT_SLOTS])
{
	size_t n = 0;

	for (size_t s = 0; s < WARD_NET_PORT_SLOTS; s++) {
		const uint8_t *v = slots + s * WARD_NET_SLOT_SIZE;
		struct ward_port_range r = {ward_le16(v), ward_le16(v + 2)};

		if (r.lo <= r.hi)
			out[n++] = r;
	}
	return n;
}

static void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

void ward_ports_write(uint8_t *slots, const struct ward_port_range *r, size_t n)
{
	for (size_t s = 0; s < WARD_NET_PORT_SLOTS; s++) {
		struct ward_port_range x =
		    s < n ? r[s] : (struct ward_port_range){1, 0};

		put_le16(slots + s * WARD_NET_SLOT_SIZE, x.lo);
		put_le16(slots + s * WARD_NET_SLOT_SIZE + 2, x.hi);
	}
}
