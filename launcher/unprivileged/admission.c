/* SPDX-License-Identifier: MIT */
/*
 * admission.c: see admission.h.
 */
#include "admission.h"

#include "syscalls_base.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define NS_PER_MS 1000000u
/* Why root's holder may not read a queue of root's. */
#define ROOT_READS                                                             \
	" (root's runs wait as their run's ids: a queue they use must be "     \
	"readable by all, 0755 and its files 0644)"

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

int ward_queue_config(struct ward_queue *q, const char *max_sandboxes,
		      const char *queue_timeout, const char *queue_dir,
		      bool root, ward_err *err)
{
	const char *env_max = getenv("WARD_MAX_SANDBOXES");
	const char *env_to = getenv("WARD_QUEUE_TIMEOUT");

	memset(q, 0, sizeof(*q));
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
		if (!ward_queue_path_ok(queue_dir))
			return ward_fail(err, 0,
					 "--queue-dir %s: not an absolute "
					 "path of at most %d bytes",
					 queue_dir, WARD_QUEUE_PATH - 33);
		snprintf(q->dir, sizeof(q->dir), "%s", queue_dir);
	} else if (root) {
		snprintf(q->dir, sizeof(q->dir), "%s", WARD_ADMIT_DIR);
	}
	/* Rootless without --queue-dir: chosen by ward_queue_take. */
	return 0;
}

/* ---------------------------------------------------------------- the files */

/* The queue's directory: root's (or, rootless, the caller's), a real
 * directory that no one else can write (nobody could swap a file in it
 * for a FIFO, nor remove the locks' files). create: make it when it is
 * missing (rootless; root's holder finds root's made by the supervisor). */
static int open_queue(const char *path, bool root, bool create, ward_err *err)
{
	struct stat st;
	int fd;

	if (create && ward_queue_ensure(path, root, err) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return ward_fail(err, errno, "open the queue %s%s", path,
				 root && errno == EACCES ? ROOT_READS : "");
	/* Root mode: root's own, never one of the run's ids (which a run
	 * before may have made). */
	if (fstat(fd, &st) < 0 ||
	    (st.st_uid != 0 && (root || st.st_uid != geteuid())) ||
	    (st.st_mode & 022)) {
		close(fd);
		return ward_fail(err, 0,
				 "the queue %s must be a directory of root's "
				 "or yours that nobody else can write",
				 path);
	}
	return fd;
}

/* Rootless without --queue-dir: the host's queue when root made one that
 * we may read (so root's and our runs count against one ceiling), else a
 * queue of our own beside our workspaces (own_base). */
static int choose_queue(struct ward_queue *q, bool root, const char *own_base,
			ward_err *err)
{
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
	if ((size_t)snprintf(q->dir, sizeof(q->dir), "%s/admission",
			     own_base) >= sizeof(q->dir))
		return ward_fail(err, ENAMETOOLONG, "the queue in %s",
				 own_base);
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

/* One record to the supervisor. */
static bool tell(int sock, uint32_t kind, const struct ward_queue *q,
		 const ward_err *err)
{
	static struct ward_admit_answer a;
	ssize_t n;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	a.q = *q;
	if (err)
		ward_err_str(err, a.text, sizeof(a.text));
	do
		n = write(sock, &a, sizeof(a));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(a);
}

/* Until wake_fd stirs or ms passed (at most the next poll of the queue).
 * The queue is polled, every 1 ms at first, doubling to every 16 ms: an
 * inotify watch on the directory would wake a waiter sooner, but closing
 * an inotify instance waits for an SRCU grace period (fsnotify's mark
 * reaper: 10 ms and more here), which every run, waiting or not, would
 * pay. Returns true when wake_fd stirred. */
static bool wait_a_while(int wake_fd, uint64_t ms, unsigned *step)
{
	struct pollfd pfd = {wake_fd, POLLIN, 0};
	uint64_t cap = *step;

	if (*step < 16)
		*step *= 2;
	return poll(&pfd, 1, (int)(ms < cap ? ms : cap)) > 0 && pfd.revents;
}

static void close_all(int *fds, unsigned n, int keep)
{
	for (unsigned k = 0; k < n; k++)
		if (fds[k] >= 0 && (int)k != keep)
			close(fds[k]);
}

int ward_queue_take(struct ward_queue *q, bool root, const char *own_base,
		    int wake_fd, ward_err *err)
{
	_cleanup_close_ int dfd = -1, qfd = -1;
	int slots[WARD_ADMIT_MAX];
	bool opened = false;
	uint64_t deadline;
	int k = -1;
	unsigned step = 1;

	for (unsigned i = 0; i < WARD_ADMIT_MAX; i++)
		slots[i] = -1;
	if (q->ceiling < 1 || q->ceiling > WARD_ADMIT_MAX)
		return ward_fail(err, 0, "a ceiling of %u", q->ceiling);
	if ((dfd = choose_queue(q, root, own_base, err)) < 0)
		return -1;
	qfd =
	    openat(dfd, "queue", O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (qfd < 0)
		return ward_fail(err, errno, "open %s/queue%s", q->dir,
				 root && errno == EACCES ? ROOT_READS : "");
	if (join(qfd, &q->ticket_ns, err) < 0)
		return -1;
	/* In line: the supervisor knows where, should a signal end the
	 * wait before the answer. */
	if (wake_fd >= 0)
		tell(wake_fd, WARD_ADMIT_JOINED, q, NULL);
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
			ward_fail(err, 0,
				  "queue timeout: no sandbox slot within %llu "
				  "ms; the queue %s lets %u sandboxes run at "
				  "once (--max-sandboxes, --queue-timeout)",
				  (unsigned long long)q->timeout_ms, q->dir,
				  q->ceiling);
			goto fail;
		}
		if (wait_a_while(wake_fd,
				 (deadline - now + NS_PER_MS - 1) / NS_PER_MS,
				 &step)) {
			ward_fail(err, 0, "the wait in the queue was ended");
			goto fail;
		}
	}
	/* Admitted: the slot is ours; leaving the queue (closing qfd, at
	 * the end of this function) lets the next one be the head. */
	close_all(slots, q->ceiling, k);
	q->slot = k;
	q->admitted_ns = ward_now_ns();
	q->waited_ms = (q->admitted_ns - q->ticket_ns) / NS_PER_MS;
	return slots[k];
fail:
	close_all(slots, q->ceiling, -1);
	return -1;
}

/* ------------------------------------------------------------ the holder */

const int ward_holder_syscalls[] = {
    WARD_SYSCALLS_BASE, SYS_flock, /* the slots */
    SYS_faccessat,		   /* is a directory of ours filled (queue.c) */
    SYS_faccessat2,		   /* (glibc tries it first) */
    SYS_mkdirat, /* a rootless caller's own queue, made whole */
    SYS_unlinkat,	SYS_renameat2, SYS_fchmod,
#ifdef SYS_poll /* x86_64; aarch64 has only ppoll */
    SYS_poll,		SYS_mkdir,     SYS_rmdir,
#endif
};
const size_t ward_holder_nsyscalls = ARRAY_LEN(ward_holder_syscalls);

int ward_admission_hold(const struct ward_admit_args *args, int sock)
{
	struct ward_queue q;
	struct pollfd pfd = {sock, POLLIN, 0};
	ward_err err = {0};
	int slot = -1;

	if (ward_queue_config(&q, args->max_sandboxes, args->queue_timeout,
			      args->queue_dir, args->root, &err) == 0)
		slot = q.used ? ward_queue_take(&q, args->root, args->own_base,
						sock, &err)
			      : 0;
	if (!tell(sock, slot >= 0 ? WARD_ADMIT_ADMITTED : WARD_ADMIT_REFUSED,
		  &q, slot >= 0 ? NULL : &err) ||
	    slot < 0 || !q.used)
		return slot < 0;
	/* Held until the supervisor says the sandbox is gone: it kills us,
	 * or it ended (its end of sock closes) and so did its run. */
	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
	return 0;
}
