/* SPDX-License-Identifier: MIT */
/*
 * sockaddr.h: the one thing of the sandbox's the broker parses, a socket
 * address, and the allow-list's verdict on it (docs/spec.md 5.6).
 *
 * The address is copied out of the task's memory once, with the length the
 * call gave (as the kernel copies it, at most sizeof(struct
 * sockaddr_storage)); the broker decides on that copy and passes the same
 * bytes to the kernel when it connects or sends, so what is checked is
 * what is used, whatever the task writes meanwhile.
 */
#ifndef WARD_SOCKADDR_H
#define WARD_SOCKADDR_H

#include "policy.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

struct ward_addr {
	struct sockaddr_storage raw; /* the copy, as given */
	socklen_t len;		     /* its length, as given */
	int sa_family;		     /* raw's first field; -1: too short */
	/* An IPv4 or IPv6 destination (an IPv4-mapped IPv6 address is its
	 * IPv4 address): family 4 or 6, else 0. */
	uint8_t family;
	uint8_t addr[16]; /* network order; IPv4 in the first 4 bytes */
	uint16_t port;	  /* host order */
};

/* Copy the address of a call (pointer ptr, length len, in task tid) and
 * decode it. Returns 0, or the errno the call would fail with: EINVAL for
 * a length the kernel refuses, EFAULT for memory the task does not
 * have. */
int ward_addr_copy(pid_t tid, uint64_t ptr, uint64_t len, struct ward_addr *a);

/* Decode a->raw / a->len (ward_addr_copy does it; the tests call it). */
void ward_addr_decode(struct ward_addr *a);

/* The sandbox's own: loopback (127.0.0.0/8, ::1) or unspecified (0.0.0.0,
 * ::, which the kernel takes for the local host). */
bool ward_addr_local(const struct ward_addr *a);

/* Does the allow-list allow proto (IPPROTO_TCP, IPPROTO_UDP) to this
 * destination? An IPv4 destination matches an IPv4 rule or an IPv6 rule
 * of its mapped address (::ffff:a.b.c.d), as the kernel programs do. */
bool ward_addr_allowed(const struct ward_net *net, const struct ward_addr *a,
		       uint8_t proto);

#endif
