/* SPDX-License-Identifier: MIT */
/*
 * wardc: the ward policy compiler's command line.
 */
#include "commands.h"
#include "driver.h"
#include "policy.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: wardc COMMAND [OPTIONS] ARGS...\n"
    "\n"
    "Commands:\n"
    "  check FILE...          check policies and fragments, write nothing\n"
    "  compile SRC -o OUT     compile a policy into a blob\n"
    "  explain BLOB|SRC       show what a policy really allows\n"
    "                         (--format text|json|yaml, --bpf; the budget:\n"
    "                         --retries N, default 3; --queue DURATION,\n"
    "                         default 12s)\n"
    "  diff A B               what B allows that A does not, and the "
    "reverse\n"
    "                         (--format text|json|yaml)\n"
    "  fmt FILE...            print policies in canonical form\n"
    "                         (-w: rewrite the files, --check: exit 1 if "
    "not)\n"
    "  constants [PREFIX]     list the built-in constants\n"
    "  args [SYSCALL]         list the built-in syscall argument names\n"
    "  lint FILE...           find what widens the attack surface\n"
    "                         (--format text|json|sarif, --threshold N,\n"
    "                         --list-rules [--format markdown], -o FILE)\n"
    "  export SRC|BLOB        to other formats (--format oci|k8s, -o FILE)\n"
    "  import FILE.json       a Docker/OCI seccomp profile to a policy\n"
    "                         (-o FILE)\n"
    "\n"
    "Options:\n"
    "  -I DIR                 add DIR to the search path of `use`\n"
    "  --target ARCH          x86_64 or aarch64 (default: this machine's)\n"
    "  -Werror                treat warnings as errors\n"
    "  -fdiagnostics-format=text|json\n"
    "  --color=auto|always|never\n"
    "  -h, --help             show this help\n"
    "  -V, --version          show the version\n"
    "\n"
    "Exit status: 0 clean, 1 errors in a policy (or a difference, for "
    "diff),\n"
    "2 usage or I/O errors.\n";

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt,
							     ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "wardc: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'wardc --help'.\n");
	return WARDC_USAGE;
}

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

/* The value of an option written `--opt VALUE` or `--opt=VALUE`. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	const char *a = argv[*i];
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] == 0 && *i + 1 < argc)
		return argv[++*i];
	if (a[n] == 0)
		return "";
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage_text, stderr);
		return WARDC_USAGE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(usage_text, stdout);
		return WARDC_OK;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("wardc %s (policy language 1, blob format 1)\n",
		       WARD_VERSION);
		return WARDC_OK;
	}

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
	_cleanup_free_ const char **incdirs =
	    calloc((size_t)argc, sizeof(char *));
	_cleanup_free_ const char **files =
	    calloc((size_t)argc, sizeof(char *));
	if (!incdirs || !files)
		return WARDC_USAGE;
	a.opts.incdirs = incdirs;
	a.files = files;

	bool dashdash = false;
	for (int i = 2; i < argc; i++) {
		const char *arg = argv[i], *v;
		if (dashdash || arg[0] != '-' || !strcmp(arg, "-")) {
			files[a.nfiles++] = arg;
		} else if (!strcmp(arg, "--")) {
			dashdash = true;
		} else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			fputs(usage_text, stdout);
			return WARDC_OK;
		} else if (!strncmp(arg, "-I", 2)) {
			if (arg[2])
				incdirs[a.opts.nincdirs++] = arg + 2;
			else if (i + 1 < argc)
				incdirs[a.opts.nincdirs++] = argv[++i];
			else
				return usage_error("-I needs a directory");
		} else if (!strcmp(arg, "-Werror")) {
			a.opts.werror = true;
		} else if (!strncmp(arg, "-fdiagnostics-format=", 21)) {
			v = arg + 21;
			if (!strcmp(v, "json"))
				a.opts.format = WARD_DIAG_JSON;
			else if (!strcmp(v, "text"))
				a.opts.format = WARD_DIAG_TEXT;
			else
				return usage_error("unknown diagnostics format "
						   "`%s` (text or json)",
						   v);
		} else if ((v = opt_value(argc, argv, &i, "--color"))) {
			if (!strcmp(v, "auto"))
				a.opts.color = WARD_COLOR_AUTO;
			else if (!strcmp(v, "always"))
				a.opts.color = WARD_COLOR_ALWAYS;
			else if (!strcmp(v, "never"))
				a.opts.color = WARD_COLOR_NEVER;
			else
				return usage_error("--color takes auto, always "
						   "or never, not `%s`",
						   v);
		} else if ((v = opt_value(argc, argv, &i, "--target"))) {
			if (!strcmp(v, "x86_64"))
				a.opts.arch = WARD_ARCH_X86_64;
			else if (!strcmp(v, "aarch64"))
				a.opts.arch = WARD_ARCH_AARCH64;
			else
				return usage_error("unknown target `%s` "
						   "(x86_64 or aarch64)",
						   v);
		} else if ((v = opt_value(argc, argv, &i, "--format"))) {
			a.out_format = v;
		} else if (!strcmp(arg, "-o")) {
			if (i + 1 >= argc)
				return usage_error("-o needs a file");
			a.output = argv[++i];
		} else if ((v = opt_value(argc, argv, &i, "--retries"))) {
			a.retries = v;
		} else if ((v = opt_value(argc, argv, &i, "--queue"))) {
			a.queue = v;
		} else if ((v = opt_value(argc, argv, &i, "--threshold"))) {
			a.threshold = v;
		} else if (!strcmp(arg, "--list-rules")) {
			a.list_rules = true;
		} else if (!strcmp(arg, "--bpf")) {
			a.bpf = true;
		} else if (!strcmp(arg, "-w")) {
			a.write = true;
		} else if (!strcmp(arg, "--check")) {
			a.check = true;
		} else {
			return usage_error("unknown option `%s`", arg);
		}
	}

	static const struct {
		const char *name;
		int (*run)(struct wardc_args *);
	} commands[] = {
	    {"check", cmd_check},     {"compile", cmd_compile},
	    {"explain", cmd_explain}, {"diff", cmd_diff},
	    {"fmt", cmd_fmt},	      {"constants", cmd_constants},
	    {"args", cmd_args},	      {"lint", cmd_lint},
	    {"export", cmd_export},   {"import", cmd_import},
	};
	for (size_t i = 0; i < ARRAY_LEN(commands); i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].run(&a);
	if (cmd[0] == '-')
		return usage_error(
		    "unknown option `%s` (a command comes first)", cmd);
	return usage_error("unknown command `%s`", cmd);
}
