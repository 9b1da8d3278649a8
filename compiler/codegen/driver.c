/* SPDX-License-Identifier: MIT */
/*
 * driver.c: load, check and compile one policy: the front end, the
 * checker, then code generation (what the net section implies, the
 * seccomp program) and the blob writer.
 */
#include "driver.h"

#include "blob.h"
#include "blob_write.h"
#include "landlock_rules.h"
#include "load.h"
#include "net_apply.h"
#include "pool.h"
#include "record_gen.h"
#include "seccomp_gen.h"
#include "sema.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_BLOB (64u * 1024 * 1024)

int ward_read_file(const char *path, size_t max, uint8_t **data, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t cap = 4096, n = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		return -1;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	_cleanup_free_ uint8_t *buf = malloc(cap);
	if (!buf)
		return -1;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			uint8_t *nb;

			if (cap >= max) {
				errno = EFBIG;
				return -1;
			}
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb)
				return -1;
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		errno = EFBIG;
		return -1;
	}
	*data = steal_pointer(&buf);
	*len = n;
	return 0;
}

void ward_session_close(struct ward_session *s)
{
	ward_checked_free(&s->checked);
	ward_unit_free(&s->unit);
	if (s->sp_init)
		ward_search_path_free(&s->sp);
	if (s->diags) {
		ward_diags_flush(s->diags);
		ward_diags_free(s->diags);
	}
	ward_sources_free(s->src);
}

static char *pool_cat(void *pool, const char *dir, const char *name)
{
	return ward_pool_printf(pool, "%s/%s", strcmp(dir, "/") ? dir : "",
				name);
}

/* The Landlock rule set is the mount table's, unless `landlock off;`. */
static void derive_landlock(struct ward_checked *c)
{
	struct ward_policy *p = &c->policy;

	if (!c->is_policy || p->landlock.mode == WARD_LANDLOCK_OFF)
		return;
	ward_landlock_derive(&p->landlock,
			     ward_pool_array(c->pool,
					     3 * (size_t)p->nmounts + 1,
					     sizeof(struct ward_landlock_rule)),
			     p->mounts, p->nmounts, pool_cat, c->pool);
}

int ward_define_check(const char *def, ward_err *err)
{
	const char *eq = strchr(def, '=');
	size_t n = eq ? (size_t)(eq - def) : 0;
	bool dash = false;

	if (!eq || n == 0)
		return ward_fail(err, 0,
				 "-D takes NAME=VALUE (a string constant), "
				 "not `%s`",
				 def);
	/* NAME as the lexer reads one: a letter or `_`, then letters,
	 * digits, `_`, and single `-` between them. */
	if (!(def[0] == '_' || (def[0] >= 'A' && def[0] <= 'Z') ||
	      (def[0] >= 'a' && def[0] <= 'z')))
		goto bad_name;
	for (size_t i = 1; i < n; i++) {
		char c = def[i];
		bool w = c == '_' || (c >= 'A' && c <= 'Z') ||
			 (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');

		if (c == '-' && !dash && i + 1 < n) {
			dash = true;
			continue;
		}
		if (!w)
			goto bad_name;
		dash = false;
	}
	if (dash)
		goto bad_name;
	/* VALUE: printable ASCII without `"` and `\`, so that it is the
	 * string's bytes exactly, with no escape to read (a domain name
	 * needs none), and bounded. */
	if (strlen(eq + 1) > WARD_DEFINE_MAX)
		return ward_fail(err, 0,
				 "-D %.*s: the value is longer than %d bytes",
				 (int)n, def, WARD_DEFINE_MAX);
	for (const char *c = eq + 1; *c; c++)
		if (*c < 0x20 || *c > 0x7e || *c == '"' || *c == '\\')
			return ward_fail(
			    err, 0,
			    "-D %.*s: the value is printable ASCII "
			    "without `\"` and `\\`; it has the byte "
			    "0x%02x",
			    (int)n, def, (unsigned char)*c);
	return 0;
bad_name:
	return ward_fail(err, 0,
			 "-D `%.*s` is not a constant's name (a letter or `_`, "
			 "then letters, digits, `_` and `-`)",
			 (int)n, def);
}

/* The -D options as a file of their own, `<command line>`, read before
 * every other: its constants are the policy's like any other (defined
 * twice is an error with a note at the first), its lines are where a
 * diagnostic points, and its canonical form is in the source digest, so
 * that two blobs compiled for two indexes differ (1.9). */
static int add_defines(struct ward_session *s, const struct ward_opts *o)
{
	struct ward_loc nowhere = {WARD_NO_FILE, 0, 0, 0, 0};
	struct ward_file **files, *f;
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	uint32_t idx;

	if (!o->ndefines)
		return 0;
	m = open_memstream(&text, &len);
	if (!m)
		return -1;
	fputs("ward 1;\n", m);
	for (size_t i = 0; i < o->ndefines; i++) {
		const char *eq = strchr(o->defines[i], '=');

		fprintf(m, "const %.*s = \"%s\";\n", (int)(eq - o->defines[i]),
			o->defines[i], eq + 1);
	}
	if (fclose(m) != 0) {
		free(text);
		return -1;
	}
	idx = ward_sources_add(s->src, "<command line>", text, len,
			       WARD_NO_FILE, nowhere);
	if (idx == WARD_NO_FILE)
		return -1;
	f = ward_parse(s->src, idx, s->diags);
	files = realloc(s->unit.files,
			(s->unit.nfiles + 1) * sizeof(*s->unit.files));
	if (!files) {
		ward_file_free(f);
		return -1;
	}
	memmove(files + 1, files, s->unit.nfiles * sizeof(*files));
	files[0] = f;
	s->unit.files = files;
	s->unit.nfiles++;
	return f->nerrors ? -1 : 0;
}

int ward_session_open(struct ward_session *s, const char *path,
		      const struct ward_opts *o)
{
	bool io_error = false;
	int rc;
	struct ward_sema_opts so;

	memset(s, 0, sizeof(*s));
	s->src = ward_sources_new();
	s->diags = ward_diags_new(s->src, o->diag_out ? o->diag_out : stderr,
				  o->format, o->color, o->werror);
	if (ward_search_path_init(&s->sp, o->incdirs, o->nincdirs) < 0) {
		fprintf(stderr, "wardc: cannot build the search path: %s\n",
			strerror(errno));
		return WARDC_USAGE;
	}
	s->sp_init = true;
	rc = ward_load(path, &s->sp, s->src, s->diags, &s->unit, &io_error);
	if (io_error)
		return WARDC_USAGE;
	if (rc < 0 || !s->unit.main || add_defines(s, o) < 0) {
		ward_diags_flush(s->diags);
		return WARDC_POLICY_ERROR;
	}
	so = (struct ward_sema_opts){.arch = o->arch};
	rc = ward_sema(&s->unit, s->src, s->diags, &so, &s->checked);
	ward_diags_flush(s->diags);
	if (rc < 0 || ward_diags_errors(s->diags) > 0)
		return WARDC_POLICY_ERROR;
	/* Every command (explain, lint, export) sees the policy the
	 * launcher will run, so what the net section implies is added here
	 * rather than when compiling. */
	rc = ward_net_apply(&s->checked, s->diags);
	ward_diags_flush(s->diags);
	if (rc < 0)
		return WARDC_POLICY_ERROR;
	derive_landlock(&s->checked);
	return WARDC_OK;
}

int ward_driver_check(const char *path, const struct ward_opts *o)
{
	struct ward_session s;
	int rc = ward_session_open(&s, path, o);
	ward_session_close(&s);
	return rc;
}

int ward_driver_compile(const char *path, const struct ward_opts *o,
			uint8_t **blob, size_t *len)
{
	struct ward_session s;
	int rc = ward_session_open(&s, path, o);
	struct ward_policy *p;
	ward_err err = {0};
	uint32_t ninsns = 0;

	if (rc != WARDC_OK) {
		ward_session_close(&s);
		return rc;
	}
	if (!s.checked.is_policy) {
		fprintf(stderr,
			"wardc: %s is a fragment, not a policy: it has no "
			"`policy` statement (fragments can be checked, not "
			"compiled)\n",
			path);
		ward_session_close(&s);
		return WARDC_POLICY_ERROR;
	}
	p = &s.checked.policy;
	/* The recording variant: the policy's blob but for its syscall
	 * rules (record_gen.h), marked so that only --record runs it. */
	if (o->record) {
		if (ward_record_rules(s.checked.pool, p->arch, &p->rules,
				      &err) < 0) {
			char buf[WARD_ERR_MSG_MAX + 128];
			fprintf(stderr, "wardc: %s: %s\n", path,
				ward_err_str(&err, buf, sizeof(buf)));
			ward_session_close(&s);
			return WARDC_POLICY_ERROR;
		}
		p->requirements |= WARD_REQ_RECORD;
	}
	_cleanup_free_ struct sock_filter *insns = NULL;
	if (ward_seccomp_compile(&p->rules, p->arch, &insns, &ninsns, &err) <
	    0) {
		char buf[WARD_ERR_MSG_MAX + 128];
		fprintf(stderr, "wardc: %s: %s\n", path,
			ward_err_str(&err, buf, sizeof(buf)));
		ward_session_close(&s);
		return WARDC_POLICY_ERROR;
	}
	p->seccomp.arch = p->arch;
	p->seccomp.insns = insns;
	p->seccomp.ninsns = ninsns;
	/* `kill` rules are user notifications: the launcher must hold the
	 * listener (an older one refuses the blob rather than run them as
	 * ENOSYS). */
	if (ward_seccomp_notifies(insns, ninsns))
		p->requirements |= WARD_REQ_SECCOMP_NOTIFY;
	/* Refusals to record and the socket broker: a launcher that only
	 * kills must refuse the blob. */
	if (ward_seccomp_answers(insns, ninsns))
		p->requirements |= WARD_REQ_SECCOMP_ANSWER;
	rc = WARDC_OK;
	if (ward_blob_write(p, blob, len, &err) < 0) {
		char buf[WARD_ERR_MSG_MAX + 128];
		fprintf(stderr, "wardc: %s: %s\n", path,
			ward_err_str(&err, buf, sizeof(buf)));
		rc = WARDC_POLICY_ERROR;
	}
	ward_session_close(&s);
	return rc;
}

int ward_driver_blob(const char *path, const struct ward_opts *o,
		     uint8_t **blob, size_t *len)
{
	_cleanup_free_ uint8_t *data = NULL;
	size_t n;
	if (ward_read_file(path, MAX_BLOB, &data, &n) < 0) {
		fprintf(stderr, "wardc: cannot read %s: %s\n", path,
			strerror(errno));
		return WARDC_USAGE;
	}
	if (n >= WARD_BLOB_MAGIC_LEN &&
	    memcmp(data, WARD_BLOB_MAGIC, WARD_BLOB_MAGIC_LEN) == 0) {
		*blob = steal_pointer(&data);
		*len = n;
		return WARDC_OK;
	}
	return ward_driver_compile(path, o, blob, len);
}
