/* SPDX-License-Identifier: MIT */
/*
 * blob_corpus.c: sample policies and blob surgery for the blob tests and the
 * fuzz seed corpus.
 */
#include "blob_corpus.h"

#include "blob.h"
#include "blob_read.h"
#include "blob_write.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <string.h>

/* ----------------------------------------------------------- policies */

static const struct ward_mount minimal_mounts[] = {
    {.kind = WARD_MNT_TMPFS,
     .flags = WARD_MNT_F_RW,
     .dst = "/",
     .size = 1 << 20,
     .mode = 0755},
};

static const struct sock_filter kill_insn[] = {
    BPF_STMT(BPF_RET | BPF_K, 0x80000000u /* SECCOMP_RET_KILL_PROCESS */),
};

static const struct ward_policy minimal = {
    .arch = WARD_ARCH_X86_64,
    .meta = {.policy_name = "minimal", .compiler_version = "wardc 0.1.0"},
    .identity = {.uid = 65534, .gid = 65534, .hostname = "", .workdir = "/"},
    .mounts = minimal_mounts,
    .nmounts = 1,
    .net = {.mode = WARD_NET_NONE},
    .seccomp = {.arch = WARD_ARCH_X86_64, .insns = kill_insn, .ninsns = 1},
    .rules = {.default_action = {WARD_ACT_KILL, 0, 0}},
};

const struct ward_policy *ward_test_policy_minimal(void)
{
	return &minimal;
}

static const struct ward_env_var rich_env[] = {
    {"LANG", "C.UTF-8"}, {"PATH", "/usr/bin:/bin"},
    {"HOME", "/work"},	 {"TERM", NULL}, /* inherited */
    {"EMPTY", ""},
};

static const uint8_t passwd[] = "root:x:0:0::/:/bin/sh\n\0after a NUL";

static const struct ward_mount rich_mounts[] = {
    {.kind = WARD_MNT_TMPFS,
     .flags = WARD_MNT_F_RW,
     .dst = "/",
     .size = 8 << 20,
     .mode = 0755},
    {.kind = WARD_MNT_BIND,
     .flags = WARD_MNT_F_EXEC,
     .src = "/usr",
     .dst = "/usr"},
    {.kind = WARD_MNT_BIND,
     .flags = WARD_MNT_F_RW | WARD_MNT_F_OPTIONAL,
     .src = "/opt/data-1",
     .dst = "/data"},
    {.kind = WARD_MNT_TMPFS,
     .flags = WARD_MNT_F_RW,
     .dst = "/tmp",
     .size = 100 << 20,
     .mode = 01777},
    {.kind = WARD_MNT_PROC, .flags = WARD_MNT_F_EXEC, .dst = "/proc"},
    {.kind = WARD_MNT_DEV, .dst = "/dev"},
    {.kind = WARD_MNT_DIR, .dst = "/etc", .mode = 0755},
    {.kind = WARD_MNT_FILE,
     .dst = "/etc/passwd",
     .mode = 0444,
     .data = passwd,
     .data_len = sizeof(passwd) - 1},
    {.kind = WARD_MNT_FILE,
     .dst = "/etc/empty",
     .mode = 0400,
     .data = (const uint8_t *)"",
     .data_len = 0},
    {.kind = WARD_MNT_SYMLINK, .src = "usr/bin", .dst = "/bin"},
    {.kind = WARD_MNT_SLOT, .src = "input", .dst = "/input"},
    {.kind = WARD_MNT_SLOT,
     .flags = WARD_MNT_F_RW,
     .src = "output",
     .dst = "/output",
     .size = 64 << 20},
    {.kind = WARD_MNT_TMPFS,
     .flags = WARD_MNT_F_RW | WARD_MNT_F_EXEC,
     .dst = "/work",
     .size = 1,
     .mode = 0700},
};

static const struct ward_net_rule rich_rules[] = {
    {.proto = 6,
     .family = 4,
     .prefix = 32,
     .addr = {10, 1, 2, 3},
     .port_lo = 443,
     .port_hi = 443},
    {.proto = 17,
     .family = 4,
     .prefix = 8,
     .addr = {10},
     .port_lo = 53,
     .port_hi = 53},
    {.proto = 6,
     .family = 6,
     .prefix = 32,
     .addr = {0x20, 0x01, 0x0d, 0xb8},
     .port_lo = 1,
     .port_hi = 65535},
    {.proto = 17, .family = 6, .prefix = 0, .port_lo = 8000, .port_hi = 8080},
};

static const struct ward_net_host rich_hosts[] = {
    {"mirror", 4, {10, 1, 2, 3}},
    {"mirror", 6, {0x20, 0x01, 0x0d, 0xb8, [15] = 1}},
    {"pypi.org", 4, {10, 1, 2, 4}},
};

static const struct sock_filter rich_insns[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, WARD_ARCH_X86_64, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, 0x80000000u),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, 0x00050026u /* ERRNO(ENOSYS) */),
    BPF_STMT(BPF_RET | BPF_K, 0x7fff0000u /* ALLOW */),
};

static const struct ward_cmp write_cmps[] = {
    {.arg = 0, .op = WARD_CMP_EQ, .value = 2},
};
static const struct ward_cmp ioctl_cmps1[] = {
    {.arg = 1, .op = WARD_CMP_EQ, .value = 0x5412},
};
static const struct ward_cmp ioctl_cmps2[] = {
    {.arg = 1, .op = WARD_CMP_NE, .value = 1},
};
static const struct ward_cmp ioctl_cmps3[] = {
    {.arg = 2, .op = WARD_CMP_LT, .value = 3},
    {.arg = 3, .op = WARD_CMP_LE, .value = 4},
    {.arg = 4, .op = WARD_CMP_GT, .value = 5},
    {.arg = 5, .op = WARD_CMP_GE, .value = 0xffffffffffffffffull},
    {.arg = 0, .op = WARD_CMP_MASKED_NE, .mask = 0xff00, .value = 0x100},
};
static const struct ward_cmp socket_cmps1[] = {
    {.arg = 0, .op = WARD_CMP_EQ, .value = 1},
};
static const struct ward_cmp socket_cmps2[] = {
    {.arg = 0, .op = WARD_CMP_EQ, .value = 2},
    {.arg = 1, .op = WARD_CMP_MASKED_EQ, .mask = 0xf, .value = 1},
};

static const struct ward_cond_rule write_conds[] = {
    {write_cmps, 1, {WARD_ACT_KILL, 0, 0}},
};
static const struct ward_cond_rule ioctl_conds[] = {
    {ioctl_cmps1, 1, {WARD_ACT_KILL, 0, 0}},
    {ioctl_cmps2, 1, {WARD_ACT_LOG, 0, 0}},
    {ioctl_cmps3, 5, {WARD_ACT_TRAP, 0, 0}},
};
static const struct ward_cond_rule socket_conds[] = {
    {socket_cmps1, 1, {WARD_ACT_ALLOW, 0, WARD_VIA_CONNECT}},
    {socket_cmps2, 2, {WARD_ACT_ERRNO, 4095, WARD_VIA_RECORD_NET}},
};

static const struct ward_syscall_rule rich_syscalls[] = {
    {.nr = 0,
     .name = "read",
     .has_fallback = true,
     .fallback = {WARD_ACT_ALLOW, 0, 0}},
    {.nr = 1, .name = "write", .conds = write_conds, .nconds = 1},
    {.nr = 16,
     .name = "ioctl",
     .has_fallback = true,
     .fallback = {WARD_ACT_ALLOW, 0},
     .conds = ioctl_conds,
     .nconds = 3},
    {.nr = 41,
     .name = "socket",
     .has_fallback = true,
     .fallback = {WARD_ACT_ERRNO, 1},
     .conds = socket_conds,
     .nconds = 2},
    {.nr = 101,
     .name = "ptrace",
     .has_fallback = true,
     .fallback = {WARD_ACT_KILL, 0, 0}},
};

static const struct ward_landlock_rule rich_landlock[] = {
    {WARD_LL_FS_READ_FILE | WARD_LL_FS_READ_DIR, 0, "/"},
    {WARD_LL_FS_READ_FILE | WARD_LL_FS_EXECUTE, WARD_LL_R_OPTIONAL, "/usr"},
    {WARD_LL_FS_ALL & ~WARD_LL_FS_MAKE_CHAR, 0, "/tmp"},
};

/* Every limit, each at a value that is distinct and in range. */
#define ALL_LIMITS ((1ull << WARD_LIM_COUNT) - 1)

static const struct ward_policy rich = {
    .arch = WARD_ARCH_X86_64,
    .requirements = WARD_REQ_ALL,
    .meta = {.policy_name = "python-net",
	     .compiler_version = "wardc 0.1.0 (test)",
	     .source_digest = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
			       12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
			       23, 24, 25, 26, 27, 28, 29, 30, 31, 32}},
    .identity = {.uid = 1000,
		 .gid = 1001,
		 .hostname = "sandbox.local",
		 .workdir = "/work",
		 .caps_keep = 1ull | (1ull << 40)},
    .env = rich_env,
    .nenv = ARRAY_LEN(rich_env),
    .mounts = rich_mounts,
    .nmounts = ARRAY_LEN(rich_mounts),
    .limits = {.set = ALL_LIMITS,
	       .value =
		   {
		       [WARD_LIM_MEMORY] = 512ull << 20,
		       [WARD_LIM_SWAP] = 0,
		       [WARD_LIM_CPU] = 500,
		       [WARD_LIM_PIDS] = 256,
		       [WARD_LIM_WALL] = 30000,
		       [WARD_LIM_GRACE] = 2000,
		       [WARD_LIM_CPUTIME] = 20000,
		       [WARD_LIM_NOFILE] = 1024,
		       [WARD_LIM_FILESIZE] = 100ull << 20,
		       [WARD_LIM_NPROC] = 128,
		       [WARD_LIM_STACK] = 8ull << 20,
		       [WARD_LIM_MEMLOCK] = 64ull << 10,
		       [WARD_LIM_CORE] = 1,
		       [WARD_LIM_STDOUT] = 1ull << 20,
		       [WARD_LIM_STDERR] = 2ull << 20,
		       [WARD_LIM_OUTPUT] = 3ull << 20,
		       [WARD_LIM_SIGPENDING] = 512,
		       [WARD_LIM_MSGQUEUE] = 128ull << 10,
		       [WARD_LIM_INOTIFY_INSTANCES] = 4,
		       [WARD_LIM_INOTIFY_WATCHES] = 1000,
		       [WARD_LIM_FANOTIFY_GROUPS] = 1,
		       [WARD_LIM_FANOTIFY_MARKS] = 10,
		       [WARD_LIM_SLOT_SIZE] = 32ull << 20,
		       [WARD_LIM_OOM] = 1,
		       [WARD_LIM_STDOUT_MODE] = 1,
		       [WARD_LIM_STDERR_MODE] = 0,
		       [WARD_LIM_STDOUT_AT_CAP] = 1,
		       [WARD_LIM_STDERR_AT_CAP] = 0,
		   }},
    .net = {.mode = WARD_NET_ALLOWLIST,
	    .rules = rich_rules,
	    .nrules = ARRAY_LEN(rich_rules),
	    .hosts = rich_hosts,
	    .nhosts = ARRAY_LEN(rich_hosts)},
    .seccomp = {.arch = WARD_ARCH_X86_64,
		.insns = rich_insns,
		.ninsns = ARRAY_LEN(rich_insns)},
    .rules = {.default_action = {WARD_ACT_ERRNO, 38},
	      .syscalls = rich_syscalls,
	      .nsyscalls = ARRAY_LEN(rich_syscalls)},
    .landlock = {.mode = WARD_LANDLOCK_REQUIRE,
		 .abi = 6,
		 .handled_fs = WARD_LL_FS_ALL,
		 .scoped = WARD_LL_SCOPE_SIGNAL,
		 .rules = rich_landlock,
		 .nrules = ARRAY_LEN(rich_landlock)},
};

const struct ward_policy *ward_test_policy_rich(void)
{
	return &rich;
}

/* ------------------------------------------------------------ surgery */

void ward_test_blob_fix(uint8_t *buf, size_t len)
{
	uint8_t d[32];

	ward_test_st64(buf + WARD_BLOB_OFF_LENGTH, len);
	ward_blob_content_digest(buf, len, d);
	memcpy(buf + WARD_BLOB_OFF_DIGEST, d, 32);
}

size_t ward_test_blob_section(const uint8_t *buf, unsigned i, size_t *len)
{
	const uint8_t *d =
	    buf + WARD_BLOB_HDR_SIZE + (size_t)i * WARD_BLOB_DIRENT_SIZE;

	*len = (size_t)ward_le64(d + 16);
	return (size_t)ward_le64(d + 8);
}

struct sec {
	uint32_t type, flags;
	const uint8_t *data;
	size_t len;
};

/* Lay out header, directory and sections anew. */
static int rebuild(uint8_t **buf, size_t *len, const struct sec *s, unsigned n)
{
	size_t total = WARD_BLOB_HDR_SIZE + (size_t)n * WARD_BLOB_DIRENT_SIZE;
	size_t off = total;
	uint8_t *nb;

	for (unsigned i = 0; i < n; i++)
		total += (s[i].len + 7) & ~(size_t)7;
	if (!(nb = calloc(1, total)))
		return -1;
	memcpy(nb, *buf, WARD_BLOB_HDR_SIZE);
	ward_test_st16(nb + WARD_BLOB_OFF_NSECT, (uint16_t)n);
	for (unsigned i = 0; i < n; i++) {
		uint8_t *d =
		    nb + WARD_BLOB_HDR_SIZE + (size_t)i * WARD_BLOB_DIRENT_SIZE;
		size_t padded = (s[i].len + 7) & ~(size_t)7;

		ward_test_st32(d, s[i].type);
		ward_test_st32(d + 4, s[i].flags);
		ward_test_st64(d + 8, off);
		ward_test_st64(d + 16, padded);
		if (s[i].len)
			memcpy(nb + off, s[i].data, s[i].len);
		off += padded;
	}
	ward_test_blob_fix(nb, total);
	free(*buf);
	*buf = nb;
	*len = total;
	return 0;
}

static unsigned sections_of(const uint8_t *buf, struct sec *s, unsigned max)
{
	unsigned n = ward_le16(buf + WARD_BLOB_OFF_NSECT);

	for (unsigned i = 0; i < n && i < max; i++) {
		const uint8_t *d = buf + WARD_BLOB_HDR_SIZE +
				   (size_t)i * WARD_BLOB_DIRENT_SIZE;
		s[i] = (struct sec){ward_le32(d), ward_le32(d + 4),
				    buf + ward_le64(d + 8),
				    (size_t)ward_le64(d + 16)};
	}
	return n < max ? n : max;
}

int ward_test_blob_insert(uint8_t **buf, size_t *len, unsigned i, uint32_t type,
			  uint32_t flags, const void *data, size_t n)
{
	struct sec s[33];
	unsigned ns = sections_of(*buf, s, 32);

	if (i > ns)
		i = ns;
	memmove(&s[i + 1], &s[i], (ns - i) * sizeof(s[0]));
	s[i] = (struct sec){type, flags, data, n};
	return rebuild(buf, len, s, ns + 1);
}

int ward_test_blob_remove(uint8_t **buf, size_t *len, unsigned i)
{
	struct sec s[32];
	unsigned ns = sections_of(*buf, s, 32);

	if (i < ns) {
		memmove(&s[i], &s[i + 1], (ns - i - 1) * sizeof(s[0]));
		ns--;
	}
	return rebuild(buf, len, s, ns);
}

/* -------------------------------------------------------------- corpus */

static int save(const char *dir, const char *name, const uint8_t *buf,
		size_t len, ward_err *err)
{
	char path[4096];
	_cleanup_close_ int fd = -1;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return ward_fail(err, errno, "open %s", path);
	if (write(fd, buf, len) != (ssize_t)len)
		return ward_fail(err, errno, "write %s", path);
	return 0;
}

int ward_test_blob_write_corpus(const char *dir, ward_err *err)
{
	struct ward_policy p;
	struct ward_mount bad_mounts[ARRAY_LEN(rich_mounts)];
	_cleanup_free_ uint8_t *mini = NULL, *full = NULL, *arm = NULL,
			       *tmp = NULL;
	size_t nmini, nfull, narm, ntmp, off, slen;
	static const uint8_t later[16] = "a later section";
	int files = 0;

	if (ward_blob_write(&minimal, &mini, &nmini, err) < 0 ||
	    ward_blob_write(&rich, &full, &nfull, err) < 0)
		return -1;
	p = rich;
	p.arch = p.seccomp.arch = WARD_ARCH_AARCH64;
	if (ward_blob_write(&p, &arm, &narm, err) < 0)
		return -1;
	if (save(dir, "minimal.wardb", mini, nmini, err) < 0 ||
	    save(dir, "rich.wardb", full, nfull, err) < 0 ||
	    save(dir, "rich-aarch64.wardb", arm, narm, err) < 0 ||
	    save(dir, "truncated.wardb", full, nfull / 2, err) < 0)
		return -1;
	files += 4;

	/* A later, non-critical section (valid), and a critical one. */
	if (!(tmp = malloc(nfull)))
		return ward_fail(err, ENOMEM, "corpus");
	memcpy(tmp, full, nfull);
	ntmp = nfull;
	if (ward_test_blob_insert(&tmp, &ntmp, 8, 12, 0, later, 16) < 0 ||
	    save(dir, "later-section.wardb", tmp, ntmp, err) < 0)
		return -1;
	ward_test_st32(tmp + WARD_BLOB_HDR_SIZE + 8 * WARD_BLOB_DIRENT_SIZE + 4,
		       WARD_BLOB_SEC_CRITICAL);
	ward_test_blob_fix(tmp, ntmp);
	if (save(dir, "later-critical.wardb", tmp, ntmp, err) < 0)
		return -1;
	files += 2;

	/* Bad digest; huge env count with the digest fixed. */
	memcpy(tmp, full, nfull);
	tmp[nfull - 1] ^= 1;
	if (save(dir, "bad-digest.wardb", tmp, nfull, err) < 0)
		return -1;
	memcpy(tmp, full, nfull);
	off = ward_test_blob_section(tmp, 2, &slen);
	ward_test_st32(tmp + off, 0xffffffffu);
	ward_test_blob_fix(tmp, nfull);
	if (save(dir, "huge-count.wardb", tmp, nfull, err) < 0)
		return -1;
	files += 2;

	/* A relative destination, through the unchecked writer. */
	memcpy(bad_mounts, rich_mounts, sizeof(bad_mounts));
	bad_mounts[2].dst = "data";
	p = rich;
	p.mounts = bad_mounts;
	free(tmp);
	tmp = NULL;
	if (ward_blob_write_unchecked(&p, &tmp, &ntmp, err) < 0 ||
	    save(dir, "relative-dst.wardb", tmp, ntmp, err) < 0)
		return -1;
	return files + 1;
}
