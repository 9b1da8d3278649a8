/* SPDX-License-Identifier: MIT */
/*
 * net_layout.h: the layout of the network maps, shared by the compiler
 * that fills them (compiler/codegen/net_bpf.c), the blob reader that checks
 * them (common/blob_read.c) and the launcher that loads them and reads the
 * denials back (launcher/core/net.c). docs/spec.md part 5 describes them.
 *
 * The target architectures are little-endian, and so are the maps: the
 * programs read the port ranges and write the denial keys in the host's
 * order, which is the blob's.
 */
#ifndef WARD_NET_LAYOUT_H
#define WARD_NET_LAYOUT_H

#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

/* The allow tries (BPF_MAP_TYPE_LPM_TRIE, BPF_F_NO_PREALLOC). Key: u32
 * prefix length, then the network's address (4 or 16 bytes, network byte
 * order, no bit set past the prefix). */
#define WARD_NET_KEY4_SIZE 8
#define WARD_NET_KEY6_SIZE 20
/* Value: the port ranges allowed to every address of the network, for TCP
 * (slots 0..15) then UDP (slots 16..31); a slot is u16 lo, u16 hi. Used
 * slots come first, sorted by lo, disjoint and not adjacent; an unused slot
 * is lo 1, hi 0, which no port matches. */
#define WARD_NET_PORT_SLOTS 16 /* per protocol */
#define WARD_NET_SLOT_SIZE  4
#define WARD_NET_VALUE_SIZE (2 * WARD_NET_PORT_SLOTS * WARD_NET_SLOT_SIZE)
#define WARD_NET_UDP_BASE   (WARD_NET_PORT_SLOTS * WARD_NET_SLOT_SIZE)
#define WARD_NET_TRIE_MAX   65536 /* max_entries bound */

/* The denial counters (BPF_MAP_TYPE_HASH, BPF_F_NO_PREALLOC): key -> u64
 * count. The all-zero
 * key (family 0) is the overflow counter: the launcher inserts it, and the
 * programs count there when the map is full. */
#define WARD_NET_DENIED_KEY_SIZE   24
#define WARD_NET_DENIED_VALUE_SIZE 8
#define WARD_NET_DENIED_MAX	   1025 /* 1024 destinations + overflow */
/* Offsets in a denial key. */
#define WARD_NET_DK_ADDR   0  /* 16 bytes; IPv4 in the first 4 */
#define WARD_NET_DK_PORT   16 /* u16, host order */
#define WARD_NET_DK_FAMILY 18 /* 4 or 6; 0: the overflow counter */
#define WARD_NET_DK_PROTO  19 /* IPPROTO_* */
#define WARD_NET_DK_HOOK   20 /* enum ward_net_hook */
#define WARD_NET_DK_TYPE   21 /* socket type (hook create only) */

/* Where a denial happened; what address and port mean for each. */
enum ward_net_hook {
	WARD_NET_HOOK_CONNECT = 1, /* connect(): the destination */
	WARD_NET_HOOK_SENDMSG = 2, /* sendto()/sendmsg() with an address */
	WARD_NET_HOOK_BIND = 3,	   /* bind() to a port: the local address */
	WARD_NET_HOOK_CREATE = 4,  /* socket(): no address; proto and type */
	WARD_NET_HOOK_EGRESS = 5,  /* a packet out: its destination */
	WARD_NET_HOOK_ACCEPT = 6,  /* a connection in: peer, local port */
	WARD_NET_HOOK_RECEIVE = 7  /* a packet in: its source */
};
#define WARD_NET_HOOK_MAX 7

static inline const char *ward_net_hook_name(unsigned hook)
{
	static const char *const names[] = {
	    [WARD_NET_HOOK_CONNECT] = "connect",
	    [WARD_NET_HOOK_SENDMSG] = "sendmsg",
	    [WARD_NET_HOOK_BIND] = "bind",
	    [WARD_NET_HOOK_CREATE] = "create",
	    [WARD_NET_HOOK_EGRESS] = "egress",
	    [WARD_NET_HOOK_ACCEPT] = "accept",
	    [WARD_NET_HOOK_RECEIVE] = "receive",
	};
	return hook >= 1 && hook <= WARD_NET_HOOK_MAX ? names[hook] : "other";
}

/* The programs a blob may hold, one per attach point: the name of the
 * program for attach type t if prog_type is the one t takes, else NULL. */
static inline const char *ward_net_prog_name(uint32_t prog_type, uint32_t t)
{
	uint32_t want = BPF_PROG_TYPE_CGROUP_SOCK_ADDR;
	const char *name = NULL;

	switch (t) {
	case BPF_CGROUP_INET_SOCK_CREATE:
		want = BPF_PROG_TYPE_CGROUP_SOCK;
		name = "create";
		break;
	case BPF_CGROUP_INET4_CONNECT:
		name = "connect4";
		break;
	case BPF_CGROUP_INET6_CONNECT:
		name = "connect6";
		break;
	case BPF_CGROUP_UDP4_SENDMSG:
		name = "sendmsg4";
		break;
	case BPF_CGROUP_UDP6_SENDMSG:
		name = "sendmsg6";
		break;
	case BPF_CGROUP_INET4_BIND:
		name = "bind4";
		break;
	case BPF_CGROUP_INET6_BIND:
		name = "bind6";
		break;
	case BPF_CGROUP_INET_EGRESS:
		want = BPF_PROG_TYPE_CGROUP_SKB;
		name = "egress";
		break;
	case BPF_CGROUP_INET_INGRESS:
		want = BPF_PROG_TYPE_CGROUP_SKB;
		name = "ingress";
		break;
	}
	return prog_type == want ? name : NULL;
}

static inline const char *ward_net_map_name(unsigned role)
{
	switch (role) {
	case 1:
		return "allow4";
	case 2:
		return "allow6";
	case 3:
		return "denied";
	}
	return "?";
}

#endif
