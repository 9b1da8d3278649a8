/* SPDX-License-Identifier: MIT */
/*
 * probe: attacks and observations from inside the sandbox, for the
 * end-to-end tests. Statically linked, so it runs in any mount table.
 *
 *   probe CMD [ARG] [CMD [ARG]]...
 *
 * Prints one line per command: "CMD RESULT", RESULT being "ok", an errno
 * name (EPERM), or the observation. The x32 and int80 commands should not
 * return: the seccomp filter kills the process.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/keyctl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

extern char **environ;

static void result(const char *cmd, long rc)
{
	const char *e = rc < 0 ? strerrorname_np(errno) : NULL;

	printf("%s %s\n", cmd, rc < 0 ? (e ? e : "E?") : "ok");
	fflush(stdout);
}

static void list_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	printf("fds");
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d))
			printf(" %s", e->d_name);
	printf("\n");
	if (d)
		closedir(d);
}

/* Lines of /proc/self/status that say what the process may do. */
static void caps(void)
{
	static const char *const keys[] = {"CapInh",  "CapPrm", "CapEff",
					   "CapBnd",  "CapAmb", "NoNewPrivs",
					   "Seccomp:"};
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];

	printf("caps");
	while (f && fgets(line, sizeof(line), f))
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strncmp(line, keys[i], strlen(keys[i]))) {
				char *v = line + strcspn(line, ":") + 1;

				v += strspn(v, " \t");
				v[strcspn(v, "\n")] = '\0';
				printf(" %.*s=%s", (int)strcspn(line, ":"),
				       line, v);
			}
	printf("\n");
	if (f)
		fclose(f);
}

/* "mnt MOUNTPOINT OPTIONS" for every mount (mountinfo fields 5 and 6). */
static void mounts(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];

	while (f && fgets(line, sizeof(line), f)) {
		char *fld[6], *save = NULL, *p = line;
		int n = 0;

		while (n < 6 && (fld[n] = strtok_r(p, " ", &save)))
			p = NULL, n++;
		if (n == 6)
			printf("mnt %s %s\n", fld[4], fld[5]);
	}
	if (f)
		fclose(f);
}

static int zombies(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		char path[300], buf[512], *p;
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
		    p[1] == ' ' && p[2] == 'Z')
			n++;
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

static void doublefork(void)
{
	pid_t child = fork();

	if (child == 0) {
		if (fork() == 0) {
			usleep(100000);
			_exit(0); /* orphaned: init must reap it */
		}
		_exit(0);
	}
	waitpid(child, NULL, 0);
	usleep(400000);
	printf("zombies %d\n", zombies());
}

static long int80_getpid(void)
{
#if defined(__x86_64__)
	long rc;

	__asm__ volatile("int $0x80" : "=a"(rc) : "a"(20L) : "memory");
	return rc;
#else
	return -1;
#endif
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *c = argv[i], *arg = i + 1 < argc ? argv[i + 1] : "";

		if (!strcmp(c, "ids")) {
			uid_t r, e, s;
			gid_t rg, eg, sg;

			getresuid(&r, &e, &s);
			getresgid(&rg, &eg, &sg);
			printf("ids %u %u %u %u %u %u\n", r, e, s, rg, eg, sg);
		} else if (!strcmp(c, "landlock-abi")) {
			/* LANDLOCK_CREATE_RULESET_VERSION; 0: none */
			long abi = syscall(444, NULL, 0, 1u);

			printf("landlock-abi %ld\n", abi < 0 ? 0 : abi);
		} else if (!strcmp(c, "mount")) {
			result(c, mount("none", "/tmp", "tmpfs", 0, NULL));
		} else if (!strcmp(c, "unshare-user")) {
			result(c, unshare(CLONE_NEWUSER));
		} else if (!strcmp(c, "unshare-mnt")) {
			result(c, unshare(CLONE_NEWNS));
		} else if (!strcmp(c, "ptrace")) {
			result(c, ptrace(PTRACE_ATTACH, 1, 0, 0));
		} else if (!strcmp(c, "keyctl")) {
			result(c,
			       syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING,
				       "probe"));
		} else if (!strcmp(c, "bpf")) {
			union bpf_attr a = {.map_type = BPF_MAP_TYPE_ARRAY,
					    .key_size = 4,
					    .value_size = 4,
					    .max_entries = 1};

			result(c,
			       syscall(SYS_bpf, BPF_MAP_CREATE, &a, sizeof(a)));
		} else if (!strcmp(c, "tiocsti")) {
			char ch = ' ';

			result(c, ioctl(atoi(arg), TIOCSTI, &ch));
			i++;
		} else if (!strcmp(c, "write")) {
			int fd = open(arg, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			result(c, fd < 0 ? -1 : write(fd, "probe\n", 6));
			i++;
		} else if (!strcmp(c, "open-w")) {
			result(c, open(arg, O_WRONLY));
			i++;
		} else if (!strcmp(c, "stat")) {
			struct stat st;

			result(c, stat(arg, &st));
			i++;
		} else if (!strcmp(c, "env")) {
			for (char **e = environ; *e; e++)
				printf("env %s\n", *e);
		} else if (!strcmp(c, "caps")) {
			caps();
		} else if (!strcmp(c, "mounts")) {
			mounts();
		} else if (!strcmp(c, "rlimits")) {
			struct rlimit n, co;

			getrlimit(RLIMIT_NOFILE, &n);
			getrlimit(RLIMIT_CORE, &co);
			printf("rlimits nofile=%llu/%llu core=%llu/%llu\n",
			       (unsigned long long)n.rlim_cur,
			       (unsigned long long)n.rlim_max,
			       (unsigned long long)co.rlim_cur,
			       (unsigned long long)co.rlim_max);
		} else if (!strcmp(c, "stdin")) {
			char buf[128] = "";
			ssize_t r = read(0, buf, sizeof(buf) - 1);

			buf[r > 0 ? r : 0] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			printf("stdin %zd %s\n", r, buf);
		} else if (!strcmp(c, "fds")) {
			list_fds();
		} else if (!strcmp(c, "hostname")) {
			char h[128] = "";

			gethostname(h, sizeof(h));
			printf("hostname %s\n", h);
		} else if (!strcmp(c, "netif")) {
			struct if_nameindex *ifs = if_nameindex(), *p;

			printf("netif");
			for (p = ifs; p && p->if_name; p++) {
				struct ifreq ifr = {0};
				int s = socket(AF_INET, SOCK_DGRAM, 0);

				snprintf(ifr.ifr_name, IFNAMSIZ, "%s",
					 p->if_name);
				ioctl(s, SIOCGIFFLAGS, &ifr);
				printf(" %s%s", p->if_name,
				       ifr.ifr_flags & IFF_UP ? ":up"
							      : ":down");
				close(s);
			}
			printf("\n");
		} else if (!strcmp(c, "x32")) {
			fflush(stdout);
			result(c, syscall(0x40000000 | SYS_getpid));
		} else if (!strcmp(c, "int80")) {
			fflush(stdout);
			printf("int80 %s\n",
			       int80_getpid() > 0 ? "ok" : "failed");
		} else if (!strcmp(c, "doublefork")) {
			doublefork();
		} else if (!strcmp(c, "sleep")) {
			sleep((unsigned)atoi(arg));
			i++;
		} else if (!strcmp(c, "sigpipe")) {
			int pp[2];

			if (pipe(pp) == 0) {
				close(pp[0]);
				result(c,
				       write(pp[1], "x", 1)); /* dies first */
			}
		} else if (!strcmp(c, "exit")) {
			exit(atoi(arg));
		} else if (!strcmp(c, "kill")) {
			kill(getpid(), atoi(arg));
			i++;
		} else {
			printf("%s unknown\n", c);
		}
		fflush(stdout);
	}
	return 0;
}
