/* SPDX-License-Identifier: MIT */
/* parse.c: parse one file of the source manager into its tree. */
#include "parse.h"
#include "parser.h"

#include "load.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define YYSTYPE WARD_YYSTYPE
#define YYLTYPE WARD_YYLTYPE
#define YY_DECL                                                                \
	int ward_scan(YYSTYPE *yylval_param, YYLTYPE *yylloc_param,            \
		      yyscan_t yyscanner)
#include "lexer.h"

void ward_parse_error(struct ward_parser *p, struct ward_loc loc,
		      const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int n;

	if (p->give_up)
		return;
	if (p->nerrors == WARD_MAX_ERRORS) {
		/* a file this broken is likely not a policy at all */
		p->give_up = true;
		p->nerrors++;
		ward_diag(p->diags, WARD_SEV_ERROR, loc,
			  "too many errors in this file (more than %d): "
			  "stopping here",
			  WARD_MAX_ERRORS);
		return;
	}
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	p->nerrors++;
	ward_diag(p->diags, WARD_SEV_ERROR, loc, "%s",
		  n >= 0 ? msg : "syntax error");
	free(msg);
}

/* The scanner leaves through p->bail when flex cannot allocate; setjmp
 * lives in this frame, which changes none of its own variables. */
static void run(struct ward_parser *p, yyscan_t scanner, const char *text,
		size_t len)
{
	jmp_buf bail;
	p->bail = &bail;
	if (setjmp(bail) == 0) {
		ward_yy_scan_bytes(text, (int)len, scanner);
		ward_yyparse(scanner, p);
	}
	p->bail = NULL;
}

static bool finish(struct ward_parser *p, struct ward_file *f)
{
	f->stmts = (struct ward_stmt **)p->stmts.items;
	f->nstmts = p->stmts.n;
	if (p->comments.n) {
		f->comments = ward_arena_alloc(
		    p->arena, p->comments.n * sizeof(*f->comments));
		if (!f->comments)
			return false;
		for (size_t i = 0; i < p->comments.n; i++)
			f->comments[i] =
			    *(const struct ward_comment *)p->comments.items[i];
		f->ncomments = p->comments.n;
	}
	return true;
}

struct ward_file *ward_parse(struct ward_sources *src, uint32_t file,
			     struct ward_diags *diags)
{
	struct ward_arena *arena = ward_arena_new();
	struct ward_file *f;
	struct ward_parser p;
	struct ward_loc start;
	size_t len;
	const char *text;
	yyscan_t scanner;

	if (!arena)
		return NULL;
	f = ward_arena_alloc(arena, sizeof(*f));
	if (!f) {
		ward_arena_free(arena);
		return NULL;
	}
	f->arena = arena;
	f->file = file;
	p = (struct ward_parser){
	    .arena = arena,
	    .src = src,
	    .diags = diags,
	    .file = f,
	    .fileno = file,
	    .line = 1,
	    .col = 1,
	};
	start = (struct ward_loc){file, 1, 1, 1, 1};
	text = ward_sources_text(src, file, &len);
	if (!text) {
		ward_parse_error(&p,
				 (struct ward_loc){WARD_NO_FILE, 0, 0, 0, 0},
				 "no source file number %u", file);
	} else if (len > INT_MAX - 2) {
		ward_parse_error(&p, start, "the file is too large to parse");
	} else if (ward_yylex_init_extra(&p, &scanner) != 0) {
		p.out_of_memory = true;
	} else {
		run(&p, scanner, text, len);
		ward_yylex_destroy(scanner);
		if (!p.seen_stmt && p.nerrors == 0 && !p.out_of_memory) {
			ward_parse_error(&p, start,
					 "a policy file must begin with `ward "
					 "1;`");
			ward_diag_help(diags, "the file holds no statement");
		}
	}
	if (!finish(&p, f))
		p.out_of_memory = true;
	if (p.out_of_memory)
		ward_parse_error(&p,
				 (struct ward_loc){WARD_NO_FILE, 0, 0, 0, 0},
				 "out of memory while parsing %s",
				 ward_sources_name(src, file));
	f->nerrors = p.nerrors;
	return f;
}
