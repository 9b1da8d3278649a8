/* SPDX-License-Identifier: MIT */
/*
 * parser.y: the grammar of the policy language (spec 1.3) and the tree it
 * builds (ast.h).
 *
 * Errors are reported in words, never with bison's token names: the custom
 * reporter at the end of this file describes what was expected and what was
 * found, and says after what, from the parser's own stack. Recovery happens
 * at the level of one statement: a broken item skips to its `;`, a broken
 * section to its `}`, so that every error of a file is reported in one run.
 */

%define api.pure full
%define api.prefix {ward_yy}
%define api.token.prefix {T_}
%define api.location.type {struct ward_loc}
%define parse.error custom
%define parse.lac full
%locations
%param {yyscan_t scanner}
%param {struct ward_parser *p}

%code requires {
#include "arena.h"
#include "ast.h"

struct ward_parser;
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif
}

%union {
	struct ward_value *val;
	const char *str;
	struct ward_stmt *stmt;
	struct ward_list vec;
	struct ward_cond *cond;
	struct ward_target *target;
	struct ward_action_ast *action;
	struct ward_port_range *port;
	unsigned opts;
	int op;
}

%code {
#include "parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define YYSTYPE WARD_YYSTYPE
#define YYLTYPE WARD_YYLTYPE
#define YY_DECL int ward_scan(YYSTYPE *yylval_param, YYLTYPE *yylloc_param, \
			      yyscan_t yyscanner)
#include "lexer.h"
YY_DECL;

/* Conditions nest through the stack; nothing else does. */
#define YYMAXDEPTH 1000
#define YYINITDEPTH 64

/* A span from the first to the last symbol of a rule; an empty rule sits
 * just after what precedes it (its end before its start). */
#define YYLLOC_DEFAULT(cur, rhs, n)                                            \
	do {                                                                   \
		if (n) {                                                       \
			(cur).file = YYRHSLOC(rhs, 1).file;                    \
			(cur).line = YYRHSLOC(rhs, 1).line;                    \
			(cur).col = YYRHSLOC(rhs, 1).col;                      \
			(cur).end_line = YYRHSLOC(rhs, n).end_line;            \
			(cur).end_col = YYRHSLOC(rhs, n).end_col;              \
		} else {                                                       \
			(cur).file = YYRHSLOC(rhs, 0).file;                    \
			(cur).line = (cur).end_line =                          \
			    YYRHSLOC(rhs, 0).end_line;                         \
			(cur).end_col = YYRHSLOC(rhs, 0).end_col;              \
			(cur).col = (cur).end_col + 1;                         \
		}                                                              \
	} while (0)

static int yylex(YYSTYPE *lval, YYLTYPE *lloc, yyscan_t scanner,
		 struct ward_parser *p);
static void yyerror(YYLTYPE *loc, yyscan_t scanner, struct ward_parser *p,
		    const char *msg);

/* Out of memory in an action: leave through bison's exhaustion path. */
#define NEED(x)                                                                \
	do {                                                                   \
		if (!(x)) {                                                    \
			p->out_of_memory = true;                               \
			YYNOMEM;                                               \
		}                                                              \
	} while (0)

}

%token <str> NAME "name" GROUP "group name"
%token <val> INT "integer" SIZE "size literal" DURATION "duration"
%token <val> DECIMAL "decimal" STRING "string" PATH "path"
%token <val> RELPATH "relative path" ADDR "address" DNSNAME "host name"

%token WARD "ward" POLICY "policy" USE "use" INCLUDE "include"
%token CONST "const" GROUP_KW "group" IDENTITY "identity" USER "user"
%token HOSTNAME "hostname" CAPABILITIES "capabilities" NONE "none"
%token WORKDIR "workdir"
%token ENV "env" INHERIT "inherit" FS "fs" BIND "bind" AT "at" RO "ro"
%token RW "rw" EXEC "exec" NOEXEC "noexec" OPTIONAL "optional"
%token TMPFS "tmpfs" SIZE_KW "size" MODE "mode" PROC "proc"
%token DEV "dev" FILE_KW "file" SYMLINK "symlink" SLOT "slot" DIR "dir"
%token MEMFD "memfd" GROUPS "groups" LANDLOCK "landlock"
%token NET "net" HOST "host" ALLOW "allow" TCP "tcp" UDP "udp" PORT "port"
%token ANSWERS "answers"
%token LIMITS "limits" SYSCALLS "syscalls" EXPORT "export"
%token DEFAULT "default" IF "if"
%token LOG "log" ERRNO "errno" TRAP "trap" KILL "kill"

%token ARROW "->" EQ "==" NE "!=" LE "<=" GE ">=" ANDAND "&&" OROR "||"
%token SEMI ";" LBRACE "{" RBRACE "}" LPAREN "(" RPAREN ")" COMMA ","
%token ASSIGN "=" PIPE "|" AMP "&" MINUS "-" LT "<" GT ">"
/* Never written: the parser's own mark for a `;` missing at the end of a
 * line, after which parsing resumes at the next line (see yylex). */
%token RESYNC "end of line"

/* The `log` modifier binds to the action before it (see action). */
%precedence ACTION_BARE
%precedence "log"

%type <str> name
%type <stmt> stmt section id_item env_item fs_item net_item limit_item rule
%type <stmt> export_item
%type <vec> id_items env_items fs_items net_items limit_items rules
%type <vec> export_items
%type <vec> member_list names params targets values ports terms strings
%type <val> value term string path opt_mode dest
%type <target> member target
%type <action> action bare_action
%type <opts> opt_log
%type <cond> cond conj atom compare operand
%type <op> relop proto
%type <opts> mount_opts mount_opt
%type <port> port

%%

file:
	  %empty
	| file stmt		{ NEED(ward_add_stmt(p, $2)); }
	;

stmt:
	  "ward" INT ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_VERSION, @$, @1));
		$$->value = $2;
		ward_check_version(p, $2);
	  }
	| "policy" name ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_POLICY, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
	  }
	| "use" name ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_USE, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
	  }
	| "use" RELPATH ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_USE, @$, @1));
		$$->name = $2->text;
		$$->name_loc = @2;
	  }
	| "include" string ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_INCLUDE, @$, @1));
		$$->value = $2;
	  }
	| "const" name "=" value ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_CONST, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
		$$->value = $4;
	  }
	| "group" GROUP opt_log "{" "}" {
		NEED($$ = ward_new_stmt(p, WARD_S_GROUP, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
		$$->opts = $3;
		$$->opts_loc = @3;
	  }
	| "group" GROUP opt_log "{" member_list opt_comma "}" {
		NEED($$ = ward_new_stmt(p, WARD_S_GROUP, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
		$$->opts = $3;
		$$->opts_loc = @3;
		$$->targets = (struct ward_target **)$5.items;
		$$->ntargets = $5.n;
	  }
	| "group" GROUP opt_log "{" member_list error "}" {
		yyerrok;
		NEED($$ = ward_new_stmt(p, WARD_S_GROUP, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
		$$->opts = $3;
		$$->opts_loc = @3;
		$$->targets = (struct ward_target **)$5.items;
		$$->ntargets = $5.n;
	  }
	| "net" "none" ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_NET_NONE, @$, @1));
	  }
	| section
	| error ";" {
		/* inside a broken block, go on to its `}` */
		if (p->brace_open)
			YYERROR;
		$$ = NULL;
		yyerrok;
	  }
	| error "}"		{ $$ = NULL; yyerrok; }
	| error RESYNC		{ $$ = NULL; }
	;

opt_comma: %empty | "," ;

/* A section keeps what it holds up to a broken item: `error "}"` closes it
 * after an item that could not be recovered at its `;`. */
section:
	  "identity" "{" id_items "}" {
		NEED($$ = ward_new_stmt(p, WARD_S_IDENTITY, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "identity" "{" id_items error "}" {
		yyerrok;
		NEED($$ = ward_new_stmt(p, WARD_S_IDENTITY, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "env" "{" env_items "}" {
		NEED($$ = ward_new_stmt(p, WARD_S_ENV, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "env" "{" env_items error "}" {
		yyerrok;
		NEED($$ = ward_new_stmt(p, WARD_S_ENV, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "fs" "{" fs_items "}" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "fs" "{" fs_items error "}" {
		yyerrok;
		NEED($$ = ward_new_stmt(p, WARD_S_FS, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "net" "{" net_items "}" {
		NEED($$ = ward_new_stmt(p, WARD_S_NET, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "net" "{" net_items error "}" {
		yyerrok;
		NEED($$ = ward_new_stmt(p, WARD_S_NET, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "limits" "{" limit_items "}" {
		NEED($$ = ward_new_stmt(p, WARD_S_LIMITS, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "limits" "{" limit_items error "}" {
		yyerrok;
		NEED($$ = ward_new_stmt(p, WARD_S_LIMITS, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "syscalls" "{" rules "}" {
		NEED($$ = ward_new_stmt(p, WARD_S_SYSCALLS, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "syscalls" "{" rules error "}" {
		yyerrok;
		NEED($$ = ward_new_stmt(p, WARD_S_SYSCALLS, @$, @1));
		NEED(ward_set_body(p, $$, &$3));
	  }
	| "syscalls" "default" action "{" rules "}" {
		NEED($$ = ward_new_stmt(p, WARD_S_SYSCALLS, @$, @1));
		$$->action = $3;
		NEED(ward_set_body(p, $$, &$5));
	  }
	| "syscalls" "default" action "{" rules error "}" {
		yyerrok;
		NEED($$ = ward_new_stmt(p, WARD_S_SYSCALLS, @$, @1));
		$$->action = $3;
		NEED(ward_set_body(p, $$, &$5));
	  }
	| "export" name "{" export_items "}" {
		NEED($$ = ward_new_stmt(p, WARD_S_EXPORT, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
		NEED(ward_set_body(p, $$, &$4));
	  }
	| "export" name "{" export_items error "}" {
		yyerrok;
		NEED($$ = ward_new_stmt(p, WARD_S_EXPORT, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
		NEED(ward_set_body(p, $$, &$4));
	  }
	;

member_list:
	  member		{ $$ = (struct ward_list){0}; NEED(ward_list_push(p->arena, &$$, $1) == 0); }
	| member_list "," member { $$ = $1; NEED(ward_list_push(p->arena, &$$, $3) == 0); }
	;

member:
	  name {
		NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$)));
		$$->loc = @1;
		$$->name = $1;
	  }
	| GROUP {
		NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$)));
		$$->loc = @1;
		$$->name = $1;
		$$->is_group = true;
	  }
	;

names:
	  name			{ $$ = (struct ward_list){0}; NEED(ward_push_name(p, &$$, $1, @1)); }
	| names "," name	{ $$ = $1; NEED(ward_push_name(p, &$$, $3, @3)); }
	;

/* ------------------------------------------------------------ identity */

id_items:
	  %empty		{ $$ = (struct ward_list){0}; }
	| id_items id_item	{ $$ = $1; if ($2) NEED(ward_list_push(p->arena, &$$, $2) == 0); }
	;

id_item:
	  "user" value ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_ID_USER, @$, @1));
		$$->value = $2;
	  }
	| "group" value ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_ID_GROUP, @$, @1));
		$$->value = $2;
	  }
	| "hostname" value ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_ID_HOSTNAME, @$, @1));
		$$->value = $2;
	  }
	| "workdir" value ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_ID_WORKDIR, @$, @1));
		$$->value = $2;
	  }
	| "groups" value ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_ID_GROUPS, @$, @1));
		$$->value = $2;
	  }
	| "capabilities" names ";" {
		const struct ward_name_at *first;

		NEED($$ = ward_new_stmt(p, WARD_S_ID_CAPS, @$, @1));
		first = $2.items[0];
		if ($2.n == 1 && strcmp(first->name, "none") == 0)
			$$->caps_none = true;
		else
			NEED(ward_set_names(p, &$2, &$$->names, &$$->name_locs,
				       &$$->nnames));
	  }
	| error ";"		{ $$ = NULL; yyerrok; }
	| error RESYNC		{ $$ = NULL; }
	;

/* ----------------------------------------------------------------- env */

env_items:
	  %empty		{ $$ = (struct ward_list){0}; }
	| env_items env_item	{ $$ = $1; if ($2) NEED(ward_list_push(p->arena, &$$, $2) == 0); }
	;

env_item:
	  name "=" value ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_ENV_SET, @$, @1));
		$$->name = $1;
		$$->name_loc = @1;
		$$->value = $3;
	  }
	| "inherit" names ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_ENV_INHERIT, @$, @1));
		NEED(ward_set_names(p, &$2, &$$->names, &$$->name_locs,
			       &$$->nnames));
	  }
	| error ";"		{ $$ = NULL; yyerrok; }
	| error RESYNC		{ $$ = NULL; }
	;

/* ------------------------------------------------------------------ fs */

fs_items:
	  %empty		{ $$ = (struct ward_list){0}; }
	| fs_items fs_item	{ $$ = $1; if ($2) NEED(ward_list_push(p->arena, &$$, $2) == 0); }
	;

fs_item:
	  "bind" path mount_opts ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_BIND, @$, @1));
		$$->src = $2;
		$$->path = $2;
		$$->opts = $3;
		$$->opts_loc = @3;
	  }
	| "bind" path "at" path mount_opts ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_BIND, @$, @1));
		$$->src = $2;
		$$->path = $4;
		$$->opts = $5;
		$$->opts_loc = @5;
	  }
	| "tmpfs" path "size" value opt_mode mount_opts ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_TMPFS, @$, @1));
		$$->path = $2;
		$$->size = $4;
		$$->mode = $5;
		$$->opts = $6;
		$$->opts_loc = @6;
	  }
	| "proc" ";"		{ NEED($$ = ward_new_stmt(p, WARD_S_FS_PROC, @$, @1)); }
	| "proc" path ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_PROC, @$, @1));
		$$->path = $2;
	  }
	| "dev" ";"		{ NEED($$ = ward_new_stmt(p, WARD_S_FS_DEV, @$, @1)); }
	| "dev" path ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_DEV, @$, @1));
		$$->path = $2;
	  }
	| "file" path value opt_mode ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_FILE, @$, @1));
		$$->path = $2;
		$$->value = $3;
		$$->mode = $4;
	  }
	| "symlink" path "->" path ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_SYMLINK, @$, @1));
		$$->path = $2;
		$$->src = $4;
	  }
	| "symlink" path "->" RELPATH ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_SYMLINK, @$, @1));
		$$->path = $2;
		$$->src = $4;
	  }
	| "slot" name "at" path mount_opts ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_SLOT, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
		$$->path = $4;
		$$->opts = $5;
		$$->opts_loc = @5;
	  }
	| "slot" name "at" path mount_opts "size" value ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_SLOT, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
		$$->path = $4;
		$$->opts = $5;
		$$->opts_loc = @5;
		$$->size = $7;
	  }
	| "dir" path opt_mode ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_DIR, @$, @1));
		$$->path = $2;
		$$->mode = $3;
	  }
	| "memfd" mount_opts ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_MEMFD, @$, @1));
		$$->opts = $2;
		$$->opts_loc = @2;
	  }
	| "landlock" name ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_FS_LANDLOCK, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
	  }
	| error ";"		{ $$ = NULL; yyerrok; }
	| error RESYNC		{ $$ = NULL; }
	;

path:
	  PATH
	| STRING
	;

opt_mode:
	  %empty		{ $$ = NULL; }
	| "mode" INT		{ $$ = $2; ward_read_mode(p, $2); }
	;

mount_opts:
	  %empty		{ $$ = 0; }
	| mount_opts mount_opt {
		$$ = ward_add_opt(p, $1, $2, @2);
		if (!$1) /* the span starts at the first option */
			@$ = @2;
	  }
	;

mount_opt:
	  "ro"			{ $$ = WARD_OPT_RO; }
	| "rw"			{ $$ = WARD_OPT_RW; }
	| "exec"		{ $$ = WARD_OPT_EXEC; }
	| "noexec"		{ $$ = WARD_OPT_NOEXEC; }
	| "optional"		{ $$ = WARD_OPT_OPTIONAL; }
	;

/* ----------------------------------------------------------------- net */

net_items:
	  %empty		{ $$ = (struct ward_list){0}; }
	| net_items net_item	{ $$ = $1; if ($2) NEED(ward_list_push(p->arena, &$$, $2) == 0); }
	;

net_item:
	  "host" name "=" values ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_NET_HOST, @$, @1));
		$$->name = $2;
		$$->name_loc = @2;
		$$->values = (struct ward_value **)$4.items;
		$$->nvalues = $4.n;
	  }
	| "host" DNSNAME "=" values ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_NET_HOST, @$, @1));
		$$->name = $2->text;
		$$->name_loc = @2;
		$$->values = (struct ward_value **)$4.items;
		$$->nvalues = $4.n;
	  }
	| "allow" proto dest "port" ports ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_NET_ALLOW, @$, @1));
		$$->proto = $2 ? "udp" : "tcp";
		$$->dest = $3;
		$$->ports = ward_arena_alloc(p->arena,
					     $5.n * sizeof(*$$->ports));
		NEED($$->ports);
		for (size_t i = 0; i < $5.n; i++)
			$$->ports[i] = *(struct ward_port_range *)$5.items[i];
		$$->nports = $5.n;
	  }
	| "allow" proto name STRING "port" ports ";" {
		/* `name` is a word here, not a keyword: a policy may still
		 * call a constant or a host `name`. The destination is the
		 * STRING: a domain name the checker normalises (1.7.4). */
		if (strcmp($3, "name") != 0) {
			ward_parse_error(p, @3,
					 "expected `name` before a quoted "
					 "domain name");
			ward_diag_help(p->diags, "write `allow %s name \"%s\" port ...;`",
				       $2 ? "udp" : "tcp", "index.example");
		}
		NEED($$ = ward_new_stmt(p, WARD_S_NET_ALLOW, @$, @1));
		$$->proto = $2 ? "udp" : "tcp";
		$$->dest = $4;
		$$->by_name = true;
		$$->ports = ward_arena_alloc(p->arena,
					     $6.n * sizeof(*$$->ports));
		NEED($$->ports);
		for (size_t i = 0; i < $6.n; i++)
			$$->ports[i] = *(struct ward_port_range *)$6.items[i];
		$$->nports = $6.n;
	  }
	| "allow" proto name NAME "port" ports ";" {
		/* The domain name held by a string constant: one the user
		 * sets when compiling (`wardc compile -D NAME=VALUE`, 1.9),
		 * so that a profile can name the host it is compiled for.
		 * A NAME only, not a keyword: after `allow tcp name` a
		 * keyword can only be `port` (a rule for a host called
		 * `name`). */
		if (strcmp($3, "name") != 0) {
			ward_parse_error(p, @3,
					 "expected `name` before a domain "
					 "name's constant");
			ward_diag_help(p->diags, "write `allow %s name %s port ...;`",
				       $2 ? "udp" : "tcp", $4);
		}
		NEED($$ = ward_new_stmt(p, WARD_S_NET_ALLOW, @$, @1));
		$$->proto = $2 ? "udp" : "tcp";
		NEED($$->dest = ward_name_value(p, $4, @4));
		$$->by_name = true;
		$$->ports = ward_arena_alloc(p->arena,
					     $6.n * sizeof(*$$->ports));
		NEED($$->ports);
		for (size_t i = 0; i < $6.n; i++)
			$$->ports[i] = *(struct ward_port_range *)$6.items[i];
		$$->nports = $6.n;
	  }
	| "allow" "answers" values ";" {
		/* The private networks a DNS answer may lead to (5.11). */
		NEED($$ = ward_new_stmt(p, WARD_S_NET_ANSWERS, @$, @1));
		$$->values = (struct ward_value **)$3.items;
		$$->nvalues = $3.n;
	  }
	| error ";"		{ $$ = NULL; yyerrok; }
	| error RESYNC		{ $$ = NULL; }
	;

proto:
	  "tcp"			{ $$ = 0; }
	| "udp"			{ $$ = 1; }
	;

dest:
	  ADDR
	| DNSNAME
	| name			{ NEED($$ = ward_name_value(p, $1, @1)); }
	;

values:
	  value			{ $$ = (struct ward_list){0}; NEED(ward_list_push(p->arena, &$$, $1) == 0); }
	| values "," value	{ $$ = $1; NEED(ward_list_push(p->arena, &$$, $3) == 0); }
	;

ports:
	  port			{ $$ = (struct ward_list){0}; NEED(ward_list_push(p->arena, &$$, $1) == 0); }
	| ports "," port	{ $$ = $1; NEED(ward_list_push(p->arena, &$$, $3) == 0); }
	;

port:
	  value {
		NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$)));
		$$->loc = @$;
		$$->lo = $1;
	  }
	| value "-" value {
		NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$)));
		$$->loc = @$;
		$$->lo = $1;
		$$->hi = $3;
	  }
	;

/* -------------------------------------------------------------- limits */

limit_items:
	  %empty		{ $$ = (struct ward_list){0}; }
	| limit_items limit_item { $$ = $1; if ($2) NEED(ward_list_push(p->arena, &$$, $2) == 0); }
	;

limit_item:
	  name value ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_LIMIT, @$, @1));
		$$->name = $1;
		$$->name_loc = @1;
		$$->value = $2;
	  }
	| error ";"		{ $$ = NULL; yyerrok; }
	| error RESYNC		{ $$ = NULL; }
	;

/* -------------------------------------------------------------- export */

/* `files 20;`, `names "*.csv", "*.png";`: the checker gives the names
 * their meaning (compiler/check/sema_export.c). */
export_items:
	  %empty		{ $$ = (struct ward_list){0}; }
	| export_items export_item { $$ = $1; if ($2) NEED(ward_list_push(p->arena, &$$, $2) == 0); }
	;

export_item:
	  name values ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_EXPORT_ITEM, @$, @1));
		$$->name = $1;
		$$->name_loc = @1;
		$$->values = (struct ward_value **)$2.items;
		$$->nvalues = $2.n;
	  }
	| error ";"		{ $$ = NULL; yyerrok; }
	| error RESYNC		{ $$ = NULL; }
	;

/* `group @g log { ... }`: refusals of its calls are recorded. */
opt_log:
	  %empty		{ $$ = 0; }
	| "log"			{ $$ = WARD_OPT_LOG; }
	;

/* ------------------------------------------------------------ syscalls */

rules:
	  %empty		{ $$ = (struct ward_list){0}; }
	| rules rule		{ $$ = $1; if ($2) NEED(ward_list_push(p->arena, &$$, $2) == 0); }
	;

rule:
	  action targets ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_RULE, @$, @1));
		$$->action = $1;
		$$->targets = (struct ward_target **)$2.items;
		$$->ntargets = $2.n;
	  }
	| action targets "if" cond ";" {
		NEED($$ = ward_new_stmt(p, WARD_S_RULE, @$, @1));
		$$->action = $1;
		$$->targets = (struct ward_target **)$2.items;
		$$->ntargets = $2.n;
		$$->cond = $4;
	  }
	| error ";"		{ $$ = NULL; yyerrok; }
	| error RESYNC		{ $$ = NULL; }
	;

/* An action, and the `log` modifier after it (`errno EPERM log`: the
 * refused calls are recorded). A `log` right after an action is always the
 * modifier, never a syscall named log (there is none). */
action:
	  bare_action %prec ACTION_BARE
	| bare_action "log"	{ $$ = $1; $$->logged = true; $$->log_loc = @2; }
	;

bare_action:
	  "allow"		{ NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$))); $$->word = WARD_A_ALLOW; $$->loc = @$; }
	| "log"			{ NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$))); $$->word = WARD_A_LOG; $$->loc = @$; }
	| "trap"		{ NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$))); $$->word = WARD_A_TRAP; $$->loc = @$; }
	| "kill"		{ NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$))); $$->word = WARD_A_KILL; $$->loc = @$; }
	| "errno" value {
		NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$)));
		$$->word = WARD_A_ERRNO;
		$$->loc = @$;
		$$->errno_value = $2;
	  }
	;

targets:
	  target		{ $$ = (struct ward_list){0}; NEED(ward_list_push(p->arena, &$$, $1) == 0); }
	| targets "," target	{ $$ = $1; NEED(ward_list_push(p->arena, &$$, $3) == 0); }
	;

target:
	  GROUP {
		NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$)));
		$$->loc = @$;
		$$->name = $1;
		$$->is_group = true;
	  }
	| name {
		NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$)));
		$$->loc = @$;
		$$->name = $1;
	  }
	| name "(" ")" {
		NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$)));
		$$->loc = @$;
		$$->name = $1;
		$$->has_parens = true;
	  }
	| name "(" params ")" {
		NEED($$ = ward_arena_alloc(p->arena, sizeof(*$$)));
		$$->loc = @$;
		$$->name = $1;
		$$->has_parens = true;
		NEED(ward_set_names(p, &$3, &$$->params, &$$->param_locs,
			       &$$->nparams));
	  }
	;

params:
	  name			{ $$ = (struct ward_list){0}; NEED(ward_push_name(p, &$$, $1, @1)); }
	| params "," name	{ $$ = $1; NEED(ward_push_name(p, &$$, $3, @3)); }
	;

/* && binds tighter than ||; both are left-associative. */
cond:
	  conj
	| cond "||" conj	{ NEED($$ = ward_join_cond(p, WARD_C_OR, $1, $3, @$)); }
	;

conj:
	  atom
	| conj "&&" atom	{ NEED($$ = ward_join_cond(p, WARD_C_AND, $1, $3, @$)); }
	;

atom:
	  "(" cond ")"		{ $$ = $2; $$->parenthesised = true; $$->loc = @$; }
	| compare
	;

compare:
	  operand relop value {
		$$ = $1;
		$$->loc = @$;
		$$->op = (enum ward_relop)$2;
		$$->value = $3;
		if ($$->mask && $2 != WARD_OP_EQ && $2 != WARD_OP_NE) {
			ward_parse_error(p, @2,
					 "a masked comparison takes `==` or "
					 "`!=` only");
			ward_diag_help(p->diags,
				       "compare the masked bits for equality: "
				       "`%s & MASK == VALUE`",
				       $$->arg);
		}
	  }
	;

operand:
	  name {
		NEED($$ = ward_new_cond(p, WARD_C_CMP, @$));
		$$->arg = $1;
		$$->arg_loc = @1;
	  }
	| name "&" value {
		NEED($$ = ward_new_cond(p, WARD_C_CMP, @$));
		$$->arg = $1;
		$$->arg_loc = @1;
		$$->mask = $3;
	  }
	| "(" name "&" value ")" {
		NEED($$ = ward_new_cond(p, WARD_C_CMP, @$));
		$$->arg = $2;
		$$->arg_loc = @2;
		$$->mask = $4;
		$$->mask_parenthesised = true;
	  }
	;

relop:
	  "=="			{ $$ = WARD_OP_EQ; }
	| "!="			{ $$ = WARD_OP_NE; }
	| "<"			{ $$ = WARD_OP_LT; }
	| "<="			{ $$ = WARD_OP_LE; }
	| ">"			{ $$ = WARD_OP_GT; }
	| ">="			{ $$ = WARD_OP_GE; }
	;

/* -------------------------------------------------------------- values */

/* A value of several terms is built once its last term is known. */
value:
	  terms			{ NEED($$ = ward_or_value(p, &$1, @$)); }
	;

terms:
	  term			{ $$ = (struct ward_list){0}; NEED(ward_list_push(p->arena, &$$, $1) == 0); }
	| terms "|" term	{ $$ = $1; NEED(ward_list_push(p->arena, &$$, $3) == 0); }
	;

term:
	  INT			{ $$ = $1; ward_check_decimal_int(p, $1); }
	| DECIMAL
	| SIZE
	| DURATION
	| string
	| PATH
	| ADDR
	| name			{ NEED($$ = ward_name_value(p, $1, @1)); }
	;

/* Adjacent strings are one string: long contents are written over lines. */
string:
	  strings		{ NEED($$ = ward_concat_strings(p, &$1, @$)); }
	;

strings:
	  STRING		{ $$ = (struct ward_list){0}; NEED(ward_list_push(p->arena, &$$, $1) == 0); }
	| strings STRING	{ $$ = $1; NEED(ward_list_push(p->arena, &$$, $2) == 0); }
	;

/* Wherever a name is expected, a keyword is that name. */
name:
	  NAME
	| "ward"		{ $$ = "ward"; }
	| "policy"		{ $$ = "policy"; }
	| "use"			{ $$ = "use"; }
	| "include"		{ $$ = "include"; }
	| "const"		{ $$ = "const"; }
	| "group"		{ $$ = "group"; }
	| "identity"		{ $$ = "identity"; }
	| "user"		{ $$ = "user"; }
	| "hostname"		{ $$ = "hostname"; }
	| "capabilities"	{ $$ = "capabilities"; }
	| "workdir"		{ $$ = "workdir"; }
	| "none"		{ $$ = "none"; }
	| "env"			{ $$ = "env"; }
	| "inherit"		{ $$ = "inherit"; }
	| "fs"			{ $$ = "fs"; }
	| "bind"		{ $$ = "bind"; }
	| "at"			{ $$ = "at"; }
	| "ro"			{ $$ = "ro"; }
	| "rw"			{ $$ = "rw"; }
	| "exec"		{ $$ = "exec"; }
	| "noexec"		{ $$ = "noexec"; }
	| "optional"		{ $$ = "optional"; }
	| "tmpfs"		{ $$ = "tmpfs"; }
	| "size"		{ $$ = "size"; }
	| "mode"		{ $$ = "mode"; }
	| "proc"		{ $$ = "proc"; }
	| "dev"			{ $$ = "dev"; }
	| "file"		{ $$ = "file"; }
	| "symlink"		{ $$ = "symlink"; }
	| "slot"		{ $$ = "slot"; }
	| "dir"			{ $$ = "dir"; }
	| "memfd"		{ $$ = "memfd"; }
	| "landlock"		{ $$ = "landlock"; }
	| "groups"		{ $$ = "groups"; }
	| "net"			{ $$ = "net"; }
	| "host"		{ $$ = "host"; }
	| "allow"		{ $$ = "allow"; }
	| "tcp"			{ $$ = "tcp"; }
	| "answers"		{ $$ = "answers"; }
	| "udp"			{ $$ = "udp"; }
	| "port"		{ $$ = "port"; }
	| "limits"		{ $$ = "limits"; }
	| "syscalls"		{ $$ = "syscalls"; }
	| "export"		{ $$ = "export"; }
	| "default"		{ $$ = "default"; }
	| "if"			{ $$ = "if"; }
	| "log"			{ $$ = "log"; }
	| "errno"		{ $$ = "errno"; }
	| "trap"		{ $$ = "trap"; }
	| "kill"		{ $$ = "kill"; }
	;

%%

/* ------------------------------------------------------------ scanning */

static bool is_section_word(int kind)
{
	switch (kind) {
	case T_IDENTITY:
	case T_ENV:
	case T_FS:
	case T_NET:
	case T_LIMITS:
	case T_SYSCALLS:
	case T_EXPORT:
	case T_GROUP_KW:
		return true;
	default:
		return false;
	}
}

enum { RESYNC_NONE, RESYNC_MARK, RESYNC_REPLAY };

_Static_assert(sizeof(YYSTYPE) <= sizeof(((struct ward_parser *)0)->cur_value),
	       "cur_value holds a semantic value");

/*
 * The scanner's next token, remembered (with the one before) for the error
 * messages.
 *
 * After a `;` missing at the end of a line, the error reporter asks for a
 * resynchronisation: bison's recovery drops the token that followed (the
 * first of the next line), this returns RESYNC in its place, which closes
 * the broken statement (`error RESYNC`), then the dropped token again, so
 * that the next line is parsed as if the `;` had been there.
 */
static int yylex(YYSTYPE *lval, YYLTYPE *lloc, yyscan_t scanner,
		 struct ward_parser *p)
{
	int kind;

	if (p->give_up) {
		*lloc = p->cur.loc;
		return T_YYEOF;
	}
	if (p->resync == RESYNC_MARK) {
		p->resync = RESYNC_REPLAY;
		*lloc = p->cur.loc;
		return T_RESYNC;
	}
	if (p->resync == RESYNC_REPLAY) {
		p->resync = RESYNC_NONE;
		memcpy(lval, p->cur_value, sizeof(*lval));
		*lloc = p->cur.loc;
		return p->cur.kind;
	}
	kind = ward_scan(lval, lloc, scanner);
	p->prev = p->cur;
	p->cur.kind = kind;
	p->cur.loc = *lloc;
	memcpy(p->cur_value, lval, sizeof(*lval));
	switch (kind) {
	case T_YYEOF:
		p->cur.text = NULL;
		break;
	case T_NAME:
	case T_GROUP:
		p->cur.text = lval->str;
		break;
	case T_INT:
	case T_SIZE:
	case T_DURATION:
	case T_DECIMAL:
	case T_STRING:
	case T_PATH:
	case T_RELPATH:
	case T_ADDR:
	case T_DNSNAME:
		p->cur.text = lval->val->text;
		break;
	default:
		p->cur.text = yysymbol_name(YYTRANSLATE(kind));
		if (is_section_word(kind))
			p->section_word = p->cur.text;
		break;
	}
	return kind;
}

/* Bison's own failures: the stack limit (deeply nested conditions) or an
 * allocation that failed in an action. */
static void yyerror(YYLTYPE *loc, yyscan_t scanner, struct ward_parser *p,
		    const char *msg)
{
	(void)scanner;
	(void)msg;
	if (p->out_of_memory)
		return; /* reported once by ward_parse */
	ward_parse_error(p, *loc,
			 "the file is nested too deeply to be parsed (more "
			 "than %d levels)",
			 YYMAXDEPTH);
}

/* -------------------------------------------------------- syntax errors */

#define TEXT_MAX 40

/* Appends to a fixed buffer, truncating quietly. */
struct buf {
	char s[1024];
	size_t n;
};

static void put(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->n >= sizeof(b->s) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->n += (size_t)n < sizeof(b->s) - b->n ? (size_t)n
							: sizeof(b->s) - 1 - b->n;
}

/* A token's spelling in backquotes, shortened when long. */
static void put_text(struct buf *b, const char *text)
{
	size_t n = strlen(text);
	if (n > TEXT_MAX)
		put(b, "`%.*s...`", TEXT_MAX - 3, text);
	else
		put(b, "`%s`", text);
}

static bool is_keyword(yysymbol_kind_t k)
{
	return k >= YYSYMBOL_WARD && k <= YYSYMBOL_KILL;
}

static bool is_fixed(yysymbol_kind_t k)
{
	return k >= YYSYMBOL_WARD && k <= YYSYMBOL_GT;
}

/* What was found: "name `foo`", "`}`", "end of file". */
static void put_found(struct buf *b, yysymbol_kind_t k, const char *text)
{
	static const char *const what[] = {
	    [YYSYMBOL_NAME] = "name",
	    [YYSYMBOL_GROUP] = "group",
	    [YYSYMBOL_INT] = "integer",
	    [YYSYMBOL_SIZE] = "size",
	    [YYSYMBOL_DURATION] = "duration",
	    [YYSYMBOL_DECIMAL] = "number",
	    [YYSYMBOL_STRING] = "string",
	    [YYSYMBOL_PATH] = "path",
	    [YYSYMBOL_RELPATH] = "relative path",
	    [YYSYMBOL_ADDR] = "address",
	    [YYSYMBOL_DNSNAME] = "host name",
	};
	if (k == YYSYMBOL_YYEOF || !text) {
		put(b, "end of file");
		return;
	}
	if (!is_fixed(k) && (size_t)k < sizeof(what) / sizeof(what[0]) &&
	    what[k])
		put(b, "%s ", what[k]);
	put_text(b, is_fixed(k) ? yysymbol_name(k) : text);
}

/* One expected token on its own. */
static const char *expected_word(yysymbol_kind_t k)
{
	switch (k) {
	case YYSYMBOL_YYEOF:
		return "end of file";
	case YYSYMBOL_NAME:
		return "a name";
	case YYSYMBOL_GROUP:
		return "a group such as `@basic-io`";
	case YYSYMBOL_INT:
		return "an integer";
	case YYSYMBOL_SIZE:
		return "a size such as `512M`";
	case YYSYMBOL_DURATION:
		return "a duration such as `30s`";
	case YYSYMBOL_DECIMAL:
		return "a decimal number such as `0.5`";
	case YYSYMBOL_STRING:
		return "a string";
	case YYSYMBOL_PATH:
		return "a path";
	case YYSYMBOL_RELPATH:
		return "a relative path such as `net/agent`";
	case YYSYMBOL_ADDR:
		return "an address";
	case YYSYMBOL_DNSNAME:
		return "a host name such as `pypi.org`";
	default:
		return NULL;
	}
}

/* Tokens that expected together read as one thing. */
struct family {
	const char *phrase;
	yysymbol_kind_t syms[10];
	size_t n;
};

static const struct family families[] = {
    /* first: where a value or a name goes, every keyword is a name */
    {"a value",
     {YYSYMBOL_INT, YYSYMBOL_DECIMAL, YYSYMBOL_SIZE, YYSYMBOL_DURATION,
      YYSYMBOL_STRING, YYSYMBOL_PATH, YYSYMBOL_ADDR, YYSYMBOL_NAME},
     8},
    {"a name", {YYSYMBOL_NAME}, 1},
    {"a statement (`policy`, `use`, `include`, `const`, `group`) or a "
     "section (`identity`, `env`, `fs`, `net`, `limits`, `syscalls`, "
     "`export`)",
     {YYSYMBOL_POLICY, YYSYMBOL_USE, YYSYMBOL_INCLUDE, YYSYMBOL_CONST,
      YYSYMBOL_GROUP_KW, YYSYMBOL_IDENTITY, YYSYMBOL_ENV, YYSYMBOL_FS},
     8},
    {"an `fs` entry (`bind`, `tmpfs`, `proc`, `dev`, `file`, `symlink`, "
     "`slot`, `dir`, `memfd`, `landlock`)",
     {YYSYMBOL_BIND, YYSYMBOL_TMPFS, YYSYMBOL_PROC, YYSYMBOL_DEV,
      YYSYMBOL_FILE_KW, YYSYMBOL_SYMLINK, YYSYMBOL_SLOT, YYSYMBOL_DIR,
      YYSYMBOL_MEMFD, YYSYMBOL_LANDLOCK},
     10},
    {"an identity item (`user`, `group`, `groups`, `hostname`, "
     "`capabilities`, `workdir`)",
     {YYSYMBOL_USER, YYSYMBOL_GROUP_KW, YYSYMBOL_GROUPS, YYSYMBOL_HOSTNAME,
      YYSYMBOL_CAPABILITIES, YYSYMBOL_WORKDIR},
     6},
    {"an action (`allow`, `log`, `errno`, `trap`, `kill`)",
     {YYSYMBOL_ALLOW, YYSYMBOL_LOG, YYSYMBOL_ERRNO, YYSYMBOL_TRAP,
      YYSYMBOL_KILL},
     5},
    {"a `host` or `allow` entry", {YYSYMBOL_HOST, YYSYMBOL_ALLOW}, 2},
    {"a mount option (`ro`, `rw`, `exec`, `noexec`, `optional`)",
     {YYSYMBOL_RO, YYSYMBOL_RW, YYSYMBOL_EXEC, YYSYMBOL_NOEXEC,
      YYSYMBOL_OPTIONAL},
     5},
    {"a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`)",
     {YYSYMBOL_EQ, YYSYMBOL_NE, YYSYMBOL_LT, YYSYMBOL_LE, YYSYMBOL_GT,
      YYSYMBOL_GE},
     6},
    {"a path", {YYSYMBOL_PATH, YYSYMBOL_STRING}, 2},
};

/* Tokens that only continue what is already there (`|` after a value, `&&`
 * after a comparison): not worth naming when something can end it. */
static const yysymbol_kind_t continuations[] = {
    YYSYMBOL_PIPE,   YYSYMBOL_AMP,  YYSYMBOL_MINUS,
    YYSYMBOL_LPAREN, YYSYMBOL_ANDAND, YYSYMBOL_OROR,
};

static bool family_in(const struct family *f, const bool *want)
{
	for (size_t i = 0; i < f->n; i++)
		if (!want[f->syms[i]])
			return false;
	return true;
}

/* "an `fs` entry or `}`", "`;`", "a value". */
static void put_expected(struct buf *b, bool *want, bool after_string)
{
	const char *phrases[YYNTOKENS];
	size_t n = 0;
	bool others;
	bool semi, rbrace;

	/* After an allow rule's destination a string or a NAME continues
	 * only `name` ("index.example", or a constant's name), and `port`
	 * is what was missed. (Where a name goes, every keyword is wanted:
	 * there `port` is one of them.) */
	if (after_string || (want[YYSYMBOL_PORT] &&
			     (want[YYSYMBOL_STRING] || want[YYSYMBOL_NAME]) &&
			     !want[YYSYMBOL_TCP]))
		want[YYSYMBOL_STRING] = want[YYSYMBOL_NAME] = false;
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		const struct family *f = &families[i];
		if (!family_in(f, want))
			continue;
		phrases[n++] = f->phrase;
		for (size_t j = 0; j < f->n; j++)
			want[f->syms[j]] = false;
		/* the statement family also covers the last sections */
		if (f->syms[0] == YYSYMBOL_POLICY)
			want[YYSYMBOL_NET] = want[YYSYMBOL_LIMITS] =
			    want[YYSYMBOL_SYSCALLS] = want[YYSYMBOL_EXPORT] =
				want[YYSYMBOL_WARD] = false;
		/* where a name goes, every keyword is that name */
		if (f->syms[f->n - 1] == YYSYMBOL_NAME)
			for (int k = YYSYMBOL_WARD; k <= YYSYMBOL_KILL; k++)
				want[k] = false;
	}
	if (want[YYSYMBOL_SEMI] || want[YYSYMBOL_RBRACE] ||
	    want[YYSYMBOL_RPAREN] || want[YYSYMBOL_COMMA])
		for (size_t i = 0;
		     i < sizeof(continuations) / sizeof(continuations[0]); i++)
			want[continuations[i]] = false;
	/* the end of the file is fine at the top level, but never the point */
	others = n > 0;
	for (int k = 1; k < YYNTOKENS; k++)
		others |= want[k];
	if (others)
		want[YYSYMBOL_YYEOF] = false;
	/* what ends the statement comes last */
	semi = want[YYSYMBOL_SEMI];
	rbrace = want[YYSYMBOL_RBRACE];
	want[YYSYMBOL_SEMI] = want[YYSYMBOL_RBRACE] = false;
	for (int k = 0; k < YYNTOKENS && n < YYNTOKENS; k++) {
		const char *w;

		if (!want[k])
			continue;
		w = expected_word((yysymbol_kind_t)k);
		phrases[n++] = w ? w : yysymbol_name((yysymbol_kind_t)k);
	}
	if (rbrace)
		phrases[n++] = "}";
	if (semi)
		phrases[n++] = ";";
	for (size_t i = 0; i < n; i++) {
		const char *ph;
		bool bare;

		if (i)
			put(b, i + 1 == n ? " or " : ", ");
		ph = phrases[i];
		/* single punctuation and keywords go in backquotes */
		bare = strchr(ph, ' ') == NULL;
		put(b, bare ? "`%s`" : "%s", ph);
	}
	if (n == 0)
		put(b, "something else");
}

/* The symbols on the parser's stack, innermost first. */
struct stack_view {
	const yy_state_t *top;
};

static yysymbol_kind_t sym_at(const yy_state_t *s)
{
	return (yysymbol_kind_t)yystos[*s];
}

/* The nearest terminal (or comparison operator) below the top of the
 * stack, skipping `skip` of them; YYSYMBOL_YYEOF at the bottom. */
static yysymbol_kind_t terminal_below(const yy_state_t *top, int skip)
{
	for (const yy_state_t *q = top - 1; *q != 0; q--) {
		yysymbol_kind_t k = sym_at(q);
		if ((k < YYNTOKENS || k == YYSYMBOL_relop) && skip-- == 0)
			return k;
	}
	return YYSYMBOL_YYEOF;
}

/* Which value was just read: "the limit value", "the size". */
static const char *value_role(const yy_state_t *top)
{
	switch (terminal_below(top, 0)) {
	case YYSYMBOL_ASSIGN:
		switch (terminal_below(top, 1)) {
		case YYSYMBOL_CONST:
			return "the constant's value";
		case YYSYMBOL_HOST:
			return "the address";
		default:
			return "the variable's value";
		}
	case YYSYMBOL_COMMA:
		return terminal_below(top, 2) == YYSYMBOL_HOST ? "the address"
							       : "the port";
	case YYSYMBOL_SIZE_KW:
		return "the size";
	case YYSYMBOL_USER:
		return "the user id";
	case YYSYMBOL_GROUP_KW:
		return "the group id";
	case YYSYMBOL_HOSTNAME:
		return "the hostname";
	case YYSYMBOL_WORKDIR:
		return "the working directory";
	case YYSYMBOL_ERRNO:
		return "the errno value";
	case YYSYMBOL_relop:
	case YYSYMBOL_EQ:
	case YYSYMBOL_NE:
	case YYSYMBOL_LT:
	case YYSYMBOL_LE:
	case YYSYMBOL_GT:
	case YYSYMBOL_GE:
		return "the comparison";
	case YYSYMBOL_AMP:
		return "the mask";
	case YYSYMBOL_PORT:
	case YYSYMBOL_MINUS:
		return "the port";
	case YYSYMBOL_FILE_KW:
		return "the file content";
	case YYSYMBOL_INCLUDE:
		return "the file name";
	case YYSYMBOL_LBRACE:
		if (terminal_below(top, 1) == YYSYMBOL_LIMITS)
			return "the limit value";
		if (terminal_below(top, 1) == YYSYMBOL_EXPORT)
			return "the export setting's value";
		return NULL;
	default:
		return NULL;
	}
}

/* "after the limit value", "after `bind`". */
static void put_after(struct buf *b, const yy_state_t *top,
		      const struct ward_parser *p)
{
	yysymbol_kind_t k = sym_at(top);
	const char *role = NULL;
	switch (k) {
	case YYSYMBOL_value:
	case YYSYMBOL_terms:
	case YYSYMBOL_term:
	case YYSYMBOL_string:
	case YYSYMBOL_strings:
		role = value_role(top);
		break;
	case YYSYMBOL_INT:
		if (terminal_below(top, 0) == YYSYMBOL_WARD) {
			role = "the version pin";
			break;
		}
		if (terminal_below(top, 0) == YYSYMBOL_MODE) {
			role = "the mode";
			break;
		}
		/* a literal not yet reduced to a value */
		__attribute__((fallthrough));
	case YYSYMBOL_DECIMAL:
	case YYSYMBOL_SIZE:
	case YYSYMBOL_DURATION:
	case YYSYMBOL_STRING:
	case YYSYMBOL_PATH:
	case YYSYMBOL_ADDR:
		role = value_role(top);
		break;
	case YYSYMBOL_cond:
	case YYSYMBOL_conj:
	case YYSYMBOL_atom:
	case YYSYMBOL_compare:
		role = "the condition";
		break;
	default:
		break;
	}
	if (role)
		put(b, "%s", role);
	else if (p->prev.text)
		put_text(b, p->prev.text);
	else
		put(b, "the beginning of the file");
}

static bool at_item_start(yysymbol_kind_t top)
{
	switch (top) {
	case YYSYMBOL_YYEOF: /* the bottom of the stack */
	case YYSYMBOL_file:
	case YYSYMBOL_id_items:
	case YYSYMBOL_env_items:
	case YYSYMBOL_fs_items:
	case YYSYMBOL_net_items:
	case YYSYMBOL_limit_items:
	case YYSYMBOL_export_items:
	case YYSYMBOL_rules:
	case YYSYMBOL_LBRACE:
		return true;
	default:
		return false;
	}
}

/* Words that begin a top-level statement and nothing inside a section. */
static bool is_top_word(yysymbol_kind_t k)
{
	switch (k) {
	case YYSYMBOL_WARD:
	case YYSYMBOL_POLICY:
	case YYSYMBOL_USE:
	case YYSYMBOL_INCLUDE:
	case YYSYMBOL_CONST:
	case YYSYMBOL_IDENTITY:
	case YYSYMBOL_ENV:
	case YYSYMBOL_FS:
	case YYSYMBOL_NET:
	case YYSYMBOL_LIMITS:
	case YYSYMBOL_SYSCALLS:
	case YYSYMBOL_EXPORT:
		return true;
	default:
		return false;
	}
}

static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner,
				 struct ward_parser *p)
{
	yysymbol_kind_t found;
	bool want[YYNTOKENS] = {false};
	bool want_semi, want_rbrace;
	const char *words[YYNTOKENS];
	size_t nwords = 0;
	const yy_state_t *top;
	struct buf msg;
	bool after_string;
	YYLTYPE loc;
	yysymbol_kind_t list[YYNTOKENS];
	int n;

	(void)scanner;
	/* A token the scanner already complained about (an unterminated
	 * string, a bad number) often breaks the statement around it: one
	 * error is enough. */
	if (p->lex_error_line &&
	    (p->lex_error_line == p->cur.loc.line ||
	     (p->prev.text && p->lex_error_line == p->prev.loc.end_line)))
		return 0;
	found = yypcontext_token(ctx);
	loc = *yypcontext_location(ctx);
	n = yypcontext_expected_tokens(ctx, list, YYNTOKENS);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++)
		want[list[i]] = list[i] != YYSYMBOL_RESYNC;
	want_semi = want[YYSYMBOL_SEMI];
	want_rbrace = want[YYSYMBOL_RBRACE];

	/* Keywords that could have been meant, for a did-you-mean. */
	if (found == YYSYMBOL_NAME && !want[YYSYMBOL_NAME])
		for (int i = 0; i < n; i++)
			if (is_keyword(list[i]))
				words[nwords++] = yysymbol_name(list[i]);

	top = ctx->yyssp;
	msg = (struct buf){.n = 0};
	after_string = sym_at(top) == YYSYMBOL_strings;
	if (at_item_start(sym_at(top))) {
		put(&msg, "unexpected ");
		put_found(&msg, found, p->cur.text);
		put(&msg, "; expected ");
		put_expected(&msg, want, after_string);
	} else {
		put(&msg, "expected ");
		put_expected(&msg, want, after_string);
		put(&msg, " after ");
		put_after(&msg, top, p);
		put(&msg, ", found ");
		put_found(&msg, found, p->cur.text);
		/* A `;` missing at the end of a line is shown where it
		 * belongs, not at the start of the next statement, which is
		 * then parsed as if the `;` had been there. */
		if (want_semi && p->prev.text &&
		    loc.line > p->prev.loc.end_line) {
			loc = p->prev.loc;
			loc.line = loc.end_line;
			loc.col = loc.end_col + 1;
			loc.end_col = loc.col;
			/* (a `}` or the end closes things by itself) */
			if (found != YYSYMBOL_YYEOF && found != YYSYMBOL_RBRACE)
				p->resync = RESYNC_MARK;
		}
	}
	ward_parse_error(p, loc, "%s", msg.s);

	if (nwords) {
		const char *close = ward_suggest(p->cur.text, words, nwords);
		if (close)
			ward_diag_help(p->diags, "did you mean `%s`?", close);
	}
	if (want[YYSYMBOL_RELPATH] &&
	    (found == YYSYMBOL_NAME || found == YYSYMBOL_DNSNAME))
		ward_diag_help(p->diags,
			       "a relative target of one part is written as a "
			       "string: `\"%s\"`",
			       p->cur.text);
	if (p->brace_open && found == YYSYMBOL_YYEOF)
		ward_diag_note(p->diags, p->brace_loc,
			       "the `%s` section opened here is not closed",
			       p->brace_owner ? p->brace_owner : "{");
	else if (p->brace_open && is_top_word(found) && !want_rbrace) {
		ward_diag_help(p->diags, "is a `}` missing before `%s`?",
			       yysymbol_name(found));
		ward_diag_note(p->diags, p->brace_loc,
			       "the `%s` section opens here",
			       p->brace_owner ? p->brace_owner : "{");
	} else if (p->brace_open && is_top_word(found))
		ward_diag_note(p->diags, p->brace_loc,
			       "the `%s` section opened here is not closed",
			       p->brace_owner ? p->brace_owner : "{");
	return 0;
}
