/* SPDX-License-Identifier: MIT */
/*
 * mkblob: write a policy blob for the end-to-end tests, without wardc.
 *
 *   mkblob OUT ITEM...
 *
 * Items (in mount order for the fs ones; the root tmpfs is always first):
 *   name=S uid=N gid=N hostname=S caps=HEX req=HEX net=allowlist
 *   env:NAME=VALUE  inherit:NAME  limit:NAME=N  root:SIZE[:MODE]
 *   bind:SRC:DST[:FLAGS]  slot:NAME:DST[:FLAGS]   FLAGS: rw,exec,optional,
 *       llro (the Landlock rule is made as if the entry were read-only:
 *       a mount-table entry whose ro flag was removed by hand)
 *   tmpfs:DST:SIZE[:MODE]  proc:DST  dev:DST  dir:DST[:MODE]
 *   file:DST:MODE:CONTENT (\n in CONTENT is a newline)  symlink:DST:TARGET
 *   seccomp-default:ACTION   seccomp:ACTION:NAME[,NAME...]
 *       ACTION: allow, kill, trap, log, errno=N
 *   landlock=prefer|require[:ABI]   the rule set wardc derives from the
 *       mount table (compiler/codegen/landlock_rules.c); ABI: another
 *   arch=aarch64   corrupt=truncate|digest|overlap|hugecount|wrongarch
 *   bpf-out=FILE   also write the raw seccomp program there (for bwrap)
 *
 * The seccomp program is made with libseccomp here, as wardc does; the
 * launcher never links libseccomp.
 */
#include "blob.h"
#include "blob_read.h"
#include "blob_write.h"
#include "landlock_rules.h"

#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAXN 64

static struct ward_policy pol;
static struct ward_env_var envs[MAXN];
static struct ward_mount mnts[MAXN];
static scmp_filter_ctx ctx;
static uint32_t scmp_default = SCMP_ACT_ALLOW;
static const char *rules[MAXN];
static int nrules;
static const char *corrupt, *bpf_out;
static bool ll_ro[MAXN];
static uint32_t ll_mode, ll_abi;

static _Noreturn void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "mkblob: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	switch (*end) {
	case 'K':
		return v << 10;
	case 'M':
		return v << 20;
	case 'G':
		return v << 30;
	case '\0':
		return v;
	}
	die("bad number %s", s);
}

/* Split s at ':' into at most n fields (the last takes the rest). */
static int split(char *s, char **f, int n)
{
	int k = 0;

	while (k < n - 1) {
		char *c = strchr(s, ':');

		f[k++] = s;
		if (!c)
			return k;
		*c = '\0';
		s = c + 1;
	}
	f[k++] = s;
	return k;
}

static uint32_t flags_of(const char *s)
{
	uint32_t f = 0;

	if (!s)
		return 0;
	if (strstr(s, "rw"))
		f |= WARD_MNT_F_RW;
	if (strstr(s, "exec") && !strstr(s, "noexec"))
		f |= WARD_MNT_F_EXEC;
	if (strstr(s, "optional"))
		f |= WARD_MNT_F_OPTIONAL;
	return f;
}

static char *unescape(char *s)
{
	char *r = s, *w = s;

	for (; *r; r++) {
		if (r[0] == '\\' && r[1] == 'n') {
			*w++ = '\n';
			r++;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	return s;
}

static uint32_t action(const char *s)
{
	if (!strcmp(s, "allow"))
		return SCMP_ACT_ALLOW;
	if (!strcmp(s, "kill"))
		return SCMP_ACT_KILL_PROCESS;
	if (!strcmp(s, "trap"))
		return SCMP_ACT_TRAP;
	if (!strcmp(s, "log"))
		return SCMP_ACT_LOG;
	if (!strncmp(s, "errno=", 6))
		return SCMP_ACT_ERRNO((uint32_t)num(s + 6));
	die("bad action %s", s);
}

static const char *const limit_names[WARD_LIM_COUNT] = {
    "memory",  "swap",	 "cpu",	     "pids",  "wall",  "grace",
    "cputime", "nofile", "filesize", "nproc", "stack", "memlock",
    "core",    "stdout", "stderr",   "output"};

static struct ward_mount *mount_add(uint32_t kind, const char *dst)
{
	struct ward_mount *m = &mnts[pol.nmounts++];

	if (pol.nmounts >= MAXN)
		die("too many mounts%s", "");
	m->kind = kind;
	m->dst = dst;
	m->mode = 0755;
	return m;
}

static void item(char *a)
{
	char *f[4] = {0};
	struct ward_mount *m;

	if (!strncmp(a, "name=", 5))
		pol.meta.policy_name = a + 5;
	else if (!strncmp(a, "uid=", 4))
		pol.identity.uid = (uint32_t)num(a + 4);
	else if (!strncmp(a, "gid=", 4))
		pol.identity.gid = (uint32_t)num(a + 4);
	else if (!strncmp(a, "hostname=", 9))
		pol.identity.hostname = a + 9;
	else if (!strncmp(a, "caps=", 5))
		pol.identity.caps_keep = num(a + 5);
	else if (!strncmp(a, "req=", 4))
		pol.requirements = (uint32_t)num(a + 4);
	else if (!strcmp(a, "net=allowlist"))
		pol.net.mode = WARD_NET_ALLOWLIST;
	else if (!strcmp(a, "arch=aarch64"))
		pol.arch = WARD_ARCH_AARCH64;
	else if (!strncmp(a, "landlock=", 9)) {
		split(a + 9, f, 2);
		ll_mode = !strcmp(f[0], "require") ? WARD_LANDLOCK_REQUIRE
						   : WARD_LANDLOCK_PREFER;
		ll_abi = f[1] ? (uint32_t)num(f[1]) : 0;
	} else if (!strncmp(a, "corrupt=", 8))
		corrupt = a + 8;
	else if (!strncmp(a, "bpf-out=", 8))
		bpf_out = a + 8;
	else if (!strncmp(a, "env:", 4)) {
		char *eq = strchr(a + 4, '=');

		if (!eq)
			die("bad env %s", a);
		*eq = '\0';
		envs[pol.nenv++] = (struct ward_env_var){a + 4, eq + 1};
	} else if (!strncmp(a, "inherit:", 8)) {
		envs[pol.nenv++] = (struct ward_env_var){a + 8, NULL};
	} else if (!strncmp(a, "limit:", 6)) {
		char *eq = strchr(a + 6, '=');
		int k;

		if (!eq)
			die("bad limit %s", a);
		*eq = '\0';
		for (k = 0; k < WARD_LIM_COUNT; k++)
			if (!strcmp(limit_names[k], a + 6))
				break;
		if (k == WARD_LIM_COUNT)
			die("unknown limit %s", a + 6);
		pol.limits.set |= 1ull << k;
		pol.limits.value[k] = num(eq + 1);
	} else if (!strncmp(a, "root:", 5)) {
		split(a + 5, f, 2);
		mnts[0].size = num(f[0]);
		if (f[1])
			mnts[0].mode = (uint32_t)strtoul(f[1], NULL, 8);
	} else if (!strncmp(a, "bind:", 5) || !strncmp(a, "slot:", 5)) {
		split(a + 5, f, 3);
		if (!f[1])
			die("bad %s", a);
		m = mount_add(a[0] == 'b' ? WARD_MNT_BIND : WARD_MNT_SLOT,
			      f[1]);
		m->src = f[0];
		m->flags = flags_of(f[2]);
		ll_ro[pol.nmounts - 1] = f[2] && strstr(f[2], "llro");
		m->mode = 0;
		/* a read-write slot is a tmpfs of a size (spec 3.5) */
		if (a[0] == 's' && (m->flags & WARD_MNT_F_RW))
			m->size = WARD_SLOT_SIZE_DEFAULT;
	} else if (!strncmp(a, "tmpfs:", 6)) {
		split(a + 6, f, 3);
		if (!f[1])
			die("bad %s", a);
		m = mount_add(WARD_MNT_TMPFS, f[0]);
		m->size = num(f[1]);
		m->flags = WARD_MNT_F_RW;
		if (f[2])
			m->mode = (uint32_t)strtoul(f[2], NULL, 8);
	} else if (!strncmp(a, "proc:", 5)) {
		mount_add(WARD_MNT_PROC, a + 5)->mode = 0;
	} else if (!strncmp(a, "dev:", 4)) {
		mount_add(WARD_MNT_DEV, a + 4)->mode = 0;
	} else if (!strncmp(a, "dir:", 4)) {
		split(a + 4, f, 2);
		m = mount_add(WARD_MNT_DIR, f[0]);
		if (f[1])
			m->mode = (uint32_t)strtoul(f[1], NULL, 8);
	} else if (!strncmp(a, "file:", 5)) {
		split(a + 5, f, 3);
		if (!f[2])
			die("bad %s", a);
		m = mount_add(WARD_MNT_FILE, f[0]);
		m->mode = (uint32_t)strtoul(f[1], NULL, 8);
		m->data = (const uint8_t *)unescape(f[2]);
		m->data_len = strlen(f[2]);
	} else if (!strncmp(a, "symlink:", 8)) {
		split(a + 8, f, 2);
		if (!f[1])
			die("bad %s", a);
		m = mount_add(WARD_MNT_SYMLINK, f[0]);
		m->src = f[1];
		m->mode = 0;
	} else if (!strncmp(a, "seccomp-default:", 16)) {
		scmp_default = action(a + 16);
	} else if (!strncmp(a, "seccomp:", 8)) {
		rules[nrules++] = a + 8;
	} else {
		die("unknown item %s", a);
	}
}

static void make_seccomp(void)
{
	uint32_t arch = pol.arch == WARD_ARCH_AARCH64 ? SCMP_ARCH_AARCH64
						      : SCMP_ARCH_NATIVE;
	int fd = memfd_create("bpf", 0);
	struct sock_filter *insns;
	off_t size;

	ctx = seccomp_init(scmp_default);
	if (!ctx || fd < 0)
		die("seccomp_init%s", "");
	if (arch != SCMP_ARCH_NATIVE &&
	    (seccomp_arch_add(ctx, arch) ||
	     seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE)))
		die("seccomp arch%s", "");
	seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	for (int i = 0; i < nrules; i++) {
		char *copy = strdup(rules[i]), *names = strrchr(copy, ':');
		uint32_t act;

		if (!names)
			die("bad seccomp rule %s", rules[i]);
		*names++ = '\0';
		act = action(copy);
		for (char *n = strtok(names, ","); n; n = strtok(NULL, ",")) {
			int nr = seccomp_syscall_resolve_name_arch(arch, n);

			if (nr == __NR_SCMP_ERROR)
				die("unknown syscall %s", n);
			if (seccomp_rule_add(ctx, act, nr, 0))
				die("seccomp_rule_add %s", n);
		}
		free(copy);
	}
	if (seccomp_export_bpf(ctx, fd))
		die("seccomp_export_bpf%s", "");
	size = lseek(fd, 0, SEEK_END);
	insns = malloc((size_t)size);
	if (!insns || pread(fd, insns, (size_t)size, 0) != size)
		die("read bpf%s", "");
	pol.seccomp.arch = pol.arch;
	pol.seccomp.insns = insns;
	pol.seccomp.ninsns = (uint32_t)(size / (off_t)sizeof(*insns));
	close(fd);
}

static char *cat(void *ctx, const char *dir, const char *name)
{
	char *s = malloc(strlen(dir) + strlen(name) + 2);

	(void)ctx;
	if (!s)
		die("out of memory%s", "");
	sprintf(s, "%s/%s", strcmp(dir, "/") ? dir : "", name);
	return s;
}

/* What wardc would derive, from the mount table as it was before the
 * llro entries lost their read-only flag. */
static void make_landlock(void)
{
	static struct ward_mount as_written[MAXN];
	static struct ward_landlock_rule rules[3 * MAXN];

	if (!ll_mode)
		return;
	memcpy(as_written, mnts, sizeof(mnts));
	for (uint32_t i = 0; i < pol.nmounts; i++)
		if (ll_ro[i])
			as_written[i].flags &= ~(uint32_t)WARD_MNT_F_RW;
	ward_landlock_derive(&pol.landlock, rules, as_written, pol.nmounts, cat,
			     NULL);
	pol.landlock.mode = ll_mode;
	if (ll_abi)
		pol.landlock.abi = ll_abi;
	if (ll_mode == WARD_LANDLOCK_REQUIRE)
		pol.requirements |= WARD_REQ_LANDLOCK;
}

/* Directory entry of the section of the given type, or NULL. */
static uint8_t *dirent_of(uint8_t *buf, uint32_t type)
{
	unsigned n = ward_le16(buf + WARD_BLOB_OFF_NSECT);

	for (unsigned i = 0; i < n; i++) {
		uint8_t *d =
		    buf + WARD_BLOB_HDR_SIZE + i * WARD_BLOB_DIRENT_SIZE;

		if (ward_le32(d) == type)
			return d;
	}
	return NULL;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void damage(uint8_t *buf, size_t *len)
{
	uint8_t *d;

	if (!strcmp(corrupt, "truncate")) {
		*len -= 40;
		return;
	}
	if (!strcmp(corrupt, "digest")) {
		buf[*len - 1] ^= 0x01;
		return;
	}
	if (!strcmp(corrupt, "overlap")) {
		d = buf + WARD_BLOB_HDR_SIZE + WARD_BLOB_DIRENT_SIZE;
		put32(d + 8, ward_le32(d + 8) - 8);
	} else if (!strcmp(corrupt, "hugecount")) {
		d = dirent_of(buf, WARD_SEC_MOUNTS);
		put32(buf + ward_le64(d + 8), 0xfffffff0u);
	} else if (!strcmp(corrupt, "wrongarch")) {
		put32(buf + WARD_BLOB_OFF_ARCH, WARD_ARCH_AARCH64);
	} else {
		die("unknown corruption %s", corrupt);
	}
	ward_blob_content_digest(buf, *len, buf + WARD_BLOB_OFF_DIGEST);
}

int main(int argc, char **argv)
{
	uint8_t *buf;
	size_t len;
	ward_err err = {0};
	FILE *f;

	if (argc < 2)
		die("usage: mkblob OUT ITEM...%s", "");
	pol.arch = WARD_ARCH_X86_64;
	pol.meta.policy_name = "e2e";
	pol.meta.compiler_version = "mkblob";
	pol.identity = (struct ward_identity){65534, 65534, "sandbox", "/", 0};
	pol.env = envs;
	pol.mounts = mnts;
	mnts[0] = (struct ward_mount){.kind = WARD_MNT_TMPFS,
				      .flags = WARD_MNT_F_RW,
				      .dst = "/",
				      .size = 1 << 20,
				      .mode = 0755};
	pol.nmounts = 1;
	for (int i = 2; i < argc; i++)
		item(argv[i]);
	make_seccomp();
	make_landlock();
	if (bpf_out) {
		f = fopen(bpf_out, "wb");
		if (!f ||
		    fwrite(pol.seccomp.insns, sizeof(struct sock_filter),
			   pol.seccomp.ninsns, f) != pol.seccomp.ninsns ||
		    fclose(f))
			die("write %s", bpf_out);
	}
	if (ward_blob_write_unchecked(&pol, &buf, &len, &err) < 0)
		die("%s", err.msg);
	if (corrupt)
		damage(buf, &len);
	f = fopen(argv[1], "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die("write %s", argv[1]);
	free(buf);
	return 0;
}
