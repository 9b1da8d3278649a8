/* SPDX-License-Identifier: MIT */
/*
 * bpf_info.c: check, list and measure a seccomp BPF program.
 *
 * The statistics come from a path exploration. For one syscall number the
 * program is run on an abstract machine where nr and arch are known and the
 * arguments and the instruction pointer are not; a comparison of an unknown
 * value takes both branches. Classic BPF only jumps forward, so the program
 * is a DAG: the reachable (instruction, machine state) pairs are collected in
 * instruction order, then the results (longest path, possible outcomes,
 * whether an argument is read) are folded back from the returns. Identical
 * states at one instruction are merged, which keeps the work linear for the
 * trees libseccomp emits.
 */
#include "bpf_info.h"

#include "policy.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define SECCOMP_DATA_SIZE ((uint32_t)sizeof(struct seccomp_data))
#define NWORDS		  (SECCOMP_DATA_SIZE / 4)
#define X32_SYSCALL_BIT	  0x40000000u

/* ------------------------------------------------------------ checking */

/* The opcodes seccomp_check_filter() lets through. BPF_LD|BPF_W|BPF_LEN
 * is rewritten by the kernel into a load of sizeof(struct seccomp_data). */
static bool opcode_allowed(uint16_t code)
{
	switch (code) {
	case BPF_LD | BPF_W | BPF_ABS:
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_LD | BPF_IMM:
	case BPF_LDX | BPF_IMM:
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
	case BPF_RET | BPF_K:
	case BPF_RET | BPF_A:
	case BPF_ALU | BPF_ADD | BPF_K:
	case BPF_ALU | BPF_ADD | BPF_X:
	case BPF_ALU | BPF_SUB | BPF_K:
	case BPF_ALU | BPF_SUB | BPF_X:
	case BPF_ALU | BPF_MUL | BPF_K:
	case BPF_ALU | BPF_MUL | BPF_X:
	case BPF_ALU | BPF_DIV | BPF_K:
	case BPF_ALU | BPF_DIV | BPF_X:
	case BPF_ALU | BPF_AND | BPF_K:
	case BPF_ALU | BPF_AND | BPF_X:
	case BPF_ALU | BPF_OR | BPF_K:
	case BPF_ALU | BPF_OR | BPF_X:
	case BPF_ALU | BPF_XOR | BPF_K:
	case BPF_ALU | BPF_XOR | BPF_X:
	case BPF_ALU | BPF_LSH | BPF_K:
	case BPF_ALU | BPF_LSH | BPF_X:
	case BPF_ALU | BPF_RSH | BPF_K:
	case BPF_ALU | BPF_RSH | BPF_X:
	case BPF_ALU | BPF_NEG:
	case BPF_MISC | BPF_TAX:
	case BPF_MISC | BPF_TXA:
	case BPF_JMP | BPF_JA:
	case BPF_JMP | BPF_JEQ | BPF_K:
	case BPF_JMP | BPF_JEQ | BPF_X:
	case BPF_JMP | BPF_JGT | BPF_K:
	case BPF_JMP | BPF_JGT | BPF_X:
	case BPF_JMP | BPF_JGE | BPF_K:
	case BPF_JMP | BPF_JGE | BPF_X:
	case BPF_JMP | BPF_JSET | BPF_K:
	case BPF_JMP | BPF_JSET | BPF_X:
		return true;
	default:
		return false;
	}
}

static bool is_cond_jump(uint16_t code)
{
	return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != BPF_JA;
}

int ward_bpf_check(const struct sock_filter *p, uint32_t n, ward_err *err)
{
	if (n == 0 || n > BPF_MAXINSNS)
		return ward_fail(
		    err, 0, "bpf: %u instructions (the kernel takes 1..%u)", n,
		    BPF_MAXINSNS);
	_cleanup_free_ uint16_t *written = malloc(n * sizeof(*written));
	if (!written)
		return ward_fail(err, ENOMEM, "bpf: check");
	/* written[pc]: scratch slots written on every path reaching pc. */
	for (uint32_t pc = 0; pc < n; pc++)
		written[pc] = 0xffff;
	written[0] = 0;

	for (uint32_t pc = 0; pc < n; pc++) {
		const struct sock_filter *i = &p[pc];
		uint16_t code = i->code;
		uint32_t left = n - pc - 1; /* instructions after this one */
		uint16_t out = written[pc];

		if (!opcode_allowed(code))
			return ward_fail(err, 0,
					 "bpf: insn %u: opcode 0x%04x is not "
					 "allowed in seccomp",
					 pc, code);
		switch (code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (i->k % 4 || i->k > SECCOMP_DATA_SIZE - 4)
				return ward_fail(
				    err, 0,
				    "bpf: insn %u: load at offset "
				    "%u outside struct seccomp_data",
				    pc, i->k);
			break;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
		case BPF_ST:
		case BPF_STX:
			if (i->k >= BPF_MEMWORDS)
				return ward_fail(
				    err, 0,
				    "bpf: insn %u: scratch slot %u "
				    "(max %u)",
				    pc, i->k, BPF_MEMWORDS - 1);
			if (BPF_CLASS(code) == BPF_ST ||
			    BPF_CLASS(code) == BPF_STX)
				out |= (uint16_t)(1u << i->k);
			else if (!(written[pc] & (1u << i->k)))
				return ward_fail(err, 0,
						 "bpf: insn %u: reads scratch "
						 "slot %u before any write",
						 pc, i->k);
			break;
		case BPF_ALU | BPF_DIV | BPF_K:
			if (i->k == 0)
				return ward_fail(
				    err, 0, "bpf: insn %u: division by 0", pc);
			break;
		case BPF_ALU | BPF_LSH | BPF_K:
		case BPF_ALU | BPF_RSH | BPF_K:
			if (i->k >= 32)
				return ward_fail(err, 0,
						 "bpf: insn %u: shift by %u",
						 pc, i->k);
			break;
		case BPF_JMP | BPF_JA:
			if (i->k >= left)
				return ward_fail(err, 0,
						 "bpf: insn %u: jump past the "
						 "end",
						 pc);
			written[pc + 1 + i->k] &= out;
			continue;
		default:
			break;
		}
		if (is_cond_jump(code)) {
			if (i->jt >= left || i->jf >= left)
				return ward_fail(err, 0,
						 "bpf: insn %u: jump past the "
						 "end",
						 pc);
			written[pc + 1 + i->jt] &= out;
			written[pc + 1 + i->jf] &= out;
		} else if (BPF_CLASS(code) != BPF_RET && pc + 1 < n) {
			written[pc + 1] &= out;
		}
	}
	if (BPF_CLASS(p[n - 1].code) != BPF_RET)
		return ward_fail(err, 0,
				 "bpf: the last instruction is not a return");
	return 0;
}

/* ------------------------------------------------------------ listing */

const char *ward_bpf_action_name(uint32_t ret, char *buf, size_t len)
{
	uint32_t data = ret & SECCOMP_RET_DATA;

	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ALLOW:
		snprintf(buf, len, "ALLOW");
		break;
	case SECCOMP_RET_LOG:
		snprintf(buf, len, "LOG");
		break;
	case SECCOMP_RET_ERRNO:
		snprintf(buf, len, "ERRNO(%u)", data);
		break;
	case SECCOMP_RET_TRAP:
		if (data)
			snprintf(buf, len, "TRAP(%u)", data);
		else
			snprintf(buf, len, "TRAP");
		break;
	case SECCOMP_RET_KILL_PROCESS:
		snprintf(buf, len, "KILL_PROCESS");
		break;
	case SECCOMP_RET_KILL_THREAD:
		snprintf(buf, len, "KILL_THREAD");
		break;
	case SECCOMP_RET_TRACE:
		snprintf(buf, len, "TRACE(%u)", data);
		break;
	case SECCOMP_RET_USER_NOTIF: {
		/* What the broker makes of it (policy.h, enum ward_notify). */
		static const char *const what[] = {
		    [WARD_NOTIFY_KILL] = "kill",
		    [WARD_NOTIFY_ERRNO] = "errno",
		    [WARD_NOTIFY_NET_ERRNO] = "errno, net",
		    [WARD_NOTIFY_CONNECT] = "connect",
		    [WARD_NOTIFY_SENDTO] = "sendto",
		};
		uint32_t kind = WARD_NOTIFY_KIND(data);

		if (!data)
			snprintf(buf, len, "USER_NOTIF");
		else if (kind > WARD_NOTIFY_MAX)
			snprintf(buf, len, "USER_NOTIF(0x%04x)", data);
		else if (kind == WARD_NOTIFY_ERRNO ||
			 kind == WARD_NOTIFY_NET_ERRNO)
			snprintf(buf, len, "USER_NOTIF(%s %u)", what[kind],
				 WARD_NOTIFY_ERRNO_OF(data));
		else
			snprintf(buf, len, "USER_NOTIF(%s)", what[kind]);
		break;
	}
	default:
		snprintf(buf, len, "0x%08x", ret);
		break;
	}
	return buf;
}

/* The seccomp_data field at byte offset k (little-endian word order: the
 * low half of a 64-bit field comes first). */
static const char *field_name(uint32_t k, char *buf, size_t len)
{
	if (k == offsetof(struct seccomp_data, nr))
		snprintf(buf, len, "nr");
	else if (k == offsetof(struct seccomp_data, arch))
		snprintf(buf, len, "arch");
	else if (k == offsetof(struct seccomp_data, instruction_pointer))
		snprintf(buf, len, "instruction_pointer lo");
	else if (k == offsetof(struct seccomp_data, instruction_pointer) + 4)
		snprintf(buf, len, "instruction_pointer hi");
	else if (k >= offsetof(struct seccomp_data, args) &&
		 k < SECCOMP_DATA_SIZE && k % 4 == 0) {
		uint32_t off = k - offsetof(struct seccomp_data, args);
		snprintf(buf, len, "args[%u] %s", off / 8,
			 off % 8 ? "hi" : "lo");
	} else
		snprintf(buf, len, "outside seccomp_data");
	return buf;
}

static const char *alu_name(uint16_t op)
{
	switch (op) {
	case BPF_ADD:
		return "add";
	case BPF_SUB:
		return "sub";
	case BPF_MUL:
		return "mul";
	case BPF_DIV:
		return "div";
	case BPF_MOD:
		return "mod";
	case BPF_AND:
		return "and";
	case BPF_OR:
		return "or";
	case BPF_XOR:
		return "xor";
	case BPF_LSH:
		return "lsh";
	case BPF_RSH:
		return "rsh";
	default:
		return NULL;
	}
}

static const char *jmp_name(uint16_t op)
{
	switch (op) {
	case BPF_JEQ:
		return "jeq";
	case BPF_JGT:
		return "jgt";
	case BPF_JGE:
		return "jge";
	case BPF_JSET:
		return "jset";
	default:
		return NULL;
	}
}

/* One instruction's text (without the address) into buf. */
static void insn_text(const struct sock_filter *p, uint32_t pc, char *buf,
		      size_t len)
{
	const struct sock_filter *i = &p[pc];
	uint16_t code = i->code;
	char name[48], head[24];
	const char *op;

	switch (code) {
	case BPF_LD | BPF_W | BPF_ABS:
		snprintf(head, sizeof(head), "ld [%u]", i->k);
		snprintf(buf, len, "%-11s ; %s", head,
			 field_name(i->k, name, sizeof(name)));
		return;
	case BPF_LD | BPF_W | BPF_LEN:
		snprintf(buf, len, "ld len");
		return;
	case BPF_LDX | BPF_W | BPF_LEN:
		snprintf(buf, len, "ldx len");
		return;
	case BPF_LD | BPF_IMM:
		snprintf(buf, len, "ld #0x%x", i->k);
		return;
	case BPF_LDX | BPF_IMM:
		snprintf(buf, len, "ldx #0x%x", i->k);
		return;
	case BPF_LD | BPF_MEM:
		snprintf(buf, len, "ld M[%u]", i->k);
		return;
	case BPF_LDX | BPF_MEM:
		snprintf(buf, len, "ldx M[%u]", i->k);
		return;
	case BPF_ST:
		snprintf(buf, len, "st M[%u]", i->k);
		return;
	case BPF_STX:
		snprintf(buf, len, "stx M[%u]", i->k);
		return;
	case BPF_RET | BPF_K:
		snprintf(buf, len, "ret %s",
			 ward_bpf_action_name(i->k, name, sizeof(name)));
		return;
	case BPF_RET | BPF_A:
		snprintf(buf, len, "ret a");
		return;
	case BPF_ALU | BPF_NEG:
		snprintf(buf, len, "neg");
		return;
	case BPF_MISC | BPF_TAX:
		snprintf(buf, len, "tax");
		return;
	case BPF_MISC | BPF_TXA:
		snprintf(buf, len, "txa");
		return;
	case BPF_JMP | BPF_JA:
		snprintf(buf, len, "ja %04u", pc + 1 + i->k);
		return;
	default:
		break;
	}
	if (BPF_CLASS(code) == BPF_ALU && (op = alu_name(BPF_OP(code)))) {
		if (BPF_SRC(code) == BPF_X)
			snprintf(buf, len, "%s x", op);
		else
			snprintf(buf, len, "%s #0x%x", op, i->k);
		return;
	}
	if (BPF_CLASS(code) == BPF_JMP && (op = jmp_name(BPF_OP(code)))) {
		if (BPF_SRC(code) == BPF_X)
			snprintf(buf, len, "%s x, %04u, %04u", op,
				 pc + 1 + i->jt, pc + 1 + i->jf);
		else
			snprintf(buf, len, "%s #0x%x, %04u, %04u", op, i->k,
				 pc + 1 + i->jt, pc + 1 + i->jf);
		return;
	}
	snprintf(buf, len, ".insn 0x%04x, %u, %u, 0x%x ; not seccomp BPF", code,
		 i->jt, i->jf, i->k);
}

int ward_bpf_disasm(const struct sock_filter *p, uint32_t n, FILE *out)
{
	char text[128];

	for (uint32_t pc = 0; pc < n; pc++) {
		insn_text(p, pc, text, sizeof(text));
		if (fprintf(out, "%04u: %s\n", pc, text) < 0)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ paths */

/* An abstract 32-bit value: known, unknown, or the (unknown) value of one
 * word of seccomp_data, so that a jeq can learn it. */
enum { V_UNKNOWN = 0, V_KNOWN, V_WORD };

struct aval {
	uint32_t kind;
	uint32_t val; /* V_KNOWN: the value; V_WORD: the word index */
};

/* No padding anywhere: states are compared with memcmp. */
struct astate {
	struct aval a, x;
	struct aval mem[BPF_MEMWORDS];
	uint32_t known;	       /* bit w: word w of seccomp_data is known */
	uint32_t word[NWORDS]; /* its value; 0 while unknown */
};

#define MAX_OUTCOMES 16
#define MAX_NODES    (1u << 16)

struct pnode {
	struct astate st;
	int32_t next;	 /* the next node at the same instruction */
	int32_t succ[2]; /* -1: none */
	bool terminal;
	uint32_t ret; /* terminal: the returned value */
	bool ret_any; /* terminal: "ret a" with an unknown a */
	/* folded back from the returns */
	bool loads;    /* this instruction or a later one reads args/IP */
	bool any;      /* an unknown value may be returned */
	bool overflow; /* more than MAX_OUTCOMES distinct results */
	uint32_t longest, longest_allow;
	uint32_t nout;
	uint32_t out[MAX_OUTCOMES];
};

struct explorer {
	const struct sock_filter *p;
	uint32_t n;
	uint32_t nr, arch;
	bool concrete; /* arguments and IP are zero rather than unknown */
	struct pnode *nodes;
	uint32_t nnodes, cap;
	int32_t *head; /* per instruction: its first node, -1: none */
};

static struct aval known(uint32_t v)
{
	return (struct aval){V_KNOWN, v};
}

/* The node for (pc, st), reusing an identical one. -1: too many, or out
 * of memory. */
static int32_t node_at(struct explorer *ex, uint32_t pc,
		       const struct astate *st)
{
	int32_t id;
	struct pnode *nd;

	for (int32_t i = ex->head[pc]; i >= 0; i = ex->nodes[i].next)
		if (memcmp(&ex->nodes[i].st, st, sizeof(*st)) == 0)
			return i;
	if (ex->nnodes == ex->cap) {
		uint32_t cap;
		struct pnode *nodes;

		if (ex->cap == MAX_NODES)
			return -1;
		cap = ex->cap ? ex->cap * 2 : 256;
		nodes = realloc(ex->nodes, cap * sizeof(*nodes));
		if (!nodes)
			return -1;
		ex->nodes = nodes;
		ex->cap = cap;
	}
	id = (int32_t)ex->nnodes++;
	nd = &ex->nodes[id];
	memset(nd, 0, sizeof(*nd));
	nd->st = *st;
	nd->succ[0] = nd->succ[1] = -1;
	nd->next = ex->head[pc];
	ex->head[pc] = id;
	return id;
}

static bool is_arg_word(uint32_t k)
{
	return k >= offsetof(struct seccomp_data, instruction_pointer);
}

/* A after a load of word k. */
static struct aval load(struct explorer *ex, struct astate *st, uint32_t k)
{
	uint32_t w;

	if (k == offsetof(struct seccomp_data, nr))
		return known(ex->nr);
	if (k == offsetof(struct seccomp_data, arch))
		return known(ex->arch);
	if (ex->concrete)
		return known(0);
	w = k / 4;
	if (st->known & (1u << w))
		return known(st->word[w]);
	return (struct aval){V_WORD, w};
}

/* Record in st that word w equals v, everywhere it is held. */
static void learn(struct astate *st, uint32_t w, uint32_t v)
{
	struct aval *regs[2 + BPF_MEMWORDS];
	regs[0] = &st->a;
	regs[1] = &st->x;
	for (uint32_t m = 0; m < BPF_MEMWORDS; m++)
		regs[2 + m] = &st->mem[m];
	for (size_t r = 0; r < ARRAY_LEN(regs); r++)
		if (regs[r]->kind == V_WORD && regs[r]->val == w)
			*regs[r] = known(v);
	st->known |= 1u << w;
	st->word[w] = v;
}

static uint32_t alu(uint16_t op, uint32_t a, uint32_t s)
{
	switch (op) {
	case BPF_ADD:
		return a + s;
	case BPF_SUB:
		return a - s;
	case BPF_MUL:
		return a * s;
	case BPF_DIV:
		return a / s; /* s != 0: checked by the caller */
	case BPF_AND:
		return a & s;
	case BPF_OR:
		return a | s;
	case BPF_XOR:
		return a ^ s;
	case BPF_LSH:
		return s >= 32 ? 0 : a << s;
	case BPF_RSH:
		return s >= 32 ? 0 : a >> s;
	default:
		return 0;
	}
}

/* Whether a jump is taken: 1 yes, 0 no, -1 both are possible. */
static int jump_taken(uint16_t op, struct aval a, struct aval s)
{
	if (a.kind != V_KNOWN || s.kind != V_KNOWN)
		return -1;
	switch (op) {
	case BPF_JEQ:
		return a.val == s.val;
	case BPF_JGT:
		return a.val > s.val;
	case BPF_JGE:
		return a.val >= s.val;
	default: /* BPF_JSET */
		return (a.val & s.val) != 0;
	}
}

/* Execute the instruction of node idx and create its successors. */
static int step(struct explorer *ex, uint32_t pc, int32_t idx)
{
	const struct sock_filter *i = &ex->p[pc];
	uint16_t code = i->code;
	struct astate st = ex->nodes[idx].st;
	struct aval src = BPF_SRC(code) == BPF_X ? st.x : known(i->k);
	uint32_t next[2] = {pc + 1, pc + 1};
	struct astate sts[2];
	int nnext = 1;

	switch (BPF_CLASS(code)) {
	case BPF_RET:
		ex->nodes[idx].terminal = true;
		if (BPF_RVAL(code) == BPF_K)
			ex->nodes[idx].ret = i->k;
		else if (st.a.kind == V_KNOWN)
			ex->nodes[idx].ret = st.a.val;
		else
			ex->nodes[idx].ret_any = true;
		return 0;
	case BPF_LD:
	case BPF_LDX: {
		struct aval v;
		if (BPF_MODE(code) == BPF_ABS) {
			v = load(ex, &st, i->k);
			if (is_arg_word(i->k))
				ex->nodes[idx].loads = true;
		} else if (BPF_MODE(code) == BPF_LEN)
			v = known(SECCOMP_DATA_SIZE);
		else if (BPF_MODE(code) == BPF_IMM)
			v = known(i->k);
		else
			v = st.mem[i->k % BPF_MEMWORDS];
		if (BPF_CLASS(code) == BPF_LD)
			st.a = v;
		else
			st.x = v;
		break;
	}
	case BPF_ST:
		st.mem[i->k % BPF_MEMWORDS] = st.a;
		break;
	case BPF_STX:
		st.mem[i->k % BPF_MEMWORDS] = st.x;
		break;
	case BPF_ALU:
		if (BPF_OP(code) == BPF_NEG)
			st.a = st.a.kind == V_KNOWN ? known(-st.a.val)
						    : (struct aval){0};
		else if (BPF_OP(code) == BPF_DIV && src.kind == V_KNOWN &&
			 src.val == 0) {
			/* the kernel ends the program with 0 */
			ex->nodes[idx].terminal = true;
			ex->nodes[idx].ret = 0;
			return 0;
		} else if (st.a.kind == V_KNOWN && src.kind == V_KNOWN)
			st.a = known(alu(BPF_OP(code), st.a.val, src.val));
		else
			st.a = (struct aval){0};
		break;
	case BPF_MISC:
		if (BPF_MISCOP(code) == BPF_TAX)
			st.x = st.a;
		else
			st.a = st.x;
		break;
	case BPF_JMP: {
		int t;

		if (BPF_OP(code) == BPF_JA) {
			next[0] = pc + 1 + i->k;
			break;
		}
		t = jump_taken(BPF_OP(code), st.a, src);
		if (t >= 0) {
			next[0] = pc + 1 + (t ? i->jt : i->jf);
			break;
		}
		next[0] = pc + 1 + i->jt;
		next[1] = pc + 1 + i->jf;
		sts[1] = st;
		if (BPF_OP(code) == BPF_JEQ && st.a.kind == V_WORD &&
		    src.kind == V_KNOWN)
			learn(&st, st.a.val, src.val);
		if (next[0] == next[1] && memcmp(&st, &sts[1], sizeof(st)) == 0)
			break;
		nnext = 2;
		break;
	}
	}
	sts[0] = st;
	for (int s = 0; s < nnext; s++) {
		int32_t j = node_at(ex, next[s], &sts[s]);
		if (j < 0)
			return -1;
		ex->nodes[idx].succ[s] = j;
	}
	return 0;
}

static void add_outcome(struct pnode *nd, uint32_t v)
{
	for (uint32_t i = 0; i < nd->nout; i++)
		if (nd->out[i] == v)
			return;
	if (nd->nout == MAX_OUTCOMES)
		nd->overflow = true;
	else
		nd->out[nd->nout++] = v;
}

/* Fold the results of node idx from its successors. */
static void fold(struct explorer *ex, int32_t idx)
{
	struct pnode *nd = &ex->nodes[idx];

	if (nd->terminal) {
		nd->longest = 1;
		if (nd->ret_any)
			nd->any = true;
		else
			add_outcome(nd, nd->ret);
		nd->longest_allow =
		    (nd->any || nd->ret == SECCOMP_RET_ALLOW) ? 1 : 0;
		return;
	}
	for (int s = 0; s < 2; s++) {
		const struct pnode *c;

		if (nd->succ[s] < 0)
			continue;
		c = &ex->nodes[nd->succ[s]];
		nd->loads |= c->loads;
		nd->any |= c->any;
		nd->overflow |= c->overflow;
		if (c->longest + 1 > nd->longest)
			nd->longest = c->longest + 1;
		if (c->longest_allow &&
		    c->longest_allow + 1 > nd->longest_allow)
			nd->longest_allow = c->longest_allow + 1;
		for (uint32_t o = 0; o < c->nout; o++)
			add_outcome(nd, c->out[o]);
	}
}

/* Explore every path for (nr, arch); the root's results are nodes[0]. */
static int explore(struct explorer *ex, uint32_t nr, uint32_t arch,
		   bool concrete)
{
	struct astate st;

	ex->nr = nr;
	ex->arch = arch;
	ex->concrete = concrete;
	ex->nnodes = 0;
	memset(ex->head, 0xff, ex->n * sizeof(*ex->head));
	memset(&st, 0, sizeof(st));
	st.a = st.x = known(0); /* the kernel starts with A = X = 0 */
	if (node_at(ex, 0, &st) < 0)
		return -1;
	for (uint32_t pc = 0; pc < ex->n; pc++)
		for (int32_t i = ex->head[pc]; i >= 0; i = ex->nodes[i].next)
			if (step(ex, pc, i) < 0)
				return -1;
	for (uint32_t pc = ex->n; pc-- > 0;)
		for (int32_t i = ex->head[pc]; i >= 0; i = ex->nodes[i].next)
			fold(ex, i);
	return 0;
}

/*
 * The kernel's constant-action cache (seccomp_cache_prepare, Linux 5.11):
 * it emulates the filter for one (nr, arch) and gives up on anything but
 * loads of nr and arch, "and #k", ja, and jeq/jge/jgt/jset against a
 * constant. A syscall whose emulation reaches "ret ALLOW" is allowed without
 * running the filter.
 */
static bool kernel_const_allow(const struct sock_filter *p, uint32_t n,
			       uint32_t nr, uint32_t arch)
{
	uint32_t a = 0;

	for (uint32_t pc = 0; pc < n; pc++) {
		const struct sock_filter *i = &p[pc];
		switch (i->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (i->k == offsetof(struct seccomp_data, nr))
				a = nr;
			else if (i->k == offsetof(struct seccomp_data, arch))
				a = arch;
			else
				return false;
			break;
		case BPF_RET | BPF_K:
			return i->k == SECCOMP_RET_ALLOW;
		case BPF_JMP | BPF_JA:
			pc += i->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == i->k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= i->k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGT | BPF_K:
			pc += a > i->k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JSET | BPF_K:
			pc += (a & i->k) ? i->jt : i->jf;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= i->k;
			break;
		default:
			return false;
		}
	}
	return false;
}

static void explorer_free(struct explorer *ex)
{
	free(ex->nodes);
}

static int concrete_result(struct explorer *ex, uint32_t nr, uint32_t arch,
			   uint32_t *ret, ward_err *err)
{
	if (explore(ex, nr, arch, true) < 0)
		return ward_fail(err, 0, "bpf: syscall %u: too many paths", nr);
	*ret = ex->nodes[0].nout ? ex->nodes[0].out[0] : 0;
	return 0;
}

int ward_bpf_stats(const struct sock_filter *p, uint32_t n, uint32_t arch,
		   struct ward_bpf_stats *st, ward_err *err)
{
	uint32_t other;

	if (ward_bpf_check(p, n, err) < 0)
		return -1;
	_cleanup_free_ int32_t *head = calloc(n, sizeof(*head));
	if (!head)
		return ward_fail(err, ENOMEM, "bpf: statistics");
	__attribute__((cleanup(explorer_free))) struct explorer ex = {
	    .p = p, .n = n, .head = head};

	memset(st, 0, sizeof(*st));
	st->arch = arch;
	st->ninsns = n;
	st->longest_allow_nr = -1;
	st->longest_nr = -1;
	for (uint32_t nr = 0; nr < WARD_BPF_NR_COUNT; nr++) {
		struct ward_bpf_nr_stat *s = &st->nr[nr];
		const struct pnode *root;

		if (explore(&ex, nr, arch, false) < 0)
			return ward_fail(err, 0,
					 "bpf: syscall %u: too many paths", nr);
		root = &ex.nodes[0];
		s->longest = (uint16_t)root->longest;
		s->longest_allow = (uint16_t)root->longest_allow;
		s->noutcomes =
		    (root->overflow || root->any) ? 255 : (uint8_t)root->nout;
		s->arg_checked = root->loads;
		s->may_allow = root->longest_allow > 0;
		s->const_allow = kernel_const_allow(p, n, nr, arch);
		if (concrete_result(&ex, nr, arch, &s->action, err) < 0)
			return -1;

		st->n_arg_checked += s->arg_checked;
		st->n_const_allow += s->const_allow;
		if (s->longest > st->longest) {
			st->longest = s->longest;
			st->longest_nr = (int32_t)nr;
		}
		if (s->longest_allow > st->longest_allow) {
			st->longest_allow = s->longest_allow;
			st->longest_allow_nr = (int32_t)nr;
		}
	}
	if (concrete_result(&ex, X32_SYSCALL_BIT, arch, &st->x32_action, err) <
	    0)
		return -1;
	other = arch == AUDIT_ARCH_X86_64 ? AUDIT_ARCH_I386 : AUDIT_ARCH_ARM;
	return concrete_result(&ex, 0, other, &st->badarch_action, err);
}
