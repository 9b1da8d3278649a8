/* SPDX-License-Identifier: MIT */
/*
 * session_start.c: `ward session start` (docs/spec.md 7.1), process P.
 *
 * P makes the session's directory and socket, starts W (ward itself, an
 * ordinary run of the blob with the driver as its program) and S (the
 * server, session_server.c), and then only waits: a byte from S or S's end
 * means SIGTERM to W (ward then kills the sandbox and writes its report);
 * W's end means the report's descriptor to S. P reads nothing else of
 * anyone's: in root mode it is the only root process of the session that
 * is not ward itself, and S has dropped to nobody before it reads a byte.
 */
#include "session.h"

#include "blob_read.h"
#include "fdpass.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534
/* A blob is far smaller (the kernel's filter cap bounds its largest
 * section); a larger file is not read here, and escaping is kept. */
#define WARD_BLOB_FILE_MAX (16u << 20)
#if defined(__x86_64__)
#define NATIVE_ARCH WARD_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH WARD_ARCH_AARCH64
#else
#define NATIVE_ARCH 0
#endif

struct start {
	const char *socket_opt;
	unsigned long long idle_ms;
	char dir[PATH_MAX - 16];
	char sock[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char report[PATH_MAX];
	int listen_fd;
};

static int usage(void)
{
	fputs("Usage: ward session start [--socket PATH] [--idle DURATION] "
	      "[RUN OPTIONS] BLOB -- DRIVER...\n"
	      "       ward session exec [--timeout DURATION] [--max-output "
	      "BYTES] SOCKET [CODE|-]\n"
	      "       ward session status|interrupt|stop SOCKET\n",
	      stderr);
	return 125;
}

static int make_dir(struct start *st, ward_err *err)
{
	const char *base = getenv("XDG_RUNTIME_DIR");
	struct stat sb;

	if (!base || base[0] != '/' || stat(base, &sb) < 0 ||
	    sb.st_uid != geteuid() || access(base, W_OK) < 0)
		base = "/tmp";
	if ((size_t)snprintf(st->dir, sizeof(st->dir), "%s/ward-session.XXXXXX",
			     base) >= sizeof(st->dir) ||
	    !mkdtemp(st->dir))
		return ward_fail(err, errno, "mkdtemp in %s", base);
	if ((size_t)snprintf(st->report, sizeof(st->report), "%s/run.json",
			     st->dir) >= sizeof(st->report))
		return ward_fail(err, ENAMETOOLONG, "%s/run.json", st->dir);
	if (st->socket_opt) {
		char parent[PATH_MAX], *slash;

		snprintf(parent, sizeof(parent), "%s", st->socket_opt);
		slash = strrchr(parent, '/');
		if (slash == parent)
			slash[1] = '\0';
		else if (slash)
			*slash = '\0';
		else
			snprintf(parent, sizeof(parent), ".");
		/* Only the caller may reach the socket: its directory is the
		 * caller's and nobody else's to write. */
		if (lstat(parent, &sb) < 0)
			return ward_fail(err, errno, "--socket %s",
					 st->socket_opt);
		if (!S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() ||
		    (sb.st_mode & 022))
			return ward_fail(err, EPERM,
					 "--socket %s: its directory must be "
					 "yours and not writable by group or "
					 "others",
					 st->socket_opt);
		if (strlen(st->socket_opt) >= sizeof(st->sock))
			return ward_fail(err, ENAMETOOLONG, "--socket %s",
					 st->socket_opt);
		snprintf(st->sock, sizeof(st->sock), "%s", st->socket_opt);
	} else if ((size_t)snprintf(st->sock, sizeof(st->sock), "%s/socket",
				    st->dir) >= sizeof(st->sock))
		return ward_fail(err, ENAMETOOLONG, "%s/socket", st->dir);
	return 0;
}

static int make_socket(struct start *st, ward_err *err)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	mode_t old;
	int rc;

	st->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (st->listen_fd < 0)
		return ward_fail(err, errno, "socket");
	memcpy(a.sun_path, st->sock, strlen(st->sock) + 1);
	old = umask(077);
	rc = bind(st->listen_fd, (struct sockaddr *)&a, sizeof(a));
	umask(old);
	if (rc < 0)
		return ward_fail(err, errno, "bind %s", st->sock);
	if (chmod(st->sock, 0600) < 0 || listen(st->listen_fd, 16) < 0)
		return ward_fail(err, errno, "listen %s", st->sock);
	return 0;
}

/* The run's options: ward's own, less those the session uses itself. */
static int check_run_args(int argc, char **argv, ward_err *err)
{
	static const char *const own[] = {"--report", "--stdin", "--stdout",
					  "--stderr", "--session-events"};

	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
		for (size_t k = 0; k < ARRAY_LEN(own); k++)
			if (!strncmp(argv[i], own[k], strlen(own[k])))
				return ward_fail(err, EINVAL,
						 "%s is the session's own (the "
						 "run report is in the session "
						 "report)",
						 own[k]);
	return 0;
}

static _Noreturn void exec_run(struct start *st, int argc, char **argv, int in,
			       int out, int errfd, int events, pid_t parent)
{
	char **av = calloc((size_t)argc + 8, sizeof(*av));
	char evbuf[16];
	int n = 0;

	if (!av)
		_exit(125);
	/* P gone, the sandbox goes: ward kills it on SIGTERM. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(125);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
		_exit(125);
	av[n++] = "ward";
	av[n++] = "--stdin";
	av[n++] = "-";
	av[n++] = "--report";
	av[n++] = st->report;
	/* the broker's refusals, to S as they happen */
	if (events >= 0 && fcntl(events, F_SETFD, 0) == 0) {
		snprintf(evbuf, sizeof(evbuf), "%d", events);
		av[n++] = "--session-events";
		av[n++] = evbuf;
	}
	for (int i = 0; i < argc; i++)
		av[n++] = argv[i];
	execv("/proc/self/exe", av);
	fprintf(stderr, "ward session: exec ward: %s\n", strerror(errno));
	_exit(125);
}

/* S in root mode: nobody, for good, before it reads anything (then its
 * own seccomp filter: ward_session_srv_filter). */
static int drop_to_nobody(void)
{
	if (geteuid() != 0)
		return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (setgroups(0, NULL) < 0 || setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
	    setresuid(NOBODY, NOBODY, NOBODY) < 0)
		return -1;
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

static void cleanup(struct start *st)
{
	if (st->sock[0])
		unlink(st->sock);
	if (st->report[0])
		unlink(st->report);
	if (st->dir[0])
		rmdir(st->dir);
}

/* The janitor: a fork of P that holds nothing but the read end of a pipe
 * only P writes to. When P ends, even by SIGKILL, it removes what P made
 * (P's own cleanup may have done so already; the run, told by its
 * PDEATHSIG, writes its report into a descriptor it opened at its
 * start). It reads no byte of anyone's. */
static int start_janitor(struct start *st, ward_err *err)
{
	int fds[2];
	pid_t j;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return ward_fail(err, errno, "pipe for the janitor");
	j = fork();
	if (j < 0)
		return ward_fail(err, errno, "fork the janitor");
	if (j == 0) {
		char b;

		close(fds[1]);
		if (st->listen_fd >= 0)
			close(st->listen_fd);
		/* Its own process group: a ^C to the caller's is P's to
		 * handle, not a reason to clean up under it. */
		setpgid(0, 0);
		while (read(fds[0], &b, 1) < 0 && errno == EINTR)
			;
		cleanup(st);
		_exit(0);
	}
	close(fds[0]);
	/* P's end stays open (and is not inherited: O_CLOEXEC, and the
	 * forks below close it) until P ends. */
	return fds[1];
}

/* The policy's stdout and stderr modes, for S to escape a cell's streams
 * as the courier escapes a run's (the run itself checks the blob and may
 * refuse it). Text unless the blob says raw: when the file cannot be read
 * here, escaping is the safe side. */
static void stream_modes(int argc, char **argv, bool text[2])
{
	const char *path = NULL;
	struct ward_blob b;
	ward_err err = {0};
	uint8_t *buf;
	ssize_t n;
	int fd;

	text[0] = text[1] = true;
	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
		path = argv[i];
	if (!path || (fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0)
		return;
	buf = malloc(WARD_BLOB_FILE_MAX);
	n = buf ? read(fd, buf, WARD_BLOB_FILE_MAX) : -1;
	close(fd);
	if (n > 0 &&
	    ward_blob_read(buf, (size_t)n, NATIVE_ARCH, &b, &err) == 0) {
		const struct ward_limits *l = &b.policy.limits;

		text[0] = ward_limit_is_set(l, WARD_LIM_STDOUT_MODE) &&
			  l->value[WARD_LIM_STDOUT_MODE] == 1;
		text[1] = ward_limit_is_set(l, WARD_LIM_STDERR_MODE) &&
			  l->value[WARD_LIM_STDERR_MODE] == 1;
		ward_blob_release(&b);
	}
	free(buf);
}

static int start_main(int argc, char **argv)
{
	static struct start st = {.listen_fd = -1, .idle_ms = 300000};
	int pin[2], pout[2], perr[2], ps[2], ev[2] = {-1, -1}, sfd;
	ward_err err = {0};
	char ebuf[WARD_ERR_MSG_MAX + 64];
	sigset_t set, old;
	pid_t w, s, parent = getpid(), caller = getppid();
	int janitor = -1;
	int w_status = 0, code;
	bool w_done = false, s_done = false, termed = false;
	int i = 1;

	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--socket") && i + 1 < argc)
			st.socket_opt = argv[++i];
		else if (!strcmp(argv[i], "--idle") && i + 1 < argc) {
			uint64_t ms;

			if (ward_parse_duration_ms(argv[++i], &ms) < 0) {
				fprintf(stderr,
					"ward session: --idle %s: not a "
					"duration\n",
					argv[i]);
				return 125;
			}
			st.idle_ms = ms;
		} else
			break;
	}
	if (i >= argc)
		return usage();
	/* The caller gone, the session goes (its signal is handled below). */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != caller) {
		fprintf(stderr, "ward session: the caller is gone\n");
		return 125;
	}
	if (check_run_args(argc - i, argv + i, &err) < 0 ||
	    make_dir(&st, &err) < 0 || make_socket(&st, &err) < 0 ||
	    (janitor = start_janitor(&st, &err)) < 0) {
		fprintf(stderr, "ward session: %s\n",
			ward_err_str(&err, ebuf, sizeof(ebuf)));
		cleanup(&st);
		return 125;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	if (pipe2(pin, O_CLOEXEC) < 0 || pipe2(pout, O_CLOEXEC) < 0 ||
	    pipe2(perr, O_CLOEXEC) < 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ps) < 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ev) < 0 ||
	    (sfd = signalfd(-1, &set, SFD_CLOEXEC)) < 0) {
		perror("ward session: pipes");
		cleanup(&st);
		return 125;
	}
	w = fork();
	if (w == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(ev[1]);
		exec_run(&st, argc - i, argv + i, pin[0], pout[1], perr[1],
			 ev[0], parent);
	}
	if (w < 0) {
		perror("ward session: fork");
		cleanup(&st);
		return 125;
	}
	s = fork();
	if (s == 0) {
		struct ward_session_srv srv = {
		    .listen_fd = st.listen_fd,
		    .to_driver = pin[1],
		    .from_driver = pout[0],
		    .driver_err = perr[0],
		    .parent = ps[1],
		    .events = ev[1],
		    .socket_path = st.sock,
		    .idle_ms = st.idle_ms,
		};

		stream_modes(argc - i, argv + i, srv.text);

		close(pin[0]);
		close(pout[1]);
		close(perr[1]);
		close(ps[0]);
		close(ev[0]);
		close(sfd);
		close(janitor);
		sigprocmask(SIG_SETMASK, &old, NULL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent || drop_to_nobody() < 0 ||
		    ward_session_srv_filter() < 0)
			_exit(125);
		_exit(ward_session_serve(&srv));
	}
	close(pin[0]);
	close(pin[1]);
	close(pout[0]);
	close(pout[1]);
	close(perr[0]);
	close(perr[1]);
	close(ps[1]);
	close(ev[0]);
	close(ev[1]);
	close(st.listen_fd);
	if (s < 0) {
		kill(w, SIGTERM);
		s_done = true;
	}
	while (!w_done || !s_done) {
		struct pollfd p[2] = {{sfd, POLLIN, 0}, {ps[0], POLLIN, 0}};

		if (poll(p, ps[0] >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
			break;
		if (p[0].revents) {
			struct signalfd_siginfo si;
			int status;
			pid_t pid;

			if (read(sfd, &si, sizeof(si)) != sizeof(si))
				continue;
			if (si.ssi_signo != SIGCHLD) {
				struct ward_session_pmsg m = {.kind = 2};

				ward_send_msg(ps[0], &m, sizeof(m), -1);
				if (!termed)
					kill(w, SIGTERM);
				termed = true;
			}
			while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
				if (pid == w) {
					struct ward_session_pmsg m = {
					    .kind = 1, .status = status};
					int rfd = open(st.report,
						       O_RDONLY | O_NOFOLLOW |
							   O_CLOEXEC);

					w_done = true;
					w_status = status;
					if (ps[0] >= 0)
						ward_send_msg(ps[0], &m,
							      sizeof(m), rfd);
					if (rfd >= 0)
						close(rfd);
				} else if (pid == s)
					s_done = true;
			}
			if (s_done && !w_done && !termed) {
				kill(w, SIGTERM);
				termed = true;
			}
		}
		if (ps[0] >= 0 && p[1].revents) {
			char b;
			ssize_t n = read(ps[0], &b, 1);

			if (n <= 0 && !(n < 0 && errno == EINTR)) {
				/* S is gone; its SIGCHLD follows. */
				close(ps[0]);
				ps[0] = -1;
			}
			if (!termed && !w_done) {
				kill(w, SIGTERM);
				termed = true;
			}
		}
	}
	cleanup(&st);
	if (WIFEXITED(w_status))
		code = WEXITSTATUS(w_status);
	else
		code = 128 + WTERMSIG(w_status);
	return code;
}

int ward_session_main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "start"))
		return start_main(argc - 1, argv + 1);
	return ward_session_client(argc - 1, argv + 1);
}
