/* SPDX-License-Identifier: MIT */
/*
 * cmd_build.c: `wardc check`, `wardc compile`, and the two listings of
 * built-in names (`constants`, `args`).
 */
#include "commands.h"
#include "consts.h"
#include "syscall_args.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int ward_write_file_atomic(const char *path, const void *data, size_t len,
			   int mode)
{
	size_t n = strlen(path);
	_cleanup_free_ char *tmp = malloc(n + 16);
	const char *p;
	size_t left;

	if (!tmp)
		return -1;
	snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
	_cleanup_close_ int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -1;
	p = data;
	left = len;
	while (left) {
		ssize_t w = write(fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int e = errno;
			unlink(tmp);
			errno = e;
			return -1;
		}
		p += w;
		left -= (size_t)w;
	}
	if (fchmod(fd, (mode_t)mode) < 0 || fsync(fd) < 0 ||
	    rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

int cmd_check(struct wardc_args *a)
{
	int worst = WARDC_OK;

	if (a->nfiles == 0) {
		fprintf(stderr, "wardc check: no file given\n");
		return WARDC_USAGE;
	}
	for (size_t i = 0; i < a->nfiles; i++) {
		int rc = ward_driver_check(a->files[i], &a->opts);
		if (rc > worst)
			worst = rc;
	}
	return worst;
}

int cmd_compile(struct wardc_args *a)
{
	size_t len = 0;
	int rc;

	if (a->nfiles != 1) {
		fprintf(stderr, "wardc compile: give one source file\n");
		return WARDC_USAGE;
	}
	if (!a->output) {
		fprintf(stderr,
			"wardc compile: give the output with -o FILE\n");
		return WARDC_USAGE;
	}
	_cleanup_free_ uint8_t *blob = NULL;
	rc = ward_driver_compile(a->files[0], &a->opts, &blob, &len);
	if (rc != WARDC_OK)
		return rc;
	if (ward_write_file_atomic(a->output, blob, len, 0644) < 0) {
		fprintf(stderr, "wardc: cannot write %s: %s\n", a->output,
			strerror(errno));
		return WARDC_USAGE;
	}
	return WARDC_OK;
}

int cmd_constants(struct wardc_args *a)
{
	const char *prefix = a->nfiles ? a->files[0] : "";
	size_t plen = strlen(prefix);
	size_t n = ward_const_count(a->opts.arch);
	for (size_t i = 0; i < n; i++) {
		const char *name = ward_const_name(a->opts.arch, i);
		if (strncmp(name, prefix, plen) == 0)
			printf("%-32s %#llx\n", name,
			       (unsigned long long)ward_const_value(
				   a->opts.arch, i));
	}
	return WARDC_OK;
}

int cmd_args(struct wardc_args *a)
{
	size_t n = ward_syscall_args_count();
	for (size_t i = 0; i < n; i++) {
		const char *sys = ward_syscall_args_syscall(i);
		size_t na;
		const char *const *names;

		if (a->nfiles && strcmp(sys, a->files[0]) != 0)
			continue;
		names = ward_syscall_arg_names(sys, a->opts.arch, &na);
		if (!names)
			continue;
		printf("%s(", sys);
		for (size_t k = 0; k < na; k++)
			printf("%s%s", k ? ", " : "", names[k]);
		printf(")\n");
	}
	return WARDC_OK;
}
