/* SPDX-License-Identifier: MIT */
/*
 * port_slots.h: the port slots of one protocol in a network map's value
 * (net_layout.h): used slots first, sorted, disjoint and not adjacent, the
 * rest lo 1, hi 0. The compiler writes every value with these
 * (compiler/codegen/net_bpf.c); the launcher adds ward --upstream-proxy's
 * port to one (launcher/core/net.c), by the same merge.
 */
#ifndef WARD_PORT_SLOTS_H
#define WARD_PORT_SLOTS_H

#include "net_layout.h"

#include <stddef.h>
#include <stdint.h>

struct ward_port_range {
	uint16_t lo, hi;
};

/* Sort r[0..n) and merge the ranges that overlap or touch: how many are
 * left, in r. */
size_t ward_ports_merge(struct ward_port_range *r, size_t n);

/* The used slots of slots (one protocol's WARD_NET_PORT_SLOTS) into out:
 * how many. */
size_t ward_ports_read(const uint8_t *slots,
		       struct ward_port_range out[WARD_NET_PORT_SLOTS]);

/* r[0..n) (merged, n <= WARD_NET_PORT_SLOTS) into slots, the rest marked
 * unused. */
void ward_ports_write(uint8_t *slots, const struct ward_port_range *r,
		      size_t n);

#endif
