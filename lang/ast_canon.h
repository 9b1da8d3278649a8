/* SPDX-License-Identifier: MIT */
/*
 * ast_canon.h: a canonical serialisation of a syntax tree (what a file says,
 * without layout, comments or spellings), for the blob's source digest.
 */
#ifndef WARD_AST_CANON_H
#define WARD_AST_CANON_H

#include "ast.h"

#include <stdio.h>

/* Two files serialise to the same bytes exactly when ward_ast_equal()
 * calls them equal. Returns -1 on a write error. */
int ward_ast_canonical(const struct ward_file *f, FILE *out);

#endif
