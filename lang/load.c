/* SPDX-License-Identifier: MIT */
/*
 * load.c: read a policy and every file it uses or includes, each once.
 *
 * Files are loaded depth first; a file joins the unit after everything it
 * depends on (post-order), so the main file comes last. A file is known by
 * its device and inode, so two spellings of one path are one file; a file
 * that is reached again while it is still being loaded closes a cycle.
 */
#include "load.h"

#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH     64
#define MAX_FILE_SIZE (4u << 20)

/* ------------------------------------------------------- the search path */

static int add_dir(struct ward_search_path *sp, const char *dir, size_t len)
{
	const char **dirs = realloc(sp->dirs, (sp->ndirs + 1) * sizeof(*dirs));
	char *copy;

	if (!dirs)
		return -1;
	sp->dirs = dirs;
	copy = strndup(dir, len);
	if (!copy)
		return -1;
	/* "dir/" and "dir" name the same directory; keep paths tidy */
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	sp->dirs[sp->ndirs++] = copy;
	return 0;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The stdlib next to the running wardc: installed, or in a build tree
 * (build/wardc, build-x/san/wardc, build/tests/test_x). */
static int add_stdlib(struct ward_search_path *sp)
{
	static const char *const candidates[] = {
	    "/../share/ward/stdlib",
	    "/../stdlib-policies",
	    "/../../stdlib-policies",
	    "/../../../stdlib-policies",
	};
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return 0; /* no stdlib: `use` reports what it searched */
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	for (size_t i = 0; i < ARRAY_LEN(candidates); i++) {
		_cleanup_free_ char *dir = NULL;
		const char *use;

		if (asprintf(&dir, "%s%s", exe, candidates[i]) < 0)
			return -1;
		if (!is_dir(dir))
			continue;
		_cleanup_free_ char *real = realpath(dir, NULL);
		use = real ? real : dir;
		return add_dir(sp, use, strlen(use));
	}
	return 0;
}

int ward_search_path_init(struct ward_search_path *sp, const char **incdirs,
			  size_t nincdirs)
{
	const char *env;

	sp->dirs = NULL;
	sp->ndirs = 0;
	for (size_t i = 0; i < nincdirs; i++)
		if (add_dir(sp, incdirs[i], strlen(incdirs[i])) < 0)
			goto fail;
	env = getenv("WARD_PATH");
	while (env && *env) {
		const char *colon = strchrnul(env, ':');
		if (colon > env && add_dir(sp, env, (size_t)(colon - env)) < 0)
			goto fail;
		env = *colon ? colon + 1 : colon;
	}
	if (add_stdlib(sp) < 0)
		goto fail;
	return 0;
fail:
	ward_search_path_free(sp);
	return -1;
}

void ward_search_path_free(struct ward_search_path *sp)
{
	for (size_t i = 0; i < sp->ndirs; i++)
		free((char *)sp->dirs[i]);
	free(sp->dirs);
	sp->dirs = NULL;
	sp->ndirs = 0;
}

/* --------------------------------------------------------------- loading */

struct known {
	dev_t dev;
	ino_t ino;
	uint32_t src; /* source manager index */
	bool active;  /* on the current chain of uses */
	char *path;   /* as opened */
};

struct loader {
	const struct ward_search_path *sp;
	struct ward_sources *src;
	struct ward_diags *diags;
	struct ward_unit *unit;
	struct known *known;
	size_t nknown;
	uint32_t *chain; /* indexes into known: the files being loaded */
	size_t depth;
	unsigned errors;
	bool oom;
};

static void load_error(struct loader *l, struct ward_loc loc, const char *fmt,
		       ...) __attribute__((format(printf, 3, 4)));
static void load_error(struct loader *l, struct ward_loc loc, const char *fmt,
		       ...)
{
	_cleanup_free_ char *msg = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	l->errors++;
	ward_diag(l->diags, WARD_SEV_ERROR, loc, "%s",
		  n >= 0 ? msg : "cannot load a file");
}

/* Read a whole regular file of at most MAX_FILE_SIZE bytes. */
static int read_file(int fd, char **text, size_t *len, ward_err *err,
		     const char *path)
{
	struct stat st;
	size_t cap, n;

	if (fstat(fd, &st) < 0)
		return ward_fail(err, errno, "cannot read %s", path);
	if (S_ISDIR(st.st_mode))
		return ward_fail(err, EISDIR, "cannot read %s", path);
	if (st.st_size > (off_t)MAX_FILE_SIZE)
		return ward_fail(err, 0,
				 "%s is larger than %u MiB: a policy file is "
				 "at most that large",
				 path, MAX_FILE_SIZE >> 20);
	cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
	n = 0;
	_cleanup_free_ char *buf = malloc(cap);
	if (!buf)
		return ward_fail(err, ENOMEM, "cannot read %s", path);
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *more;

			if (cap > MAX_FILE_SIZE)
				return ward_fail(err, 0,
						 "%s is larger than %u MiB: a "
						 "policy file is at most that "
						 "large",
						 path, MAX_FILE_SIZE >> 20);
			more = realloc(buf, cap * 2);
			if (!more)
				return ward_fail(err, ENOMEM, "cannot read %s",
						 path);
			buf = more;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return ward_fail(err, errno, "cannot read %s", path);
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > MAX_FILE_SIZE)
		return ward_fail(err, 0,
				 "%s is larger than %u MiB: a policy file is "
				 "at most that large",
				 path, MAX_FILE_SIZE >> 20);
	*text = steal_pointer(&buf);
	*len = n;
	return 0;
}

static void report_err(struct loader *l, struct ward_loc at,
		       const ward_err *err)
{
	char buf[WARD_ERR_MSG_MAX + 128];
	load_error(l, at, "%s", ward_err_str(err, buf, sizeof(buf)));
}

static int known_index(const struct loader *l, const struct stat *st)
{
	for (size_t i = 0; i < l->nknown; i++)
		if (l->known[i].dev == st->st_dev &&
		    l->known[i].ino == st->st_ino)
			return (int)i;
	return -1;
}

/* "a.ward -> b.ward -> a.ward": the chain from the file reached again. */
static void report_cycle(struct loader *l, struct ward_loc at, int again)
{
	size_t from = 0;
	size_t len = 1;
	char *p;

	while (from < l->depth && l->chain[from] != (uint32_t)again)
		from++;
	for (size_t i = from; i < l->depth; i++)
		len += strlen(l->known[l->chain[i]].path) + 4;
	len += strlen(l->known[again].path);
	_cleanup_free_ char *chain = malloc(len);
	if (!chain) {
		load_error(l, at, "this file uses itself");
		return;
	}
	p = chain;
	for (size_t i = from; i < l->depth; i++)
		p = stpcpy(stpcpy(p, l->known[l->chain[i]].path), " -> ");
	stpcpy(p, l->known[again].path);
	load_error(l, at, "this file uses itself: %s", chain);
	ward_diag_help(l->diags, "a file may not use or include itself, "
				 "directly or through other files");
}

static void load_deps(struct loader *l, struct ward_file *f, const char *path);

/* Room for one more known file (and its place in the chain and the unit). */
static int grow(struct loader *l)
{
	size_t n = l->nknown + 1;
	struct known *known = realloc(l->known, n * sizeof(*known));
	uint32_t *chain;
	struct ward_file **files;

	if (!known)
		return -1;
	l->known = known;
	chain = realloc(l->chain, n * sizeof(*chain));
	if (!chain)
		return -1;
	l->chain = chain;
	files = realloc(l->unit->files, n * sizeof(*files));
	if (!files)
		return -1;
	l->unit->files = files;
	return 0;
}

/*
 * Load the file open at fd (its name: path), reached through `via` in
 * `parent` (WARD_NO_FILE for the main file). The file is known once loaded:
 * a second use of it does nothing.
 */
static void load_fd(struct loader *l, int fd, const char *path, uint32_t parent,
		    struct ward_loc via, struct ward_loc at)
{
	struct stat st;
	ward_err err = {0};
	int seen;
	char *text = NULL;
	size_t len = 0;
	char *name;
	uint32_t id = WARD_NO_FILE;
	size_t me;
	struct known *k;
	struct ward_file *f;

	if (fstat(fd, &st) < 0) {
		ward_fail(&err, errno, "cannot read %s", path);
		report_err(l, at, &err);
		return;
	}
	seen = known_index(l, &st);
	if (seen >= 0) {
		if (l->known[seen].active)
			report_cycle(l, at, seen);
		return;
	}
	if (l->depth >= MAX_DEPTH) {
		load_error(l, at,
			   "files are used or included more than %d levels "
			   "deep",
			   MAX_DEPTH);
		return;
	}
	if (read_file(fd, &text, &len, &err, path) < 0) {
		report_err(l, at, &err);
		return;
	}
	if (grow(l) < 0) {
		free(text);
		l->oom = true;
		return;
	}
	name = strdup(path);
	if (name)
		id = ward_sources_add(l->src, path, text, len, parent, via);
	else
		free(text);
	if (id == WARD_NO_FILE) {
		free(name);
		l->oom = true;
		return;
	}
	me = l->nknown++;
	k = &l->known[me];
	k->dev = st.st_dev;
	k->ino = st.st_ino;
	k->src = id;
	k->active = true;
	k->path = name; /* freed with the loader */
	f = ward_parse(l->src, id, l->diags);
	if (!f) {
		l->oom = true;
		l->known[me].active = false;
		return;
	}
	l->errors += f->nerrors;
	l->chain[l->depth++] = (uint32_t)me;
	if (parent != WARD_NO_FILE)
		for (size_t i = 0; i < f->nstmts; i++)
			if (f->stmts[i]->kind == WARD_S_POLICY)
				load_error(l, f->stmts[i]->kw_loc,
					   "`policy` in a used file: only the "
					   "file given to wardc may be a "
					   "policy");
	load_deps(l, f, path);
	l->depth--;
	l->known[me].active = false;
	l->unit->files[l->unit->nfiles++] = f;
}

/* A fragment name is names joined by `/`, never `..` or an absolute path. */
static bool valid_use_name(const char *name)
{
	if (name[0] == '/' || name[0] == '\0')
		return false;
	for (const char *p = name; *p;) {
		const char *end = strchrnul(p, '/');
		size_t n = (size_t)(end - p);
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p = *end ? end + 1 : end;
	}
	return true;
}

static void load_use(struct loader *l, const struct ward_file *f,
		     const struct ward_stmt *s)
{
	size_t len = 1;
	char *p;

	if (!valid_use_name(s->name)) {
		load_error(l, s->name_loc,
			   "`%s` is not a fragment name: write names joined "
			   "by `/`, such as `net/agent`",
			   s->name);
		return;
	}
	for (size_t i = 0; i < l->sp->ndirs; i++) {
		_cleanup_free_ char *path = NULL;
		if (asprintf(&path, "%s/%s.ward", l->sp->dirs[i], s->name) <
		    0) {
			l->oom = true;
			return;
		}
		_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
			continue;
		if (fd < 0) {
			ward_err err;
			ward_fail(&err, errno, "cannot read %s", path);
			report_err(l, s->name_loc, &err);
			return;
		}
		load_fd(l, fd, path, f->file, s->loc, s->name_loc);
		return;
	}
	load_error(l, s->name_loc, "cannot find `%s.ward` on the search path",
		   s->name);
	if (l->sp->ndirs == 0) {
		ward_diag_help(l->diags, "the search path is empty: add a "
					 "directory with -I DIR or $WARD_PATH");
		return;
	}
	for (size_t i = 0; i < l->sp->ndirs; i++)
		len += strlen(l->sp->dirs[i]) + 2;
	_cleanup_free_ char *dirs = malloc(len);
	if (!dirs)
		return;
	p = dirs;
	for (size_t i = 0; i < l->sp->ndirs; i++)
		p = stpcpy(stpcpy(p, i ? ", " : ""), l->sp->dirs[i]);
	ward_diag_help(l->diags, "searched: %s", dirs);
}

static void load_include(struct loader *l, const struct ward_file *f,
			 const struct ward_stmt *s, const char *from)
{
	const struct ward_value *v = s->value;
	const char *slash;
	int n;

	if (v->kind != WARD_V_STRING || v->len == 0 ||
	    strlen(v->str) != v->len) {
		load_error(l, v->loc, "`include` takes a file name");
		return;
	}
	_cleanup_free_ char *path = NULL;
	slash = strrchr(from, '/');
	if (v->str[0] == '/' || !slash)
		n = asprintf(&path, "%s", v->str);
	else
		n = asprintf(&path, "%.*s/%s", (int)(slash - from), from,
			     v->str);
	if (n < 0) {
		l->oom = true;
		return;
	}
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ward_err err;
		ward_fail(&err, errno, "cannot read %s", path);
		report_err(l, v->loc, &err);
		return;
	}
	load_fd(l, fd, path, f->file, s->loc, v->loc);
}

static void load_deps(struct loader *l, struct ward_file *f, const char *path)
{
	for (size_t i = 0; i < f->nstmts && !l->oom; i++) {
		const struct ward_stmt *s = f->stmts[i];
		if (s->kind == WARD_S_USE)
			load_use(l, f, s);
		else if (s->kind == WARD_S_INCLUDE)
			load_include(l, f, s, path);
	}
}

int ward_load(const char *path, const struct ward_search_path *sp,
	      struct ward_sources *src, struct ward_diags *diags,
	      struct ward_unit *unit, bool *io_error)
{
	struct loader l = {
	    .sp = sp,
	    .src = src,
	    .diags = diags,
	    .unit = unit,
	};
	struct ward_loc nowhere = {WARD_NO_FILE, 0, 0, 0, 0};
	unit->files = NULL;
	unit->nfiles = 0;
	unit->main = NULL;
	if (io_error)
		*io_error = false;

	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ward_err err;
		ward_fail(&err, errno, "cannot read %s", path);
		report_err(&l, nowhere, &err);
		if (io_error)
			*io_error = true;
	} else {
		unsigned before = l.errors;
		size_t nsrc = ward_sources_count(src);
		load_fd(&l, fd, path, WARD_NO_FILE, nowhere, nowhere);
		/* nothing was added: the main file itself could not be read */
		if (ward_sources_count(src) == nsrc && l.errors > before &&
		    io_error)
			*io_error = true;
	}
	if (l.oom)
		load_error(&l, nowhere, "out of memory while loading %s", path);
	if (unit->nfiles)
		unit->main = unit->files[unit->nfiles - 1];
	for (size_t i = 0; i < l.nknown; i++)
		free(l.known[i].path);
	free(l.known);
	free(l.chain);
	ward_diags_flush(diags);
	return l.errors || l.oom || !unit->main ? -1 : 0;
}

void ward_unit_free(struct ward_unit *unit)
{
	if (!unit)
		return;
	for (size_t i = 0; i < unit->nfiles; i++)
		ward_file_free(unit->files[i]);
	free(unit->files);
	unit->files = NULL;
	unit->nfiles = 0;
	unit->main = NULL;
}
