/* SPDX-License-Identifier: MIT */
/*
 * load.h: read a policy and everything it uses or includes.
 *
 * ward_load() parses the main file, then every file reached through `use`
 * (search path) and `include` (relative to the including file), each once,
 * reporting cycles with their chain. The result lists the files with every
 * file's dependencies before it, so the main file comes last.
 */
#ifndef WARD_LOAD_H
#define WARD_LOAD_H

#include "ast.h"
#include "diag.h"
#include "source.h"

struct ward_search_path {
	const char **dirs; /* -I dirs, then $WARD_PATH, then the stdlib */
	size_t ndirs;
};

struct ward_unit {
	struct ward_file **files; /* dependencies first, main file last */
	size_t nfiles;
	struct ward_file *main;
};

/* Build the search path from -I dirs, $WARD_PATH and the stdlib directory
 * (found relative to the running executable). Free with
 * ward_search_path_free. */
int ward_search_path_init(struct ward_search_path *sp, const char **incdirs,
			  size_t nincdirs);
void ward_search_path_free(struct ward_search_path *sp);

/* Returns 0 when every file was read and parsed without error, -1 otherwise
 * (the errors are in diags; *unit holds what could be parsed). An I/O error
 * on the main file itself sets *io_error. */
int ward_load(const char *path, const struct ward_search_path *sp,
	      struct ward_sources *src, struct ward_diags *diags,
	      struct ward_unit *unit, bool *io_error);
void ward_unit_free(struct ward_unit *unit);

/* Parse one buffer already added to src (used by the loader, the fuzzer and
 * the tests). Never NULL: a file with errors still gives the statements
 * that parsed. */
struct ward_file *ward_parse(struct ward_sources *src, uint32_t file,
			     struct ward_diags *diags);
void ward_file_free(struct ward_file *f);

#endif
