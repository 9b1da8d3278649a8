/* SPDX-License-Identifier: MIT */
/*
 * fmt.h: `wardc fmt`, the canonical layout of a policy file.
 *
 * Four spaces inside sections, one statement per line, one space around `=`
 * and operators, literals spelt as written, comments kept where they were,
 * at most one blank line between top-level statements. The output parses to
 * the same tree (ward_ast_equal) and formatting it again changes nothing.
 */
#ifndef WARD_FMT_H
#define WARD_FMT_H

#include "ast.h"
#include "source.h"

#include <stdio.h>

/* Write f (parsed from src) in canonical form to out; -1 on a write error
 * (errno set). A file with syntax errors should not be formatted: what did
 * not parse is not in the tree. */
int ward_fmt(const struct ward_file *f, const struct ward_sources *src,
	     FILE *out);

#endif
