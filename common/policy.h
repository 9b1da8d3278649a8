/* SPDX-License-Identifier: MIT */
/*
 * policy.h: a compiled policy in memory.
 *
 * This is the contract between the compiler and the launcher. The compiler
 * (compiler/check/sema.c) fills a struct ward_policy and the blob writer
 * (compiler/codegen/blob_write.c) serialises it; the blob reader
 * (common/blob_read.c) validates a blob and gives back the same structure,
 * with every pointer pointing into the blob buffer (strings are validated to
 * be NUL-terminated there), so reading allocates only the arrays.
 *
 * Everything here is decided: paths are absolute and normalised, mounts are
 * in application order, names are resolved, limits are in base units. The
 * launcher applies it and takes no decision of its own.
 */
#ifndef WARD_POLICY_H
#define WARD_POLICY_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Target architectures, as the kernel's AUDIT_ARCH_* values. */
#define WARD_ARCH_X86_64  0xc000003eu
#define WARD_ARCH_AARCH64 0xc00000b7u

/* Host requirements: what the host must provide for this blob to run.
 * Computed by the compiler; the launcher checks each before creating any
 * process and refuses if one is missing. */
enum {
	WARD_REQ_CGROUP_MEMORY = 1u << 0,
	WARD_REQ_CGROUP_PIDS = 1u << 1,
	WARD_REQ_CGROUP_CPU = 1u << 2,
	WARD_REQ_NET_BPF = 1u << 3,	/* cgroup BPF egress filtering */
	WARD_REQ_LANDLOCK = 1u << 4,	/* `landlock require;` (below) */
	WARD_REQ_CGROUP_SWAP = 1u << 5, /* swap accounting to enforce swap 0 */
	/* The seccomp program returns SECCOMP_RET_USER_NOTIF for the
	 * policy's `kill` rules: the launcher must install it with a
	 * listener and kill the sandbox when it fires (docs/spec.md part 4).
	 * A launcher without this would let those calls fail with ENOSYS
	 * instead: it must refuse the blob. */
	WARD_REQ_SECCOMP_NOTIFY = 1u << 6,
	/* `identity { groups keep; }`: rootless, the caller's supplementary
	 * groups may follow the sandbox (which cannot drop them); a launcher
	 * that does not know this bit refuses the blob rather than guess. */
	WARD_REQ_HOST_GROUPS = 1u << 7,
	/* The program also returns SECCOMP_RET_USER_NOTIF for calls that are
	 * not kills (refusals to record, the socket broker): a launcher that
	 * only kills would turn them into kills. */
	WARD_REQ_SECCOMP_ANSWER = 1u << 8,
	/* The network allow-list is enforced by the socket broker, in a
	 * network namespace of the sandbox's own (docs/spec.md part 5); an
	 * allow-list blob without it is of an older wardc. */
	WARD_REQ_NET_BROKER = 1u << 9,
	/* The allow-list names domains (`allow tcp name "x" port 443;`):
	 * the launcher must serve the sandbox's DNS and let connections
	 * through only to what an answer for an allowed name gave
	 * (docs/spec.md 5.11). A launcher without that refuses the blob. */
	WARD_REQ_NET_NAMES = 1u << 10,
	/* A recording blob (`wardc compile --record`, docs/spec.md 4.12):
	 * its program lets calls through the broker, which logs them
	 * (WARD_VIA_OBSERVE). The launcher runs it only with --record FILE,
	 * and --record only with it. */
	WARD_REQ_RECORD = 1u << 12
};

struct ward_meta {
	const char *policy_name;      /* "python" */
	const char *compiler_version; /* "wardc 0.1.0" */
	uint8_t source_digest[32];    /* SHA-256 over the sources, see spec */
};

struct ward_identity {
	uint32_t uid;	      /* uid inside the sandbox */
	uint32_t gid;	      /* gid inside the sandbox */
	const char *hostname; /* never NULL; "" keeps the default "ward" */
	const char *workdir;  /* the target's working directory: absolute */
	uint64_t caps_keep;   /* bit n = keep CAP n; 0 = drop everything */
};

struct ward_env_var {
	const char *name;
	const char *value; /* NULL: pass the caller's value through if set */
};

enum ward_mount_kind {
	WARD_MNT_BIND = 1,    /* src: host path */
	WARD_MNT_TMPFS = 2,   /* size, mode */
	WARD_MNT_PROC = 3,    /* a new proc instance */
	WARD_MNT_DEV = 4,     /* minimal /dev */
	WARD_MNT_FILE = 5,    /* data/data_len, mode */
	WARD_MNT_SYMLINK = 6, /* src: link target (may be relative) */
	WARD_MNT_SLOT = 7,    /* src: slot name; host path given at launch */
	WARD_MNT_DIR = 8      /* an empty directory, mode */
};

enum {
	WARD_MNT_F_RW = 1u << 0,   /* writable (binds and slots: else ro) */
	WARD_MNT_F_EXEC = 1u << 1, /* else noexec; nosuid,nodev always */
	WARD_MNT_F_OPTIONAL = 1u
			      << 2 /* bind: skip if the host path is absent */
};

struct ward_mount {
	uint32_t kind;	/* enum ward_mount_kind */
	uint32_t flags; /* WARD_MNT_F_* */
	const char *src;
	const char *dst; /* absolute, normalised, inside the sandbox */
	uint64_t size;	 /* tmpfs, read-write slot: bytes */
	uint32_t mode;	 /* tmpfs, file, dir: permission bits */
	const uint8_t *data;
	uint64_t data_len;
};

/* Limits, in base units. A limit that is not set is not applied. */
enum ward_limit {
	WARD_LIM_MEMORY,  /* bytes, cgroup hard limit */
	WARD_LIM_SWAP,	  /* bytes of swap on top of memory (0: none) */
	WARD_LIM_CPU,	  /* thousandths of a CPU (500 = 0.5 CPU) */
	WARD_LIM_PIDS,	  /* tasks in the cgroup */
	WARD_LIM_WALL,	  /* milliseconds of wall time */
	WARD_LIM_GRACE,	  /* milliseconds between SIGTERM and SIGKILL at wall */
	WARD_LIM_CPUTIME, /* milliseconds of CPU time (RLIMIT_CPU, rounded up)
			   */
	WARD_LIM_NOFILE,  /* RLIMIT_NOFILE */
	WARD_LIM_FILESIZE, /* RLIMIT_FSIZE, bytes */
	WARD_LIM_NPROC,	   /* RLIMIT_NPROC */
	WARD_LIM_STACK,	   /* RLIMIT_STACK, bytes */
	WARD_LIM_MEMLOCK,  /* RLIMIT_MEMLOCK, bytes (default: below) */
	WARD_LIM_CORE,	   /* RLIMIT_CORE, bytes (default: below) */
	WARD_LIM_STDOUT,   /* bytes of stdout kept */
	WARD_LIM_STDERR,   /* bytes of stderr kept */
	WARD_LIM_OUTPUT,   /* bytes of stdout+stderr kept */
	/* The kernel's per-user counters (docs/spec.md 3.9): RLIMITs of the
	 * target, and limits of the sandbox's user namespace, which the
	 * kernel charges to every ancestor namespace's count as well, so
	 * they bound what a run takes from its host user's budget. */
	WARD_LIM_SIGPENDING,	    /* RLIMIT_SIGPENDING */
	WARD_LIM_MSGQUEUE,	    /* RLIMIT_MSGQUEUE, bytes */
	WARD_LIM_INOTIFY_INSTANCES, /* user.max_inotify_instances */
	WARD_LIM_INOTIFY_WATCHES,   /* user.max_inotify_watches */
	WARD_LIM_FANOTIFY_GROUPS,   /* user.max_fanotify_groups */
	WARD_LIM_FANOTIFY_MARKS,    /* user.max_fanotify_marks */
	/* The output channel and what ends a run (docs/spec.md 1.7.5). */
	WARD_LIM_SLOT_SIZE,   /* bytes of a read-write slot without its own */
	WARD_LIM_OOM,	      /* 0 the whole run ends (default), 1 the victim */
	WARD_LIM_STDOUT_MODE, /* 0 raw (default), 1 text: safe to display */
	WARD_LIM_STDERR_MODE,
	WARD_LIM_STDOUT_AT_CAP, /* 0 truncate (default), 1 kill: the run ends
				   when the stream passes its cap */
	WARD_LIM_STDERR_AT_CAP,
	WARD_LIM_COUNT
};

struct ward_limits {
	uint64_t set; /* bit n: limit n is set */
	uint64_t value[WARD_LIM_COUNT];
};

/* With a `wall` limit, init arms a timer of its own at wall + grace + this
 * margin (docs/spec.md 3.4, "the backstop"): it ends the sandbox when the
 * supervisor, whose timers come first, cannot (stopped, stuck). */
#define WARD_BACKSTOP_MARGIN_MS 1000u

static inline bool ward_limit_is_set(const struct ward_limits *l,
				     enum ward_limit k)
{
	return (l->set >> k) & 1u;
}

/* The size of a `dev` mount's writable /dev/shm, which the language gives
 * no size of its own (docs/spec.md 3.5, `dev`). */
#define WARD_SHM_SIZE (64u * 1024 * 1024)

/* A read-write slot's size when neither it nor `slot-size` gives one. */
#define WARD_SLOT_SIZE_DEFAULT (64ull << 20)

/* `oom process;`: an OOM kill ends only its victim, not the run. */
static inline bool ward_oom_process(const struct ward_limits *l)
{
	return ward_limit_is_set(l, WARD_LIM_OOM) && l->value[WARD_LIM_OOM];
}

/* `stdout text;` / `stderr text;`: stream i delivered safe to display. */
static inline bool ward_stream_text(const struct ward_limits *l, int i)
{
	enum ward_limit k = i ? WARD_LIM_STDERR_MODE : WARD_LIM_STDOUT_MODE;

	return ward_limit_is_set(l, k) && l->value[k];
}

/* `stdout-at-cap kill;` / `stderr-at-cap kill;`: stream i passing its
 * cap (or `output`) ends the run, reason output_limit; else what passes the
 * cap is dropped and the run goes on (flag output_truncated). */
static inline bool ward_stream_kills_at_cap(const struct ward_limits *l, int i)
{
	enum ward_limit k = i ? WARD_LIM_STDERR_AT_CAP : WARD_LIM_STDOUT_AT_CAP;

	return ward_limit_is_set(l, k) && l->value[k];
}

/* The limits that apply even when a policy does not write them, and their
 * values (docs/spec.md 3.9): a core dump could hold what the sandbox read;
 * the per-user counters are shared with the host user, so a run gets a
 * small part of them unless its policy says more. The launcher applies
 * these (an RLIMIT default above the caller's hard limit is lowered to
 * it; a written limit is not); `wardc explain` shows them. */
static inline bool ward_limit_default(enum ward_limit k, uint64_t *v)
{
	switch (k) {
	case WARD_LIM_CORE:
		*v = 0;
		return true;
	case WARD_LIM_MEMLOCK:
		*v = 8ull << 20; /* the kernel's own default since 5.16 */
		return true;
	case WARD_LIM_SIGPENDING:
		*v = 1024;
		return true;
	case WARD_LIM_MSGQUEUE:
		*v = 256ull << 10; /* three queues of the default size */
		return true;
	case WARD_LIM_INOTIFY_INSTANCES:
		*v = 8; /* of the host's 128 per user */
		return true;
	case WARD_LIM_INOTIFY_WATCHES:
		*v = 8192;
		return true;
	case WARD_LIM_FANOTIFY_GROUPS:
	case WARD_LIM_FANOTIFY_MARKS:
		*v = 0; /* fanotify_init is @privileged in the stdlib */
		return true;
	default:
		return false;
	}
}

/* The value the launcher applies for k: the policy's, else the default;
 * false if neither (the limit is not applied). */
static inline bool ward_limit_effective(const struct ward_limits *l,
					enum ward_limit k, uint64_t *v)
{
	if (ward_limit_is_set(l, k)) {
		*v = l->value[k];
		return true;
	}
	return ward_limit_default(k, v);
}

enum ward_net_mode {
	WARD_NET_NONE = 0,     /* new netns, loopback only */
	WARD_NET_ALLOWLIST = 1 /* egress allow-list: the socket broker, and
				  cgroup BPF where it can be attached */
};

struct ward_net_rule {
	uint8_t proto;	  /* IPPROTO_TCP or IPPROTO_UDP */
	uint8_t family;	  /* 4 or 6 */
	uint8_t prefix;	  /* prefix length in bits */
	uint8_t addr[16]; /* network address; IPv4 in the first 4 bytes */
	uint16_t port_lo, port_hi;
};

struct ward_net_host {
	const char *name;
	uint8_t family;
	uint8_t addr[16];
};

/* An allow rule by domain name (the blob's net-names section). `name` is
 * normalised: lower case, no trailing dot, ASCII (IDNs in punycode), labels
 * of 1..63 bytes, at most 253 bytes; a wildcard is "*.SUFFIX" and matches
 * one or more labels before SUFFIX, never SUFFIX itself. */
#define WARD_NET_NAME_WILDCARD 1u
struct ward_net_name {
	const char *name;
	uint8_t proto; /* IPPROTO_TCP or IPPROTO_UDP */
	uint8_t flags; /* WARD_NET_NAME_*: WILDCARD iff name starts "*." */
	uint16_t port_lo, port_hi;
};

/* A network: family 4 (the address in addr's first 4 bytes) or 6, the
 * bits past prefix clear. */
struct ward_net_prefix {
	uint8_t family, prefix;
	uint8_t addr[16];
};

/*
 * The allow-list as the kernel enforces it (allow-list mode only): eBPF
 * programs for the run's cgroup and the maps they read, both generated by
 * the compiler (compiler/codegen/net_bpf.c, docs/spec.md part 5). The launcher
 * creates the maps, fills them with `entries`, writes each map's descriptor
 * into the instructions the relocations name, loads and attaches the programs.
 */
struct ward_bpf_insn {
	uint8_t code;
	uint8_t regs; /* dst_reg | src_reg << 4 */
	int16_t off;
	int32_t imm;
};

enum ward_net_map_role {
	WARD_NET_MAP_ALLOW4 = 1, /* LPM trie: IPv4 network -> port ranges */
	WARD_NET_MAP_ALLOW6 = 2, /* LPM trie: IPv6 network -> port ranges */
	WARD_NET_MAP_DENIED = 3	 /* hash: denied destination -> count */
};

struct ward_net_map {
	uint32_t role; /* enum ward_net_map_role */
	uint32_t type; /* BPF_MAP_TYPE_* */
	uint32_t key_size, value_size, max_entries, flags;
	const uint8_t *entries; /* nentries * (key_size + value_size) bytes */
	uint32_t nentries;
};

struct ward_net_prog {
	uint32_t type;	      /* BPF_PROG_TYPE_* */
	uint32_t attach_type; /* BPF_CGROUP_*: also the expected attach type */
	const struct ward_bpf_insn *insns;
	uint32_t ninsns;
};

/* insns[insn] of progs[prog] loads the descriptor of maps[map]. */
struct ward_net_reloc {
	uint16_t prog, map;
	uint32_t insn;
};

struct ward_net_bpf {
	const struct ward_net_map *maps;
	uint32_t nmaps;
	const struct ward_net_prog *progs;
	uint32_t nprogs;
	const struct ward_net_reloc *relocs;
	uint32_t nrelocs;
};

struct ward_net {
	uint32_t mode; /* enum ward_net_mode */
	const struct ward_net_rule *rules;
	uint32_t nrules;
	const struct ward_net_host *hosts;
	uint32_t nhosts;
	const struct ward_net_name *names; /* sorted, no duplicates */
	uint32_t nnames;
	/* With names: the networks an answer's address is never learned in
	 * (docs/spec.md 5.11), the compiler's choice: sorted by (family,
	 * addr), disjoint; they hold common/answer_ranges.c's fixed ones. */
	const struct ward_net_prefix *refused;
	uint32_t nrefused;
	struct ward_net_bpf bpf; /* allow-list mode: never empty */
};

/* Seccomp actions in increasing strictness; the numeric order is the
 * "strictest wins" order of the language. */
enum ward_action_kind {
	WARD_ACT_ALLOW = 0,
	WARD_ACT_LOG = 1,
	WARD_ACT_ERRNO = 2,
	WARD_ACT_TRAP = 3,
	WARD_ACT_KILL = 4
};

/*
 * Whether the launcher's notification handler (the broker, docs/spec.md
 * 4.6) takes part in an action. With WARD_VIA_NONE the kernel does all of
 * it; otherwise the program returns SECCOMP_RET_USER_NOTIF and the broker
 * answers: with the action's errno, recording the call (RECORD, RECORD_NET),
 * or by making the connection itself (CONNECT, SENDTO). A `kill` always
 * goes through the broker, with WARD_VIA_NONE.
 */
enum ward_action_via {
	WARD_VIA_NONE = 0,
	WARD_VIA_RECORD = 1,	 /* errno: the refused call is recorded */
	WARD_VIA_RECORD_NET = 2, /* errno: recorded as a network attempt */
	WARD_VIA_CONNECT = 3,	 /* allow: connect() through the broker */
	WARD_VIA_SENDTO = 4,	 /* allow: sendto() with an address, the same */
	WARD_VIA_OBSERVE = 5	 /* allow, recording blobs only: the broker
				    logs the call and its arguments, then
				    lets the kernel run it */
};

struct ward_action {
	uint32_t kind;	   /* enum ward_action_kind */
	uint32_t errno_nr; /* WARD_ACT_ERRNO: 1..4095; WARD_VIA_OBSERVE: the
			      arguments to log, bit i = args[i] (0..63) */
	uint32_t via;	   /* enum ward_action_via: ERRNO takes NONE, RECORD,
			      RECORD_NET; ALLOW takes NONE, CONNECT, SENDTO;
			      the others NONE */
};

/*
 * What a SECCOMP_RET_USER_NOTIF return of the program asks of the broker,
 * in the return's 16 data bits (which the kernel ignores for that action):
 * bits 15..12 the disposition, bits 11..0 the errno to answer. A `kill` is
 * 0, so that a program of an older wardc reads the same. The broker learns
 * the bits by running the blob's program on the notification's struct
 * seccomp_data: the program is a pure function of it, and which call gets
 * what stays the compiled program's decision, never the launcher's.
 */
enum ward_notify {
	WARD_NOTIFY_KILL = 0,			     /* kill the sandbox */
	WARD_NOTIFY_ERRNO = WARD_VIA_RECORD,	     /* answer errno, record */
	WARD_NOTIFY_NET_ERRNO = WARD_VIA_RECORD_NET, /* ... as a network one */
	WARD_NOTIFY_CONNECT = WARD_VIA_CONNECT,	     /* the socket broker */
	WARD_NOTIFY_SENDTO = WARD_VIA_SENDTO,
	WARD_NOTIFY_OBSERVE = WARD_VIA_OBSERVE, /* log, then continue */
	WARD_NOTIFY_MAX = WARD_NOTIFY_OBSERVE
};
#define WARD_NOTIFY_KIND(data)	   (((data) >> 12) & 0xfu)
#define WARD_NOTIFY_ERRNO_OF(data) ((data)&0xfffu)
#define WARD_NOTIFY_DATA(kind, errnum)                                         \
	((((kind)&0xfu) << 12) | ((errnum)&0xfffu))

/* Does the action go through the broker? */
static inline bool ward_action_notifies(const struct ward_action *a)
{
	return a->kind == WARD_ACT_KILL || a->via != WARD_VIA_NONE;
}

/* The data bits of its SECCOMP_RET_USER_NOTIF (ward_action_notifies). */
static inline uint32_t ward_action_notify_data(const struct ward_action *a)
{
	if (a->kind == WARD_ACT_KILL)
		return WARD_NOTIFY_DATA(WARD_NOTIFY_KILL, 0);
	return WARD_NOTIFY_DATA(a->via, a->kind == WARD_ACT_ERRNO ||
						a->via == WARD_VIA_OBSERVE
					    ? a->errno_nr
					    : 0);
}

struct ward_seccomp {
	uint32_t arch;			 /* AUDIT_ARCH_* of the program */
	const struct sock_filter *insns; /* the program, ready for the kernel */
	uint32_t ninsns;
};

/*
 * The rule table, for reviewers (explain, diff): what the source said, after
 * resolution. The launcher does not need it and skips it; the test oracle
 * checks that the BPF program agrees with it for every syscall.
 */
enum ward_cmp_op {
	WARD_CMP_EQ = 0,
	WARD_CMP_NE,
	WARD_CMP_LT,
	WARD_CMP_LE,
	WARD_CMP_GT,
	WARD_CMP_GE,
	WARD_CMP_MASKED_EQ, /* (arg & mask) == value */
	WARD_CMP_MASKED_NE  /* (arg & mask) != value */
};

struct ward_cmp {
	uint8_t arg; /* 0..5 */
	uint8_t op;  /* enum ward_cmp_op */
	uint64_t mask;
	uint64_t value;
};

/* One conjunction of comparisons with the action it selects. */
struct ward_cond_rule {
	const struct ward_cmp *cmps;
	uint32_t ncmps;
	struct ward_action action;
};

/*
 * Everything the policy says about one syscall:
 *   if any conditional rule matches: the strictest matching one's action;
 *   else if has_fallback: fallback (an unconditional rule);
 *   else the policy's default action.
 */
struct ward_syscall_rule {
	int32_t nr;	  /* syscall number on the target arch */
	const char *name; /* its name */
	bool has_fallback;
	struct ward_action fallback;
	const struct ward_cond_rule *conds;
	uint32_t nconds;
};

struct ward_rules {
	struct ward_action default_action;
	const struct ward_syscall_rule *syscalls; /* sorted by nr */
	uint32_t nsyscalls;
};

/*
 * Export rules (blob section 10; docs/spec.md part 6): what the supervisor
 * may copy out of a writable slot into the caller's export directory once
 * the sandbox is gone. Content types are recognised by their bytes, never
 * by their names.
 */
enum {
	WARD_EXPORT_T_TEXT = 1u
			     << 0, /* UTF-8, no NUL, no control but \t\n\r\f */
	WARD_EXPORT_T_PNG = 1u << 1,
	WARD_EXPORT_T_JPEG = 1u << 2,
	WARD_EXPORT_T_GIF = 1u << 3,
	WARD_EXPORT_T_WEBP = 1u << 4,
	WARD_EXPORT_T_PDF = 1u << 5,
	WARD_EXPORT_T_ZIP = 1u << 6,
	WARD_EXPORT_T_GZIP = 1u << 7,
	WARD_EXPORT_T_SVG = 1u << 8,  /* text that is an SVG document */
	WARD_EXPORT_T_HTML = 1u << 9, /* text that is an HTML document */
	WARD_EXPORT_T_TAR = 1u << 10  /* a POSIX (ustar) or GNU tar archive */
};

enum ward_export_action {
	WARD_EXPORT_REFUSE = 0, /* one violation: nothing is exported */
	WARD_EXPORT_SKIP = 1	/* a violating file is left out, with why */
};

struct ward_export_rule {
	const char *slot;	  /* a read-write slot of the mount table */
	uint32_t max_files;	  /* regular files exported, 1.. */
	uint32_t types;		  /* WARD_EXPORT_T_*, at least one */
	uint64_t per_file;	  /* bytes of one file, 1.. */
	uint64_t total;		  /* bytes of all files; 0: not written (the
				     bound is then max_files * per_file) */
	uint32_t on_violation;	  /* enum ward_export_action */
	const char *const *names; /* globs on a file's base name; none: any */
	uint32_t nnames;
};

/* What the sandbox may execute besides the files of its exec mounts (blob
 * section 12; docs/spec.md 1.7.3 `memfd`, 3.4). 0, the default: nothing. */
enum {
	/* memfd files may be executed: vm.memfd_noexec is left as the host
	 * has it, no memfd filter is added */
	WARD_EXEC_MEMFD = 1u << 0
};

/*
 * The Landlock rule set (blob section 13; docs/spec.md 1.7.3 `landlock`,
 * 2.5, 3.4): the mount table's read-only, read-write and exec intent again,
 * as access rights on the mount destinations, which init applies from
 * inside after pivot_root, last before seccomp. The compiler derives it;
 * the launcher applies it, masking only the rights its kernel's ABI does
 * not know (the kernel documentation's best-effort downgrade).
 */
enum ward_landlock_mode {
	WARD_LANDLOCK_OFF = 0,	  /* `landlock off;`: no section */
	WARD_LANDLOCK_PREFER = 1, /* the best the kernel has, or none */
	WARD_LANDLOCK_REQUIRE = 2 /* the section's ABI or refuse to run */
};

/* The kernel's access rights (include/uapi/linux/landlock.h): format bits,
 * defined here so that an older libc's header does not matter. */
#define WARD_LL_FS_EXECUTE     (1ull << 0)
#define WARD_LL_FS_WRITE_FILE  (1ull << 1)
#define WARD_LL_FS_READ_FILE   (1ull << 2)
#define WARD_LL_FS_READ_DIR    (1ull << 3)
#define WARD_LL_FS_REMOVE_DIR  (1ull << 4)
#define WARD_LL_FS_REMOVE_FILE (1ull << 5)
#define WARD_LL_FS_MAKE_CHAR   (1ull << 6)
#define WARD_LL_FS_MAKE_DIR    (1ull << 7)
#define WARD_LL_FS_MAKE_REG    (1ull << 8)
#define WARD_LL_FS_MAKE_SOCK   (1ull << 9)
#define WARD_LL_FS_MAKE_FIFO   (1ull << 10)
#define WARD_LL_FS_MAKE_BLOCK  (1ull << 11)
#define WARD_LL_FS_MAKE_SYM    (1ull << 12)
#define WARD_LL_FS_REFER       (1ull << 13) /* ABI 2 */
#define WARD_LL_FS_TRUNCATE    (1ull << 14) /* ABI 3 */
#define WARD_LL_FS_IOCTL_DEV   (1ull << 15) /* ABI 5 */
#define WARD_LL_FS_ABI1	       ((1ull << 13) - 1)
#define WARD_LL_FS_ALL	       ((1ull << 16) - 1)
/* The rights a rule on a file (not a directory) may carry. */
#define WARD_LL_FS_FILE                                                        \
	(WARD_LL_FS_EXECUTE | WARD_LL_FS_WRITE_FILE | WARD_LL_FS_READ_FILE |   \
	 WARD_LL_FS_TRUNCATE | WARD_LL_FS_IOCTL_DEV)
#define WARD_LL_SCOPE_ABSTRACT_UNIX (1ull << 0) /* ABI 6 */
#define WARD_LL_SCOPE_SIGNAL	    (1ull << 1) /* ABI 6 */
#define WARD_LL_SCOPE_ALL	    ((1ull << 2) - 1)
#define WARD_LL_ABI_MAX		    255 /* bound on a blob's abi field */

enum {
	WARD_LL_R_OPTIONAL = 1u << 0 /* an optional bind's destination: skip
					the rule when the bind was skipped */
};

struct ward_landlock_rule {
	uint64_t access;  /* WARD_LL_FS_* allowed beneath path */
	uint32_t flags;	  /* WARD_LL_R_* */
	const char *path; /* absolute, inside the sandbox */
};

struct ward_landlock {
	uint32_t mode;	     /* enum ward_landlock_mode */
	uint32_t abi;	     /* the ABI that enforces all of it (require) */
	uint64_t handled_fs; /* WARD_LL_FS_*: refused unless a rule allows */
	uint64_t scoped;     /* WARD_LL_SCOPE_* */
	const struct ward_landlock_rule *rules; /* in mount order */
	uint32_t nrules;
};

struct ward_policy {
	uint32_t arch;	       /* AUDIT_ARCH_* */
	uint32_t requirements; /* WARD_REQ_* */
	struct ward_meta meta;
	struct ward_identity identity;
	const struct ward_env_var *env;
	uint32_t nenv;
	/* In application order. mounts[0] is always the new root: a TMPFS
	 * whose dst is "/", sized by the compiler; it is remounted read-only
	 * after the last entry. */
	const struct ward_mount *mounts;
	uint32_t nmounts;
	struct ward_limits limits;
	struct ward_net net;
	struct ward_seccomp seccomp;
	struct ward_rules rules;
	const struct ward_export_rule *exports; /* one per slot at most */
	uint32_t nexports;
	uint32_t exec; /* WARD_EXEC_* */
	struct ward_landlock landlock;
};

#endif
