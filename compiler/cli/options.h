/* SPDX-License-Identifier: MIT */
/*
 * options.h: a wardc command line read against the option table of its
 * command (commands.c), and the help texts made from the tables, so that
 * what --help shows and what the parser takes cannot differ.
 */
#ifndef WARD_OPTIONS_H
#define WARD_OPTIONS_H

#include "commands.h"
#include "util.h"

#include <stdio.h>

/* Read argv[first..argc) for cmd into a: each option into its field, the
 * other arguments into a->files (a->files and a->opts.incdirs must have
 * room for argc entries; `--` ends the options, `-` is a file). Returns 0;
 * 1 when --help was given (the rest is not read); -1 on a usage error,
 * described in err: an option cmd does not take, a missing or bad value. */
int wardc_parse(const struct wardc_command *cmd, int argc, char **argv,
		int first, struct wardc_args *a, ward_err *err);

/* `wardc CMD --help`: the command's usage, its options, then those of
 * every command. */
void wardc_help_command(FILE *out, const struct wardc_command *cmd);
/* `wardc --help`: every command in a line, the options of every command. */
void wardc_help(FILE *out);

#endif
