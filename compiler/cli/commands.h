/* SPDX-License-Identifier: MIT */
/*
 * commands.h: the wardc commands, one function each (cmd_*.c), and the
 * table of them with the options each takes (commands.c).
 */
#ifndef WARD_COMMANDS_H
#define WARD_COMMANDS_H

#include "driver.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wardc_args {
	struct ward_opts opts;
	const char **files; /* positional arguments */
	size_t nfiles;
	const char *output;	  /* -o */
	const char *key;	  /* sign -k SECRETKEY */
	const char *out_format;	  /* --format */
	bool bpf;		  /* --bpf */
	bool write;		  /* fmt -w */
	bool check;		  /* fmt --check */
	const char *threshold;	  /* lint --threshold N */
	bool list_rules;	  /* lint --list-rules */
	const char *retries;	  /* explain --retries N (the budget) */
	const char *queue;	  /* explain --queue DURATION */
	const char *capabilities; /* import --capabilities LIST */
	const char *bundle;	  /* export --bundle DIR */
	const char *spo_layout;	  /* export --spo-layout cluster|namespaced */
	bool runtime_init;	  /* export --allow-runtime-init */
	const char *ward;	  /* replay --ward PATH */
	const char **slots;	  /* export --slot NAME=PATH, repeated */
	size_t nslots;
	const char *from;  /* suggest --from BASE.ward */
	bool has_dashdash; /* files[dashdash..] came after `--` */
	size_t dashdash;
};

/* An option of a command's table. Spellings (options.c): a flag exactly
 * as named; a value as `--name VALUE` or `--name=VALUE` for a long option,
 * `-x VALUE` or `-xVALUE` for a one-letter one, `-name=VALUE` for a
 * gcc-style one (-fdiagnostics-format=json). */
enum wardc_opt_id {
	OPT_INCDIR,
	OPT_DEFINE,
	OPT_TARGET,
	OPT_WERROR,
	OPT_DIAG_FORMAT,
	OPT_COLOR,
	OPT_HELP,
	OPT_OUTPUT,
	OPT_FORMAT,
	OPT_BPF,
	OPT_RETRIES,
	OPT_QUEUE,
	OPT_WRITE,
	OPT_CHECK,
	OPT_THRESHOLD,
	OPT_LIST_RULES,
	OPT_CAPABILITIES,
	OPT_BUNDLE,
	OPT_SLOT,
	OPT_SPO_LAYOUT,
	OPT_RUNTIME_INIT,
	OPT_KEY,
	OPT_RECORD,
	OPT_FROM,
	OPT_WARD,
};

struct wardc_option {
	const char *name;  /* "--format", "-o" */
	const char *alias; /* another spelling ("-h" of "--help"), or NULL */
	const char
	    *value; /* what it takes, for --help ("FILE"); NULL: a flag */
	enum wardc_opt_id id;
	const char *help;
};

/* A command: its name, its function, and the options it takes besides
 * those of every command (wardc_general_options). Tables end with an
 * entry whose name is NULL. */
struct wardc_command {
	const char *name;
	int (*run)(struct wardc_args *a);
	const char *args;    /* its arguments, for --help: "SRC -o OUT" */
	const char *summary; /* what it does, in a line */
	const struct wardc_option *options;
};

extern const struct wardc_option wardc_general_options[];
extern const struct wardc_command wardc_commands[];

/* The command named name, or NULL. */
const struct wardc_command *wardc_command(const char *name);

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
int cmd_keygen(struct wardc_args *a);
int cmd_sign(struct wardc_args *a);

/* What `wardc explain` says of a blob file's detached signature, BLOB.sig
 * (cmd_sign.c). It is read, not verified: only the public key can say the
 * signature holds, and ward --trusted-key checks it. */
enum wardc_sig_status {
	WARDC_SIG_NONE,	  /* no BLOB.sig */
	WARDC_SIG_SIGNED, /* a signature for this blob, by key_id */
	WARDC_SIG_STALE,  /* a signature for another blob (changed since) */
	WARDC_SIG_BAD,	  /* not a signature file: detail says why */
};
struct wardc_signature {
	enum wardc_sig_status status;
	char key_id[17];
	char file[4200];
	char detail[WARD_ERR_MSG_MAX];
};
/* The signature file (docs/spec.md 2.8) of a blob whose SHA-256 is
 * blob_digest, by the key pair (sk, pk). Returns 0, or -1. */
int wardc_sig_make(const uint8_t sk[64], const uint8_t pk[32],
		   const uint8_t blob_digest[32], uint8_t out[120]);
int wardc_signature_of(const char *blob_path, const uint8_t digest[32],
		       struct wardc_signature *s);
int cmd_suggest(struct wardc_args *a);
int cmd_replay(struct wardc_args *a);

/* Write data to path atomically (a temporary file, then rename). */
int ward_write_file_atomic(const char *path, const void *data, size_t len,
			   int mode);

#endif
