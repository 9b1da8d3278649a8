/* SPDX-License-Identifier: MIT */
/*
 * cmd_replay.c: `wardc replay REPORT BLOB` runs a recorded run again and
 * says whether its outputs' digests are the same (docs/spec.md 4.6).
 *
 * Here and not in ward: reading a report is parsing JSON, and no parser
 * belongs in the privileged core. The report is read with libyaml (JSON
 * is YAML), checked, and `ward` is exec'd with the same blob, inputs and
 * command line; its new report is compared with the old.
 *
 * Exit status: 0 every digest matches, 1 one differs, 2 usage (or not a
 * report), 125 refused: the blob is not the one recorded, an input's tree
 * digest changed, the run cannot be repeated (no command line, a cut
 * one), or ward could not run it.
 */
#include "commands.h"
#include "sha256.h"
#include "treedigest.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml.h>

#define REPLAY_REFUSED	125
#define REPLAY_MAX	(64u << 20) /* a report, a blob */
#define REPLAY_MAX_ARGS 4096

/* --------------------------------------------------------- the report */

struct report {
	yaml_document_t doc;
	bool loaded;
};

static yaml_node_t *at(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);

		if (k && k->type == YAML_SCALAR_NODE &&
		    !strcmp((const char *)k->data.scalar.value, key))
			return yaml_document_get_node(d, p->value);
	}
	return NULL;
}

/* A path of keys from the root: at(r, "run", "argv"). */
static yaml_node_t *path(struct report *r, const char *a, const char *b)
{
	yaml_node_t *n = at(&r->doc, yaml_document_get_root_node(&r->doc), a);

	return b ? at(&r->doc, n, b) : n;
}

/* A JSON string's value; NULL for null, a number, anything else. */
static const char *str(yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
		return NULL;
	return (const char *)n->data.scalar.value;
}

/* A number, true or false as written; NULL otherwise. */
static const char *plain(yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return NULL;
	return (const char *)n->data.scalar.value;
}

static size_t count(yaml_node_t *seq)
{
	if (!seq || seq->type != YAML_SEQUENCE_NODE)
		return 0;
	return (size_t)(seq->data.sequence.items.top -
			seq->data.sequence.items.start);
}

static yaml_node_t *item(struct report *r, yaml_node_t *seq, size_t i)
{
	return yaml_document_get_node(&r->doc,
				      seq->data.sequence.items.start[i]);
}

static int load(struct report *r, const char *file)
{
	_cleanup_free_ uint8_t *data = NULL;
	yaml_parser_t ps;
	size_t len = 0;
	int ok;

	if (ward_read_file(file, REPLAY_MAX, &data, &len) < 0) {
		fprintf(stderr, "wardc replay: %s: %s\n", file,
			strerror(errno));
		return -1;
	}
	yaml_parser_initialize(&ps);
	yaml_parser_set_input_string(&ps, data, len);
	ok = yaml_parser_load(&ps, &r->doc);
	yaml_parser_delete(&ps);
	if (!ok || !yaml_document_get_root_node(&r->doc)) {
		if (ok)
			yaml_document_delete(&r->doc);
		fprintf(stderr, "wardc replay: %s: not a ward report (JSON)\n",
			file);
		return -1;
	}
	r->loaded = true;
	if (!plain(path(r, "report_version", NULL)) ||
	    strcmp(plain(path(r, "report_version", NULL)), "1")) {
		fprintf(stderr,
			"wardc replay: %s: not a ward report of version 1\n",
			file);
		return -1;
	}
	return 0;
}

static void unload(struct report *r)
{
	if (r->loaded)
		yaml_document_delete(&r->doc);
	r->loaded = false;
}

/* ------------------------------------------------------------ checks */

static int refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int refuse(const char *fmt, ...)
{
	va_list ap;

	fputs("wardc replay: refused: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return REPLAY_REFUSED;
}

static int check_blob(struct report *r, const char *blob)
{
	_cleanup_free_ uint8_t *data = NULL;
	const char *want = str(path(r, "policy", "digest"));
	uint8_t d[32];
	char hex[65];
	size_t len = 0;

	if (!want)
		return refuse("the report names no blob digest");
	if (ward_read_file(blob, REPLAY_MAX, &data, &len) < 0)
		return refuse("%s: %s", blob, strerror(errno));
	ward_sha256(data, len, d);
	ward_hex(d, sizeof(d), hex);
	if (strcmp(hex, want))
		return refuse("%s is not the blob of the run (sha256 %s, the "
			      "report's %s)",
			      blob, hex, want);
	return 0;
}

static int check_inputs(struct report *r)
{
	yaml_node_t *in = path(r, "run", "inputs");

	for (size_t i = 0; i < count(in); i++) {
		yaml_node_t *x = item(r, in, i);
		const char *name = str(at(&r->doc, x, "name"));
		const char *host = str(at(&r->doc, x, "host_path"));
		const char *want = str(at(&r->doc, x, "sha256"));
		struct ward_tree_digest d;
		ward_err err = {0};
		char hex[65], msg[WARD_ERR_MSG_MAX + 64];

		if (!name || !host || !want)
			return refuse("input %s has no digest in the report",
				      name ? name : "?");
		if (ward_tree_digest_path(host, &d, &err) < 0)
			return refuse("input %s: %s", name,
				      ward_err_str(&err, msg, sizeof(msg)));
		ward_hex(d.sha256, sizeof(d.sha256), hex);
		if (strcmp(hex, want)) {
			fprintf(stderr,
				"wardc replay: refused: input %s (%s) changed "
				"since the run: tree digest %s, the report's "
				"%s\n",
				name, host, hex, want);
			return REPLAY_REFUSED;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ the run */

struct argv {
	const char *v[REPLAY_MAX_ARGS + 1];
	size_t n;
	char *owned[REPLAY_MAX_ARGS];
	size_t nowned;
};

static bool push(struct argv *v, const char *s)
{
	if (v->n == REPLAY_MAX_ARGS)
		return false;
	v->v[v->n++] = s;
	v->v[v->n] = NULL;
	return true;
}

static bool pushf(struct argv *v, const char *a, const char *b)
{
	char *s;

	if (v->nowned == REPLAY_MAX_ARGS || asprintf(&s, "%s%s", a, b) < 0)
		return false;
	v->owned[v->nowned++] = s;
	return push(v, s);
}

static bool under(const char *p, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	return n && !strncmp(p, dir, n) && (p[n] == '/' || !p[n]);
}

static bool is_input(struct report *r, const char *name)
{
	yaml_node_t *in = path(r, "run", "inputs");

	for (size_t i = 0; i < count(in); i++) {
		const char *n = str(at(&r->doc, item(r, in, i), "name"));
		if (n && !strcmp(n, name))
			return true;
	}
	return false;
}

/* ward's options: the inputs again, each slot given with --slot (not
 * those of the run's workspace), an export directory of our own. */
static int build(struct report *r, struct argv *v, const char *ward,
		 const char *tmp, const char *blob)
{
	yaml_node_t *in = path(r, "run", "inputs");
	yaml_node_t *mounts = path(r, "run", "mounts");
	yaml_node_t *argv = path(r, "run", "argv");
	const char *ws = str(path(r, "workspace", "path"));
	const char *cut = plain(path(r, "run", "argv_truncated"));
	char buf[PATH_MAX];
	bool ok = true;

	if (!argv || argv->type != YAML_SEQUENCE_NODE || !count(argv))
		return refuse("the report holds no command line");
	if (!cut || strcmp(cut, "false"))
		return refuse("the report's command line was cut (argv_"
			      "truncated)");
	ok &= push(v, ward);
	snprintf(buf, sizeof(buf), "%s/report.json", tmp);
	ok &= push(v, "--report") && pushf(v, buf, "");
	snprintf(buf, sizeof(buf), "%s/stdout", tmp);
	ok &= push(v, "--stdout") && pushf(v, buf, "");
	snprintf(buf, sizeof(buf), "%s/stderr", tmp);
	ok &= push(v, "--stderr") && pushf(v, buf, "");
	for (size_t i = 0; i < count(in); i++) {
		yaml_node_t *x = item(r, in, i);
		const char *name = str(at(&r->doc, x, "name"));
		const char *host = str(at(&r->doc, x, "host_path"));

		snprintf(buf, sizeof(buf), "%s=", name);
		ok &= push(v, "--input") && pushf(v, buf, host);
	}
	for (size_t i = 0; i < count(mounts); i++) {
		yaml_node_t *m = item(r, mounts, i);
		const char *kind = str(at(&r->doc, m, "kind"));
		const char *name = str(at(&r->doc, m, "source"));
		const char *host = str(at(&r->doc, m, "host_path"));

		if (!kind || strcmp(kind, "slot") || !name || !host ||
		    is_input(r, name) || under(host, ws))
			continue;
		snprintf(buf, sizeof(buf), "%s=", name);
		ok &= push(v, "--slot") && pushf(v, buf, host);
	}
	if (count(path(r, "export", NULL))) {
		snprintf(buf, sizeof(buf), "%s/export", tmp);
		ok &= push(v, "--export-dir") && pushf(v, buf, "");
	}
	ok &= push(v, blob) && push(v, "--");
	for (size_t i = 0; i < count(argv); i++) {
		const char *s = str(item(r, argv, i));
		if (!s)
			return refuse("the report's command line has a "
				      "non-string");
		ok &= push(v, s);
	}
	if (!ok)
		return refuse("more than %d arguments", REPLAY_MAX_ARGS);
	return 0;
}

/* ward next to wardc (make install puts both in one directory), else
 * PATH's. */
static void default_ward(char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	snprintf(buf, len, "ward");
	if (n <= 0)
		return;
	self[n] = '\0';
	if (!(slash = strrchr(self, '/')))
		return;
	*slash = '\0';
	if ((size_t)snprintf(buf, len, "%s/ward", self) >= len ||
	    access(buf, X_OK) < 0)
		snprintf(buf, len, "ward");
}

static int run_ward(struct argv *v, const char *tmp, int *status)
{
	char err[PATH_MAX];
	pid_t pid;

	snprintf(err, sizeof(err), "%s/ward.err", tmp);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		int e =
		    open(err, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		if (null < 0 || e < 0 || dup2(null, 0) < 0 ||
		    dup2(null, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		execvp(v->v[0], (char *const *)v->v);
		dprintf(2, "wardc replay: exec %s: %s\n", v->v[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static int rm_entry(const char *p, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(p);
	return 0;
}

/* ---------------------------------------------------------- compare */

static int differs;

static void same(const char *what, const char *a, const char *b)
{
	bool eq = a && b && !strcmp(a, b);

	printf("%-28s %s", what, eq ? "match" : "MISMATCH");
	if (eq)
		printf(" %s\n", a);
	else
		printf(" recorded %s, replay %s\n", a ? a : "null",
		       b ? b : "null");
	differs += !eq;
}

static void compare_streams(struct report *o, struct report *n)
{
	static const char *const s[] = {"stdout", "stderr"};

	for (int i = 0; i < 2; i++) {
		char what[32];
		yaml_node_t *a = at(&o->doc, path(o, "output", s[i]), "sha256");
		yaml_node_t *b = at(&n->doc, path(n, "output", s[i]), "sha256");

		snprintf(what, sizeof(what), "%s sha256", s[i]);
		same(what, str(a), str(b));
	}
}

/* Each exported file by slot and path: the same set, the same digests. */
static void compare_export(struct report *o, struct report *n)
{
	yaml_node_t *xa = path(o, "export", NULL),
		    *xb = path(n, "export", NULL);
	size_t seen = 0, total = 0;

	if (!count(xa))
		return;
	for (size_t i = 0; i < count(xa); i++) {
		yaml_node_t *ma = item(o, xa, i);
		const char *slot = str(at(&o->doc, ma, "slot"));
		yaml_node_t *ea = at(&o->doc, ma, "entries"), *eb = NULL;

		for (size_t j = 0; slot && j < count(xb); j++) {
			const char *s2 =
			    str(at(&n->doc, item(n, xb, j), "slot"));
			if (s2 && !strcmp(s2, slot))
				eb = at(&n->doc, item(n, xb, j), "entries");
		}
		total += count(eb);
		for (size_t k = 0; k < count(ea); k++) {
			yaml_node_t *x = item(o, ea, k);
			const char *p = str(at(&o->doc, x, "path"));
			const char *d = str(at(&o->doc, x, "sha256"));
			const char *d2 = NULL;
			char what[PATH_MAX + 16];

			for (size_t l = 0; p && l < count(eb); l++) {
				yaml_node_t *y = item(n, eb, l);
				const char *p2 = str(at(&n->doc, y, "path"));
				if (p2 && !strcmp(p2, p)) {
					d2 = str(at(&n->doc, y, "sha256"));
					seen++;
				}
			}
			snprintf(what, sizeof(what), "export %s/%s",
				 slot ? slot : "?", p ? p : "?");
			if (!d && !d2)
				continue;
			same(what, d, d2);
		}
	}
	if (seen != total) {
		printf("%-28s MISMATCH %zu files only in the replay\n",
		       "export", total - seen);
		differs++;
	}
}

static void compare(struct report *o, struct report *n)
{
	yaml_node_t *ia = path(o, "run", "inputs"),
		    *ib = path(n, "run", "inputs");

	same("policy digest", str(path(o, "policy", "digest")),
	     str(path(n, "policy", "digest")));
	for (size_t i = 0; i < count(ia) && i < count(ib); i++) {
		char what[128];

		snprintf(what, sizeof(what), "input %.80s",
			 str(at(&o->doc, item(o, ia, i), "name")));
		same(what, str(at(&o->doc, item(o, ia, i), "sha256")),
		     str(at(&n->doc, item(n, ib, i), "sha256")));
	}
	/* (a report made before ward digested the program has no key) */
	if (path(o, "run", "program"))
		same("program sha256",
		     str(at(&o->doc, path(o, "run", "program"), "sha256")),
		     str(at(&n->doc, path(n, "run", "program"), "sha256")));
	compare_streams(o, n);
	compare_export(o, n);
}

int cmd_replay(struct wardc_args *a)
{
	struct report old = {0}, now = {0};
	static struct argv v;
	char ward[PATH_MAX], tmp[] = "/tmp/wardc-replay.XXXXXX", rep[PATH_MAX];
	int rc, status = 0;
	const char *reason;

	if (a->nfiles != 2 || a->has_dashdash) {
		fprintf(stderr, "wardc replay: give a report and the blob of "
				"its run: wardc replay REPORT BLOB\n");
		return WARDC_USAGE;
	}
	if (load(&old, a->files[0]) < 0) {
		unload(&old);
		return WARDC_USAGE;
	}
	if ((rc = check_blob(&old, a->files[1])) || (rc = check_inputs(&old)))
		goto out;
	if (a->ward)
		snprintf(ward, sizeof(ward), "%s", a->ward);
	else
		default_ward(ward, sizeof(ward));
	if (!mkdtemp(tmp)) {
		rc = refuse("mkdtemp %s: %s", tmp, strerror(errno));
		goto out;
	}
	if ((rc = build(&old, &v, ward, tmp, a->files[1])))
		goto rm;
	if (run_ward(&v, tmp, &status) < 0) {
		rc = refuse("run %s: %s", ward, strerror(errno));
		goto rm;
	}
	snprintf(rep, sizeof(rep), "%s/report.json", tmp);
	if (access(rep, F_OK) < 0 || load(&now, rep) < 0) {
		char err[PATH_MAX + 16], line[512] = "";
		FILE *f;

		snprintf(err, sizeof(err), "%s/ward.err", tmp);
		if ((f = fopen(err, "r"))) {
			if (!fgets(line, sizeof(line), f))
				line[0] = '\0';
			fclose(f);
		}
		line[strcspn(line, "\n")] = '\0';
		rc = refuse("ward wrote no report (%s): %s",
			    WIFEXITED(status) ? "it exited" : "it was killed",
			    line);
		goto rm;
	}
	reason = str(path(&now, "reason", NULL));
	if (reason && !strcmp(reason, "launcher_error")) {
		const char *e = str(path(&now, "error", NULL));
		rc = refuse("ward could not run it: %s", e ? e : "?");
		goto rm;
	}
	compare(&old, &now);
	printf("%-28s %s\n", "replay",
	       differs ? "MISMATCH: the outputs differ" : "match");
	rc = differs ? 1 : 0;
rm:
	nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
out:
	for (size_t i = 0; i < v.nowned; i++)
		free(v.owned[i]);
	unload(&old);
	unload(&now);
	return rc;
}
