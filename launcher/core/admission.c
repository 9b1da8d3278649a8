/* SPDX-License-Identifier: MIT */
/*
 * admission.c: see admission.h.
 */
#include "admission.h"

#include "exitcode.h"
#include "fsutil.h"
#include "workspace.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/stat.h>

#define NS_PER_MS 1000000u

/* ---------------------------------------------------------------- config */

/* floor(1.5 x online CPUs): the first seed's "about 1.5 x cores running";
 * at least 1. */
static unsigned default_ceiling(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned c = n > 0 ? (unsigned)(n * 3 / 2) : 1;

	if (c < 1)
		c = 1;
	return c > WARD_ADMIT_MAX ? WARD_ADMIT_MAX : c;
}

static int parse_ceiling(const char *what, const char *s, unsigned *out,
			 ward_err *err)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end || errno || v > WARD_ADMIT_MAX)
		return ward_fail(err, 0,
				 "%s: \"%s\" is not a number of sandboxes "
				 "from 0 (no ceiling) to %u",
				 what, s, WARD_ADMIT_MAX);
	*out = (unsigned)v;
	return 0;
}

int ward_admission_config(struct ward_admission *a, const char *max_sandboxes,
			  const char *queue_timeout, const char *queue_dir,
			  bool root, ward_err *err)
{
	const char *env_max = getenv("WARD_MAX_SANDBOXES");
	const char *env_to = getenv("WARD_QUEUE_TIMEOUT");
	struct ward_queue *q = &a->q;

	memset(a, 0, sizeof(*a));
	a->slot_fd = -1;
	q->slot = -1;
	q->ceiling = default_ceiling();
	q->timeout_ms = WARD_QUEUE_TIMEOUT_MS;
	/* A value in the environment that does not parse is refused like
	 * the option's: a ceiling the caller meant must not be dropped. */
	if (max_sandboxes) {
		if (parse_ceiling("--max-sandboxes", max_sandboxes, &q->ceiling,
				  err) < 0)
			return -1;
	} else if (env_max && env_max[0] &&
		   parse_ceiling("WARD_MAX_SANDBOXES", env_max, &q->ceiling,
				 err) < 0) {
		return -1;
	}
	if (queue_timeout) {
		if (ward_parse_duration_ms(queue_timeout, &q->timeout_ms) < 0)
			return ward_fail(err, 0,
					 "--queue-timeout: \"%s\" is not a "
					 "duration (12s, 500ms, 2m)",
					 queue_timeout);
	} else if (env_to && env_to[0] &&
		   ward_parse_duration_ms(env_to, &q->timeout_ms) < 0) {
		return ward_fail(err, 0,
				 "WARD_QUEUE_TIMEOUT: \"%s\" is not a duration "
				 "(12s, 500ms, 2m)",
				 env_to);
	}
	q->used = q->ceiling > 0;
	if (queue_dir) {
		if (queue_dir[0] != '/' ||
		    strlen(queue_dir) >= sizeof(q->dir) - 32)
			return ward_fail(err, 0,
					 "--queue-dir %s: not an absolute "
					 "path of at most %zu bytes",
					 queue_dir, sizeof(q->dir) - 32);
		snprintf(q->dir, sizeof(q->dir), "%s", queue_dir);
	} else if (root) {
		snprintf(q->dir, sizeof(q->dir), "%s", WARD_ADMIT_DIR);
	}
	/* Rootless without --queue-dir: chosen by ward_admit. */
	return 0;
}

/* ---------------------------------------------------------------- the files */

/* The slots first, the queue last: a caller takes a queue whose "queue"
 * file it can open as complete. A file another ward made meanwhile is
 * left as it is. */
static int make_files(int dfd, mode_t mode, ward_err *err)
{
	for (unsigned k = 0; k <= WARD_ADMIT_MAX; k++) {
		char name[32];
		int fd;

		if (k == WARD_ADMIT_MAX)
			snprintf(name, sizeof(name), "queue");
		else
			snprintf(name, sizeof(name), "slot-%u", k);
		fd = openat(dfd, name,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				O_CLOEXEC,
			    mode);
		if (fd < 0 && errno == EEXIST)
			continue;
		/* Exactly the mode, whatever the caller's umask. */
		if (fd < 0 || fchmod(fd, mode) < 0) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			return ward_fail(err, e, "make %s in the queue", name);
		}
		close(fd);
	}
	return 0;
}

static void remove_files(int dfd)
{
	unlinkat(dfd, "queue", 0);
	for (unsigned k = 0; k < WARD_ADMIT_MAX; k++) {
		char name[32];

		snprintf(name, sizeof(name), "slot-%u", k);
		unlinkat(dfd, name, 0);
	}
}

/* Make the queue at path, whole or not at all: it is filled under a
 * random name and renamed into place, so that no caller ever sees a
 * queue with some slots missing. Losing the race to another ward is
 * fine: its queue is the same. */
static int make_queue(const char *path, bool root, ward_err *err)
{
	const mode_t dmode = root ? 0755 : 0700, fmode = root ? 0644 : 0600;
	char parent[sizeof(((struct ward_queue *)0)->dir)];
	char tmp[sizeof(parent) + 40], name[32];
	const char *slash = strrchr(path, '/');
	_cleanup_close_ int dfd = -1;
	int rc;

	snprintf(parent, sizeof(parent), "%.*s",
		 slash && slash != path ? (int)(slash - path) : 1, path);
	/* One level, as the workspace's base: /run/ward, /tmp/ward-UID. */
	if (mkdir(parent, root ? 0711 : 0700) < 0 && errno != EEXIST)
		return ward_fail(err, errno, "make %s for the queue", parent);
	if (ward_random_name(name, sizeof(name), ".queue-") < 0)
		return ward_fail(err, errno, "getrandom");
	snprintf(tmp, sizeof(tmp), "%s/%s", parent, name);
	if (mkdir(tmp, 0700) < 0)
		return ward_fail(err, errno, "make the queue %s", tmp);
	dfd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		rc = ward_fail(err, errno, "open %s", tmp);
		rmdir(tmp);
		return rc;
	}
	if (make_files(dfd, fmode, err) < 0 ||
	    (fchmod(dfd, dmode) < 0 &&
	     ward_fail(err, errno, "chmod %s", tmp))) {
		remove_files(dfd);
		rmdir(tmp);
		return -1;
	}
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) < 0) {
		int e = errno;

		remove_files(dfd);
		rmdir(tmp);
		if (e != EEXIST)
			return ward_fail(err, e, "make the queue %s", path);
	}
	return 0;
}

/* The queue's directory: root's or the caller's, a real directory that no
 * one else can write (nobody could swap a file in it for a FIFO, nor
 * remove the locks' files). create: make it when it is missing. */
static int open_queue(const char *path, bool root, bool create, ward_err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT && create) {
		if (make_queue(path, root, err) < 0)
			return -1;
		fd =
		    open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0)
		return ward_fail(err, errno, "open the queue %s", path);
	if (fstat(fd, &st) < 0 || (st.st_uid != 0 && st.st_uid != geteuid()) ||
	    (st.st_mode & 022)) {
		close(fd);
		return ward_fail(err, 0,
				 "the queue %s must be a directory of root's "
				 "or yours that nobody else can write",
				 path);
	}
	/* An empty directory of ours (an administrator's, made to share
	 * the queue with a group: 0750): filled in place, its files
	 * readable by whom the directory is. */
	if (create && st.st_uid == geteuid() &&
	    faccessat(fd, "queue", F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT &&
	    make_files(fd, 0600 | (st.st_mode & 0044), err) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Rootless without --queue-dir: the host's queue when root made one that
 * we may read (so root's and our runs count against one ceiling), else a
 * queue of our own beside our workspaces. */
static int choose_queue(struct ward_queue *q, bool root, ward_err *err)
{
	char base[PATH_MAX];
	int fd, qfd;

	if (q->dir[0]) {
		q->host_wide = !strcmp(q->dir, WARD_ADMIT_DIR);
		return open_queue(q->dir, root, true, err);
	}
	fd = open_queue(WARD_ADMIT_DIR, false, false, NULL);
	if (fd >= 0) {
		qfd = openat(fd, "queue", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (qfd >= 0) {
			close(qfd);
			snprintf(q->dir, sizeof(q->dir), "%s", WARD_ADMIT_DIR);
			q->host_wide = true;
			return fd;
		}
		close(fd);
	}
	ward_workspace_default_base(false, base, sizeof(base));
	if ((size_t)snprintf(q->dir, sizeof(q->dir), "%s/admission", base) >=
	    sizeof(q->dir))
		return ward_fail(err, ENAMETOOLONG, "the queue in %s", base);
	return open_queue(q->dir, root, true, err);
}

/* ---------------------------------------------------------------- waiting */

/* Join the queue: a read lock on the byte at our ticket. Read locks of
 * equal tickets share the byte; such twins both count as first. */
static int join(int qfd, uint64_t *ticket, ward_err *err)
{
	struct flock fl = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_len = 1};

	*ticket = ward_now_ns();
	fl.l_start = (off_t)*ticket;
	if (fcntl(qfd, F_OFD_SETLK, &fl) < 0)
		return ward_fail(err, errno, "join the queue");
	return 0;
}

/* No one who joined before us is still waiting. */
static int at_head(int qfd, uint64_t ticket, ward_err *err)
{
	struct flock fl = {.l_type = F_WRLCK,
			   .l_whence = SEEK_SET,
			   .l_start = 0,
			   .l_len = (off_t)ticket};

	if (fcntl(qfd, F_OFD_GETLK, &fl) < 0)
		return ward_fail(err, errno, "read the queue");
	return fl.l_type == F_UNLCK;
}

/* Open slot-0 .. slot-(ceiling-1), once, at the head of the queue. */
static int open_slots(int dfd, const struct ward_queue *q, int *fds,
		      ward_err *err)
{
	for (unsigned k = 0; k < q->ceiling; k++) {
		char name[32];

		snprintf(name, sizeof(name), "slot-%u", k);
		fds[k] = openat(dfd, name,
				O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
		if (fds[k] < 0)
			return ward_fail(err, errno, "open %s/%s", q->dir,
					 name);
	}
	return 0;
}

/* The first free slot, or -1 (-2 on an error). */
static int take_slot(const int *fds, unsigned n, ward_err *err)
{
	for (unsigned k = 0; k < n; k++) {
		if (flock(fds[k], LOCK_EX | LOCK_NB) == 0)
			return (int)k;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return ward_fail(err, errno, "lock a slot"), -2;
	}
	return -1;
}

/* Until a signal came or ms passed (at most the next poll of the queue).
 * The queue is polled, every 1 ms at first, doubling to every 16 ms: an
 * inotify watch on the directory would wake a waiter sooner, but closing
 * an inotify instance waits for an SRCU grace period (fsnotify's mark
 * reaper: 10 ms and more here), which every run, waiting or not, would
 * pay. Returns the signal, or 0. */
static int wait_a_while(int sigfd, uint64_t ms, unsigned *step)
{
	struct pollfd pfd = {sigfd, POLLIN, 0};
	uint64_t cap = *step;

	if (*step < 16)
		*step *= 2;
	if (poll(&pfd, 1, (int)(ms < cap ? ms : cap)) > 0 &&
	    (pfd.revents & POLLIN)) {
		struct signalfd_siginfo si;

		if (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
			return (int)si.ssi_signo;
	}
	return 0;
}

static void close_all(int *fds, unsigned n, int keep)
{
	for (unsigned k = 0; k < n; k++)
		if (fds[k] >= 0 && (int)k != keep)
			close(fds[k]);
}

int ward_admit(struct ward_admission *a, bool root, int sigfd, ward_err *err)
{
	struct ward_queue *q = &a->q;
	_cleanup_close_ int dfd = -1, qfd = -1;
	int slots[WARD_ADMIT_MAX];
	bool opened = false;
	uint64_t deadline;
	int k = -1, sig;
	unsigned step = 1;

	if (!q->used)
		return 0;
	a->exit_code = WARD_EXIT_REFUSED;
	for (unsigned i = 0; i < WARD_ADMIT_MAX; i++)
		slots[i] = -1;
	if ((dfd = choose_queue(q, root, err)) < 0)
		return -1;
	qfd =
	    openat(dfd, "queue", O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (qfd < 0)
		return ward_fail(err, errno, "open %s/queue", q->dir);
	if (join(qfd, &q->ticket_ns, err) < 0)
		return -1;
	deadline = q->ticket_ns + q->timeout_ms * NS_PER_MS;
	for (;;) {
		uint64_t now;
		int head = at_head(qfd, q->ticket_ns, err);

		if (head < 0)
			goto fail;
		if (head && !opened) {
			opened = true;
			if (open_slots(dfd, q, slots, err) < 0)
				goto fail;
		}
		if (head && (k = take_slot(slots, q->ceiling, err)) >= 0)
			break;
		if (k == -2)
			goto fail;
		now = ward_now_ns();
		if (now >= deadline) {
			q->timed_out = true;
			q->waited_ms = (now - q->ticket_ns) / NS_PER_MS;
			a->exit_code = WARD_EXIT_QUEUE_TIMEOUT;
			ward_fail(err, 0,
				  "queue timeout: no sandbox slot within %llu "
				  "ms; the queue %s lets %u sandboxes run at "
				  "once (--max-sandboxes, --queue-timeout)",
				  (unsigned long long)q->timeout_ms, q->dir,
				  q->ceiling);
			goto fail;
		}
		if ((sig = wait_a_while(
			 sigfd, (deadline - now + NS_PER_MS - 1) / NS_PER_MS,
			 &step))) {
			q->interrupted = sig;
			q->waited_ms =
			    (ward_now_ns() - q->ticket_ns) / NS_PER_MS;
			a->exit_code = WARD_EXIT_SIGNAL_BASE + sig;
			ward_fail(err, 0, "interrupted in the queue (SIG%s)",
				  sigabbrev_np(sig));
			goto fail;
		}
	}
	/* Admitted: the slot is ours; leaving the queue (closing qfd, at
	 * the end of this function) lets the next one be the head. */
	close_all(slots, q->ceiling, k);
	a->slot_fd = slots[k];
	q->slot = k;
	q->admitted_ns = ward_now_ns();
	q->waited_ms = (q->admitted_ns - q->ticket_ns) / NS_PER_MS;
	a->exit_code = 0;
	return 0;
fail:
	close_all(slots, q->ceiling, -1);
	return -1;
}

void ward_admission_release(struct ward_admission *a)
{
	if (a->slot_fd >= 0)
		close(a->slot_fd);
	a->slot_fd = -1;
}
