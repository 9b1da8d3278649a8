/* SPDX-License-Identifier: MIT */
/*
 * atk: the kernel-surface attacks of tests/attacks, one call each, for the
 * attacks that a script cannot make (tests/e2e/probe.c has the others:
 * mount, unshare-user, ptrace of init, keyctl, bpf, TIOCSTI, x32, int 0x80,
 * capabilities). Statically linked: it runs from the input slot under any
 * profile, and outside the sandbox as the control.
 *
 *   atk CMD [ARGS] [CMD [ARGS]]...
 *
 * Prints one line per command, "CMD RESULT": "ok" (the call succeeded:
 * the attack worked), the errno's name (EPERM), or an observation. Every
 * call is made so that it changes nothing on a host where it succeeds
 * (invalid arguments after the permission checks, a value set to what it
 * already is), since the controls run it as root on the host.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fanotify.h>
#include <linux/io_uring.h>
#include <linux/perf_event.h>
#include <linux/userfaultfd.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void say(const char *cmd, long rc)
{
	const char *e = rc < 0 ? strerrorname_np(errno) : NULL;

	printf("%s %s\n", cmd, rc < 0 ? (e ? e : "E?") : "ok");
	fflush(stdout);
}

static int domain_of(const char *s)
{
	if (!strcmp(s, "inet"))
		return AF_INET;
	if (!strcmp(s, "inet6"))
		return AF_INET6;
	if (!strcmp(s, "packet"))
		return AF_PACKET;
	if (!strcmp(s, "netlink"))
		return AF_NETLINK;
	if (!strcmp(s, "unix"))
		return AF_UNIX;
	return atoi(s);
}

/* socket KIND: the sockets a sandbox should not be able to make. */
static long make_socket(const char *kind)
{
	if (!strcmp(kind, "raw"))
		return socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	if (!strcmp(kind, "raw6"))
		return socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
	if (!strcmp(kind, "packet"))
		return socket(AF_PACKET, SOCK_RAW, htons(0x0003));
	if (!strcmp(kind, "netlink"))
		return socket(AF_NETLINK, SOCK_RAW, 0 /* NETLINK_ROUTE */);
	if (!strcmp(kind, "icmp"))
		return socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
	if (!strcmp(kind, "tcp"))
		return socket(AF_INET, SOCK_STREAM, 0);
	if (!strcmp(kind, "udp"))
		return socket(AF_INET, SOCK_DGRAM, 0);
	if (!strcmp(kind, "tcp6"))
		return socket(AF_INET6, SOCK_STREAM, 0);
	return socket(domain_of(kind), SOCK_DGRAM, 0);
}

static int sockaddr_of(const char *addr, int port, struct sockaddr_storage *ss,
		       socklen_t *len)
{
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, addr, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons(port);
		*len = sizeof(*a4);
		return AF_INET;
	}
	if (inet_pton(AF_INET6, addr, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons(port);
		*len = sizeof(*a6);
		return AF_INET6;
	}
	errno = EINVAL;
	return -1;
}

/* connect ADDR PORT: a TCP connection with a 2 s limit. */
static long tcp_connect(const char *addr, int port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fam = sockaddr_of(addr, port, &ss, &len), s, err = 0;
	socklen_t el = sizeof(err);
	struct pollfd p;

	if (fam < 0)
		return -1;
	s = socket(fam, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (s < 0)
		return -1;
	if (connect(s, (struct sockaddr *)&ss, len) == 0)
		return close(s), 0;
	if (errno != EINPROGRESS)
		return -1;
	p = (struct pollfd){.fd = s, .events = POLLOUT};
	if (poll(&p, 1, 2000) != 1) {
		errno = ETIMEDOUT;
		return -1;
	}
	getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &el);
	close(s);
	errno = err;
	return err ? -1 : 0;
}

/* udp ADDR PORT TEXT: one datagram, no connect. */
static long udp_send(const char *addr, int port, const char *text)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fam = sockaddr_of(addr, port, &ss, &len), s;

	if (fam < 0)
		return -1;
	s = socket(fam, SOCK_DGRAM, 0);
	if (s < 0)
		return -1;
	return sendto(s, text, strlen(text), 0, (struct sockaddr *)&ss, len);
}

/* ping ADDR: one ICMP echo request, as ping(8) sends it unprivileged. */
static long ping(const char *addr)
{
	struct sockaddr_storage ss;
	socklen_t len;
	struct icmphdr h = {.type = ICMP_ECHO, .un.echo.sequence = htons(1)};
	int s;

	if (sockaddr_of(addr, 0, &ss, &len) != AF_INET)
		return -1;
	s = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
	if (s < 0)
		return -1;
	return sendto(s, &h, sizeof(h), 0, (struct sockaddr *)&ss, len);
}

/* abstract NAME: connect to the abstract unix socket @NAME. */
static long abstract_connect(const char *name)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	size_t n = strlen(name);

	if (s < 0)
		return -1;
	if (n > sizeof(a.sun_path) - 1)
		n = sizeof(a.sun_path) - 1;
	memcpy(a.sun_path + 1, name, n);
	return connect(s, (struct sockaddr *)&a,
		       offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

/* obh MOUNTPOINT INO: open_by_handle_at (the "shocker" escape): open inode
 * INO of the filesystem under MOUNTPOINT by a forged ext4 handle, which
 * reaches the filesystem's root whatever part of it is bound. On success,
 * list what it opened. */
static long open_by_handle(const char *mnt, unsigned ino)
{
	struct {
		struct file_handle fh;
		uint32_t ino_gen[2];
	} h = {.fh = {.handle_bytes = 8, .handle_type = 1 /* INO32_GEN */}};
	int m = open(mnt, O_RDONLY | O_DIRECTORY), fd;
	DIR *d;
	struct dirent *e;

	if (m < 0)
		return -1;
	h.ino_gen[0] = ino;
	h.ino_gen[1] = 0;
	fd = syscall(SYS_open_by_handle_at, m, &h.fh, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	printf("obh-sees");
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			printf(" %s", e->d_name);
	printf("\n");
	if (d)
		closedir(d);
	return 0;
}

static long perf_open(void)
{
	struct perf_event_attr a = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(a),
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .disabled = 1,
	    .exclude_kernel = 1,
	    .exclude_hv = 1,
	};

	return syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static long io_uring(void)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	return syscall(SYS_io_uring_setup, 4, &p);
}

/* clock: set the real-time clock to the time it has (no change). */
static long clock_set(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return clock_settime(CLOCK_REALTIME, &ts);
}

static long time_set(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return settimeofday(&tv, NULL);
}

/* ptrace-child: attach to a child of our own (the sandbox's own
 * process: only seccomp forbids it). */
static long ptrace_child(void)
{
	pid_t c = fork();
	long rc;

	if (c == 0) {
		pause();
		_exit(0);
	}
	rc = ptrace(PTRACE_ATTACH, c, 0, 0);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	return rc;
}

static long vm_read(pid_t pid)
{
	char buf[16];
	struct iovec l = {buf, sizeof(buf)},
		     r = {(void *)0x400000, sizeof(buf)};

	return process_vm_readv(pid, &l, 1, &r, 1, 0);
}

/* prlimit-raise: raise our own hard limit on open files. */
static long raise_limit(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) < 0)
		return -1;
	if (r.rlim_max == RLIM_INFINITY) {
		errno = EINVAL;
		return -1;
	}
	r.rlim_max += 1;
	r.rlim_cur = r.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &r);
}

static long clone_flags(unsigned long flags)
{
	long pid = syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

static unsigned long ns_flag(const char *s)
{
	static const struct {
		const char *name;
		unsigned long flag;
	} t[] = {{"user", CLONE_NEWUSER},    {"mnt", CLONE_NEWNS},
		 {"net", CLONE_NEWNET},	     {"pid", CLONE_NEWPID},
		 {"ipc", CLONE_NEWIPC},	     {"uts", CLONE_NEWUTS},
		 {"cgroup", CLONE_NEWCGROUP}};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(s, t[i].name))
			return t[i].flag;
	return 0;
}

/* zombies N: N children that exit at once and are never waited for; prints
 * how many zombies the process has, then exits (init inherits them). */
static void zombies(int n)
{
	int made = 0, z = 0;
	DIR *d;
	struct dirent *e;

	for (int i = 0; i < n; i++) {
		pid_t c = fork();

		if (c == 0)
			_exit(0);
		if (c < 0) {
			printf("zombies fork-failed-after %d %s\n", made,
			       strerrorname_np(errno));
			break;
		}
		made++;
	}
	usleep(300000);
	d = opendir("/proc");
	while (d && (e = readdir(d))) {
		char p[300], buf[512], *s;
		FILE *f;

		snprintf(p, sizeof(p), "/proc/%s/stat", e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && (s = strrchr(buf, ')')) &&
		    s[2] == 'Z')
			z++;
		fclose(f);
	}
	if (d)
		closedir(d);
	printf("zombies %d of %d\n", z, made);
	fflush(stdout);
}

/* daemon SECS MARK: double fork and setsid, the grandchild re-executes
 * itself as "atk sleep SECS MARK" (so that the host's process table shows
 * MARK), the attack returns at once. */
static void daemonize(const char *self, const char *secs, const char *mark)
{
	pid_t c = fork();

	if (c == 0) {
		setsid();
		if (fork() == 0) {
			int fd = open("/dev/null", O_RDWR);

			if (fd >= 0) {
				dup2(fd, 0);
				dup2(fd, 1);
				dup2(fd, 2);
			}
			execl(self, self, "sleep", secs, mark, (char *)NULL);
			_exit(127);
		}
		_exit(0);
	}
	waitpid(c, NULL, 0);
	printf("daemon started\n");
	fflush(stdout);
}

/* forkbomb SECS: fork until the kernel refuses, every child waiting; prints
 * how many and the errno, keeps them for SECS, then kills and reaps them
 * (so that the control, outside any sandbox, leaves nothing). */
static void forkbomb(int secs)
{
	static pid_t kids[10000];
	int n = 0, e = 0;

	while (n < (int)(sizeof(kids) / sizeof(kids[0]))) {
		pid_t c = fork();

		if (c == 0) {
			pause();
			_exit(0);
		}
		if (c < 0) {
			e = errno;
			break;
		}
		kids[n++] = c;
	}
	printf("forkbomb %d %s\n", n, e ? strerrorname_np(e) : "none");
	fflush(stdout);
	sleep(secs);
	for (int i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
}

/* The kernel's per-user counters (docs/spec.md 3.9): take up to n of one
 * and keep them (until the process exits), then print "NAME COUNT WHY":
 * how many were taken and why the next one was refused ("ok": n were). */
static void report_held(const char *name, long count, long n)
{
	const char *e = strerrorname_np(errno);

	printf("%s %ld %s\n", name, count, count == n ? "ok" : e ? e : "E?");
	fflush(stdout);
}

static void hold(const char *what, long n)
{
	long count = 0;

	errno = 0;
	if (!strcmp(what, "inotify")) {
		while (count < n && inotify_init1(IN_CLOEXEC) >= 0)
			count++;
	} else if (!strcmp(what, "watches")) {
		/* inotify watches, on files made for the purpose in
		 * $ATK_DIR (default /tmp): one instance, a watch per inode
		 * (the files stay until the process exits; a watch on an
		 * unlinked file would go with it) */
		const char *dir =
		    getenv("ATK_DIR") ? getenv("ATK_DIR") : "/tmp";
		char path[4096];
		int in = inotify_init1(IN_CLOEXEC);

		for (; in >= 0 && count < n; count++) {
			int f;

			snprintf(path, sizeof(path), "%s/atkw-%d-%ld", dir,
				 getpid(), count);
			f = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
			if (f < 0) {
				printf("watches-file %s\n",
				       strerrorname_np(errno));
				break;
			}
			close(f);
			if (inotify_add_watch(in, path, IN_MODIFY) < 0)
				break;
		}
	} else if (!strcmp(what, "fanotify")) {
		/* the unprivileged kind (Linux 5.13) */
		while (count < n &&
		       syscall(SYS_fanotify_init,
			       FAN_CLASS_NOTIF | FAN_REPORT_FID | FAN_CLOEXEC,
			       O_RDONLY) >= 0)
			count++;
	} else if (!strcmp(what, "mq")) {
		/* POSIX message queues of the default size, unlinked at
		 * once: their bytes stay charged while the descriptor is
		 * open (RLIMIT_MSGQUEUE) */
		char name[64];

		for (; count < n; count++) {
			snprintf(name, sizeof(name), "/atk-%d-%ld", getpid(),
				 count);
			if (syscall(SYS_mq_open, name + 1,
				    O_RDWR | O_CREAT | O_EXCL, 0600, NULL) < 0)
				break;
			syscall(SYS_mq_unlink, name + 1);
		}
	} else if (!strcmp(what, "sigq")) {
		/* real-time signals queued to itself, blocked
		 * (RLIMIT_SIGPENDING) */
		sigset_t set;
		siginfo_t si;

		sigemptyset(&set);
		sigaddset(&set, SIGRTMIN);
		sigprocmask(SIG_BLOCK, &set, NULL);
		for (; count < n; count++) {
			memset(&si, 0, sizeof(si));
			si.si_code = SI_QUEUE;
			si.si_pid = getpid();
			si.si_uid = getuid();
			if (syscall(SYS_rt_sigqueueinfo, getpid(), SIGRTMIN,
				    &si) < 0)
				break;
		}
	} else {
		printf("hold-%s unknown\n", what);
		return;
	}
	report_held(what, count, n);
}

/* Run src (a static program, argv[0] of this one) as `src echo TAG`, from
 * where the sandbox may have written it; on success the new program prints
 * TAG and this one is gone. On failure: "TAG STEP ERRNO", and go on.
 *
 *   memfd KIND VIA: a memfd (KIND none: no flag; exec: MFD_EXEC; seal:
 *     MFD_NOEXEC_SEAL) holding a copy of src, executed through the
 *     descriptor (VIA fd: execveat AT_EMPTY_PATH) or its /proc link
 *     (VIA proc)
 *   file PATH VIA: a copy of src written at PATH (mode 0755), executed by
 *     its path (VIA path) or an O_PATH descriptor of it (VIA opath) */
static void exec_copy(const char *src, const char *tag, int fd, int via_fd,
		      const char *path)
{
	char *av[] = {(char *)src, "echo", (char *)tag, NULL};
	char *ev[] = {NULL};
	char buf[65536], link[64];
	int in = open(src, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (in < 0) {
		printf("%s open-src %s\n", tag, strerrorname_np(errno));
		return;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n)
			break;
	close(in);
	if (path) { /* a file: write it, then open it as asked */
		close(fd);
		fd = via_fd ? open(path, O_PATH | O_CLOEXEC) : -1;
		if (via_fd && fd < 0) {
			printf("%s open-path %s\n", tag,
			       strerrorname_np(errno));
			return;
		}
	}
	fflush(stdout);
	if (via_fd) {
		syscall(SYS_execveat, fd, "", av, ev, AT_EMPTY_PATH);
	} else if (path) {
		execve(path, av, ev);
	} else {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		execve(link, av, ev);
	}
	printf("%s exec %s\n", tag, strerrorname_np(errno));
	if (fd >= 0)
		close(fd);
}

static void memfd_exec(const char *self, const char *kind, const char *via)
{
	unsigned flags = 0x01u; /* MFD_CLOEXEC */
	char tag[64];
	int fd;

	if (!strcmp(kind, "exec"))
		flags |= 0x10u; /* MFD_EXEC */
	else if (!strcmp(kind, "seal"))
		flags |= 0x08u; /* MFD_NOEXEC_SEAL */
	snprintf(tag, sizeof(tag), "memfd-%s-%s", kind, via);
	fd = (int)syscall(SYS_memfd_create, "atk", flags);
	if (fd < 0) {
		printf("%s create %s\n", tag, strerrorname_np(errno));
		return;
	}
	exec_copy(self, tag, fd, !strcmp(via, "fd"), NULL);
}

static void file_exec(const char *self, const char *path, const char *via)
{
	char tag[300];
	int fd;

	snprintf(tag, sizeof(tag), "file-%s-%s", path, via);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0) {
		printf("%s create %s\n", tag, strerrorname_np(errno));
		return;
	}
	exec_copy(self, tag, fd, !strcmp(via, "opath"), path);
}

/* readfds: every descriptor above 2 that is open, with its first bytes. */
static void read_fds(void)
{
	int any = 0;

	for (int fd = 3; fd < 1024; fd++) {
		char buf[128];
		ssize_t r;

		if (fcntl(fd, F_GETFD) < 0)
			continue;
		any = 1;
		r = pread(fd, buf, sizeof(buf) - 1, 0);
		if (r < 0)
			r = read(fd, buf, sizeof(buf) - 1);
		buf[r > 0 ? r : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		printf("fd %d %s\n", fd, buf);
	}
	if (!any)
		printf("fds none\n");
}

/* fill PATH BYTES: a text file of BYTES bytes (lines of 64), for the
 * export's caps. */
static int fill(const char *path, unsigned long long n)
{
	static char buf[65536];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	for (size_t k = 0; k < sizeof buf; k++)
		buf[k] = k % 64 == 63 ? '\n' : 'a' + k % 26;
	while (n > 0) {
		size_t len = n < sizeof buf ? (size_t)n : sizeof buf;
		ssize_t w = write(fd, buf, len);

		if (w <= 0) {
			close(fd);
			return -1;
		}
		n -= (unsigned long long)w;
	}
	return close(fd);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *c = argv[i];
		const char *a1 = i + 1 < argc ? argv[i + 1] : "";
		const char *a2 = i + 2 < argc ? argv[i + 2] : "";
		const char *a3 = i + 3 < argc ? argv[i + 3] : "";

		if (!strcmp(c, "mknod-chr")) { /* PATH: /dev/mem's numbers */
			say(c, mknod(a1, S_IFCHR | 0666, makedev(1, 1)));
			i++;
		} else if (!strcmp(c, "mknod-blk")) { /* PATH MAJOR MINOR */
			say(c, mknod(a1, S_IFBLK | 0666,
				     makedev(atoi(a2), atoi(a3))));
			i += 3;
		} else if (!strcmp(c,
				   "open-rd")) { /* PATH: open, read a byte */
			char b;
			long fd = open(a1, O_RDONLY | O_NONBLOCK), r = fd;

			if (fd >= 0) {
				if (read(fd, &b, 1) < 0 && errno != EAGAIN)
					r = -1;
				close(fd);
			}
			say(c, r);
			i++;
		} else if (!strcmp(
			       c, "open-w")) { /* PATH: open for writing only */
			long fd = open(a1, O_WRONLY);

			say(c, fd);
			if (fd >= 0)
				close(fd);
			i++;
		} else if (!strcmp(c, "write-file")) { /* PATH TEXT */
			int fd = open(a1, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			say(c, fd < 0 ? -1 : write(fd, a2, strlen(a2)));
			i += 2;
		} else if (!strcmp(c, "fill")) { /* PATH BYTES: text lines */
			say(c, fill(a1, strtoull(a2, NULL, 0)));
			i += 2;
		} else if (!strcmp(c, "link")) { /* OLD NEW */
			say(c, link(a1, a2));
			i += 2;
		} else if (!strcmp(c, "perf")) {
			say(c, perf_open());
		} else if (!strcmp(c, "userfaultfd")) {
			say(c, syscall(SYS_userfaultfd,
				       O_CLOEXEC | UFFD_USER_MODE_ONLY));
		} else if (!strcmp(c, "io_uring")) {
			say(c, io_uring());
		} else if (!strcmp(c, "obh")) { /* MOUNTPOINT INO */
			say(c, open_by_handle(a1, (unsigned)atoi(a2)));
			i += 2;
		} else if (!strcmp(c, "kexec_load")) {
			/* one segment more than KEXEC_SEGMENT_MAX: EINVAL once
			 * the permission checks have passed */
			say(c, syscall(SYS_kexec_load, 0UL, 17UL, NULL, 0UL));
		} else if (!strcmp(c, "kexec_file_load")) {
			say(c,
			    syscall(SYS_kexec_file_load, -1, -1, 0UL, "", 0UL));
		} else if (!strcmp(c, "finit_module")) {
			say(c, syscall(SYS_finit_module, -1, "", 0));
		} else if (!strcmp(c, "delete_module")) {
			say(c, syscall(SYS_delete_module, "ward_no_such_module",
				       O_NONBLOCK));
		} else if (!strcmp(c, "reboot")) {
			/* wrong magic numbers: EINVAL once permitted */
			say(c, syscall(SYS_reboot, 0, 0, 0, NULL));
		} else if (!strcmp(c, "swapon")) {
			say(c, syscall(SYS_swapon, "/ward-no-such-swap", 0));
		} else if (!strcmp(c, "clock_settime")) {
			say(c, clock_set());
		} else if (!strcmp(c, "settimeofday")) {
			say(c, time_set());
		} else if (!strcmp(c, "sethostname")) { /* NAME */
			say(c, sethostname(a1, strlen(a1)));
			i++;
		} else if (!strcmp(c, "iopl")) {
			say(c, syscall(SYS_iopl, 0));
		} else if (!strcmp(c, "modify_ldt")) {
			char buf[16];

			say(c, syscall(SYS_modify_ldt, 0, buf, sizeof(buf)));
		} else if (!strcmp(c, "socket")) { /* KIND */
			say(c, make_socket(a1));
			i++;
		} else if (!strcmp(c, "connect")) { /* ADDR PORT */
			say(c, tcp_connect(a1, atoi(a2)));
			i += 2;
		} else if (!strcmp(c, "udp")) { /* ADDR PORT TEXT */
			say(c, udp_send(a1, atoi(a2), a3));
			i += 3;
		} else if (!strcmp(c, "ping")) { /* ADDR */
			say(c, ping(a1));
			i++;
		} else if (!strcmp(c, "abstract")) { /* NAME */
			say(c, abstract_connect(a1));
			i++;
		} else if (!strcmp(c, "kill")) { /* PID SIG */
			say(c, kill(atoi(a1), atoi(a2)));
			i += 2;
		} else if (!strcmp(c, "kill-all")) { /* SIG: kill(-1, SIG) */
			say(c, kill(-1, atoi(a1)));
			i++;
		} else if (!strcmp(c, "unshare")) { /* NS */
			say(c, unshare(ns_flag(a1)));
			i++;
		} else if (!strcmp(c, "clone")) { /* NS */
			say(c, clone_flags(ns_flag(a1)));
			i++;
		} else if (!strcmp(c, "setns")) { /* PATH of a namespace */
			int fd = open(a1, O_RDONLY);

			say(c, fd < 0 ? -1 : setns(fd, 0));
			i++;
		} else if (!strcmp(c, "mount-cgroup")) { /* DIR */
			say(c, mount("cgroup", a1, "cgroup", 0, "memory"));
			i++;
		} else if (!strcmp(c, "mount-bind")) { /* SRC DST */
			say(c, mount(a1, a2, NULL, MS_BIND, NULL));
			i += 2;
		} else if (!strcmp(c, "umount")) { /* DIR */
			say(c, umount2(a1, MNT_DETACH));
			i++;
		} else if (!strcmp(c, "chroot")) { /* DIR */
			say(c, chroot(a1));
			i++;
		} else if (!strcmp(c, "pivot_root")) { /* NEW OLD */
			say(c, syscall(SYS_pivot_root, a1, a2));
			i += 2;
		} else if (!strcmp(c, "ptrace-child")) {
			say(c, ptrace_child());
		} else if (!strcmp(c, "ptrace")) { /* PID */
			say(c, ptrace(PTRACE_ATTACH, atoi(a1), 0, 0));
			i++;
		} else if (!strcmp(c, "process_vm_readv")) { /* PID */
			say(c, vm_read(atoi(a1)));
			i++;
		} else if (!strcmp(c, "prlimit-raise")) {
			say(c, raise_limit());
		} else if (!strcmp(c, "tiocsti")) { /* FD TEXT: push TEXT and a
							 newline into the
						       terminal's input */
			long rc = 0;

			for (const char *p = a2; rc == 0 && *p; p++)
				rc = ioctl(atoi(a1), TIOCSTI, p);
			if (rc == 0)
				rc = ioctl(atoi(a1), TIOCSTI, "\n");
			say(c, rc);
			i += 2;
		} else if (!strcmp(c, "zombies")) { /* N */
			zombies(atoi(a1));
			i++;
		} else if (!strcmp(c, "daemon")) { /* SECS MARK */
			daemonize(argv[0], a1, a2);
			i += 2;
		} else if (!strcmp(c, "forkbomb")) { /* SECS */
			forkbomb(atoi(a1));
			i++;
		} else if (!strcmp(c, "sleep")) { /* SECS [MARK] */
			sleep((unsigned)atoi(a1));
			i += 2;
		} else if (!strcmp(c, "hold")) { /* WHAT N: inotify, watches,
						    fanotify, mq, sigq */
			hold(a1, atol(a2));
			i += 2;
		} else if (!strcmp(c, "memfd")) { /* KIND VIA */
			memfd_exec(argv[0], a1, a2);
			i += 2;
		} else if (!strcmp(c, "file")) { /* PATH VIA */
			file_exec(argv[0], a1, a2);
			i += 2;
		} else if (!strcmp(c, "echo")) { /* TEXT */
			printf("%s\n", a1);
			i++;
		} else if (!strcmp(c, "readfds")) {
			read_fds();
		} else if (!strcmp(c, "waitfile")) { /* PATH SECS */
			for (int t = 0; t < atoi(a2) * 10 && access(a1, F_OK);
			     t++)
				usleep(100000);
			say(c, access(a1, F_OK));
			i += 2;
		} else if (!strcmp(c, "waitline")) { /* SECS: a line on stdin */
			struct pollfd w = {0, POLLIN, 0};
			char line[64];

			say(c, poll(&w, 1, atoi(a1) * 1000) == 1 &&
				       read(0, line, sizeof(line)) > 0
				   ? 0
				   : -1);
			i++;
		} else if (!strcmp(c,
				   "pidfile")) { /* PATH: kill the pid in it */
			FILE *f = fopen(a1, "r");
			int pid = 0;

			if (f && fscanf(f, "%d", &pid) == 1)
				printf("pidfile %d\n", pid);
			if (f)
				fclose(f);
			i++;
			if (pid > 0)
				say("kill-supervisor", kill(pid, SIGKILL));
		} else {
			printf("%s unknown\n", c);
		}
		fflush(stdout);
	}
	return 0;
}
