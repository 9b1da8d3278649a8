/* SPDX-License-Identifier: MIT */
/*
 * cgroup.c: the run's cgroup directories, from the plan to their removal
 * (cgroup.h). The limit writers and the counters are in cgroup_files.c.
 */
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>

uint32_t ward_cg_needed(const struct ward_policy *p)
{
	const struct ward_limits *l = &p->limits;
	uint32_t need = 0;

	if (ward_limit_is_set(l, WARD_LIM_MEMORY) ||
	    ward_limit_is_set(l, WARD_LIM_SWAP) ||
	    (p->requirements & (WARD_REQ_CGROUP_MEMORY | WARD_REQ_CGROUP_SWAP)))
		need |= WARD_CG_BIT(WARD_CG_MEMORY);
	if (ward_limit_is_set(l, WARD_LIM_PIDS) ||
	    (p->requirements & WARD_REQ_CGROUP_PIDS))
		need |= WARD_CG_BIT(WARD_CG_PIDS);
	if (ward_limit_is_set(l, WARD_LIM_CPU) ||
	    (p->requirements & WARD_REQ_CGROUP_CPU))
		need |= WARD_CG_BIT(WARD_CG_CPU);
	return need;
}

/* Field 22 of /proc/PID/stat: the start time, in clock ticks after boot.
 * The command name (field 2) may hold spaces and parentheses: fields are
 * counted after its last ')'. */
static int start_time(const char *procfs, const char *pid,
		      unsigned long long *out)
{
	char path[128], buf[1024], *p;
	_cleanup_close_ int fd = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/stat", procfs, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (n = read(fd, buf, sizeof(buf) - 1)) <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* field 3 is after ") "; field 22 is 19 fields later */
	p += 2;
	for (int f = 3; f < 22; f++) {
		p = strchr(p, ' ');
		if (!p)
			return -1;
		p++;
	}
	*out = strtoull(p, NULL, 10);
	return 0;
}

int ward_cg_run_id(char *buf, size_t len, ward_err *err)
{
	unsigned long long st;

	if (start_time("/proc", "self", &st) < 0)
		return ward_fail(err, errno, "read /proc/self/stat");
	snprintf(buf, len, "run-%d-%llu", (int)getpid(), st);
	return 0;
}

bool ward_cg_owner_alive(const char *procfs, const char *name, bool *is_run)
{
	char pid[24];
	const char *p = name + 4, *dash;
	unsigned long long want, have;
	char *end;

	*is_run = false;
	if (strncmp(name, "run-", 4))
		return true;
	dash = strchr(p, '-');
	if (!dash || dash == p || (size_t)(dash - p) >= sizeof(pid) ||
	    strspn(p, "0123456789") != (size_t)(dash - p))
		return true;
	errno = 0;
	want = strtoull(dash + 1, &end, 10);
	/* The broker's directory beside the run's: the same owner. */
	if (!dash[1] || (*end && strcmp(end, "-broker")) || errno)
		return true;
	memcpy(pid, p, (size_t)(dash - p));
	pid[dash - p] = '\0';
	*is_run = true;
	if (start_time(procfs, pid, &have) < 0)
		return false; /* no such process */
	return have == want;
}

/* ------------------------------------------------------------ plan */

static bool valid_cgpath(const char *s)
{
	if (s[0] != '/' || strstr(s, "//") || strstr(s, "/./") ||
	    strstr(s, "/../"))
		return false;
	size_t n = strlen(s);
	if (n > 1 && s[n - 1] == '/')
		return false;
	if ((n >= 2 && !strcmp(s + n - 2, "/.")) ||
	    (n >= 3 && !strcmp(s + n - 3, "/..")))
		return false;
	return n < WARD_CG_PATH / 2;
}

static void join(char *out, size_t len, const char *a, const char *b)
{
	snprintf(out, len, "%s%s%s", a,
		 (a[0] && a[strlen(a) - 1] == '/') ? "" : "/",
		 b[0] == '/' ? b + 1 : b);
}

/* Does the cgroup2 directory dir enable every controller of want for its
 * children? */
static bool subtree_has(const char *dir, uint32_t want)
{
	char path[WARD_CG_PATH + 32], buf[512];
	_cleanup_close_ int fd = -1;
	ssize_t n;
	uint32_t have = 0;

	join(path, sizeof(path), dir, "cgroup.subtree_control");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (n = read(fd, buf, sizeof(buf) - 1)) < 0)
		return false;
	buf[n] = '\0';
	for (int c = 0; c < WARD_CG_NCTRL; c++) {
		const char *name = ward_cg_ctrl_name(c), *s = buf;
		size_t k = strlen(name);

		while ((s = strstr(s, name))) {
			if ((s == buf || s[-1] == ' ') &&
			    (s[k] == ' ' || s[k] == '\n' || s[k] == '\0')) {
				have |= WARD_CG_BIT(c);
				break;
			}
			s += k;
		}
	}
	return (have & want) == want;
}

static bool writable(const char *dir, const char *file)
{
	char path[WARD_CG_PATH + 32];

	join(path, sizeof(path), dir, file);
	return access(path, W_OK) == 0;
}

static void ctrl_list(uint32_t ctrls, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int c = 0; c < WARD_CG_NCTRL; c++)
		if (ctrls & WARD_CG_BIT(c))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 buf[0] ? ", " : "", ward_cg_ctrl_name(c));
	if (!buf[0])
		snprintf(buf, len, "a cgroup2 directory");
}

/* Rootless, without a cgroup it may write: say what is missing and how to
 * get it (the messages must fit WARD_ERR_MSG_MAX). */
static int refuse_rootless(const struct ward_cg_request *rq,
			   const struct ward_cg_hier *x, ward_err *err)
{
	char names[64];

	ctrl_list(rq->need, names, sizeof(names));
	if (rq->base)
		return ward_fail(err, 0,
				 "--cgroup-base %s: %s%s is not a cgroup "
				 "directory uid %u may write; an administrator "
				 "must create it and delegate it to you "
				 "(chown -R)",
				 rq->base, x->mnt, rq->base, (unsigned)rq->uid);
	if (x->version == 1)
		return ward_fail(
		    err, 0,
		    "the policy's limits need cgroups (%s), and rootless ward "
		    "may not create any here: %s is cgroup v1, which the "
		    "kernel does not delegate to users. Ask an administrator "
		    "for a base in each v1 hierarchy (mkdir %s/ward-$USER && "
		    "chown -R $USER it) and pass --cgroup-base /ward-$USER, or "
		    "run ward as root",
		    names, x->mnt, x->mnt);
	return ward_fail(err, 0,
			 "the policy's limits need cgroups (%s), and the "
			 "cgroup rootless ward runs in (%s) is not delegated "
			 "to uid %u: start ward in a delegated scope, "
			 "`systemd-run --user --scope -p Delegate=yes -- ward "
			 "...`, or pass --cgroup-base",
			 names, x->own, (unsigned)rq->uid);
}

/* Can rootless ward use hierarchy x, and with which base? */
static bool rootless_base(const struct ward_cg_request *rq,
			  const struct ward_cg_hier *x, uint32_t v2ctrls,
			  char *base, size_t len, bool *selfmove)
{
	char dir[WARD_CG_PATH * 2];

	*selfmove = false;
	if (rq->base) {
		join(dir, sizeof(dir), x->mnt, rq->base);
		snprintf(base, len, "%s", rq->base);
		return access(dir, W_OK | X_OK) == 0;
	}
	if (x->version == 1)
		return false; /* no delegation on v1 */
	/* Delegate=yes gives the caller its own cgroup's directory and its
	 * cgroup.procs and cgroup.subtree_control files. */
	join(dir, sizeof(dir), x->mnt, x->own);
	if (!strcmp(x->own, "/") || access(dir, W_OK | X_OK) ||
	    !writable(dir, "cgroup.procs") ||
	    !writable(dir, "cgroup.subtree_control"))
		return false;
	join(base, len, x->own, "ward");
	/* A cgroup with processes (ward's own) cannot give controllers to
	 * children: ward moves itself into a leaf first. */
	*selfmove = v2ctrls && !subtree_has(dir, v2ctrls);
	return true;
}

static void root_base(const struct ward_cg_request *rq,
		      const struct ward_cg_hier *x, uint32_t v2ctrls,
		      char *base, size_t len)
{
	char dir[WARD_CG_PATH * 2];

	if (rq->base) {
		snprintf(base, len, "%s", rq->base);
		return;
	}
	if (x->version == 1 || !strcmp(x->own, "/")) {
		join(base, len, x->own, "ward");
		return;
	}
	/* cgroup2: a cgroup that holds processes cannot hand controllers to
	 * children (no internal processes), and the one ward runs in
	 * usually does (a session scope, a service); then ward's base is
	 * its own directory right below the root, which is exempt. */
	join(dir, sizeof(dir), x->mnt, x->own);
	if (subtree_has(dir, v2ctrls))
		join(base, len, x->own, "ward");
	else
		snprintf(base, len, "/ward");
}

static int add_dir(struct ward_cgroup *cg, const struct ward_cg_hier *x,
		   uint32_t ctrls, const char *base, bool selfmove)
{
	struct ward_cg_dir *d;

	for (int i = 0; i < cg->ndirs; i++)
		if (!strcmp(cg->dir[i].mnt, x->mnt)) {
			cg->dir[i].ctrls |= ctrls;
			return i;
		}
	d = &cg->dir[cg->ndirs];
	memset(d, 0, sizeof(*d));
	d->version = x->version;
	d->ctrls = ctrls;
	d->fd = -1;
	d->selfmove = selfmove;
	snprintf(d->mnt, sizeof(d->mnt), "%s", x->mnt);
	snprintf(d->base, sizeof(d->base), "%s", base);
	snprintf(d->path, sizeof(d->path), "%s%s/%s", x->mnt,
		 strcmp(base, "/") ? base : "", cg->run_id);
	if (x->version == 2)
		cg->v2 = cg->ndirs;
	return cg->ndirs++;
}

/* Use hierarchy i for the controllers mine; refuse when it cannot be had
 * and is required, skip it otherwise. */
static int use_hier(struct ward_cgroup *cg, const struct ward_cg_host *h,
		    const struct ward_cg_request *rq, int i, uint32_t mine,
		    uint32_t v2ctrls, bool required, ward_err *err)
{
	const struct ward_cg_hier *x = &h->hier[i];
	char base[WARD_CG_PATH];
	bool selfmove = false;
	int d;

	if (rq->mode == WARD_MODE_ROOT)
		root_base(rq, x, v2ctrls, base, sizeof(base));
	else if (!rootless_base(rq, x, v2ctrls, base, sizeof(base), &selfmove))
		return required ? refuse_rootless(rq, x, err) : 0;
	d = add_dir(cg, x, mine, base, selfmove);
	for (int c = 0; c < WARD_CG_NCTRL; c++)
		if (mine & WARD_CG_BIT(c))
			cg->by_ctrl[c] = d;
	return 0;
}

int ward_cg_plan(const struct ward_cg_host *h, const struct ward_cg_request *rq,
		 struct ward_cgroup *cg, ward_err *err)
{
	uint32_t v2ctrls = 0;

	memset(cg, 0, sizeof(*cg));
	cg->v2 = -1;
	for (int c = 0; c < WARD_CG_NCTRL; c++)
		cg->by_ctrl[c] = -1;
	if (!rq->need && !rq->need_v2 && !rq->broker_dir)
		return 0;
	if (rq->base && (!valid_cgpath(rq->base) || !strcmp(rq->base, "/")))
		return ward_fail(
		    err, 0,
		    "--cgroup-base %s: expected an absolute cgroup "
		    "path below the hierarchy's root, such as "
		    "/ward (no ., .. or trailing /)",
		    rq->base);
	for (int c = 0; c < WARD_CG_NCTRL; c++) {
		if (!(rq->need & WARD_CG_BIT(c)))
			continue;
		if (h->where[c] < 0)
			return ward_fail(
			    err, 0,
			    "the policy's limits need the %s cgroup "
			    "controller, "
			    "which this host does not offer (no cgroup v1 "
			    "hierarchy has it, and no cgroup2 root lists it in "
			    "cgroup.controllers)",
			    ward_cg_ctrl_name(c));
		if (h->hier[h->where[c]].version == 2)
			v2ctrls |= WARD_CG_BIT(c);
	}
	if (rq->need_v2 && h->v2 < 0)
		return ward_fail(
		    err, 0,
		    "the policy's network allow-list needs the cgroup "
		    "programs beside the socket broker (it has UDP rules, "
		    "or allows io_uring), hence a cgroup2 hierarchy, and "
		    "none is mounted (mount -t cgroup2 none "
		    "/sys/fs/cgroup/unified)");
	if (ward_cg_run_id(cg->run_id, sizeof(cg->run_id), err) < 0)
		return -1;
	/* 1. What the limits and the allow-list need: refused if missing. */
	for (int i = 0; i < h->nhier; i++) {
		uint32_t mine = 0;

		for (int c = 0; c < WARD_CG_NCTRL; c++)
			if (h->where[c] == i && (rq->need & WARD_CG_BIT(c)))
				mine |= WARD_CG_BIT(c);
		if ((mine || (rq->need_v2 && i == h->v2)) &&
		    use_hier(cg, h, rq, i, mine, v2ctrls, true, err) < 0)
			return -1;
	}
	/* 2. cgroup2 when there is one, for the kill (cgroup.kill), the
	 * CPU time (cpu.stat) and CLONE_INTO_CGROUP; 3. without it, v1
	 * cpuacct and freezer for the same ends. Both only if they can be
	 * had. */
	if (h->v2 >= 0 && cg->v2 < 0)
		use_hier(cg, h, rq, h->v2, 0, v2ctrls, false, err);
	for (int c = WARD_CG_CPUACCT; cg->v2 < 0 && c <= WARD_CG_FREEZER; c++)
		if (h->where[c] >= 0 && h->hier[h->where[c]].version == 1)
			use_hier(cg, h, rq, h->where[c], WARD_CG_BIT(c),
				 v2ctrls, false, err);
	/* 4. The broker's own (docs/spec.md 5.6): a sibling of the run's
	 * cgroup2 directory, for the network's programs, which then filter
	 * every socket the broker makes, and nothing of the sandbox's
	 * (its sockets live in a namespace of its own). No controller:
	 * the broker is not the sandbox, nor counted as it. */
	if (rq->broker_dir && cg->v2 >= 0 && cg->ndirs < WARD_CG_MAXHIER) {
		struct ward_cg_dir *d = &cg->dir[cg->ndirs];
		size_t n;

		*d = cg->dir[cg->v2];
		d->ctrls = 0;
		d->selfmove = false;
		n = strlen(d->path);
		snprintf(d->path + n, sizeof(d->path) - n, "-broker");
		cg->broker = ++cg->ndirs;
	}
	cg->active = cg->ndirs > 0;
	return 0;
}

/* ------------------------------------------------------------ create */

static int write_at(int dirfd, const char *file, const char *text)
{
	_cleanup_close_ int fd =
	    openat(dirfd, file, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	size_t n = strlen(text);

	if (fd < 0)
		return -1;
	if (write(fd, text, n) != (ssize_t)n)
		return -1;
	return 0;
}

static void remove_stale(const struct ward_cg_dir *d)
{
	char dir[WARD_CG_PATH * 2];
	_cleanup_close_ int fd = -1;
	DIR *ds;
	struct dirent *e;

	join(dir, sizeof(dir), d->mnt, d->base);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	ds = fdopendir(dup(fd));
	if (!ds)
		return;
	while ((e = readdir(ds))) {
		_cleanup_close_ int run = -1;
		bool is_run;

		if (e->d_type != DT_DIR ||
		    ward_cg_owner_alive("/proc", e->d_name, &is_run) || !is_run)
			continue;
		/* The owner looks dead from here, but a ward in another pid
		 * namespace is not visible in our /proc: every live ward holds
		 * a lock on its directories. */
		run = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (run < 0 || flock(run, LOCK_EX | LOCK_NB) < 0)
			continue;
		/* Empty ones only: rmdir refuses a cgroup with processes or
		 * children, which are then left alone. */
		unlinkat(fd, e->d_name, AT_REMOVEDIR);
	}
	closedir(ds);
}

/* Enable the v2 controllers of ctrls for the children of dir. */
static int enable_v2(const char *dir, uint32_t ctrls, ward_err *err)
{
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return ward_fail(err, errno, "open %s", dir);
	for (int c = 0; c < WARD_CG_NCTRL; c++) {
		char text[32];

		if (!(ctrls & WARD_CG_BIT(c)))
			continue;
		snprintf(text, sizeof(text), "+%s", ward_cg_ctrl_name(c));
		if (write_at(fd, "cgroup.subtree_control", text) < 0)
			return ward_fail(
			    err, errno, "write %s to %s/cgroup.subtree_control",
			    text, dir);
	}
	return 0;
}

/* The processes of cgroup.procs text are ward (me) and its helpers (the
 * courier, the admission holder; 0: none) and no other; has[i]: helper i
 * is one of them. */
static bool only_ours(const char *procs, pid_t me, const pid_t *helpers,
		      bool *has)
{
	bool seen_me = false;

	has[0] = has[1] = false;
	for (const char *p = procs; *p;) {
		char *end;
		long pid = strtol(p, &end, 10);

		if (end == p || (*end != '\n' && *end))
			return false;
		if (pid == me)
			seen_me = true;
		else if (helpers[0] && pid == helpers[0])
			has[0] = true;
		else if (helpers[1] && pid == helpers[1])
			has[1] = true;
		else
			return false;
		p = *end ? end + 1 : end;
	}
	return seen_me;
}

/* Ward, the only process of its delegated cgroup2 directory own (with its
 * courier and its admission holder, children made before the run's
 * cgroups), moves into a leaf below it, its helpers with it, so that own
 * may give controllers to ward's base (no internal processes). */
static int move_self(const struct ward_cg_dir *d, uint32_t v2ctrls,
		     const pid_t *helpers, ward_err *err)
{
	char own[WARD_CG_PATH * 2], leaf[WARD_CG_PATH * 2 + 16], buf[256];
	char me[24];
	_cleanup_close_ int fd = -1;
	bool has[2];
	ssize_t n;

	snprintf(own, sizeof(own), "%.*s%.*s", WARD_CG_PATH, d->mnt,
		 (int)(strlen(d->base) - strlen("/ward")), d->base);
	join(leaf, sizeof(leaf), own, "cgroup.procs");
	fd = open(leaf, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (n = read(fd, buf, sizeof(buf) - 1)) < 0)
		return ward_fail(err, errno, "read %s", leaf);
	buf[n] = '\0';
	snprintf(me, sizeof(me), "%d\n", (int)getpid());
	if (!only_ours(buf, getpid(), helpers, has))
		return ward_fail(err, 0,
				 "the delegated cgroup %s holds other "
				 "processes than ward (%.*s...): cgroup v2 "
				 "gives controllers only to the children of a "
				 "cgroup without processes, so ward must be "
				 "alone in it; start it directly: "
				 "systemd-run --user --scope -p Delegate=yes "
				 "-- ward ...",
				 own, 40, buf);
	join(leaf, sizeof(leaf), own, "supervisor");
	if (mkdir(leaf, 0755) < 0 && errno != EEXIST)
		return ward_fail(err, errno, "mkdir %s", leaf);
	close(fd);
	fd = open(leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || write_at(fd, "cgroup.procs", me) < 0)
		return ward_fail(err, errno, "move ward into %s", leaf);
	for (int i = 0; i < 2; i++) {
		char other[24];

		snprintf(other, sizeof(other), "%d\n", (int)helpers[i]);
		if (has[i] && write_at(fd, "cgroup.procs", other) < 0)
			return ward_fail(err, errno, "move ward into %s", leaf);
	}
	return enable_v2(own, v2ctrls, err);
}

/* mkdir -p of the base below the mount point. On cgroup2 every directory
 * on the way must give the controllers to its children: ward enables them
 * in the directories it made itself (and in the base, which is ward's),
 * and only checks the others, which are not its own. */
static int make_base(const struct ward_cg_dir *d, ward_err *err)
{
	char path[WARD_CG_PATH * 2], parent[WARD_CG_PATH * 2];
	uint32_t v2c = d->version == 2 ? d->ctrls : 0;
	const char *p = d->base;
	bool made_parent = false;

	snprintf(path, sizeof(path), "%s", d->mnt);
	while (*p == '/' && p[1]) {
		const char *next = strchr(p + 1, '/');
		size_t n = next ? (size_t)(next - p) : strlen(p);

		snprintf(parent, sizeof(parent), "%s", path);
		snprintf(path + strlen(path), sizeof(path) - strlen(path),
			 "%.*s", (int)n, p);
		p += n;
		/* After the self-move, ward's delegated cgroup (the base's
		 * parent) is ward's to enable. */
		bool ours = made_parent || (d->selfmove && *p == '\0');

		if (v2c && !subtree_has(parent, v2c)) {
			if (!ours)
				return ward_fail(
				    err, 0,
				    "cgroup2: %s does not give the controllers "
				    "the policy needs to its children (its "
				    "cgroup.subtree_control): enable them "
				    "(echo +memory +pids +cpu > "
				    "%s/cgroup.subtree_control) or choose "
				    "another --cgroup-base",
				    parent, parent);
			if (enable_v2(parent, v2c, err) < 0)
				return -1;
		}
		if (mkdir(path, 0755) == 0)
			made_parent = true;
		else if (errno == EEXIST)
			made_parent = false;
		else
			return ward_fail(err, errno, "mkdir %s", path);
	}
	/* The base is ward's: it gives the run's directories what they
	 * need. */
	if (v2c && !subtree_has(path, v2c) && enable_v2(path, v2c, err) < 0)
		return -1;
	return 0;
}

int ward_cg_create(struct ward_cgroup *cg, ward_err *err)
{
	const pid_t helpers[2] = {cg->courier, cg->holder};

	for (int i = 0; i < cg->ndirs; i++) {
		struct ward_cg_dir *d = &cg->dir[i];

		if (d->selfmove && move_self(d, d->ctrls, helpers, err) < 0)
			goto fail;
		remove_stale(d);
		if (make_base(d, err) < 0)
			goto fail;
		if (mkdir(d->path, 0755) < 0) {
			ward_fail(err, errno, "mkdir %s", d->path);
			goto fail;
		}
		d->created = true;
		d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		/* Held for the run: no other ward takes it for a dead one's
		 * (remove_stale). */
		if (d->fd < 0 || flock(d->fd, LOCK_EX | LOCK_NB) < 0) {
			ward_fail(err, errno, "open %s", d->path);
			goto fail;
		}
	}
	return 0;
fail:
	for (int i = 0; i < cg->ndirs; i++) {
		if (cg->dir[i].fd >= 0)
			close(cg->dir[i].fd);
		cg->dir[i].fd = -1;
		if (cg->dir[i].created)
			rmdir(cg->dir[i].path);
		cg->dir[i].created = false;
	}
	return -1;
}

int ward_cg_set_limits(struct ward_cgroup *cg, const struct ward_limits *l,
		       const char *proc_swaps, ward_err *err)
{
	bool host_swap = true;
	_cleanup_fclose_ FILE *f = fopen(proc_swaps, "re");

	/* /proc/swaps: a header line, then one line per swap area. */
	if (f) {
		char line[512];
		int n = 0;

		while (fgets(line, sizeof(line), f))
			n++;
		host_swap = n > 1;
	}
	for (int i = 0; i < cg->ndirs; i++)
		if (ward_cg_write_limits(cg->dir[i].fd, cg->dir[i].version,
					 cg->dir[i].ctrls, l, host_swap, cg,
					 err) < 0)
			return -1;
	return 0;
}

int ward_cg_attach_v1(struct ward_cgroup *cg, pid_t pid, ward_err *err)
{
	char text[24];

	snprintf(text, sizeof(text), "%d", (int)pid);
	for (int i = 0; i < cg->ndirs; i++)
		if (cg->dir[i].version == 1 &&
		    write_at(cg->dir[i].fd, "cgroup.procs", text) < 0)
			return ward_fail(err, errno, "move init into %s",
					 cg->dir[i].path);
	return 0;
}

/* ------------------------------------------------------------ kill */

int ward_cg_kill_listed(int dirfd)
{
	_cleanup_close_ int fd =
	    openat(dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	_cleanup_fclose_ FILE *f = NULL;
	char line[32];
	int n = 0;

	if (fd < 0 || !(f = fdopen(fd, "re")))
		return 0;
	fd = -1;
	while (fgets(line, sizeof(line), f)) {
		long pid = strtol(line, NULL, 10);

		/* Never 0 or negative: kill(0) and kill(-1) mean groups. */
		if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
			n++;
	}
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int ward_cg_freeze(int dirfd, bool frozen)
{
	const char *want = frozen ? "FROZEN" : "THAWED";

	if (write_at(dirfd, "freezer.state", want) < 0)
		return -1;
	/* FREEZING until every task stopped. */
	for (int i = 0; frozen && i < 100; i++) {
		_cleanup_close_ int fd =
		    openat(dirfd, "freezer.state", O_RDONLY | O_CLOEXEC);
		char buf[32] = "";

		if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 0)
			return -1;
		if (!strncmp(buf, "FROZEN", 6))
			return 0;
		sleep_ms(1);
	}
	return 0;
}

void ward_cg_kill(struct ward_cgroup *cg)
{
	int fz = cg->by_ctrl[WARD_CG_FREEZER];

	if (!cg->active)
		return;
	if (cg->v2 >= 0 && cg->dir[cg->v2].fd >= 0 &&
	    write_at(cg->dir[cg->v2].fd, "cgroup.kill", "1") == 0) {
		/* Every process of the run is in cgroup2 too (init was
		 * created there); what a v1 directory lists besides would
		 * not be, and is killed as well. */
		for (int i = 0; i < cg->ndirs; i++)
			if (cg->dir[i].version == 1 && cg->dir[i].fd >= 0)
				ward_cg_kill_listed(cg->dir[i].fd);
		return;
	}
	/* v1: frozen, nothing can fork between the listing and the kill. */
	if (fz >= 0 && cg->dir[fz].fd >= 0 &&
	    ward_cg_freeze(cg->dir[fz].fd, true) == 0) {
		ward_cg_kill_listed(cg->dir[fz].fd);
		ward_cg_freeze(cg->dir[fz].fd, false);
		return;
	}
	for (int i = 0; i < cg->ndirs; i++) {
		if (cg->dir[i].fd < 0)
			continue;
		for (int k = 0; k < 100 && ward_cg_kill_listed(cg->dir[i].fd);
		     k++)
			;
		return;
	}
}

/* ------------------------------------------------------------ remove */

static unsigned count_procs(int dirfd)
{
	_cleanup_close_ int fd =
	    openat(dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	char buf[4096];
	unsigned n = 0;
	ssize_t k;

	if (fd < 0)
		return 0;
	while ((k = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < k; i++)
			n += buf[i] == '\n';
	return n;
}

void ward_cg_remove(struct ward_cgroup *cg, struct ward_cg_cleanup *res)
{
	res->removed = true;
	res->procs_left = 0;
	for (int i = cg->ndirs - 1; i >= 0; i--) {
		struct ward_cg_dir *d = &cg->dir[i];
		unsigned left = 0;
		int tries;

		if (!d->created)
			continue;
		/* Every process of the sandbox is gone once init is reaped
		 * (its pid namespace died with it); a process seen here is
		 * one that is not in that namespace, killed all the same. */
		for (tries = 0; d->fd >= 0 && tries < 100; tries++) {
			left = count_procs(d->fd);
			if (!left)
				break;
			ward_cg_kill(cg);
			sleep_ms(10);
		}
		if (left > res->procs_left)
			res->procs_left = left;
		if (d->fd >= 0)
			close(d->fd);
		d->fd = -1;
		/* EBUSY while the last exiting task is released. */
		for (tries = 0;
		     rmdir(d->path) < 0 && errno == EBUSY && tries < 200;
		     tries++)
			sleep_ms(5);
		if (access(d->path, F_OK) == 0)
			res->removed = false;
		else
			d->created = false;
	}
}

void ward_cg_close(struct ward_cgroup *cg)
{
	for (int i = 0; i < cg->ndirs; i++) {
		if (cg->dir[i].fd >= 0)
			close(cg->dir[i].fd);
		cg->dir[i].fd = -1;
	}
}
