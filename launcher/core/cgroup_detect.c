/* SPDX-License-Identifier: MIT */
/*
 * cgroup_detect.c: which hierarchies are mounted, which controllers each
 * holds, and the launcher's own cgroup in each (cgroup.h).
 */
#include "cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

static const char *const ctrl_names[WARD_CG_NCTRL] = {
    [WARD_CG_MEMORY] = "memory",   [WARD_CG_PIDS] = "pids",
    [WARD_CG_CPU] = "cpu",	   [WARD_CG_CPUACCT] = "cpuacct",
    [WARD_CG_FREEZER] = "freezer",
};

const char *ward_cg_ctrl_name(enum ward_cg_ctrl c)
{
	return (unsigned)c < WARD_CG_NCTRL ? ctrl_names[c] : "?";
}

static int ctrl_of(const char *name, size_t n)
{
	for (int c = 0; c < WARD_CG_NCTRL; c++)
		if (strlen(ctrl_names[c]) == n &&
		    !strncmp(ctrl_names[c], name, n))
			return c;
	return -1;
}

/* The WARD_CG_BITs of a comma- or space-separated list of names. */
static uint32_t ctrl_bits(const char *list)
{
	uint32_t bits = 0;

	while (*list) {
		size_t n = strcspn(list, ", \n");
		int c = ctrl_of(list, n);

		if (c >= 0)
			bits |= WARD_CG_BIT(c);
		list += n;
		list += strspn(list, ", \n");
	}
	return bits;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' &&
		    r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 +
				      (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* The launcher's cgroup in a hierarchy, from /proc/self/cgroup: the v2
 * line "0::PATH" when v2, else the line whose controller list holds one of
 * ctrls. NULL when there is none. */
static const char *own_path(char *const *lines, size_t n, int version,
			    uint32_t ctrls)
{
	for (size_t i = 0; i < n; i++) {
		char *c1 = strchr(lines[i], ':'), *c2;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')))
			continue;
		if (version == 2) {
			if (c2 == c1 + 1 && !strncmp(lines[i], "0:", 2))
				return c2 + 1;
			continue;
		}
		*c2 = '\0';
		bool match = c2 != c1 + 1 && (ctrl_bits(c1 + 1) & ctrls);
		*c2 = ':';
		if (match)
			return c2 + 1;
	}
	return NULL;
}

/* own relative to the mount's root (a mount of a subtree shows only what
 * is below its root); false when our cgroup is not below it. */
static bool relative_to(const char *root, const char *own, char *out,
			size_t len)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/")) {
		snprintf(out, len, "%s", own);
		return true;
	}
	if (strncmp(own, root, n) || (own[n] != '/' && own[n] != '\0'))
		return false;
	snprintf(out, len, "%s", own[n] ? own + n : "/");
	return true;
}

/* A whole small file (procfs files have no size: read to the end), split
 * into lines in place: *text owns the bytes, *lines indexes them. */
static int read_lines(const char *path, char **text, char ***lines, size_t *n,
		      ward_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0, count = 0;
	char **v;

	if (fd < 0)
		return ward_fail(err, errno, "open %s", path);
	for (;;) {
		ssize_t k;

		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb)
				return ward_fail(err, ENOMEM, "read %s", path);
			buf = nb;
			cap += 65536;
		}
		k = read(fd, buf + len, cap - len - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return ward_fail(err, errno, "read %s", path);
		if (k == 0)
			break;
		len += (size_t)k;
	}
	buf[len] = '\0';
	for (size_t i = 0; i < len; i++)
		count += buf[i] == '\n';
	v = calloc(count + 1, sizeof(*v));
	if (!v)
		return ward_fail(err, ENOMEM, "read %s", path);
	count = 0;
	for (char *s = buf; *s;) {
		char *nl = strchr(s, '\n');

		v[count++] = s;
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	*text = steal_pointer(&buf);
	*lines = v;
	*n = count;
	return 0;
}

/* cgroup.controllers of a cgroup2 root. */
static uint32_t v2_controllers(const char *mnt)
{
	char path[WARD_CG_PATH + 32], buf[512];
	_cleanup_close_ int fd = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (n = read(fd, buf, sizeof(buf) - 1)) < 0)
		return 0;
	buf[n] = '\0';
	return ctrl_bits(buf);
}

static void add_hier(struct ward_cg_host *h, int version, uint32_t ctrls,
		     const char *mnt, const char *root, char *const *cg,
		     size_t ncg)
{
	const char *own = own_path(cg, ncg, version, ctrls);
	struct ward_cg_hier *x;

	if (!own || h->nhier == WARD_CG_MAXHIER)
		return;
	/* The same hierarchy mounted twice: the first mount wins. */
	for (int i = 0; i < h->nhier; i++)
		if (h->hier[i].version == version &&
		    (version == 2 || (h->hier[i].ctrls & ctrls)))
			return;
	x = &h->hier[h->nhier];
	x->version = version;
	x->ctrls = ctrls;
	snprintf(x->mnt, sizeof(x->mnt), "%s", mnt);
	if (!relative_to(root, own, x->own, sizeof(x->own)))
		return;
	if (version == 2) {
		x->ctrls = v2_controllers(mnt);
		h->v2 = h->nhier;
	}
	h->nhier++;
}

int ward_cg_detect(const char *mountinfo, const char *self_cgroup,
		   struct ward_cg_host *h, ward_err *err)
{
	_cleanup_free_ char *mtext = NULL, *ctext = NULL;
	_cleanup_free_ char **mlines = NULL, **clines = NULL;
	size_t nm = 0, nc = 0;

	memset(h, 0, sizeof(*h));
	h->v2 = -1;
	for (int c = 0; c < WARD_CG_NCTRL; c++)
		h->where[c] = -1;
	if (read_lines(mountinfo, &mtext, &mlines, &nm, err) < 0 ||
	    read_lines(self_cgroup, &ctext, &clines, &nc, err) < 0)
		return -1;
	for (size_t i = 0; i < nm; i++) {
		/* id parent maj:min root mountpoint opts [optional...] -
		 * fstype source superopts */
		char *f[64];
		int n = 0, dash = -1;

		for (char *s = strtok(mlines[i], " "); s && n < 64;
		     s = strtok(NULL, " "))
			f[n++] = s;
		for (int k = 6; k < n; k++)
			if (!strcmp(f[k], "-")) {
				dash = k;
				break;
			}
		if (dash < 0 || dash + 1 >= n)
			continue;
		unescape(f[3]);
		unescape(f[4]);
		if (!strcmp(f[dash + 1], "cgroup2"))
			add_hier(h, 2, 0, f[4], f[3], clines, nc);
		else if (!strcmp(f[dash + 1], "cgroup") && dash + 3 < n) {
			uint32_t bits = ctrl_bits(f[dash + 3]);

			if (bits)
				add_hier(h, 1, bits, f[4], f[3], clines, nc);
		}
	}
	/* A controller bound to v1 is not available on v2 (the kernel binds
	 * each to one hierarchy), so v1 is asked first. */
	for (int c = 0; c < WARD_CG_NCTRL; c++) {
		for (int i = 0; i < h->nhier && h->where[c] < 0; i++)
			if (h->hier[i].version == 1 &&
			    (h->hier[i].ctrls & WARD_CG_BIT(c)))
				h->where[c] = i;
		if (h->where[c] < 0 && h->v2 >= 0 &&
		    (h->hier[h->v2].ctrls & WARD_CG_BIT(c)))
			h->where[c] = h->v2;
	}
	return 0;
}
