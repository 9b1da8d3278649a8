/* SPDX-License-Identifier: MIT */
/*
 * commands.c: every wardc command with the options it takes. An option is
 * in the table of each command that reads it and nowhere else, so that
 * `wardc fmt --bpf` is a usage error naming the command rather than an
 * option silently ignored; --help prints a command's table (options.c).
 */
#include "commands.h"

#include <string.h>

#define END                                                                    \
	{                                                                      \
		NULL, NULL, NULL, 0, NULL                                      \
	}

/* A value written `=VALUE` in --help is only taken in that spelling for a
 * gcc-style option (-fdiagnostics-format=json); --color takes both.
 *
 * Every command takes these: they say where to find what a policy uses,
 * for which target, and how to show the diagnostics. */
const struct wardc_option wardc_general_options[] = {
    {"-I", NULL, "DIR", OPT_INCDIR, "add DIR to the search path of `use`"},
    {"-D", NULL, "NAME=VALUE", OPT_DEFINE,
     "define the string constant NAME (a name rule's domain name)"},
    {"--target", NULL, "ARCH", OPT_TARGET,
     "x86_64 or aarch64 (default: this machine's)"},
    {"-Werror", NULL, NULL, OPT_WERROR, "treat warnings as errors"},
    {"-fdiagnostics-format", NULL, "=text|json", OPT_DIAG_FORMAT,
     "diagnostics as text or as JSON lines"},
    {"--color", NULL, "=auto|always|never", OPT_COLOR,
     "colour the diagnostics (default: auto)"},
    {"--help", "-h", NULL, OPT_HELP, "show this help"},
    END,
};

static const struct wardc_option no_options[] = {END};

static const struct wardc_option compile_options[] = {
    {"-o", NULL, "OUT", OPT_OUTPUT, "the blob to write"},
    {"--record", NULL, NULL, OPT_RECORD,
     "the recording variant, for `ward --record` (docs/spec.md 4.9)"},
    END,
};

static const struct wardc_option suggest_options[] = {
    {"--from", NULL, "BASE.ward", OPT_FROM,
     "keep BASE's sections, derive only its syscall rules"},
    {"-o", NULL, "POLICY.ward", OPT_OUTPUT,
     "write to POLICY.ward instead of stdout"},
    END,
};

static const struct wardc_option explain_options[] = {
    {"--format", NULL, "text|json|yaml", OPT_FORMAT,
     "the form of the explanation (default: text)"},
    {"--bpf", NULL, NULL, OPT_BPF, "list the seccomp program"},
    {"--retries", NULL, "N", OPT_RETRIES,
     "the budget: runs a caller retries (default: 3)"},
    {"--queue", NULL, "DURATION", OPT_QUEUE,
     "the budget: queue and start time (default: 12s)"},
    END,
};

static const struct wardc_option diff_options[] = {
    {"--format", NULL, "text|json|yaml", OPT_FORMAT,
     "the form of the difference (default: text)"},
    END,
};

static const struct wardc_option fmt_options[] = {
    {"-w", NULL, NULL, OPT_WRITE, "rewrite the files"},
    {"--check", NULL, NULL, OPT_CHECK,
     "exit 1 if a file is not canonical; write nothing"},
    END,
};

static const struct wardc_option lint_options[] = {
    {"--format", NULL, "text|json|sarif", OPT_FORMAT,
     "the findings' form (--list-rules: text|json|markdown)"},
    {"--threshold", NULL, "N", OPT_THRESHOLD,
     "exit 1 when a policy's exposure score is above N"},
    {"--list-rules", NULL, NULL, OPT_LIST_RULES, "print the rule catalogue"},
    {"-o", NULL, "FILE", OPT_OUTPUT, "write to FILE instead of stdout"},
    END,
};

static const struct wardc_option export_options[] = {
    {"--format", NULL, "oci|k8s", OPT_FORMAT, "the format to write"},
    {"-o", NULL, "FILE", OPT_OUTPUT, "write to FILE instead of stdout"},
    {"--spo-layout", NULL, "cluster|namespaced", OPT_SPO_LAYOUT,
     "k8s: the operator's profile layout (default: cluster, API v1)"},
    {"--bundle", NULL, "DIR", OPT_BUNDLE,
     "oci: write a bundle, DIR/config.json and DIR/rootfs, for the "
     "program given after --"},
    {"--slot", NULL, "NAME=PATH", OPT_SLOT,
     "oci --bundle: a slot's host path (default: DIR/slots/NAME)"},
    {"--allow-runtime-init", NULL, NULL, OPT_RUNTIME_INIT,
     "oci: allow the calls runc makes after it loads the filter (a "
     "widening)"},
    END,
};

static const struct wardc_option import_options[] = {
    {"-o", NULL, "FILE", OPT_OUTPUT, "write to FILE instead of stdout"},
    {"--capabilities", NULL, "LIST", OPT_CAPABILITIES,
     "the capabilities the container keeps: CAP_A,CAP_B (default: none)"},
    END,
};

static const struct wardc_option keygen_options[] = {
    {"-o", NULL, "NAME", OPT_OUTPUT,
     "the secret key to write (mode 0600); NAME.pub the public key"},
    END,
};

static const struct wardc_option sign_options[] = {
    {"-k", NULL, "SECRETKEY", OPT_KEY, "the secret key (wardc keygen)"},
    {"-o", NULL, "FILE", OPT_OUTPUT,
     "write the signature to FILE (default: BLOB.sig)"},
    END,
};

static const struct wardc_option replay_options[] = {
    {"--ward", NULL, "PATH", OPT_WARD,
     "the launcher to run (default: the ward beside wardc, else PATH's)"},
    END,
};

const struct wardc_command wardc_commands[] = {
    {"check", cmd_check, "FILE...",
     "check policies and fragments, write nothing", no_options},
    {"compile", cmd_compile, "SRC -o OUT", "compile a policy into a blob",
     compile_options},
    {"explain", cmd_explain, "BLOB|SRC", "show what a policy really allows",
     explain_options},
    {"diff", cmd_diff, "A B", "what B allows that A does not, and the reverse",
     diff_options},
    {"fmt", cmd_fmt, "FILE...", "print policies in canonical form",
     fmt_options},
    {"constants", cmd_constants, "[PREFIX]", "list the built-in constants",
     no_options},
    {"args", cmd_args, "[SYSCALL]", "list the built-in syscall argument names",
     no_options},
    {"lint", cmd_lint, "FILE...", "find what widens the attack surface",
     lint_options},
    {"export", cmd_export, "SRC|BLOB [-- PROGRAM [ARG...]]", "to other formats",
     export_options},
    {"import", cmd_import, "FILE.json",
     "a Docker/OCI seccomp profile to a policy", import_options},
    {"keygen", cmd_keygen, "-o NAME",
     "make an Ed25519 key pair to sign blobs with", keygen_options},
    {"sign", cmd_sign, "-k SECRETKEY BLOB",
     "sign a blob: BLOB.sig, for ward --trusted-key", sign_options},
    {"suggest", cmd_suggest, "RECORD... [--from BASE.ward]",
     "the smallest policy allowing what records saw", suggest_options},
    {"replay", cmd_replay, "REPORT BLOB",
     "run a recorded run again and compare its output digests", replay_options},
    {NULL, NULL, NULL, NULL, NULL},
};

const struct wardc_command *wardc_command(const char *name)
{
	for (const struct wardc_command *c = wardc_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}
