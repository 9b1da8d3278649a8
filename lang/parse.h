/* SPDX-License-Identifier: MIT */
/*
 * parse.h: state shared by the scanner (lexer.l) and the parser (parser.y)
 * while one file is parsed. Private to lang/.
 */
#ifndef WARD_PARSE_H
#define WARD_PARSE_H

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "source.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#define WARD_MAX_LINE	4096
#define WARD_MAX_ERRORS 50 /* per file: then parsing stops */
#define WARD_MAX_NAME	255

/* What the parser remembers of a token for its error messages. */
struct ward_tok {
	int kind; /* the scanner's token kind (T_*), 0 at end of file */
	struct ward_loc loc;
	const char *text; /* spelling (arena or static), NULL at the end */
};

struct ward_parser {
	struct ward_arena *arena;
	const struct ward_sources *src;
	struct ward_diags *diags;
	struct ward_file *file;
	uint32_t fileno;

	/* scanner position: the next byte's line and column */
	uint32_t line, col;

	/* the last two tokens the parser received */
	struct ward_tok cur, prev;
	/* the last token's semantic value, to hand it over again after a
	 * resynchronisation mark (parser.y, yylex) */
	_Alignas(8) unsigned char cur_value[32];
	int resync; /* 0, or the step of a resynchronisation */

	/* the last `{` still open and the word before it ("fs", "limits") */
	bool brace_open;
	struct ward_loc brace_loc;
	const char *brace_owner;
	const char *section_word; /* the last section keyword seen */

	struct ward_list stmts;
	struct ward_list comments; /* struct ward_comment * */
	bool seen_stmt;		   /* a statement (even a broken one) parsed */
	unsigned nerrors;	   /* lexical and syntax errors */
	uint32_t lex_error_line;   /* the last line with a lexical error */
	bool out_of_memory;
	bool give_up;  /* WARD_MAX_ERRORS reached */
	jmp_buf *bail; /* the scanner's escape when flex runs out of memory */
};

/* An error at loc, counted in the file's error count. */
void ward_parse_error(struct ward_parser *p, struct ward_loc loc,
		      const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ------------------------------------------------ building the tree (ast.c)
 * Each returns NULL (or false) only when memory runs out. */

/* A name and where it was written, while a list of names is built. */
struct ward_name_at {
	const char *name;
	struct ward_loc loc;
};

struct ward_stmt *ward_new_stmt(struct ward_parser *p, enum ward_stmt_kind kind,
				struct ward_loc loc, struct ward_loc kw);
struct ward_value *ward_name_value(struct ward_parser *p, const char *name,
				   struct ward_loc loc);
bool ward_push_name(struct ward_parser *p, struct ward_list *v,
		    const char *name, struct ward_loc loc);
/* Flatten a vector of struct ward_name_at into parallel arrays. */
bool ward_set_names(struct ward_parser *p, struct ward_list *v,
		    const char ***names, struct ward_loc **locs, size_t *n);
bool ward_set_body(struct ward_parser *p, struct ward_stmt *s,
		   struct ward_list *v);
/* Append a top-level statement (NULL: one that could not be parsed). */
bool ward_add_stmt(struct ward_parser *p, struct ward_stmt *s);
/* One value from terms joined by `|` (the term itself when alone). */
struct ward_value *ward_or_value(struct ward_parser *p, struct ward_list *terms,
				 struct ward_loc loc);
/* One string from adjacent string literals. */
struct ward_value *ward_concat_strings(struct ward_parser *p,
				       struct ward_list *parts,
				       struct ward_loc loc);
struct ward_cond *ward_new_cond(struct ward_parser *p, enum ward_cond_kind kind,
				struct ward_loc loc);
struct ward_cond *ward_join_cond(struct ward_parser *p,
				 enum ward_cond_kind kind,
				 struct ward_cond *lhs, struct ward_cond *rhs,
				 struct ward_loc loc);

/* Checks the grammar alone cannot make. */
void ward_check_version(struct ward_parser *p, struct ward_value *v);
void ward_check_decimal_int(struct ward_parser *p, struct ward_value *v);
void ward_read_mode(struct ward_parser *p, struct ward_value *v);
unsigned ward_add_opt(struct ward_parser *p, unsigned opts, unsigned opt,
		      struct ward_loc loc);

#endif
