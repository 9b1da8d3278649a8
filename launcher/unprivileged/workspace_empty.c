/* SPDX-License-Identifier: MIT */
/*
 * workspace_empty.c: see workspace_empty.h.
 */
#include "workspace_empty.h"

#include "json.h"
#include "safefs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

int ward_workspace_empty(int ws_fd, struct ward_rm_stats *st, ward_err *err)
{
	_cleanup_close_ int dfd = -1;
	int rc = 0;
	DIR *d;
	struct dirent *e;

	/* A copy of the supervisor's descriptor, not a new open: the
	 * workspace (root mode: 0711, root's) is not ours to list. */
	dfd = fcntl(ws_fd, F_DUPFD_CLOEXEC, 3);
	if (dfd < 0 || !(d = fdopendir(dfd)))
		return ward_fail(err, errno, "read the workspace");
	dfd = -1; /* the stream owns it */
	rewinddir(d);
	while ((e = readdir(d))) {
		struct stat sb;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    fstatat(ws_fd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(sb.st_mode) || sb.st_uid != geteuid())
			continue;
		if (ward_rmtree_inside(ws_fd, e->d_name, st,
				       rc == 0 ? err : NULL) < 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

void ward_workspace_json(FILE *f, const struct ward_workspace *ws)
{
	char t[40];

	if (!ws->id[0]) {
		fputs("null", f);
		return;
	}
	fputs("{\"id\":", f);
	ward_json_bytes(f, (const uint8_t *)ws->id, strlen(ws->id));
	fputs(",\"path\":", f);
	ward_json_bytes(f, (const uint8_t *)ws->path, strlen(ws->path));
	fputs(",\"base_filesystem\":", f);
	ward_json_str(f, ws->base_fs[0] ? ws->base_fs : NULL);
	ward_rfc3339(&ws->created, t, sizeof(t));
	fprintf(f, ",\"created\":\"%s\",\"destroyed\":", t);
	if (ws->destroyed.tv_sec && !ws->keep) {
		ward_rfc3339(&ws->destroyed, t, sizeof(t));
		fprintf(f, "\"%s\"", t);
	} else {
		fputs("null", f);
	}
	fprintf(f,
		",\"kept\":%s,\"removed\":%s,\"entries_removed\":%llu,"
		"\"flattened\":%llu,\"reclaimed\":%u,\"error\":",
		ws->keep ? "true" : "false", ws->removed ? "true" : "false",
		(unsigned long long)ws->rm.removed,
		(unsigned long long)ws->rm.flattened, ws->reclaimed);
	if (ws->error[0])
		ward_json_bytes(f, (const uint8_t *)ws->error,
				strlen(ws->error));
	else
		fputs("null", f);
	fputc('}', f);
}
