/* SPDX-License-Identifier: MIT */
/*
 * privilege.c: the privilege mode, the refusal to run setuid, the id maps
 * of the sandbox's user namespace, and why a host forbids one.
 */
#include "privilege.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>

int ward_priv_detect(struct ward_priv *p, int64_t host_uid, int64_t host_gid,
		     ward_err *err)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0)
		return ward_fail(err, errno, "getresuid");
	/* A setuid or setgid ward would hand the caller's choice of policy,
	 * slots and program a privilege the caller does not have. */
	if (ru != eu || ru != su || rg != eg || rg != sg ||
	    getauxval(AT_SECURE))
		return ward_fail(err, 0,
				 "ward must not be installed setuid, setgid or "
				 "with file capabilities (uids %u/%u/%u, gids "
				 "%u/%u/%u): remove the bits and run it as the "
				 "caller, or as root",
				 ru, eu, su, rg, eg, sg);
	p->mode = eu == 0 ? WARD_MODE_ROOT : WARD_MODE_ROOTLESS;
	p->caller_uid = ru;
	p->caller_gid = rg;
	if (p->mode == WARD_MODE_ROOTLESS) {
		/* Only the caller's own ids can be mapped without privilege. */
		if ((host_uid >= 0 && (uid_t)host_uid != ru) ||
		    (host_gid >= 0 && (gid_t)host_gid != rg))
			return ward_fail(err, 0,
					 "--host-uid/--host-gid need root: "
					 "rootless, the sandbox user is always "
					 "your own uid %u and gid %u",
					 ru, rg);
		p->host_uid = ru;
		p->host_gid = rg;
		return 0;
	}
	p->host_uid = host_uid >= 0 ? (uid_t)host_uid : WARD_DEFAULT_HOST_ID;
	p->host_gid = host_gid >= 0 ? (gid_t)host_gid : WARD_DEFAULT_HOST_ID;
	if (p->host_uid == 0 || p->host_gid == 0)
		return ward_fail(
		    err, 0,
		    "--host-uid/--host-gid 0: the sandbox is never "
		    "host root; pick an unprivileged id");
	return 0;
}

/* The name of group gid in /etc/group, or "" (no NSS in a static ward). */
static void group_name(gid_t gid, char *buf, size_t len)
{
	_cleanup_fclose_ FILE *f = fopen("/etc/group", "re");
	char line[512];

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *name = strtok(line, ":"), *pw = strtok(NULL, ":"),
		     *id = strtok(NULL, ":");

		if (name && pw && id && strtoul(id, NULL, 10) == gid) {
			snprintf(buf, len, "%s", name);
			return;
		}
	}
}

int ward_priv_check_groups(const struct ward_priv *p, bool accept,
			   ward_err *err)
{
	gid_t g[64];
	char list[300] = "";
	size_t off = 0;
	int n = 0, shown = 0;

	if (p->mode != WARD_MODE_ROOTLESS || accept)
		return 0;
	n = getgroups(ARRAY_LEN(g), g);
	if (n < 0)
		return ward_fail(err, errno, "getgroups");
	for (int i = 0; i < n; i++) {
		char name[64];

		if (g[i] == p->caller_gid)
			continue;
		group_name(g[i], name, sizeof(name));
		if (off < sizeof(list))
			off += (size_t)snprintf(
			    list + off, sizeof(list) - off, "%s%s%s%u%s",
			    shown ? ", " : "", name, name[0] ? " (" : "",
			    (unsigned)g[i], name[0] ? ")" : "");
		shown++;
	}
	if (!shown)
		return 0;
	return ward_fail(
	    err, 0,
	    "rootless, the sandbox would keep your supplementary "
	    "group%s %s, and with them access to what those groups "
	    "may read: an unprivileged user namespace cannot drop "
	    "them. Start ward without them (`setpriv "
	    "--clear-groups ...`, `sg GROUP ...`, or a service user "
	    "that has none), or let the policy accept them "
	    "(identity { groups keep; })",
	    shown > 1 ? "s" : "", list);
}

/* The lock file of the runs' ids: root's alone, never a symlink. */
static int open_id_file(const char *path, ward_err *err)
{
	char dir[256];
	const char *slash = strrchr(path, '/');
	struct stat st;
	int fd;

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return ward_fail(err, EINVAL, "%s", path);
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (mkdir(dir, 0711) < 0 && errno != EEXIST)
		return ward_fail(err, errno, "mkdir %s", dir);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
		  0600);
	if (fd < 0)
		return ward_fail(err, errno, "open %s", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 077)) {
		close(fd);
		return ward_fail(err, 0,
				 "%s must be a regular file, root's, 0600 (it "
				 "holds the runs' ids)",
				 path);
	}
	return fd;
}

int ward_priv_run_ids(struct ward_priv *p, const char *path, int *lock_fd,
		      ward_err *err)
{
	_cleanup_close_ int fd = -1;
	uint32_t start;

	if (p->mode != WARD_MODE_ROOT)
		return 0;
	if ((fd = open_id_file(path, err)) < 0)
		return -1;
	/* Anywhere in the block: concurrent launches rarely try the same
	 * id, and one that is taken is skipped. */
	if (getrandom(&start, sizeof(start), 0) != sizeof(start))
		return ward_fail(err, errno, "getrandom");
	for (uint32_t i = 0; i < WARD_RUN_ID_COUNT; i++) {
		uint32_t k = (start + i) % WARD_RUN_ID_COUNT;
		/* Byte k of the file is id k's: an open-file-description
		 * lock, held by this descriptor and gone with it (and with
		 * ward, if it dies). */
		struct flock fl = {.l_type = F_WRLCK,
				   .l_whence = SEEK_SET,
				   .l_start = (off_t)k,
				   .l_len = 1};

		if (fcntl(fd, F_OFD_SETLK, &fl) == 0) {
			p->host_uid = WARD_RUN_ID_FIRST + k;
			p->host_gid = WARD_RUN_ID_FIRST + k;
			p->run_ids = true;
			*lock_fd = steal_fd(&fd);
			return 0;
		}
		if (errno != EAGAIN && errno != EACCES)
			return ward_fail(err, errno, "lock id %u in %s",
					 WARD_RUN_ID_FIRST + k, path);
	}
	return ward_fail(err, 0,
			 "all %u of ward's run ids are in use (%s): too many "
			 "runs at once",
			 WARD_RUN_ID_COUNT, path);
}

const char *ward_mode_name(enum ward_mode m)
{
	return m == WARD_MODE_ROOT ? "root" : "rootless";
}

static int write_at(int dirfd, const char *name, const char *text,
		    ward_err *err)
{
	_cleanup_close_ int fd =
	    openat(dirfd, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	size_t n = strlen(text);

	if (fd < 0)
		return ward_fail(err, errno, "open /proc/PID/%s", name);
	if (write(fd, text, n) != (ssize_t)n)
		return ward_fail(err, errno, "write /proc/PID/%s \"%.*s\"",
				 name, (int)strcspn(text, "\n"), text);
	return 0;
}

int ward_priv_write_maps(const struct ward_priv *p, pid_t pid, uint32_t uid,
			 uint32_t gid, ward_err *err)
{
	char path[32], map[64];
	struct statfs sfs;
	_cleanup_close_ int dirfd = -1;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	dirfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return ward_fail(err, errno, "open %s", path);
	/* The maps decide who the sandbox is on the host: make sure the
	 * writes land on procfs and not on something mounted over /proc
	 * (the lesson of CVE-2019-16884). */
	if (fstatfs(dirfd, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC)
		return ward_fail(err, 0, "%s is not on procfs", path);
	/* Deny setgroups in both modes: the sandbox can never drop a group
	 * that denies it access to something. */
	if (write_at(dirfd, "setgroups", "deny", err) < 0)
		return -1;
	snprintf(map, sizeof(map), "%u %u 1\n", uid, (unsigned)p->host_uid);
	if (write_at(dirfd, "uid_map", map, err) < 0)
		return -1;
	snprintf(map, sizeof(map), "%u %u 1\n", gid, (unsigned)p->host_gid);
	return write_at(dirfd, "gid_map", map, err);
}

/* The first line of procsys/rel, or "" if it cannot be read. */
static const char *sysctl(const char *procsys, const char *rel, char *buf,
			  size_t len)
{
	char path[512];
	_cleanup_close_ int fd = -1;
	ssize_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", procsys, rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		n = read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

const char *ward_userns_explain(const char *procsys, char *buf, size_t len)
{
	char v[32];

	buf[0] = '\0';
	if (!strcmp(sysctl(procsys, "kernel/unprivileged_userns_clone", v,
			   sizeof(v)),
		    "0"))
		snprintf(buf, len,
			 "this kernel forbids unprivileged user namespaces "
			 "(kernel.unprivileged_userns_clone = 0): run "
			 "`sysctl kernel.unprivileged_userns_clone=1` as root, "
			 "or run ward as root");
	else if (!strcmp(
		     sysctl(procsys, "user/max_user_namespaces", v, sizeof(v)),
		     "0"))
		snprintf(buf, len,
			 "user namespaces are disabled "
			 "(user.max_user_namespaces = 0): run `sysctl "
			 "user.max_user_namespaces=15000` as root, or run ward "
			 "as root");
	else if (!strcmp(sysctl(procsys,
				"kernel/apparmor_restrict_unprivileged_userns",
				v, sizeof(v)),
			 "1"))
		snprintf(buf, len,
			 "AppArmor restricts unprivileged user namespaces "
			 "(kernel.apparmor_restrict_unprivileged_userns = 1, "
			 "Ubuntu 23.10 and later): install an AppArmor profile "
			 "for ward that allows `userns,`, or run ward as root");
	return buf;
}
