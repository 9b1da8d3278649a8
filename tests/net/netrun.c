/* SPDX-License-Identifier: MIT */
/*
 * netrun: the allow-list's cgroup programs (launcher/core/net.c) driven as
 * the launcher drives them for the broker's sockets, for the tests and the
 * benchmark: the second layer, on its own, without the broker in front.
 *
 *   netrun [-d] [-n] [-q] BLOB CGROUP_DIR PROG [ARGS...]
 *
 * reads and checks BLOB, attaches the policy's programs to CGROUP_DIR (a
 * cgroup v2 directory the caller made), starts PROG in that cgroup
 * (clone3(CLONE_INTO_CGROUP)) in the caller's network namespace, as
 * uid/gid 65534 without capabilities, with no_new_privs and no seccomp
 * filter (the broker's sockets are made by the broker, whose own filter is
 * not the policy's), and waits for it. Exit status: PROG's, or 3 when
 * refused, 4 on an error.
 *
 *   -a ADDR:PORT  one more TCP destination for the programs, as ward
 *       --upstream-proxy gives its proxy, read by the same code
 *       (upstream.h: ward_proxy_set; net.h: ward_net_also_of,
 *       ward_net_setup_also)
 *   -d  print the denials after the run: "denied HOOK PROTO ADDR:PORT N"
 *   -n  no programs (the baseline of the benchmark, the controls)
 *   -q  quiet: no timing line on stderr
 */
#include "blob_read.h"
#include "net.h"
#include "upstream.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

static int die(int code, const char *what, const ward_err *err)
{
	char buf[WARD_ERR_MSG_MAX + 64];

	fprintf(stderr, "netrun: %s%s\n", what,
		err ? ward_err_str(err, buf, sizeof(buf)) : "");
	return code;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint8_t *buf;

	if (fd < 0 || fstat(fd, &st) < 0 || !(buf = malloc(st.st_size + 1)))
		return NULL;
	if (read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		return NULL;
	}
	*len = (size_t)st.st_size;
	return buf;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The child: an unprivileged process, and exec. */
static _Noreturn void child(char **argv)
{
	const gid_t id = 65534;

	if (setgroups(0, NULL) < 0 || setresgid(id, id, id) < 0 ||
	    setresuid(id, id, id) < 0) {
		perror("netrun: drop privileges");
		_exit(4);
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		perror("netrun: no_new_privs");
		_exit(4);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "netrun: exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int main(int argc, char **argv)
{
	bool denials = false, nobpf = false, quiet = false, also = false;
	struct ward_net_also x = {0};
	struct ward_net_state st;
	struct ward_blob blob;
	ward_err err = {0};
	int opt, status = 0, rc;
	size_t len;

	while ((opt = getopt(argc, argv, "+a:dnq")) != -1) {
		switch (opt) {
		case 'a': {
			/* as ward --upstream-proxy reads it, and as the
			 * supervisor hands it to the programs */
			socklen_t alen;

			if (ward_proxy_set(optarg, &err) < 0) {
				fprintf(stderr, "netrun: -a: %s\n", err.msg);
				return 2;
			}
			ward_net_also_of(ward_proxy_addr(&alen), &x);
			also = true;
			break;
		}
		case 'd':
			denials = true;
			break;
		case 'n':
			nobpf = true;
			break;
		case 'q':
			quiet = true;
			break;
		default:
			return 2;
		}
	}
	if (argc - optind < 3) {
		fprintf(stderr, "usage: netrun [-a ADDR:PORT] [-dnq] BLOB "
				"CGROUP_DIR PROG [ARGS...]\n");
		return 2;
	}
	_cleanup_free_ uint8_t *buf = slurp(argv[optind], &len);
	if (!buf)
		return die(4, argv[optind], NULL);
	if (ward_blob_read(buf, len, 0, &blob, &err) < 0)
		return die(3, "", &err);
	const struct ward_policy *p = &blob.policy;
	if (ward_net_check_host(&p->net, p->requirements,
				geteuid() == 0 ? WARD_MODE_ROOT
					       : WARD_MODE_ROOTLESS,
				&err) < 0) {
		ward_blob_release(&blob);
		return die(3, "", &err);
	}
	_cleanup_close_ int cg =
	    open(argv[optind + 1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg < 0) {
		ward_blob_release(&blob);
		return die(4, argv[optind + 1], NULL);
	}
	double t0 = now_ms();
	ward_net_state_init(&st);
	if (!nobpf &&
	    ward_net_setup_also(&p->net, cg, also ? &x : NULL, &st, &err) < 0) {
		ward_blob_release(&blob);
		return die(4, "", &err);
	}
	double t1 = now_ms();
	if (!quiet)
		fprintf(stderr, "netrun: setup %.3f ms\n", t1 - t0);

	struct clone_args ca = {
	    .flags = CLONE_INTO_CGROUP,
	    .exit_signal = SIGCHLD,
	    .cgroup = (uint64_t)cg,
	};
	long pid = syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid == 0)
		child(argv + optind + 2);
	if (pid < 0) {
		rc = die(4, "clone3 into the cgroup", NULL);
		goto out;
	}
	while (waitpid((pid_t)pid, &status, 0) < 0 && errno == EINTR)
		;
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (denials) {
		struct ward_net_denial *d;
		size_t n;
		if (ward_net_denials(&st, &d, &n, &err) < 0) {
			rc = die(4, "", &err);
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			char s[128];
			printf("denied %s %llu\n",
			       ward_net_denial_str(&d[i], s, sizeof(s)),
			       (unsigned long long)d[i].count);
		}
		free(d);
		fflush(stdout);
	}
out:
	ward_net_teardown(&st);
	ward_blob_release(&blob);
	return rc;
}
