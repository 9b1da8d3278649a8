/* SPDX-License-Identifier: MIT */
/*
 * ast.h: the syntax tree of one policy source file.
 *
 * The parser builds one struct ward_file per source file. Every node lives in
 * the file's arena (struct ward_arena) and is freed with it: nothing in the
 * tree is freed on its own. Every node carries its source span so that the
 * checker can point at it. The tree is a faithful record of what was written
 * (including the spelling of literals, for `wardc fmt`); meaning is given to
 * it by compiler/check/sema.c.
 */
#ifndef WARD_AST_H
#define WARD_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ward_arena;

/* A span in a source file; lines and columns count from 1, columns in bytes.
 * end_* is the last byte of the span (inclusive). */
struct ward_loc {
	uint32_t file; /* index in the source manager (lang/source.h) */
	uint32_t line, col;
	uint32_t end_line, end_col;
};

/* ---------------------------------------------------------------- values */

enum ward_value_kind {
	WARD_V_INT,	 /* 42, 0x1f, 0o755; u = value */
	WARD_V_SIZE,	 /* 512M, 1.5G, 4096B; u = bytes */
	WARD_V_DURATION, /* 30s, 500ms, 2m, 1h; u = milliseconds */
	WARD_V_DECIMAL,	 /* 0.5, 1.25; u = thousandths (0.5 -> 500) */
	WARD_V_STRING,	 /* "text"; str/len hold the decoded bytes */
	WARD_V_PATH,	 /* /usr/lib or a relative a/b path; str */
	WARD_V_ADDR,	 /* 10.0.0.1, 10.0.0.0/8, ::1, 2001:db8::/32; addr */
	WARD_V_NAME,	 /* a bare name (constant, host), or a dotted host name
			    such as pypi.org (DNSNAME token); str */
	WARD_V_OR	 /* a | b | c; items */
};

struct ward_value {
	enum ward_value_kind kind;
	struct ward_loc loc;
	const char *text; /* the source spelling, exactly as written */
	uint64_t u;
	const char *str; /* STRING (decoded, NUL-terminated), PATH, NAME */
	size_t len;	 /* STRING: decoded length (may contain NULs) */
	struct {
		uint8_t family; /* 4 or 6 */
		uint8_t bytes[16];
		int prefix; /* -1 when no /prefix was written */
	} addr;
	struct ward_value **items;
	size_t nitems;
};

/* ------------------------------------------------------------ conditions */

enum ward_relop {
	WARD_OP_EQ,
	WARD_OP_NE,
	WARD_OP_LT,
	WARD_OP_LE,
	WARD_OP_GT,
	WARD_OP_GE
};

enum ward_cond_kind { WARD_C_CMP, WARD_C_AND, WARD_C_OR };

struct ward_cond {
	enum ward_cond_kind kind;
	struct ward_loc loc;
	bool parenthesised; /* written inside ( ) (kept by fmt) */
	/* WARD_C_CMP: arg OP value, or (arg & mask) OP value */
	const char *arg; /* "domain", "arg1", ... */
	struct ward_loc arg_loc;
	struct ward_value *mask; /* NULL unless masked */
	bool mask_parenthesised; /* (arg & mask) OP value (kept by fmt) */
	enum ward_relop op;
	struct ward_value *value;
	/* WARD_C_AND, WARD_C_OR: lhs, rhs */
	struct ward_cond *lhs, *rhs;
};

/* ----------------------------------------------------------- statements */

enum ward_action_word {
	WARD_A_ALLOW,
	WARD_A_LOG,
	WARD_A_ERRNO, /* errno VALUE */
	WARD_A_TRAP,
	WARD_A_KILL
};

struct ward_action_ast {
	enum ward_action_word word;
	struct ward_loc loc;
	struct ward_value *errno_value; /* WARD_A_ERRNO: a name or an integer */
	bool logged;			/* the `log` modifier after it */
	struct ward_loc log_loc;
};

/* A syscall rule target: a syscall name with optional argument names, or a
 * group reference (@name). */
struct ward_target {
	struct ward_loc loc;
	const char *name; /* "socket" or "@basic-io" (with the @) */
	bool is_group;
	const char **params; /* socket(domain, type): names bound to arg0.. */
	struct ward_loc *param_locs;
	size_t nparams;
	bool has_parens; /* written with ( ), even empty */
};

enum ward_stmt_kind {
	/* top level */
	WARD_S_VERSION,	 /* ward N;            value */
	WARD_S_POLICY,	 /* policy NAME;       name */
	WARD_S_USE,	 /* use NAME;          name (a name or a/b path) */
	WARD_S_INCLUDE,	 /* include "path";    value (STRING) */
	WARD_S_CONST,	 /* const NAME = v;    name, value */
	WARD_S_GROUP,	 /* group @g { a, @b } name, targets */
	WARD_S_IDENTITY, /* identity { ... }   body */
	WARD_S_ENV,	 /* env { ... }        body */
	WARD_S_FS,	 /* fs { ... }         body */
	WARD_S_NET_NONE, /* net none; */
	WARD_S_NET,	 /* net { ... }        body */
	WARD_S_LIMITS,	 /* limits { ... }     body */
	WARD_S_SYSCALLS, /* syscalls [default ACTION] { ... } action?, body */

	/* identity { } */
	WARD_S_ID_USER,	    /* user v; */
	WARD_S_ID_GROUP,    /* group v; */
	WARD_S_ID_HOSTNAME, /* hostname v; */
	WARD_S_ID_CAPS,	    /* capabilities none; | capabilities A, B; names */
	WARD_S_ID_WORKDIR,  /* workdir PATH; value */

	/* env { } */
	WARD_S_ENV_SET,	    /* NAME = v;          name, value */
	WARD_S_ENV_INHERIT, /* inherit A, B;      names */

	/* fs { } : path is the sandbox path (destination) */
	WARD_S_FS_BIND,	   /* bind SRC [at DST] opts;  src, path, opts */
	WARD_S_FS_TMPFS,   /* tmpfs DST size v [mode m] opts; */
	WARD_S_FS_PROC,	   /* proc [DST]; */
	WARD_S_FS_DEV,	   /* dev [DST]; */
	WARD_S_FS_FILE,	   /* file DST v [mode m]; value = content */
	WARD_S_FS_SYMLINK, /* symlink DST -> TARGET;   path, src */
	WARD_S_FS_SLOT,	   /* slot NAME at DST opts;   name, path, opts */
	WARD_S_FS_DIR,	   /* dir DST [mode m]; */

	/* net { } */
	WARD_S_NET_HOST,  /* host NAME = ADDR [, ADDR]; name, values */
	WARD_S_NET_ALLOW, /* allow tcp|udp TARGET port P[-Q] [, ...]; */

	/* limits { } */
	WARD_S_LIMIT, /* NAME v;  name, value */

	/* syscalls { } */
	WARD_S_RULE, /* ACTION target, ... [if cond]; action, targets, cond */

	/* Added after the others: the numbers of the kinds above are part of
	 * the canonical serialisation (ast_canon.c), hence of every source
	 * digest. */
	WARD_S_EXPORT,	    /* export SLOT { ... }  name (the slot), body */
	WARD_S_EXPORT_ITEM, /* NAME v [, v...];     name, values */
	WARD_S_FS_MEMFD,    /* memfd exec|noexec;  opts (in fs { }) */
	WARD_S_ID_GROUPS,   /* groups keep;        value (in identity { }) */
	WARD_S_FS_LANDLOCK, /* landlock MODE;      name (in fs { }) */
	WARD_S_NET_ANSWERS  /* allow answers NET [, NET]; values (in net { }) */
};

/* Mount options written after a bind, tmpfs or slot (and `memfd`). */
enum {
	WARD_OPT_RO = 1u << 0,
	WARD_OPT_RW = 1u << 1,
	WARD_OPT_EXEC = 1u << 2,
	WARD_OPT_NOEXEC = 1u << 3,
	WARD_OPT_OPTIONAL = 1u << 4,
	WARD_OPT_LOG = 1u << 5 /* GROUP: `group @g log { ... }` */
};

struct ward_port_range {
	struct ward_loc loc;
	struct ward_value *lo;
	struct ward_value *hi; /* NULL for a single port */
};

struct ward_stmt {
	enum ward_stmt_kind kind;
	struct ward_loc loc;	/* the whole statement */
	struct ward_loc kw_loc; /* its leading keyword or name */
	const char *name;	/* POLICY, USE, CONST, GROUP, ENV_SET, SLOT,
				   NET_HOST, LIMIT, EXPORT, EXPORT_ITEM */
	struct ward_loc name_loc;
	struct ward_value *value; /* VERSION, INCLUDE, CONST, ID_*, ENV_SET,
				     FILE (content), LIMIT */
	struct ward_value *src;	  /* BIND (host path), SYMLINK (target) */
	struct ward_value
	    *path; /* fs destination; NULL for proc/dev = default */
	struct ward_value *size; /* TMPFS */
	struct ward_value *mode; /* TMPFS, FILE, DIR: an INT written in octal */
	unsigned opts;		 /* WARD_OPT_* as written */
	struct ward_loc opts_loc;

	/* CAPS, ENV_INHERIT: names; NET_HOST: values (addresses);
	 * EXPORT_ITEM: values */
	const char **names;
	struct ward_loc *name_locs;
	size_t nnames;
	bool caps_none;
	struct ward_value **values;
	size_t nvalues;

	/* NET_ALLOW */
	const char *proto;	 /* "tcp" or "udp" */
	struct ward_value *dest; /* an ADDR or a NAME (a host); by_name: a
				    STRING (a domain name) or a NAME (a string
				    constant holding one) */
	bool by_name;		 /* `allow tcp name ...` */
	struct ward_port_range *ports;
	size_t nports;

	/* RULE, GROUP, SYSCALLS (default) */
	struct ward_action_ast *action; /* SYSCALLS: NULL if no default */
	struct ward_target **targets;
	size_t ntargets;
	struct ward_cond *cond; /* NULL: unconditional */

	/* sections: the statements inside { } */
	struct ward_stmt **body;
	size_t nbody;
};

/* A comment, kept for `wardc fmt`. */
struct ward_comment {
	struct ward_loc loc;
	const char *text; /* including the leading '#' */
	bool trailing;	  /* on the same line as code before it */
};

/* One parsed file. Owned by its arena. */
struct ward_file {
	struct ward_arena *arena;
	uint32_t file; /* source manager index */
	struct ward_stmt **stmts;
	size_t nstmts;
	struct ward_comment *comments;
	size_t ncomments;
	unsigned nerrors; /* syntax errors reported while parsing */
};

/* The two files say the same thing: the same statements in the same order
 * with the same values (compared by kind and meaning: `1K` equals `1024B`),
 * whatever their locations, spellings and comments. */
bool ward_ast_equal(const struct ward_file *a, const struct ward_file *b);

#endif
