/* SPDX-License-Identifier: MIT */
/*
 * net.h: the egress allow-list's kernel programs at run time, the second
 * layer behind the socket broker (docs/spec.md part 5).
 *
 * Every run has a network namespace of its own with loopback only; with an
 * allow-list the broker (launcher/unprivileged/broker.c) makes the
 * sockets that leave it, in the namespace ward started in. In root mode on
 * a cgroup2 host, the compiler's eBPF programs are attached to the
 * broker's cgroup directory as well, so that the kernel checks every
 * socket the broker made whatever the sandbox does with it; a policy the
 * broker alone cannot hold (UDP rules, io_uring) requires them. The
 * supervisor creates the maps, fills them, loads the programs with the
 * maps' descriptors written in, and attaches them before the broker makes
 * any socket; after the run it reads the denial counters for the report.
 *
 * Order in the launcher (allow-list mode only):
 *
 *   supervisor   ward_net_check_host()       before any process exists
 *                ward_net_setup(cgroup fd)    the broker's cgroup v2
 *                                             directory exists, the broker
 *                                             is not in it yet
 *                the broker moved in, the sandbox made
 *   supervisor   ward_net_denials()          after the run (the counters
 *                                             live while st is open)
 *                ward_net_teardown()         on every path; then the
 *                                             cgroup's removal frees all
 */
#ifndef WARD_NET_H
#define WARD_NET_H

#include "blob.h"
#include "policy.h"
#include "privilege.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct ward_net_state {
	int cgroup_fd; /* our own descriptor of the run's cgroup */
	int map_fd[WARD_BLOB_NETMAPS];
	int prog_fd[WARD_BLOB_NETPROGS];
	uint32_t attach_type[WARD_BLOB_NETPROGS];
	bool attached[WARD_BLOB_NETPROGS];
	int denied_fd; /* map_fd of the denial counters, or -1 */
};

/* One destination that was refused, and how often. */
struct ward_net_denial {
	uint8_t family; /* 4 or 6; 0: the overflow counter (denials past
			   the map's bound, destination not kept) */
	uint8_t proto;	/* IPPROTO_*: 6 tcp, 17 udp, others (create) */
	uint8_t hook;	/* enum ward_net_hook (net_layout.h) */
	uint8_t type;	/* socket type, for hook create */
	uint16_t port;	/* see net_layout.h for what it is per hook */
	uint8_t addr[16];
	uint64_t count;
};

/* Every descriptor -1: the state before setup, safe to tear down. */
void ward_net_state_init(struct ward_net_state *st);

/*
 * Can this host and this mode enforce net? Nothing to do for `net none`.
 * An allow-list needs a blob made for the broker (WARD_REQ_NET_BROKER, its
 * programs in it); one that requires the programs too (WARD_REQ_NET_BPF)
 * needs root (cgroup BPF needs CAP_BPF and CAP_NET_ADMIN in the initial
 * user namespace): rootless mode is refused, never downgraded.
 */
int ward_net_check_host(const struct ward_net *net, uint32_t requirements,
			enum ward_mode mode, ward_err *err);

/* With names through ward --upstream-proxy the DNS stub answers allowed
 * names with addresses of its own from 198.18.0.0/15 (dns.c): a literal
 * rule reaching into that network (or its IPv4-mapped form) would take
 * them for its own destinations. 0, or -1 with err naming the proxy
 * (proxy: its ADDR:PORT, NULL without one) when one does. */
int ward_net_check_proxy(const struct ward_net *net, const char *proxy,
			 ward_err *err);

/* Create and fill the maps, load the programs and attach them to
 * cgroup_fd (a cgroup v2 directory, still empty). On failure nothing is
 * left attached or open. */
int ward_net_setup(const struct ward_net *net, int cgroup_fd,
		   struct ward_net_state *st, ward_err *err);

/* One more TCP destination the broker's sockets may reach: ward
 * --upstream-proxy's ADDR:PORT, a host setting (docs/spec.md 5.11). Its
 * address (4 or 16 bytes of addr, network order) gets an entry of its own
 * in the trie of its family whose ports are those of the entry that held
 * it before, and PORT; nothing else changes. */
struct ward_net_also {
	uint8_t family; /* 4 or 6 */
	uint8_t addr[16];
	uint16_t port;
};
int ward_net_setup_also(const struct ward_net *net, int cgroup_fd,
			const struct ward_net_also *also,
			struct ward_net_state *st, ward_err *err);

/* The proxy's address (upstream.h: ward_proxy_addr) as the programs look
 * it up: an IPv4-mapped IPv6 address as IPv4 (docs/spec.md 5.1). */
void ward_net_also_of(const struct sockaddr_storage *sa,
		      struct ward_net_also *x);

/* The denials counted so far, sorted (hook, family, address, port,
 * protocol), the overflow counter last if it counted: a malloc'd array in
 * *out (NULL when none), its length in *n. */
int ward_net_denials(const struct ward_net_state *st,
		     struct ward_net_denial **out, size_t *n, ward_err *err);

/* "connect tcp 10.0.0.1:443", "create udp type 3", "overflow"; returns
 * buf. */
const char *ward_net_denial_str(const struct ward_net_denial *d, char *buf,
				size_t len);

/* Close every descriptor. Idempotent. The programs stay attached until the
 * cgroup is removed (the kernel then releases them, off the supervisor's
 * path): a process that outlived the run is still filtered. */
void ward_net_teardown(struct ward_net_state *st);

#endif
