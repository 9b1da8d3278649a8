/* SPDX-License-Identifier: MIT */
/*
 * cmdline.c: init forgets ward's command line (see cmdline.h).
 *
 * Why: /proc/PID/cmdline is readable by anyone who can see the process,
 * whatever its dumpability (environ, mem and maps need ptrace access;
 * cmdline does not), and init, PID 1 of the sandbox, is a clone of the
 * supervisor: its cmdline was ward's, every host path the caller passed
 * (--report /home/alice/r.json, --slot input=/srv/data, --export-dir, the
 * blob's path). init needs none of that once it has its own copies of the
 * target's argv and the slots' paths, so before the sandbox runs anything
 * it zeroes the argument and environment areas (its own memory then holds
 * none of it either) and, with PR_SET_MM_MAP, makes the kernel's idea of
 * the argument area the string "ward-init" at its start (the call needs no
 * privilege; a kernel without CONFIG_CHECKPOINT_RESTORE refuses it, and
 * /proc/1/cmdline then reads as NUL bytes: nothing either way).
 */
#include "cmdline.h"

#include "hardening.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* The fields of /proc/self/stat that PR_SET_MM_MAP needs (proc(5)). */
enum {
	F_START_CODE = 26,
	F_END_CODE = 27,
	F_START_STACK = 28,
	F_START_DATA = 45,
	F_END_DATA = 46,
	F_START_BRK = 47,
	F_ARG_START = 48,
	F_ARG_END = 49,
	F_ENV_START = 50,
	F_ENV_END = 51,
	F_MAX = 52
};

static const char init_name[] = "ward-init";

/* v[n] = field n of /proc/self/stat (n >= 3, counted as proc(5) does). */
static int read_stat(const char *procdir, unsigned long long v[F_MAX],
		     ward_err *err)
{
	char path[64], buf[2048];
	_cleanup_close_ int fd = -1;
	ssize_t n;
	char *p;

	snprintf(path, sizeof(path), "%s/self/stat", procdir);
	/* Addresses init will write to: only procfs may name them. */
	fd = ward_open_procfs(path, O_RDONLY, err);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return ward_fail(err, errno, "read %s", path);
	buf[n] = '\0';
	/* The command name (field 2) may hold spaces and parentheses. */
	p = strrchr(buf, ')');
	if (!p)
		return ward_fail(err, 0, "%s: no command name", path);
	p++;
	for (int i = 3; i < F_MAX; i++) {
		char *end;

		while (*p == ' ')
			p++;
		if (i == 3) { /* the state, a letter */
			p = strchrnul(p, ' ');
			continue;
		}
		v[i] = strtoull(p, &end, 10);
		if (end == p)
			return ward_fail(err, 0, "%s: field %d missing", path,
					 i);
		p = end;
	}
	if (v[F_ARG_START] > v[F_ARG_END] || v[F_ENV_START] > v[F_ENV_END] ||
	    v[F_ARG_END] - v[F_ARG_START] < sizeof(init_name))
		return ward_fail(err, 0, "%s: odd argument area", path);
	return 0;
}

/* Copies of the target's argv and of the slots' paths, in one block each
 * (init keeps them until it exits). */
static int copy_needed(struct ward_launch *l, ward_err *err)
{
	uint32_t nm = l->policy->nmounts;
	size_t argc = 0, bytes = 0;
	struct ward_slot_src *slots;
	char **argv, *s;

	for (; l->argv[argc]; argc++)
		bytes += strlen(l->argv[argc]) + 1;
	argv = malloc((argc + 1) * sizeof(*argv) + bytes);
	if (!argv)
		return ward_fail(err, ENOMEM, "copy the target's argv");
	s = (char *)(argv + argc + 1);
	for (size_t i = 0; i < argc; i++) {
		argv[i] = s;
		s = stpcpy(s, l->argv[i]) + 1;
	}
	argv[argc] = NULL;
	bytes = 0;
	for (uint32_t i = 0; i < nm; i++)
		if (l->slots[i].path)
			bytes += strlen(l->slots[i].path) + 1;
	slots = malloc(nm * sizeof(*slots) + bytes);
	if (!slots) {
		free(argv);
		return ward_fail(err, ENOMEM, "copy the slots' paths");
	}
	s = (char *)(slots + nm);
	for (uint32_t i = 0; i < nm; i++) {
		slots[i] = l->slots[i];
		if (!l->slots[i].path)
			continue;
		slots[i].path = s;
		s = stpcpy(s, l->slots[i].path) + 1;
	}
	l->argv = argv;
	l->slots = slots;
	return 0;
}

int ward_forget_cmdline(struct ward_launch *l, const char *procdir,
			ward_err *err)
{
	unsigned long long v[F_MAX] = {0};
	struct prctl_mm_map map;
	char *arg;

	if (read_stat(procdir, v, err) < 0 || copy_needed(l, err) < 0)
		return -1;
	arg = (char *)(uintptr_t)v[F_ARG_START];
	memset(arg, 0, v[F_ARG_END] - v[F_ARG_START]);
	memset((void *)(uintptr_t)v[F_ENV_START], 0,
	       v[F_ENV_END] - v[F_ENV_START]);
	/* In the old argument area: the kernel reads cmdline from
	 * anonymous memory only (FOLL_ANON), not from the binary's. */
	memcpy(arg, init_name, sizeof(init_name));
	map = (struct prctl_mm_map){
	    .start_code = v[F_START_CODE],
	    .end_code = v[F_END_CODE],
	    .start_data = v[F_START_DATA],
	    .end_data = v[F_END_DATA],
	    .start_brk = v[F_START_BRK],
	    .brk = (uint64_t)syscall(SYS_brk, 0),
	    .start_stack = v[F_START_STACK],
	    .arg_start = v[F_ARG_START],
	    .arg_end = v[F_ARG_START] + sizeof(init_name),
	    .env_start = v[F_ARG_START] + sizeof(init_name),
	    .env_end = v[F_ARG_START] + sizeof(init_name),
	    .exe_fd = (uint32_t)-1,
	};
	/* Best effort: the areas are zeroed already, which is what
	 * matters. */
	prctl(PR_SET_MM, PR_SET_MM_MAP, &map, sizeof(map), 0);
	return 0;
}
