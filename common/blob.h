/* SPDX-License-Identifier: MIT */
/*
 * blob.h: the constants of the policy blob format, version 1, shared by the
 * reader (common/blob_read.c, the format's single source of truth) and the
 * writer (compiler/codegen/blob_write.c). The byte layout is described in
 * docs/spec.md part 2; this file names its numbers.
 *
 * Every integer is little-endian. Every structure starts on an 8-byte
 * boundary of the file and has a size that is a multiple of 8; padding is
 * zero. A string is a u32 length n, n bytes, a NUL, then zero padding up to
 * the next multiple of 8.
 */
#ifndef WARD_BLOB_H
#define WARD_BLOB_H

#include "policy.h"

#define WARD_BLOB_MAGIC	    "WARDBLOB" /* 8 bytes, no NUL */
#define WARD_BLOB_MAGIC_LEN 8
#define WARD_BLOB_VERSION   1

/* Header: magic, version, nsections, arch, requirements, reserved,
 * total length, content digest. */
#define WARD_BLOB_HDR_SIZE     64
#define WARD_BLOB_OFF_VERSION  8
#define WARD_BLOB_OFF_NSECT    10
#define WARD_BLOB_OFF_ARCH     12
#define WARD_BLOB_OFF_REQ      16
#define WARD_BLOB_OFF_RESERVED 20
#define WARD_BLOB_OFF_LENGTH   24
#define WARD_BLOB_OFF_DIGEST   32

/* Section directory entry: type, flags, offset, length. */
#define WARD_BLOB_DIRENT_SIZE 24

/* Section flags. */
#define WARD_BLOB_SEC_CRITICAL 1u /* refuse the blob if the type is unknown */

/* Section types, in the order they must appear. */
enum ward_blob_section {
	WARD_SEC_META = 1,
	WARD_SEC_IDENTITY = 2,
	WARD_SEC_ENV = 3,
	WARD_SEC_MOUNTS = 4,
	WARD_SEC_LIMITS = 5,
	WARD_SEC_NETWORK = 6,
	WARD_SEC_SECCOMP = 7,
	WARD_SEC_RULES = 8, /* non-critical: for reviewers, not the launcher */
	/* 9 is reserved (it was to be Landlock's; 13 is). */
	WARD_SEC_EXPORT = 10,	/* export rules, when the policy has some
				   (docs/spec.md part 6) */
	WARD_SEC_NET_BPF = 11,	/* allow-list mode only (docs/spec.md part 5) */
	WARD_SEC_EXEC = 12,	/* what may run besides exec mounts' files,
				   when the policy allows some (WARD_EXEC_*) */
	WARD_SEC_LANDLOCK = 13, /* the Landlock rule set, unless `landlock
				   off;` (struct ward_landlock) */
	WARD_SEC_NET_NAMES = 14, /* allow rules by domain name, when the
				    policy has some (docs/spec.md 5.11) */
	WARD_SEC_KNOWN_MAX = 14
};

/* The network BPF section (type 11): sizes of its fixed parts, and bounds.
 * The map layouts are in net_layout.h. */
#define WARD_BLOB_NETBPF_HDR	16 /* nmaps, nprogs, nrelocs, reserved */
#define WARD_BLOB_NETMAP_FIXED	32 /* a map before its entries */
#define WARD_BLOB_NETPROG_FIXED 16 /* a program before its instructions */
#define WARD_BLOB_NETRELOC_SIZE 8
#define WARD_BLOB_NETMAPS	3 /* allow4, allow6, denied, in that order */
#define WARD_BLOB_NETPROGS	9 /* one per attach point, see net_layout.h */

/* The export section (type 10): a rule before its strings, and bounds. */
#define WARD_BLOB_EXPORT_FIXED                                                 \
	32 /* max_files, types, per_file, total,                               \
	      on_violation, nnames */
#define WARD_BLOB_EXPORT_FILES 1000000u
#define WARD_BLOB_EXPORT_BYTES (1ull << 40) /* per_file and total: 1T */
#define WARD_BLOB_EXPORT_NAMES 256	    /* globs per rule */
#define WARD_BLOB_GLOB_MAX     255	    /* bytes of one glob */
#define WARD_EXPORT_T_ALL      0x7ffu

/* Flag bits defined by v1; any other bit is refused. */
#define WARD_REQ_ALL                                                           \
	(WARD_REQ_CGROUP_MEMORY | WARD_REQ_CGROUP_PIDS | WARD_REQ_CGROUP_CPU | \
	 WARD_REQ_NET_BPF | WARD_REQ_LANDLOCK | WARD_REQ_CGROUP_SWAP |         \
	 WARD_REQ_SECCOMP_NOTIFY | WARD_REQ_HOST_GROUPS |                      \
	 WARD_REQ_SECCOMP_ANSWER | WARD_REQ_NET_BROKER | WARD_REQ_NET_NAMES |  \
	 WARD_REQ_RECORD)
#define WARD_MNT_F_ALL	    (WARD_MNT_F_RW | WARD_MNT_F_EXEC | WARD_MNT_F_OPTIONAL)
#define WARD_ENV_F_VALUE    1u /* env entry: a value string follows */
#define WARD_SYS_F_FALLBACK 1u /* rules entry: the fallback action is set */

/* The launcher's own directory of the new root while it builds the mount
 * table (launcher/core/mounts.c): no entry may be at or below it, and the
 * compiler refuses one (compiler/check/sema_fs.c). */
#define WARD_SCRATCH_DIR ".ward-masks"

/* Bounds on strings (in bytes, without the NUL). */
#define WARD_BLOB_PATH_MAX     4095 /* PATH_MAX including the NUL */
#define WARD_BLOB_NAME_MAX     255  /* names: policy, slot, compiler version */
#define WARD_BLOB_HOSTNAME_MAX 64   /* the UTS hostname */
#define WARD_BLOB_DNSNAME_MAX  253  /* a pinned host name */
#define WARD_BLOB_SYSCALL_MAX  63   /* a syscall name */
/* NAME=VALUE and its NUL must fit the kernel's MAX_ARG_STRLEN (128 KiB). */
#define WARD_BLOB_ENV_MAX  (128 * 1024)
#define WARD_BLOB_FILE_MAX (16 * 1024 * 1024) /* inline file contents */

#define WARD_BLOB_INSNS_MAX 4096 /* BPF_MAXINSNS */
#define WARD_BLOB_CAP_LAST  40	 /* CAP_CHECKPOINT_RESTORE, Linux 5.9 */
#define WARD_BLOB_ID_MAX    65534

/* On-disk sizes of the fixed parts. */
#define WARD_BLOB_STR_MIN     8	   /* empty string: length and NUL, padded */
#define WARD_BLOB_LIMIT_SIZE  16   /* key, reserved, value */
#define WARD_BLOB_RULE_SIZE   24   /* network rule */
#define WARD_BLOB_NAME_FIXED  8	   /* net-names entry before its string */
#define WARD_BLOB_RANGE_SIZE  24   /* net-names refused range */
#define WARD_BLOB_REFUSED_MAX 4096 /* refused ranges in net-names */
#define WARD_BLOB_HOST_FIXED  24   /* network host before its name */
#define WARD_BLOB_INSN_SIZE   8
#define WARD_BLOB_MOUNT_FIXED 24 /* before dst and arg strings */
#define WARD_BLOB_ENV_FIXED   8	 /* before name and value strings */
#define WARD_BLOB_SYS_FIXED   24 /* rules: syscall before its name */
#define WARD_BLOB_COND_SIZE   16 /* rules: condition before its cmps */
#define WARD_BLOB_CMP_SIZE    24
#define WARD_BLOB_LL_HDR      32 /* landlock: before its rules */
#define WARD_BLOB_LL_FIXED    16 /* landlock rule before its path */

/* The numbers stored in a blob are policy.h's enum values: pin them all,
 * so that an edit of policy.h cannot change the format silently. */
_Static_assert(WARD_MNT_BIND == 1 && WARD_MNT_TMPFS == 2 &&
		   WARD_MNT_PROC == 3 && WARD_MNT_DEV == 4 &&
		   WARD_MNT_FILE == 5 && WARD_MNT_SYMLINK == 6 &&
		   WARD_MNT_SLOT == 7 && WARD_MNT_DIR == 8,
	       "mount kinds are format numbers");
_Static_assert(WARD_MNT_F_RW == 1 && WARD_MNT_F_EXEC == 2 &&
		   WARD_MNT_F_OPTIONAL == 4,
	       "mount flags are format bits");
_Static_assert(WARD_LIM_MEMORY == 0 && WARD_LIM_SWAP == 1 &&
		   WARD_LIM_CPU == 2 && WARD_LIM_PIDS == 3 &&
		   WARD_LIM_WALL == 4 && WARD_LIM_GRACE == 5 &&
		   WARD_LIM_CPUTIME == 6 && WARD_LIM_NOFILE == 7 &&
		   WARD_LIM_FILESIZE == 8 && WARD_LIM_NPROC == 9 &&
		   WARD_LIM_STACK == 10 && WARD_LIM_MEMLOCK == 11 &&
		   WARD_LIM_CORE == 12 && WARD_LIM_STDOUT == 13 &&
		   WARD_LIM_STDERR == 14 && WARD_LIM_OUTPUT == 15 &&
		   WARD_LIM_SIGPENDING == 16 && WARD_LIM_MSGQUEUE == 17 &&
		   WARD_LIM_INOTIFY_INSTANCES == 18 &&
		   WARD_LIM_INOTIFY_WATCHES == 19 &&
		   WARD_LIM_FANOTIFY_GROUPS == 20 &&
		   WARD_LIM_FANOTIFY_MARKS == 21 && WARD_LIM_SLOT_SIZE == 22 &&
		   WARD_LIM_OOM == 23 && WARD_LIM_STDOUT_MODE == 24 &&
		   WARD_LIM_STDERR_MODE == 25 && WARD_LIM_STDOUT_AT_CAP == 26 &&
		   WARD_LIM_STDERR_AT_CAP == 27 && WARD_LIM_COUNT == 28,
	       "limit keys are format numbers");
_Static_assert(WARD_ACT_ALLOW == 0 && WARD_ACT_LOG == 1 &&
		   WARD_ACT_ERRNO == 2 && WARD_ACT_TRAP == 3 &&
		   WARD_ACT_KILL == 4,
	       "actions are format numbers");
_Static_assert(WARD_VIA_NONE == 0 && WARD_VIA_RECORD == 1 &&
		   WARD_VIA_RECORD_NET == 2 && WARD_VIA_CONNECT == 3 &&
		   WARD_VIA_SENDTO == 4,
	       "an action's via is a format number (bits 16.. of its second "
	       "word)");
_Static_assert(WARD_CMP_EQ == 0 && WARD_CMP_NE == 1 && WARD_CMP_LT == 2 &&
		   WARD_CMP_LE == 3 && WARD_CMP_GT == 4 && WARD_CMP_GE == 5 &&
		   WARD_CMP_MASKED_EQ == 6 && WARD_CMP_MASKED_NE == 7,
	       "comparisons are format numbers");
_Static_assert(WARD_LANDLOCK_OFF == 0 && WARD_LANDLOCK_PREFER == 1 &&
		   WARD_LANDLOCK_REQUIRE == 2 &&
		   WARD_LL_FS_IOCTL_DEV == 1u << 15 &&
		   WARD_LL_SCOPE_SIGNAL == 2 && WARD_LL_R_OPTIONAL == 1,
	       "Landlock modes and bits are format numbers");
_Static_assert(WARD_NET_NONE == 0 && WARD_NET_ALLOWLIST == 1,
	       "network modes are format numbers");
_Static_assert(WARD_REQ_CGROUP_MEMORY == 1 && WARD_REQ_CGROUP_SWAP == 32 &&
		   WARD_REQ_SECCOMP_NOTIFY == 64 &&
		   WARD_REQ_HOST_GROUPS == 128 &&
		   WARD_REQ_SECCOMP_ANSWER == 256 && WARD_REQ_NET_BROKER == 512,
	       "requirement bits are format bits");

_Static_assert(WARD_EXPORT_T_TEXT == 1 && WARD_EXPORT_T_HTML == 512 &&
		   WARD_EXPORT_T_TAR == 1024 && WARD_EXPORT_REFUSE == 0 &&
		   WARD_EXPORT_SKIP == 1,
	       "export types and actions are format numbers");

/* Name of an AUDIT_ARCH_* value ("x86_64"), or NULL when unknown. */
const char *ward_arch_name(uint32_t arch);

/* The language's name of one export content type (a single WARD_EXPORT_T_*
 * bit: "text", "png"...), or NULL; and the bit of a name, or 0. */
const char *ward_export_type_name(uint32_t bit);
uint32_t ward_export_type_bit(const char *name);

#endif
