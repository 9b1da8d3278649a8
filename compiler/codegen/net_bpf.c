/* SPDX-License-Identifier: MIT */
/*
 * net_bpf.c: the eBPF programs of the egress allow-list and the contents of
 * their maps (net_bpf.h; docs/spec.md part 5 has each program's pseudo-code).
 *
 * The programs are written here instruction by instruction with a small
 * assembler (labels resolved at the end), in the style of the kernel's
 * samples: no BPF compiler is needed at build or run time, and the
 * launcher loads the bytes as they are. Every program reads the same three
 * maps: maps[0] the IPv4 trie, maps[1] the IPv6 trie, maps[2] the denial
 * counters.
 */
#include "net_bpf.h"

#include "net_layout.h"
#include "port_slots.h"

#include <errno.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

enum { MAP_ALLOW4 = 0, MAP_ALLOW6 = 1, MAP_DENIED = 2, NMAPS = 3 };

/* ------------------------------------------------------------ assembler */

#define MAX_INSNS  1024
#define MAX_LABELS 64
#define MAX_FIXUPS 512
#define MAX_RELOCS 64

enum { R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10 };

struct pasm {
	struct ward_bpf_insn insn[MAX_INSNS];
	uint32_t n;
	int32_t label[MAX_LABELS]; /* instruction index, -1 unbound */
	uint32_t nlabels;
	struct {
		uint32_t at, label;
	} fix[MAX_FIXUPS];
	uint32_t nfix;
	struct {
		uint32_t at;
		uint16_t map;
	} rel[MAX_RELOCS];
	uint32_t nrel;
	bool overflow; /* a bound above is too small: a bug here */
};

static void put(struct pasm *a, uint8_t code, int dst, int src, int off,
		int32_t imm)
{
	if (a->n >= MAX_INSNS) {
		a->overflow = true;
		return;
	}
	a->insn[a->n++] = (struct ward_bpf_insn){
	    .code = code,
	    .regs = (uint8_t)(dst | src << 4),
	    .off = (int16_t)off,
	    .imm = imm,
	};
}

static uint32_t label(struct pasm *a)
{
	if (a->nlabels >= MAX_LABELS) {
		a->overflow = true;
		return 0;
	}
	a->label[a->nlabels] = -1;
	return a->nlabels++;
}

static void at_label(struct pasm *a, uint32_t l)
{
	a->label[l] = (int32_t)a->n;
}

/* A jump to label l, its offset filled in by finish(). */
static void jump(struct pasm *a, uint8_t code, int dst, int src, int32_t imm,
		 uint32_t l)
{
	if (a->nfix >= MAX_FIXUPS) {
		a->overflow = true;
		return;
	}
	a->fix[a->nfix].at = a->n;
	a->fix[a->nfix++].label = l;
	put(a, code, dst, src, 0, imm);
}

#define JMP_IMM(a, op, dst, imm, l)                                            \
	jump(a, BPF_JMP | (op) | BPF_K, dst, 0, imm, l)
#define JMP_REG(a, op, dst, src, l)                                            \
	jump(a, BPF_JMP | (op) | BPF_X, dst, src, 0, l)
#define JMP32_IMM(a, op, dst, imm, l)                                          \
	jump(a, BPF_JMP32 | (op) | BPF_K, dst, 0, imm, l)
#define GOTO(a, l) jump(a, BPF_JMP | BPF_JA, 0, 0, 0, l)

#define MOV_IMM(a, dst, imm) put(a, BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm)
#define MOV_REG(a, dst, src) put(a, BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0)
#define ADD_IMM(a, dst, imm) put(a, BPF_ALU64 | BPF_ADD | BPF_K, dst, 0, 0, imm)
#define AND_IMM(a, dst, imm) put(a, BPF_ALU64 | BPF_AND | BPF_K, dst, 0, 0, imm)
#define RSH_IMM(a, dst, imm) put(a, BPF_ALU64 | BPF_RSH | BPF_K, dst, 0, 0, imm)
/* Network to host order of the low 16 bits (the upper bits cleared). */
#define BE16(a, dst) put(a, BPF_ALU | BPF_END | BPF_TO_BE, dst, 0, 0, 16)
#define LDX(a, size, dst, src, off)                                            \
	put(a, BPF_LDX | BPF_MEM | (size), dst, src, off, 0)
#define STX(a, size, dst, off, src)                                            \
	put(a, BPF_STX | BPF_MEM | (size), dst, src, off, 0)
#define ST(a, size, dst, off, imm)                                             \
	put(a, BPF_ST | BPF_MEM | (size), dst, 0, off, imm)
#define XADD64(a, dst, off, src)                                               \
	put(a, BPF_STX | BPF_ATOMIC | BPF_DW, dst, src, off, BPF_ADD)
#define CALL(a, fn) put(a, BPF_JMP | BPF_CALL, 0, 0, 0, fn)
#define EXIT(a)	    put(a, BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static void ret(struct pasm *a, int32_t v)
{
	MOV_IMM(a, R0, v);
	EXIT(a);
}

/* dst = the descriptor of maps[map] (written in by the launcher). */
static void ld_map(struct pasm *a, int dst, uint16_t map)
{
	if (a->nrel >= MAX_RELOCS) {
		a->overflow = true;
		return;
	}
	a->rel[a->nrel].at = a->n;
	a->rel[a->nrel++].map = map;
	put(a, BPF_LD | BPF_IMM | BPF_DW, dst, BPF_PSEUDO_MAP_FD, 0, 0);
	put(a, 0, 0, 0, 0, 0);
}

/* Resolve the jumps and hand the program out. */
static int finish(struct pasm *a, struct ward_pool *pool, uint32_t attach,
		  uint32_t type, uint16_t index, struct ward_net_prog *prog,
		  struct ward_vec *relocs, ward_err *err)
{
	struct ward_bpf_insn *insns;

	for (uint32_t i = 0; i < a->nfix && !a->overflow; i++) {
		int32_t to = a->label[a->fix[i].label];
		int32_t off = to - (int32_t)a->fix[i].at - 1;
		if (to < 0 || off < INT16_MIN || off > INT16_MAX)
			a->overflow = true;
		else
			a->insn[a->fix[i].at].off = (int16_t)off;
	}
	if (a->overflow)
		return ward_fail(err, 0,
				 "net: the %s program does not fit the "
				 "assembler's bounds",
				 ward_net_prog_name(type, attach));
	insns = ward_pool_array(pool, a->n, sizeof(*insns));
	memcpy(insns, a->insn, a->n * sizeof(*insns));
	*prog = (struct ward_net_prog){type, attach, insns, a->n};
	for (uint32_t i = 0; i < a->nrel; i++) {
		struct ward_net_reloc *r =
		    ward_vec_push(pool, relocs, sizeof(*r));
		*r =
		    (struct ward_net_reloc){index, a->rel[i].map, a->rel[i].at};
	}
	return 0;
}

/* ------------------------------------------------------------ fragments */

/*
 * The stack frame every program uses (offsets from r10), and the registers
 * the fragments share: r6 the context, r7 the port checked (host order),
 * r8 the protocol, r9 the trie of the address's family. The trie key at
 * FP_KEY says the family too: prefix length 32 for IPv4, 128 for IPv6.
 */
#define FP_KEY	-24  /* trie key: u32 prefix length, address (20 bytes) */
#define FP_DKEY -48  /* denial key (24 bytes) */
#define FP_ONE	-56  /* u64 1: a new counter */
#define FP_L4	-64  /* a TCP header's flags */
#define FP_HDR	-120 /* an IP header and the ports (48 bytes) */

/* Zero the n bytes at off (a multiple of 8). */
static void zero_stack(struct pasm *a, int off, int n)
{
	for (int i = 0; i < n; i += 8)
		ST(a, BPF_DW, R10, off + i, 0);
}

/* The key's prefix length, and r9 = its family's trie. */
static void key_family(struct pasm *a, int family)
{
	ST(a, BPF_W, R10, FP_KEY, family == 4 ? 32 : 128);
	ld_map(a, R9, family == 4 ? MAP_ALLOW4 : MAP_ALLOW6);
}

/* Look the key up in trie r9: go to allow when the port r7 is in one of the
 * ranges of protocol r8, else to miss. Used slots are sorted by lo, so the
 * first slot whose lo is above the port ends the search. */
static void check_trie(struct pasm *a, uint32_t allow, uint32_t miss)
{
	uint32_t scan = label(a);

	MOV_REG(a, R1, R9);
	MOV_REG(a, R2, R10);
	ADD_IMM(a, R2, FP_KEY);
	CALL(a, BPF_FUNC_map_lookup_elem);
	JMP_IMM(a, BPF_JEQ, R0, 0, miss);
	JMP_IMM(a, BPF_JEQ, R8, IPPROTO_TCP, scan);
	JMP_IMM(a, BPF_JNE, R8, IPPROTO_UDP, miss);
	ADD_IMM(a, R0, WARD_NET_UDP_BASE);
	at_label(a, scan);
	for (int i = 0; i < WARD_NET_PORT_SLOTS; i++) {
		int off = i * WARD_NET_SLOT_SIZE;
		LDX(a, BPF_H, R1, R0, off);
		JMP_REG(a, BPF_JLT, R7, R1, miss);
		LDX(a, BPF_H, R1, R0, off + 2);
		JMP_REG(a, BPF_JLE, R7, R1, allow);
	}
	GOTO(a, miss);
}

/* Count one denial of the key at FP_DKEY; a full map counts it in the
 * overflow entry (the zero key, which the launcher inserted). */
static void dkey_count(struct pasm *a)
{
	uint32_t add = label(a), done = label(a);

	ld_map(a, R1, MAP_DENIED);
	MOV_REG(a, R2, R10);
	ADD_IMM(a, R2, FP_DKEY);
	CALL(a, BPF_FUNC_map_lookup_elem);
	JMP_IMM(a, BPF_JNE, R0, 0, add);
	ST(a, BPF_DW, R10, FP_ONE, 1);
	ld_map(a, R1, MAP_DENIED);
	MOV_REG(a, R2, R10);
	ADD_IMM(a, R2, FP_DKEY);
	MOV_REG(a, R3, R10);
	ADD_IMM(a, R3, FP_ONE);
	MOV_IMM(a, R4, BPF_NOEXIST);
	CALL(a, BPF_FUNC_map_update_elem);
	JMP_IMM(a, BPF_JEQ, R0, 0, done);
	/* Another CPU inserted it first, or the map is full. */
	ld_map(a, R1, MAP_DENIED);
	MOV_REG(a, R2, R10);
	ADD_IMM(a, R2, FP_DKEY);
	CALL(a, BPF_FUNC_map_lookup_elem);
	JMP_IMM(a, BPF_JNE, R0, 0, add);
	zero_stack(a, FP_DKEY, WARD_NET_DENIED_KEY_SIZE);
	ld_map(a, R1, MAP_DENIED);
	MOV_REG(a, R2, R10);
	ADD_IMM(a, R2, FP_DKEY);
	CALL(a, BPF_FUNC_map_lookup_elem);
	JMP_IMM(a, BPF_JEQ, R0, 0, done);
	at_label(a, add);
	MOV_IMM(a, R1, 1);
	XADD64(a, R0, 0, R1);
	at_label(a, done);
}

/* Record a denial of the key's address, r7 and r8 at hook, and return 0
 * (deny, drop). */
static void deny(struct pasm *a, int hook)
{
	uint32_t v4 = label(a);

	zero_stack(a, FP_DKEY, WARD_NET_DENIED_KEY_SIZE);
	for (int w = 0; w < 16; w += 4) {
		LDX(a, BPF_W, R1, R10, FP_KEY + 4 + w);
		STX(a, BPF_W, R10, FP_DKEY + WARD_NET_DK_ADDR + w, R1);
	}
	STX(a, BPF_H, R10, FP_DKEY + WARD_NET_DK_PORT, R7);
	LDX(a, BPF_W, R1, R10, FP_KEY);
	MOV_IMM(a, R2, 4);
	JMP_IMM(a, BPF_JEQ, R1, 32, v4);
	MOV_IMM(a, R2, 6);
	at_label(a, v4);
	STX(a, BPF_B, R10, FP_DKEY + WARD_NET_DK_FAMILY, R2);
	STX(a, BPF_B, R10, FP_DKEY + WARD_NET_DK_PROTO, R8);
	ST(a, BPF_B, R10, FP_DKEY + WARD_NET_DK_HOOK, hook);
	dkey_count(a);
	ret(a, 0);
}

/* ------------------------------------------------------------ programs */

#define CTX(field) ((int)offsetof(struct bpf_sock_addr, field))

/* r7 = the context's port, r8 its protocol; a zeroed key. */
static void addr_start(struct pasm *a)
{
	MOV_REG(a, R6, R1);
	zero_stack(a, FP_KEY, 24);
	LDX(a, BPF_W, R7, R6, CTX(user_port));
	BE16(a, R7);
	LDX(a, BPF_W, R8, R6, CTX(protocol));
}

/* The context's IPv6 address into the key. */
static void addr6_key(struct pasm *a)
{
	for (int w = 0; w < 4; w++) {
		LDX(a, BPF_W, R1, R6, CTX(user_ip6[w]));
		STX(a, BPF_W, R10, FP_KEY + 4 + 4 * w, R1);
	}
}

/* connect4, connect6, sendmsg4, sendmsg6: the destination, in its trie;
 * an IPv4-mapped IPv6 destination in the IPv4 trie. */
static void prog_addr(struct pasm *a, int family, int hook)
{
	uint32_t allow = label(a), no = label(a), check = label(a),
		 v6 = label(a);

	addr_start(a);
	if (family == 6) {
		LDX(a, BPF_W, R1, R6, CTX(user_ip6[0]));
		LDX(a, BPF_W, R2, R6, CTX(user_ip6[1]));
		LDX(a, BPF_W, R3, R6, CTX(user_ip6[2]));
		JMP_IMM(a, BPF_JNE, R1, 0, v6);
		JMP_IMM(a, BPF_JNE, R2, 0, v6);
		/* bytes 00 00 ff ff, read as a little-endian u32 */
		JMP32_IMM(a, BPF_JNE, R3, (int32_t)0xffff0000u, v6);
		LDX(a, BPF_W, R1, R6, CTX(user_ip6[3]));
	} else {
		LDX(a, BPF_W, R1, R6, CTX(user_ip4));
	}
	STX(a, BPF_W, R10, FP_KEY + 4, R1);
	key_family(a, 4);
	if (family == 6) {
		GOTO(a, check);
		at_label(a, v6);
		addr6_key(a);
		key_family(a, 6);
	}
	at_label(a, check);
	check_trie(a, allow, no);
	at_label(a, no);
	deny(a, hook);
	at_label(a, allow);
	ret(a, 1);
}

/* bind4, bind6: only to port 0 (the kernel picks a port, as a client's
 * implicit bind does); a chosen port is a server's and is refused. */
static void prog_bind(struct pasm *a, int family)
{
	uint32_t allow = label(a);

	addr_start(a);
	JMP_IMM(a, BPF_JEQ, R7, 0, allow);
	if (family == 4) {
		LDX(a, BPF_W, R1, R6, CTX(user_ip4));
		STX(a, BPF_W, R10, FP_KEY + 4, R1);
	} else {
		addr6_key(a);
	}
	ST(a, BPF_W, R10, FP_KEY, family == 4 ? 32 : 128);
	deny(a, WARD_NET_HOOK_BIND);
	at_label(a, allow);
	ret(a, 1);
}

#undef CTX
#define SK(field) ((int)offsetof(struct bpf_sock, field))

/* create: IPv4 and IPv6 sockets are TCP streams or UDP datagrams (raw,
 * ping, SCTP... are refused, even when made without socket(2), by
 * io_uring). */
static void prog_create(struct pasm *a)
{
	uint32_t allow = label(a), dgram = label(a), no = label(a),
		 fam = label(a);

	MOV_REG(a, R6, R1);
	LDX(a, BPF_W, R7, R6, SK(type));
	LDX(a, BPF_W, R8, R6, SK(protocol));
	LDX(a, BPF_W, R9, R6, SK(family));
	JMP_IMM(a, BPF_JNE, R7, SOCK_STREAM, dgram);
	JMP_IMM(a, BPF_JEQ, R8, IPPROTO_TCP, allow);
	GOTO(a, no);
	at_label(a, dgram);
	JMP_IMM(a, BPF_JNE, R7, SOCK_DGRAM, no);
	JMP_IMM(a, BPF_JEQ, R8, IPPROTO_UDP, allow);
	at_label(a, no);
	zero_stack(a, FP_DKEY, WARD_NET_DENIED_KEY_SIZE);
	MOV_IMM(a, R1, 4);
	JMP_IMM(a, BPF_JNE, R9, AF_INET6, fam);
	MOV_IMM(a, R1, 6);
	at_label(a, fam);
	STX(a, BPF_B, R10, FP_DKEY + WARD_NET_DK_FAMILY, R1);
	STX(a, BPF_B, R10, FP_DKEY + WARD_NET_DK_PROTO, R8);
	ST(a, BPF_B, R10, FP_DKEY + WARD_NET_DK_HOOK, WARD_NET_HOOK_CREATE);
	STX(a, BPF_B, R10, FP_DKEY + WARD_NET_DK_TYPE, R7);
	dkey_count(a);
	ret(a, 0);
	at_label(a, allow);
	ret(a, 1);
}

#undef SK

/* r0 = bpf_skb_load_bytes(ctx, off (r2 when off < 0), r10 + to, len); go
 * to fail if it failed (the packet is shorter). */
static void load_bytes(struct pasm *a, int off, int to, int len, uint32_t fail)
{
	MOV_REG(a, R1, R6);
	if (off >= 0)
		MOV_IMM(a, R2, off);
	MOV_REG(a, R3, R10);
	ADD_IMM(a, R3, to);
	MOV_IMM(a, R4, len);
	CALL(a, BPF_FUNC_skb_load_bytes);
	JMP_IMM(a, BPF_JNE, R0, 0, fail);
}

/*
 * After an IP header of hlen bytes at FP_HDR (the ports loaded with it):
 * r7 = the peer's port, for TCP and UDP; anything else goes to no.
 *
 * Coming in, TCP is decided by its flags alone: a SYN without ACK (a
 * connection opened from outside) goes to syn, with r8 = the family (4, 6)
 * so that syn finds the local port; any other segment belongs to a
 * connection the sandbox opened, whose peer connect() checked (no inbound
 * one is ever accepted), and passes without a lookup.
 */
static void skb_ports(struct pasm *a, bool in, int hlen, uint32_t no,
		      uint32_t syn, uint32_t pass)
{
	uint32_t ports = label(a), done = label(a);

	JMP_IMM(a, BPF_JEQ, R8, IPPROTO_TCP, ports);
	JMP_IMM(a, BPF_JNE, R8, IPPROTO_UDP, no);
	at_label(a, ports);
	LDX(a, BPF_H, R7, R10, FP_HDR + hlen + (in ? 0 : 2));
	BE16(a, R7);
	if (in) {
		JMP_IMM(a, BPF_JNE, R8, IPPROTO_TCP, done);
		load_bytes(a, hlen + 13, FP_L4, 1, no);
		LDX(a, BPF_B, R1, R10, FP_L4);
		AND_IMM(a, R1, 0x12); /* SYN | ACK */
		JMP_IMM(a, BPF_JNE, R1, 0x02, pass);
		MOV_IMM(a, R8, hlen == 20 ? 4 : 6);
		GOTO(a, syn);
	}
	at_label(a, done);
}

/*
 * egress, ingress: every IP packet of the sandbox's sockets. The peer is
 * the destination going out, the source coming in (TCP coming in: see
 * skb_ports; the sandbox serves nothing). One load brings the IP header and
 * the ports (an IPv4 TCP or UDP packet has at least 28 bytes, an IPv6 one
 * 48); coming in, TCP flags take a second.
 */
static void prog_skb(struct pasm *a, bool in)
{
	uint32_t pass = label(a), drop = label(a), no = label(a), v6 = label(a),
		 check = label(a), syn = label(a);
	int hook = in ? WARD_NET_HOOK_RECEIVE : WARD_NET_HOOK_EGRESS;

	MOV_REG(a, R6, R1);
	zero_stack(a, FP_KEY, 24);
	MOV_IMM(a, R7, 0);
	load_bytes(a, 0, FP_HDR, 28, drop);
	LDX(a, BPF_B, R1, R10, FP_HDR);
	RSH_IMM(a, R1, 4);
	JMP_IMM(a, BPF_JEQ, R1, 6, v6);
	JMP_IMM(a, BPF_JNE, R1, 4, drop);

	/* IPv4: no options, no later fragment (going out, the programs see
	 * a datagram before it is fragmented). */
	LDX(a, BPF_B, R8, R10, FP_HDR + 9);
	LDX(a, BPF_W, R1, R10, FP_HDR + (in ? 12 : 16));
	STX(a, BPF_W, R10, FP_KEY + 4, R1);
	key_family(a, 4);
	LDX(a, BPF_B, R1, R10, FP_HDR);
	JMP_IMM(a, BPF_JNE, R1, 0x45, no);
	LDX(a, BPF_H, R1, R10, FP_HDR + 6);
	BE16(a, R1);
	AND_IMM(a, R1, 0x1fff);
	JMP_IMM(a, BPF_JNE, R1, 0, no);
	skb_ports(a, in, 20, no, syn, pass);
	GOTO(a, check);

	/* IPv6: TCP or UDP right after the fixed header (no extension
	 * header). */
	at_label(a, v6);
	load_bytes(a, 0, FP_HDR, 48, drop);
	LDX(a, BPF_B, R8, R10, FP_HDR + 6);
	for (int w = 0; w < 16; w += 4) {
		LDX(a, BPF_W, R1, R10, FP_HDR + (in ? 8 : 24) + w);
		STX(a, BPF_W, R10, FP_KEY + 4 + w, R1);
	}
	key_family(a, 6);
	skb_ports(a, in, 40, no, syn, pass);

	at_label(a, check);
	check_trie(a, pass, no);
	at_label(a, no);
	deny(a, hook);
	if (in) {
		/* The local port the connection was for. */
		at_label(a, syn);
		LDX(a, BPF_H, R7, R10, FP_HDR + 20 + 2);
		put(a, BPF_JMP | BPF_JEQ | BPF_K, R8, 0, 1, 4); /* skip */
		LDX(a, BPF_H, R7, R10, FP_HDR + 40 + 2);
		BE16(a, R7);
		MOV_IMM(a, R8, IPPROTO_TCP);
		deny(a, WARD_NET_HOOK_ACCEPT);
	}
	at_label(a, drop);
	ret(a, 0);
	at_label(a, pass);
	ret(a, 1);
}

/* ------------------------------------------------------------ maps */

struct net {
	uint8_t family, prefix, addr[16];
};

static const uint8_t mapped_prefix[12] = {0, 0, 0, 0, 0,    0,
					  0, 0, 0, 0, 0xff, 0xff};

/* The first n bits of a and b agree. */
static bool same_bits(const uint8_t *a, const uint8_t *b, unsigned n)
{
	unsigned bytes = n / 8, rest = n % 8;

	if (memcmp(a, b, bytes))
		return false;
	return rest == 0 ||
	       !((a[bytes] ^ b[bytes]) & (uint8_t)(0xff << (8 - rest)));
}

/* The network of a rule in family (4 or 6): the rule's own, or for an IPv6
 * rule that covers IPv4-mapped addresses, the IPv4 network it maps. */
static bool rule_net(const struct ward_net_rule *r, uint8_t family,
		     struct net *out)
{
	memset(out, 0, sizeof(*out));
	out->family = family;
	if (r->family == family) {
		out->prefix = r->prefix;
		memcpy(out->addr, r->addr, 16);
		return true;
	}
	if (family != 4)
		return false;
	if (r->prefix >= 96) {
		if (!same_bits(r->addr, mapped_prefix, 96))
			return false;
		out->prefix = (uint8_t)(r->prefix - 96);
		memcpy(out->addr, r->addr + 12, 4);
		return true;
	}
	return same_bits(r->addr, mapped_prefix, r->prefix); /* all IPv4 */
}

static bool contains(const struct net *outer, const struct net *inner)
{
	return outer->prefix <= inner->prefix &&
	       same_bits(outer->addr, inner->addr, outer->prefix);
}

static int cmp_net(const void *x, const void *y)
{
	const struct net *a = x, *b = y;

	if (a->prefix != b->prefix)
		return a->prefix - b->prefix;
	return memcmp(a->addr, b->addr, 16);
}

/* The value of network n: for each protocol, the merged ranges of the
 * rules whose network contains n. */
static int trie_value(const struct ward_net *net, const struct net *n,
		      uint8_t *value, struct ward_port_range *tmp,
		      uint32_t *bad_rule, ward_err *err)
{
	static const uint8_t protos[2] = {IPPROTO_TCP, IPPROTO_UDP};

	for (int p = 0; p < 2; p++) {
		uint8_t *slots = value + (p ? WARD_NET_UDP_BASE : 0);
		size_t k = 0;
		uint32_t first = 0;
		for (uint32_t i = 0; i < net->nrules; i++) {
			const struct ward_net_rule *r = &net->rules[i];
			struct net rn;
			if (r->proto != protos[p] ||
			    !rule_net(r, n->family, &rn) || !contains(&rn, n))
				continue;
			if (!k)
				first = i;
			tmp[k++] =
			    (struct ward_port_range){r->port_lo, r->port_hi};
		}
		k = ward_ports_merge(tmp, k);
		if (k > WARD_NET_PORT_SLOTS) {
			*bad_rule = first;
			return ward_fail(err, 0,
					 "%s to a network here needs %zu "
					 "separate port ranges; the kernel "
					 "program checks at most %d per "
					 "network and protocol",
					 p ? "udp" : "tcp", k,
					 WARD_NET_PORT_SLOTS);
		}
		ward_ports_write(slots, tmp, k);
	}
	return 0;
}

struct entry {
	uint8_t key[WARD_NET_KEY6_SIZE];
	uint8_t value[WARD_NET_VALUE_SIZE];
};

static size_t key_size(uint8_t family)
{
	return family == 4 ? WARD_NET_KEY4_SIZE : WARD_NET_KEY6_SIZE;
}

static int cmp_key4(const void *x, const void *y)
{
	return memcmp(x, y, WARD_NET_KEY4_SIZE);
}

static int cmp_key6(const void *x, const void *y)
{
	return memcmp(x, y, WARD_NET_KEY6_SIZE);
}

static int build_trie(struct ward_pool *pool, const struct ward_net *net,
		      uint8_t family, struct ward_net_map *m,
		      uint32_t *bad_rule, ward_err *err)
{
	_cleanup_free_ struct net *nets =
	    calloc(net->nrules + 1, sizeof(*nets));
	_cleanup_free_ struct ward_port_range *tmp =
	    calloc(net->nrules + 1, sizeof(*tmp));
	_cleanup_free_ struct entry *ents = NULL;
	size_t nn = 0, ks = key_size(family);
	size_t u = 0;
	size_t rec;
	uint8_t *data;

	if (!nets || !tmp)
		return ward_fail(err, ENOMEM, "net: tries");
	for (uint32_t i = 0; i < net->nrules; i++)
		if (rule_net(&net->rules[i], family, &nets[nn]))
			nn++;
	qsort(nets, nn, sizeof(*nets), cmp_net);
	for (size_t i = 0; i < nn; i++)
		if (!u || cmp_net(&nets[u - 1], &nets[i]))
			nets[u++] = nets[i];
	ents = calloc(u + 1, sizeof(*ents));
	if (!ents)
		return ward_fail(err, ENOMEM, "net: tries");
	for (size_t i = 0; i < u; i++) {
		uint32_t plen = nets[i].prefix;
		for (int b = 0; b < 4; b++)
			ents[i].key[b] = (uint8_t)(plen >> (8 * b));
		memcpy(ents[i].key + 4, nets[i].addr, ks - 4);
		if (trie_value(net, &nets[i], ents[i].value, tmp, bad_rule,
			       err) < 0)
			return -1;
	}
	rec = ks + WARD_NET_VALUE_SIZE;
	data = ward_pool_array(pool, u + 1, rec);
	for (size_t i = 0; i < u; i++) {
		memcpy(data + i * rec, ents[i].key, ks);
		memcpy(data + i * rec + ks, ents[i].value, WARD_NET_VALUE_SIZE);
	}
	/* Canonical order: by the key's bytes (the reader checks it). */
	qsort(data, u, rec, family == 4 ? cmp_key4 : cmp_key6);
	*m = (struct ward_net_map){
	    .role = family == 4 ? WARD_NET_MAP_ALLOW4 : WARD_NET_MAP_ALLOW6,
	    .type = BPF_MAP_TYPE_LPM_TRIE,
	    .key_size = (uint32_t)ks,
	    .value_size = WARD_NET_VALUE_SIZE,
	    .max_entries = u ? (uint32_t)u : 1,
	    .flags = BPF_F_NO_PREALLOC,
	    .entries = data,
	    .nentries = (uint32_t)u,
	};
	return 0;
}

/* ------------------------------------------------------------ build */

int ward_net_bpf_build(struct ward_pool *pool, const struct ward_net *net,
		       struct ward_net_bpf *out, uint32_t *bad_rule,
		       ward_err *err)
{
	static const struct {
		uint32_t type, attach;
	} progs[] = {
	    /* In attach type order (the reader checks it). */
	    {BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS},
	    {BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_EGRESS},
	    {BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE},
	    {BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_BIND},
	    {BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_BIND},
	    {BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_CONNECT},
	    {BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_CONNECT},
	    {BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_SENDMSG},
	    {BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP6_SENDMSG},
	};
	struct ward_net_map *maps = ward_pool_array(pool, NMAPS, sizeof(*maps));
	struct ward_net_prog *p =
	    ward_pool_array(pool, ARRAY_LEN(progs), sizeof(*p));
	struct ward_vec relocs = {0};
	struct pasm *a = ward_pool_alloc(pool, sizeof(*a));

	*bad_rule = 0;
	if (build_trie(pool, net, 4, &maps[MAP_ALLOW4], bad_rule, err) < 0 ||
	    build_trie(pool, net, 6, &maps[MAP_ALLOW6], bad_rule, err) < 0)
		return -1;
	/* The denial counters start with the overflow entry alone. */
	maps[MAP_DENIED] = (struct ward_net_map){
	    .role = WARD_NET_MAP_DENIED,
	    .type = BPF_MAP_TYPE_HASH,
	    .key_size = WARD_NET_DENIED_KEY_SIZE,
	    .value_size = WARD_NET_DENIED_VALUE_SIZE,
	    .max_entries = WARD_NET_DENIED_MAX,
	    /* Entries allocated as denials come: nothing to set up. */
	    .flags = BPF_F_NO_PREALLOC,
	    .entries = ward_pool_alloc(pool, WARD_NET_DENIED_KEY_SIZE +
						 WARD_NET_DENIED_VALUE_SIZE),
	    .nentries = 1,
	};
	for (size_t i = 0; i < ARRAY_LEN(progs); i++) {
		memset(a, 0, sizeof(*a));
		switch (progs[i].attach) {
		case BPF_CGROUP_INET_SOCK_CREATE:
			prog_create(a);
			break;
		case BPF_CGROUP_INET4_CONNECT:
			prog_addr(a, 4, WARD_NET_HOOK_CONNECT);
			break;
		case BPF_CGROUP_INET6_CONNECT:
			prog_addr(a, 6, WARD_NET_HOOK_CONNECT);
			break;
		case BPF_CGROUP_UDP4_SENDMSG:
			prog_addr(a, 4, WARD_NET_HOOK_SENDMSG);
			break;
		case BPF_CGROUP_UDP6_SENDMSG:
			prog_addr(a, 6, WARD_NET_HOOK_SENDMSG);
			break;
		case BPF_CGROUP_INET4_BIND:
			prog_bind(a, 4);
			break;
		case BPF_CGROUP_INET6_BIND:
			prog_bind(a, 6);
			break;
		case BPF_CGROUP_INET_EGRESS:
			prog_skb(a, false);
			break;
		case BPF_CGROUP_INET_INGRESS:
			prog_skb(a, true);
			break;
		}
		if (finish(a, pool, progs[i].attach, progs[i].type, (uint16_t)i,
			   &p[i], &relocs, err) < 0)
			return -1;
	}
	*out = (struct ward_net_bpf){
	    .maps = maps,
	    .nmaps = NMAPS,
	    .progs = p,
	    .nprogs = ARRAY_LEN(progs),
	    .relocs = relocs.items,
	    .nrelocs = (uint32_t)relocs.n,
	};
	return 0;
}

/* ------------------------------------------------------------ evaluator */

bool ward_net_bpf_allows(const struct ward_net_bpf *b, uint8_t family,
			 const uint8_t addr[16], uint8_t proto, uint16_t port)
{
	uint8_t a[16] = {0};

	memcpy(a, addr, family == 4 ? 4 : 16);
	if (family == 6 && !memcmp(a, mapped_prefix, 12)) {
		memmove(a, a + 12, 4);
		memset(a + 4, 0, 12);
		family = 4;
	}
	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP)
		return false;
	for (uint32_t m = 0; m < b->nmaps; m++) {
		const struct ward_net_map *map = &b->maps[m];
		size_t ks = map->key_size, rec = ks + map->value_size;
		const uint8_t *slots;
		const uint8_t *best = NULL;
		uint32_t best_len = 0;

		if (map->role !=
		    (family == 4 ? WARD_NET_MAP_ALLOW4 : WARD_NET_MAP_ALLOW6))
			continue;
		for (uint32_t i = 0; i < map->nentries; i++) {
			const uint8_t *e = map->entries + i * rec;
			uint32_t plen = ward_le32(e);
			if (same_bits(e + 4, a, plen) &&
			    (!best || plen >= best_len)) {
				best = e + ks;
				best_len = plen;
			}
		}
		if (!best)
			return false;
		slots = best + (proto == IPPROTO_UDP ? WARD_NET_UDP_BASE : 0);
		for (int s = 0; s < WARD_NET_PORT_SLOTS; s++) {
			uint16_t lo = ward_le16(slots + s * WARD_NET_SLOT_SIZE);
			uint16_t hi =
			    ward_le16(slots + s * WARD_NET_SLOT_SIZE + 2);
			if (port >= lo && port <= hi)
				return true;
		}
		return false;
	}
	return false;
}
