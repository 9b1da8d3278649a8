/* SPDX-License-Identifier: MIT */
/*
 * crun_probe.c: the program tests/e2e/export_crun.sh runs in a container
 * that crun built from `wardc export --format oci` of crun.ward. It makes
 * each call and prints what it got, one line each; the script compares the
 * lines with what the policy says. With the argument `kill`, it calls
 * ptrace, which the policy kills, and says so if it survives.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

static void report(const char *what, long rc)
{
	if (rc < 0)
		printf("%s: %s\n", what, strerrorname_np(errno));
	else
		printf("%s: ok\n", what);
}

/* The value of a "Name:\tvalue" line of /proc/self/status. */
static void status_line(const char *name)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	if (!f) {
		printf("%s: %s\n", name, strerrorname_np(errno));
		return;
	}
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, strlen(name)) &&
		    line[strlen(name)] == ':') {
			printf("%s:%s", name, line + strlen(name) + 1);
			break;
		}
	fclose(f);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "kill")) {
		printf("ptrace: calling\n");
		fflush(stdout);
		syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0);
		printf("ptrace: survived\n");
		return 0;
	}
	report("getpid", syscall(SYS_getpid));
	report("getppid", syscall(SYS_getppid));
	report("acct", syscall(SYS_acct, NULL));
	report("chroot", syscall(SYS_chroot, "/"));
	report("socket unix", socket(AF_UNIX, SOCK_STREAM, 0));
	report("socket inet", socket(AF_INET, SOCK_STREAM, 0));
	report("socket inet6", socket(AF_INET6, SOCK_STREAM, 0));
	report("personality query", syscall(SYS_personality, 0xffffffffUL));
	report("personality set", syscall(SYS_personality, PER_LINUX32));
	report("write /usr", open("/usr/ward-probe", O_CREAT | O_WRONLY, 0600));
	report("mkdir /new", mkdir("/new", 0700));
	report("write /tmp", open("/tmp/ward-probe", O_CREAT | O_WRONLY, 0600));

	struct utsname u;
	struct rlimit rl;
	uname(&u);
	getrlimit(RLIMIT_NOFILE, &rl);
	printf("uid %d gid %d\n", (int)getuid(), (int)getgid());
	printf("hostname %s\n", u.nodename);
	printf("PROBE=%s\n", getenv("PROBE") ? getenv("PROBE") : "(unset)");
	printf("nofile %llu %llu\n", (unsigned long long)rl.rlim_cur,
	       (unsigned long long)rl.rlim_max);
	status_line("NoNewPrivs");
	status_line("CapEff");
	status_line("CapBnd");
	status_line("Seccomp");
	return 0;
}
