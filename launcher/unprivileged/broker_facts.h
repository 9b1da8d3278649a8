/* SPDX-License-Identifier: MIT */
/*
 * broker_facts.h: what the broker (broker.c, docs/spec.md 4.6 and part 5)
 * saw, bounded, for the report: a flood of calls counts in the entries it
 * has, and one entry of every kind it could not keep counts in *_dropped.
 *
 * Only the unprivileged side reads these: the broker fills them and sends
 * them after its WARD_B_RECORDS header (facts.h), the supervisor carries
 * them to the courier as bytes (struct ward_broker_carried), the courier
 * takes them back. They travel packed, the entries in use and no more
 * (ward_broker_facts_iov): after most runs a few hundred bytes, not the
 * struct's 120 KiB, each page of which costs a fault where it is first
 * written.
 */
#ifndef WARD_BROKER_FACTS_H
#define WARD_BROKER_FACTS_H

#include "facts.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>
#include <time.h>

/* A syscall the broker refused and recorded (an `errno E log` rule, a call
 * of a group marked `log`). Calls of one syscall answered with one errno
 * are one entry; the arguments are those of the first. */
#define WARD_RECORD_SYSCALLS 64
struct ward_syscall_record {
	int32_t nr;
	uint32_t arch;
	uint32_t errno_nr; /* the answer */
	uint32_t reserved;
	uint64_t count;
	struct timespec first; /* CLOCK_REALTIME */
	uint64_t args[6];      /* of the first call, as the kernel saw them */
};

enum ward_net_call {
	WARD_NC_SOCKET = 1,  /* socket() refused (its family, type) */
	WARD_NC_CONNECT = 2, /* connect() */
	WARD_NC_SENDTO = 3,  /* sendto() with an address */
	WARD_NC_OTHER = 4    /* a refused option or flag (nr says which
				syscall) */
};

enum ward_net_verdict {
	WARD_NV_ALLOWED = 1, /* the allow-list allows it: the broker made it */
	WARD_NV_REFUSED = 2, /* refused: the allow-list, the family, a flag */
	WARD_NV_LOCAL = 3    /* the sandbox's own: its loopback, a unix
				socket (not the allow-list's to decide) */
};

/* A network attempt the broker saw. Attempts alike (call, verdict,
 * destination, answer) are one entry. */
#define WARD_RECORD_NET 128
struct ward_net_record {
	uint8_t call;	 /* enum ward_net_call */
	uint8_t verdict; /* enum ward_net_verdict */
	uint8_t family;	 /* 4 or 6 (an IPv4-mapped address is 4); 0: none */
	uint8_t proto;	 /* IPPROTO_TCP, IPPROTO_UDP; 0: none */
	uint16_t port;
	uint16_t domain; /* the socket's address family (AF_*) */
	uint32_t type;	 /* socket(): its type argument */
	int32_t nr;	 /* WARD_NC_OTHER: the syscall */
	int32_t err;	 /* the answer's errno; 0: it succeeded */
	/* Relayed through ward --upstream-proxy: 1, or the status of the
	 * proxy's reply once it came (100..999); 0: not through a proxy. */
	uint16_t proxy;
	uint16_t reserved;
	uint8_t addr[16]; /* network order; IPv4 in the first 4 bytes */
	char name[256];	  /* allowed by name: the name asked, else "" */
	/* Relayed (a TLS port of a name rule, docs/spec.md 5.11): one record
	 * a connection, never merged. */
	uint8_t relay;		 /* enum ward_relay_end; 0: not relayed */
	char sni[256];		 /* the ClientHello's server name, or "" */
	uint64_t sent, received; /* bytes to the server, from it */
	uint64_t count;
	struct timespec first; /* CLOCK_REALTIME */
};

/* How a relayed connection ended. */
enum ward_relay_end {
	WARD_RELAY_CLOSED = 1,	/* both sides closed it */
	WARD_RELAY_NO_SNI = 2,	/* refused: a ClientHello without a name */
	WARD_RELAY_ECH = 3,	/* refused: an encrypted ClientHello */
	WARD_RELAY_INVALID = 4, /* refused: not a ClientHello */
	WARD_RELAY_OTHER = 5,	/* refused: a name the address's is not */
	WARD_RELAY_TIMEOUT = 6, /* refused: no whole ClientHello in time */
	WARD_RELAY_FAILED = 7,	/* the server's connect or a read failed */
	WARD_RELAY_RUN_END = 8, /* still open when the sandbox ended */
	/* Through ward --upstream-proxy (http_proxy.h): */
	WARD_RELAY_PROXY_REFUSED = 9,  /* it answered other than 2xx */
	WARD_RELAY_PROXY_INVALID = 10, /* its reply is not an HTTP head */
	WARD_RELAY_PROXY_TIMEOUT = 11, /* no whole reply in time */
};

/* A DNS query the stub answered (docs/spec.md 5.11), keyed by (name,
 * type, verdict): the addresses are those of its first answer. */
#define WARD_RECORD_DNS 64
#define WARD_DNS_ADDRS	8
enum ward_dns_verdict {
	WARD_DNS_ANSWERED = 1, /* an allowed name: the upstream's answer */
	WARD_DNS_REFUSED = 2,  /* not an allowed name: no address */
	WARD_DNS_FAILED = 3,   /* allowed, but the upstream did not answer */
	WARD_DNS_MALFORMED = 4 /* not a query the stub reads */
};

struct ward_dns_record {
	char name[256]; /* as asked, lower case; "" for a malformed one */
	uint16_t qtype;
	uint8_t verdict;  /* enum ward_dns_verdict */
	uint8_t naddrs;	  /* addresses passed back (and reachable) */
	uint8_t nblocked; /* addresses of the answer never made reachable */
	uint8_t family[WARD_DNS_ADDRS];
	uint8_t addr[WARD_DNS_ADDRS][16];
	uint8_t blocked[WARD_DNS_ADDRS][17]; /* family, then the address */
	uint32_t ttl;	   /* the learned addresses' time, after the floor and
			      ceiling */
	uint8_t synthetic; /* ward --upstream-proxy: the stub's own address
			      for the name, nobody asked (dns.h) */
	uint64_t count;
	struct timespec first; /* CLOCK_REALTIME */
};

struct ward_broker_facts {
	bool ran;	    /* the broker had the run's listener */
	bool records;	    /* these records are the broker's own */
	uint64_t notified;  /* notifications answered */
	uint64_t throttled; /* times it held back a flood */
	uint32_t nsys;
	uint64_t sys_dropped; /* calls whose syscall found no free entry */
	struct ward_syscall_record sys[WARD_RECORD_SYSCALLS];
	uint32_t nnet;
	uint64_t net_dropped; /* attempts that found no free entry */
	struct ward_net_record net[WARD_RECORD_NET];
	uint32_t ndns;
	uint64_t dns_dropped; /* queries that found no free entry */
	struct ward_dns_record dns[WARD_RECORD_DNS];
	char error[WARD_ERR_MSG_MAX]; /* why it stopped early, or "" */
};

_Static_assert(sizeof(struct ward_broker_facts) <= WARD_BROKER_RECORDS_MAX,
	       "the broker's records must fit the supervisor's carrier "
	       "(facts.h, WARD_BROKER_RECORDS_MAX)");

/* The records packed, without a copy: the struct's fields in order, each
 * array cut to its count. Returns how many of iov it filled. */
#define WARD_BROKER_FACTS_IOV 7
int ward_broker_facts_iov(const struct ward_broker_facts *f,
			  struct iovec iov[WARD_BROKER_FACTS_IOV]);

/* The courier's copy of the records the supervisor carried: false, with
 * records false and every count 0, when none came or they are not packed
 * as ward_broker_facts_iov packs them. Entries past a count are not
 * touched: f is static, and only the counts say what is there. */
bool ward_broker_facts_take(const struct ward_broker_carried *c,
			    struct ward_broker_facts *f);

#endif
