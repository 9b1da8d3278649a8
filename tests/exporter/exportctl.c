/* SPDX-License-Identifier: MIT */
/*
 * exportctl: the supervisor's export steps, driven from a shell, for the
 * exporter's attack suite (tests/exporter/run.sh). It stands in for ward
 * where the launcher is not needed to show a boundary: the "sandbox" is a
 * command run as an unprivileged uid that writes into a fresh workspace
 * slot, as the sandbox's processes would through their mount.
 *
 *   exportctl run [RULE] --base DIR --dest DIR [--as UID] [--grow]
 *                 -- COMMAND...
 *       make a workspace under --base with a read-write slot `output`,
 *       snapshot it, run COMMAND as UID (default 65534) with $OUT set to
 *       the slot, wait for it (and everything it started: its process
 *       group is killed), snapshot again, export into --dest, destroy the
 *       workspace; print {"workspace":..., "diff":..., "manifest":...}
 *   exportctl export [RULE] [--grow] SLOTDIR DESTDIR
 *       export one directory; print the manifest
 *
 * RULE: --files N --per-file BYTES --total BYTES (0: none) --names G,G
 *       --types T,T --on refuse|skip  (defaults: 20, 5M, 40M, any,
 *       text,png, skip)
 * --grow: a test hook appends 64 KiB to each file after every chunk the
 *       exporter copies (a file that grows while it is exported).
 * Exit: 0 when the export ran (whatever it decided), 1 when it failed,
 * 2 on a usage or setup error.
 */
#include "blob.h"
#include "drop.h"
#include "exporter.h"
#include "fsdiff.h"
#include "workspace.h"
#include "workspace_empty.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void grow(void *arg, int dirfd, const char *name, uint64_t copied)
{
	static char more[65536];
	int fd = openat(dirfd, name, O_WRONLY | O_APPEND | O_CLOEXEC);

	(void)arg;
	(void)copied;
	memset(more, 'g', sizeof(more));
	if (fd >= 0) {
		if (write(fd, more, sizeof(more)) < 0)
			perror("grow");
		close(fd);
	}
}

static const char *names[256];

static void split_names(struct ward_export_rule *r, char *list)
{
	r->nnames = 0;
	for (char *t = strtok(list, ","); t && r->nnames < 256;
	     t = strtok(NULL, ","))
		names[r->nnames++] = t;
	r->names = names;
}

static int split_types(struct ward_export_rule *r, char *list)
{
	r->types = 0;
	for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
		uint32_t b = ward_export_type_bit(t);
		if (!b) {
			fprintf(stderr, "exportctl: unknown type %s\n", t);
			return -1;
		}
		r->types |= b;
	}
	return 0;
}

static int print_export(struct ward_export_rule *r, int slot, int dest,
			bool grow_hook)
{
	struct ward_export_hook hook = {.after_chunk = grow};
	struct ward_export_result res;
	ward_err err = {0};
	int rc =
	    ward_export(r, slot, dest, grow_hook ? &hook : NULL, &res, &err);

	ward_export_manifest(stdout, &res);
	ward_export_result_free(&res);
	if (rc < 0)
		fprintf(stderr, "exportctl: %s\n", err.msg);
	return rc < 0 ? 1 : 0;
}

/* The "sandbox": COMMAND as uid, in a process group of its own, with
 * nothing of ours but $OUT. */
static int sandbox(char **argv, uid_t uid, const char *out)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
		if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
		    setresuid(uid, uid, uid) < 0)
			_exit(126);
		clearenv();
		setenv("PATH", "/usr/bin:/bin", 1);
		setenv("OUT", out, 1);
		if (chdir(out) < 0)
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	kill(-pid, SIGKILL); /* what it left running dies with it */
	return status;
}

/* The end of a run as ward does it: emptied by a child with the
 * workspace's ids and no privilege, then its empty directories removed. */
static int ward_workspace_destroy(struct ward_workspace *ws, ward_err *err)
{
	int status;
	pid_t pid;

	if (ws->fd >= 0 && !ws->keep) {
		pid = fork();
		if (pid < 0)
			return ward_fail(err, errno, "fork");
		if (pid == 0) {
			struct ward_drop d = {.change_ids = geteuid() == 0,
					      .uid = ws->uid,
					      .gid = ws->gid,
					      .parent = getppid()};
			struct ward_rm_stats rm = {0};
			ward_err e;

			_exit(ward_drop_privileges(&d, &e) < 0 ||
				      ward_workspace_empty(ws->fd, &rm, &e) < 0
				  ? 1
				  : 0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			return ward_fail(err, 0,
					 "emptying the workspace failed");
	}
	return ward_workspace_remove(ws, err);
}

static int run(int argc, char **argv, struct ward_export_rule *r,
	       const char *base, const char *dest, uid_t uid, bool grow_hook)
{
	struct ward_workspace ws;
	struct ward_snap before, after;
	char slot[PATH_MAX];
	ward_err err = {0};
	int rc = 2, sfd = -1, dfd = -1;

	(void)argc;
	/* The workspace's ids are never root's (ward refuses host uid 0); a
	 * "sandbox" run --as 0 (to make device nodes) writes into it all the
	 * same, as root may. */
	if (ward_workspace_create(&ws, base, uid ? uid : 65534,
				  uid ? uid : 65534, false, &err) < 0 ||
	    ward_workspace_slot(&ws, "output", true, slot, sizeof(slot), &err) <
		0) {
		fprintf(stderr, "exportctl: %s\n", err.msg);
		ward_workspace_destroy(&ws, &err);
		return 2;
	}
	sfd = open(slot, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	dfd = open(dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sfd < 0 || dfd < 0 || ward_snap_take(sfd, &before, &err) < 0) {
		fprintf(stderr, "exportctl: slot or dest: %s\n",
			strerror(errno));
		goto out;
	}
	sandbox(argv, uid, slot);
	if (ward_snap_take(sfd, &after, &err) < 0) {
		ward_snap_free(&before);
		goto out;
	}
	fputs("{\"diff\":", stdout);
	ward_snap_diff_json(stdout, "output", &before, &after);
	ward_snap_free(&before);
	ward_snap_free(&after);
	fputs(",\"manifest\":", stdout);
	rc = print_export(r, sfd, dfd, grow_hook);
out:
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0)
		close(dfd);
	if (ward_workspace_destroy(&ws, &err) < 0) {
		fprintf(stderr, "exportctl: %s\n", err.msg);
		rc = 2;
	}
	if (rc != 2) {
		fputs(",\"workspace\":", stdout);
		ward_workspace_json(stdout, &ws);
		fputs("}\n", stdout);
	}
	return rc;
}

static int usage(void)
{
	fputs("usage: exportctl run|export [options] ... (see the source)\n",
	      stderr);
	return 2;
}

int main(int argc, char **argv)
{
	struct ward_export_rule r = {
	    .slot = "output",
	    .max_files = 20,
	    .per_file = 5u << 20,
	    .total = 40u << 20,
	    .types = WARD_EXPORT_T_TEXT | WARD_EXPORT_T_PNG,
	    .on_violation = WARD_EXPORT_SKIP,
	};
	const char *base = NULL, *dest = NULL;
	uid_t uid = 65534;
	bool grow_hook = false;
	int i;

	if (argc < 2)
		return usage();
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "--grow")) {
			grow_hook = true;
			continue;
		}
		if (a[0] != '-')
			break;
		if (!v)
			return usage();
		i++;
		if (!strcmp(a, "--files"))
			r.max_files = (uint32_t)strtoul(v, NULL, 10);
		else if (!strcmp(a, "--per-file"))
			r.per_file = strtoull(v, NULL, 10);
		else if (!strcmp(a, "--total"))
			r.total = strtoull(v, NULL, 10);
		else if (!strcmp(a, "--names"))
			split_names(&r, argv[i]);
		else if (!strcmp(a, "--types")) {
			if (split_types(&r, argv[i]) < 0)
				return 2;
		} else if (!strcmp(a, "--on"))
			r.on_violation = !strcmp(v, "refuse")
					     ? WARD_EXPORT_REFUSE
					     : WARD_EXPORT_SKIP;
		else if (!strcmp(a, "--base"))
			base = v;
		else if (!strcmp(a, "--dest"))
			dest = v;
		else if (!strcmp(a, "--as"))
			uid = (uid_t)strtoul(v, NULL, 10);
		else
			return usage();
	}
	if (!strcmp(argv[1], "export")) {
		if (argc - i != 2)
			return usage();
		int s = open(argv[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		int d = open(argv[i + 1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s < 0 || d < 0)
			return usage();
		int rc = print_export(&r, s, d, grow_hook);
		putchar('\n');
		return rc;
	}
	if (!strcmp(argv[1], "run") && base && dest && i < argc)
		return run(argc - i, argv + i, &r, base, dest, uid, grow_hook);
	return usage();
}
