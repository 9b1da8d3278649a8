/* SPDX-License-Identifier: MIT */
/*
 * commands.h: the wardc commands, one function each (cmd_*.c).
 */
#ifndef WARD_COMMANDS_H
#define WARD_COMMANDS_H

#include "driver.h"

#include <stdbool.h>
#include <stddef.h>

struct wardc_args {
	struct ward_opts opts;
	const char **files; /* positional arguments */
	size_t nfiles;
	const char *output;	/* -o */
	const char *out_format; /* --format */
	bool bpf;		/* --bpf */
	bool write;		/* fmt -w */
	bool check;		/* fmt --check */
	const char *threshold;	/* lint --threshold N */
	bool list_rules;	/* lint --list-rules */
	const char *retries;	/* explain --retries N (the budget) */
	const char *queue;	/* explain --queue DURATION */
};

int cmd_check(struct wardc_args *a);
int cmd_compile(struct wardc_args *a);
int cmd_explain(struct wardc_args *a);
int cmd_diff(struct wardc_args *a);
int cmd_fmt(struct wardc_args *a);
int cmd_constants(struct wardc_args *a);
int cmd_args(struct wardc_args *a);
int cmd_lint(struct wardc_args *a);
int cmd_export(struct wardc_args *a);
int cmd_import(struct wardc_args *a);

/* Write data to path atomically (a temporary file, then rename). */
int ward_write_file_atomic(const char *path, const void *data, size_t len,
			   int mode);

#endif
