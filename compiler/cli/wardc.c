/* SPDX-License-Identifier: MIT */
/*
 * wardc: the ward policy compiler's command line. The commands and the
 * options each takes are the table of commands.c; this finds the command,
 * reads its options (options.c), runs it, and is the one place that prints
 * a usage error.
 */
#include "commands.h"
#include "driver.h"
#include "options.h"
#include "policy.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t native_arch(void)
{
#if defined(__x86_64__)
	return WARD_ARCH_X86_64;
#elif defined(__aarch64__)
	return WARD_ARCH_AARCH64;
#else
#error "ward supports x86_64 and aarch64 hosts"
#endif
}

/* "wardc fmt: unknown option `--bpf` (an option of explain)", and where
 * to read what the command takes. */
static int usage_error(const char *cmd, const char *msg)
{
	if (cmd)
		fprintf(stderr, "wardc %s: %s\nTry 'wardc %s --help'.\n", cmd,
			msg, cmd);
	else
		fprintf(stderr, "wardc: %s\nTry 'wardc --help'.\n", msg);
	return WARDC_USAGE;
}

int main(int argc, char **argv)
{
	const struct wardc_command *cmd;
	struct wardc_args a = {
	    .opts =
		{
		    .arch = native_arch(),
		    .format = WARD_DIAG_TEXT,
		    .color = WARD_COLOR_AUTO,
		    .diag_out = stderr,
		},
	    .out_format = "text",
	};
	ward_err err = {0};
	char msg[WARD_ERR_MSG_MAX + 64];
	int rc;

	if (argc < 2) {
		wardc_help(stderr);
		return WARDC_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		wardc_help(stdout);
		return WARDC_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("wardc %s (policy language 1, blob format 1)\n",
		       WARD_VERSION);
		return WARDC_OK;
	}
	cmd = wardc_command(argv[1]);
	if (!cmd) {
		snprintf(msg, sizeof(msg),
			 argv[1][0] == '-'
			     ? "unknown option `%s` (a command comes first)"
			     : "unknown command `%s`",
			 argv[1]);
		return usage_error(NULL, msg);
	}

	_cleanup_free_ const char **incdirs =
	    calloc((size_t)argc, sizeof(char *));
	_cleanup_free_ const char **defines =
	    calloc((size_t)argc, sizeof(char *));
	_cleanup_free_ const char **files =
	    calloc((size_t)argc, sizeof(char *));
	_cleanup_free_ const char **slots =
	    calloc((size_t)argc, sizeof(char *));
	if (!incdirs || !defines || !files || !slots)
		return WARDC_USAGE;
	a.opts.incdirs = incdirs;
	a.opts.defines = defines;
	a.files = files;
	a.slots = slots;
	rc = wardc_parse(cmd, argc, argv, 2, &a, &err);
	if (rc < 0)
		return usage_error(cmd->name,
				   ward_err_str(&err, msg, sizeof(msg)));
	if (rc > 0) {
		wardc_help_command(stdout, cmd);
		return WARDC_OK;
	}
	return cmd->run(&a);
}
