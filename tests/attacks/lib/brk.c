/* SPDX-License-Identifier: MIT */
/*
 * brk: the attacks on the socket broker and the notification handler
 * (tests/attacks/net/broker-*.sh, tests/attacks/resources/broker-*.sh).
 * Statically linked: it runs from the input slot inside the sandbox, and
 * outside as the control. One line per result, "WHAT RESULT".
 *
 *   toctou GOOD PORT EVIL PORT SECS  connect from a sockaddr that a second
 *                                    thread flips between GOOD and EVIL:
 *                                    "toctou good G evil E refused R"
 *   families GOOD PORT EVIL PORT     sockets of other families, connects
 *                                    with other families' addresses, and
 *                                    a connected socket disconnected
 *                                    (AF_UNSPEC) then aimed at EVIL
 *   sendmmsg GOOD PORT EVIL PORT     datagrams and a TCP Fast Open to EVIL
 *                                    through sendmmsg, with addresses the
 *                                    filter cannot read
 *   iouring GOOD PORT EVIL PORT      a connected socket disconnected and
 *                                    connected to EVIL by io_uring, and a
 *                                    socket io_uring makes itself
 *   pending ADDR PORT N SECS         N threads in a blocking connect to
 *                                    ADDR (which never answers): how many
 *                                    failed at once, and how, after SECS,
 *                                    and the descriptors this process has
 *   flood SECS THREADS               refused calls (reboot) as fast as
 *                                    THREADS threads can: "flood N in SECS"
 *   distinct FIRST LAST              one call each of the syscall numbers
 *                                    FIRST..LAST (numbers no kernel
 *                                    implements): "distinct N ENOSYS"
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <linux/io_uring.h>
#include <linux/reboot.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char *ename(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

static void say(const char *what, long rc)
{
	printf("%s %s\n", what, rc < 0 ? ename(errno) : "ok");
	fflush(stdout);
}

static struct sockaddr_in in4(const char *a, int port)
{
	struct sockaddr_in s = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)port)};

	if (inet_pton(AF_INET, a, &s.sin_addr) != 1) {
		fprintf(stderr, "brk: bad address %s\n", a);
		exit(2);
	}
	return s;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void timeout(int fd, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/* ------------------------------------------------------------ toctou */

static struct sockaddr_in shared, good, evil;
static atomic_bool stop;

static void *flip(void *arg)
{
	volatile struct sockaddr_in *s = &shared;

	(void)arg;
	while (!atomic_load(&stop)) {
		s->sin_addr = good.sin_addr;
		s->sin_port = good.sin_port;
		s->sin_addr = evil.sin_addr;
		s->sin_port = evil.sin_port;
	}
	return NULL;
}

static int toctou(int secs)
{
	unsigned ngood = 0, nevil = 0, refused = 0, other = 0;
	double end = now() + secs;
	pthread_t t;

	shared = good;
	pthread_create(&t, NULL, flip, NULL);
	while (now() < end) {
		struct sockaddr_in peer;
		socklen_t l = sizeof(peer);
		int s = socket(AF_INET, SOCK_STREAM, 0);

		if (s < 0)
			break;
		timeout(s, 1000);
		memset(&peer, 0, sizeof(peer));
		if (connect(s, (struct sockaddr *)&shared, sizeof(shared)) < 0)
			refused++;
		else if (getpeername(s, (struct sockaddr *)&peer, &l) < 0)
			other++;
		else if (peer.sin_addr.s_addr == evil.sin_addr.s_addr)
			nevil++;
		else if (peer.sin_addr.s_addr == good.sin_addr.s_addr)
			ngood++;
		else
			other++;
		close(s);
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	printf("toctou good %u evil %u refused %u other %u\n", ngood, nevil,
	       refused, other);
	return 0;
}

/* ------------------------------------------------------------ families */

static int families(void)
{
	struct sockaddr_un un = {.sun_family = AF_UNIX, .sun_path = "/x"};
	struct sockaddr none = {.sa_family = AF_UNSPEC};
	struct {
		const char *what;
		int domain, type, proto;
	} socks[] = {
	    {"socket-netlink", AF_NETLINK, SOCK_RAW, 0},
	    {"socket-packet", AF_PACKET, SOCK_RAW, htons(0x0003)},
	    {"socket-raw", AF_INET, SOCK_RAW, IPPROTO_ICMP},
	    {"socket-ping", AF_INET, SOCK_DGRAM, IPPROTO_ICMP},
	};
	struct sockaddr_storage odd;
	int s;

	for (size_t i = 0; i < sizeof(socks) / sizeof(socks[0]); i++) {
		s = socket(socks[i].domain, socks[i].type, socks[i].proto);
		say(socks[i].what, s);
		if (s >= 0)
			close(s);
	}
	/* An IP socket aimed with the address of another family. */
	s = socket(AF_INET, SOCK_STREAM, 0);
	say("connect-unix-address",
	    connect(s, (struct sockaddr *)&un, sizeof(un)));
	close(s);
	memset(&odd, 0x7f, sizeof(odd));
	((struct sockaddr *)&odd)->sa_family = AF_PACKET;
	s = socket(AF_INET, SOCK_STREAM, 0);
	say("connect-packet-address",
	    connect(s, (struct sockaddr *)&odd, sizeof(odd)));
	close(s);
	((struct sockaddr *)&odd)->sa_family = 9999;
	s = socket(AF_INET, SOCK_STREAM, 0);
	say("connect-unknown-family",
	    connect(s, (struct sockaddr *)&odd, sizeof(odd)));
	close(s);
	/* A connection made, then disconnected and aimed elsewhere. */
	s = socket(AF_INET, SOCK_STREAM, 0);
	timeout(s, 2000);
	say("connect-good", connect(s, (struct sockaddr *)&good, sizeof(good)));
	say("disconnect", connect(s, &none, sizeof(none)));
	say("connect-evil", connect(s, (struct sockaddr *)&evil, sizeof(evil)));
	close(s);
	return 0;
}

/* ------------------------------------------------------------ sendmmsg */

static long mmsg(int s, const struct sockaddr_in *to, int flags)
{
	struct iovec iov = {(void *)"x", 1};
	struct mmsghdr m[2];

	memset(m, 0, sizeof(m));
	for (int i = 0; i < 2; i++) {
		m[i].msg_hdr.msg_name = (void *)to;
		m[i].msg_hdr.msg_namelen = sizeof(*to);
		m[i].msg_hdr.msg_iov = &iov;
		m[i].msg_hdr.msg_iovlen = 1;
	}
	return sendmmsg(s, m, 2, flags);
}

static int sendmmsg_attack(void)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	say("udp-unconnected", mmsg(s, &evil, 0));
	close(s);
	/* A connected TCP socket (the broker's, inside) given an address:
	 * TCP ignores it, but for a Fast Open. */
	s = socket(AF_INET, SOCK_STREAM, 0);
	timeout(s, 2000);
	say("tcp-connect-good",
	    connect(s, (struct sockaddr *)&good, sizeof(good)));
	say("tcp-with-address", mmsg(s, &evil, 0));
	close(s);
	s = socket(AF_INET, SOCK_STREAM, 0);
	say("tcp-fastopen", mmsg(s, &evil, MSG_FASTOPEN));
	close(s);
	return 0;
}

/* ------------------------------------------------------------ io_uring */

struct ring {
	int fd;
	unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int ring_init(struct ring *r)
{
	struct io_uring_params p;
	uint8_t *sq, *cq;

	memset(&p, 0, sizeof(p));
	r->fd = (int)syscall(SYS_io_uring_setup, 4, &p);
	if (r->fd < 0)
		return -1;
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		  IORING_OFF_SQ_RING);
	cq = mmap(NULL,
		  p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		  IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		       IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -1;
	r->sq_tail = (unsigned *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned *)(sq + p.sq_off.array);
	r->cq_head = (unsigned *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

/* One operation, waited for: its result (a negative errno, or >= 0). */
static int ring_op(struct ring *r, const struct io_uring_sqe *op)
{
	unsigned tail = *r->sq_tail, idx = tail & *r->sq_mask, head;
	int res;

	r->sqes[idx] = *op;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) < 0)
		return -errno;
	head = *r->cq_head;
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -EAGAIN;
	res = r->cqes[head & *r->cq_mask].res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

static void say_res(const char *what, int res)
{
	printf("%s %s\n", what, res < 0 ? ename(-res) : "ok");
	fflush(stdout);
}

static int iouring(void)
{
	struct sockaddr none = {.sa_family = AF_UNSPEC};
	struct io_uring_sqe op;
	struct ring r;
	int s, res;

	if (ring_init(&r) < 0) {
		say("io_uring_setup", -1);
		return 0;
	}
	say("io_uring_setup", 0);
	s = socket(AF_INET, SOCK_STREAM, 0);
	timeout(s, 2000);
	say("connect-good", connect(s, (struct sockaddr *)&good, sizeof(good)));
	memset(&op, 0, sizeof(op));
	op.opcode = IORING_OP_CONNECT;
	op.fd = s;
	op.addr = (uint64_t)(uintptr_t)&none;
	op.off = sizeof(none);
	say_res("uring-disconnect", ring_op(&r, &op));
	op.addr = (uint64_t)(uintptr_t)&evil;
	op.off = sizeof(evil);
	say_res("uring-connect-evil", ring_op(&r, &op));
	close(s);
	/* A socket of io_uring's own (Linux 5.19): the sandbox's namespace. */
	memset(&op, 0, sizeof(op));
	op.opcode = IORING_OP_SOCKET;
	op.fd = AF_INET;
	op.off = SOCK_STREAM;
	res = ring_op(&r, &op);
	say_res("uring-socket", res);
	if (res >= 0) {
		memset(&op, 0, sizeof(op));
		op.opcode = IORING_OP_CONNECT;
		op.fd = res;
		op.addr = (uint64_t)(uintptr_t)&evil;
		op.off = sizeof(evil);
		say_res("uring-socket-connect-evil", ring_op(&r, &op));
	}
	return 0;
}

/* ------------------------------------------------------------ pending */

static struct sockaddr_in target;
static atomic_int n_eagain, n_other, n_ok;

static void *hang(void *arg)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);

	(void)arg;
	if (s < 0 ||
	    connect(s, (struct sockaddr *)&target, sizeof(target)) == 0)
		atomic_fetch_add(s < 0 ? &n_other : &n_ok, 1);
	else
		atomic_fetch_add(errno == EAGAIN ? &n_eagain : &n_other, 1);
	pause(); /* keep the socket */
	return NULL;
}

/* The descriptors this process has. */
static int fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n - 2; /* . and .. */
}

static int pending(int n, int secs)
{
	for (int i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, hang, NULL) != 0)
			break;
	}
	sleep((unsigned)secs);
	printf("pending threads %d eagain %d other %d connected %d fds %d\n", n,
	       atomic_load(&n_eagain), atomic_load(&n_other),
	       atomic_load(&n_ok), fds());
	fflush(stdout);
	_exit(0);
}

/* ------------------------------------------------------------ flood */

static atomic_long calls;
static double flood_end;

static void *flood_one(void *arg)
{
	(void)arg;
	while (now() < flood_end) {
		/* An invalid magic: refused (EINVAL or EPERM) whoever asks. */
		syscall(SYS_reboot, 0, 0, 0x1234567, NULL);
		atomic_fetch_add(&calls, 1);
	}
	return NULL;
}

static int flood(int secs, int threads)
{
	pthread_t t[64];
	double t0 = now();
	int n = threads > 64 ? 64 : threads;

	flood_end = t0 + secs;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, flood_one, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("flood %ld in %.1f\n", atomic_load(&calls), now() - t0);
	return 0;
}

static int distinct(long first, long last)
{
	int enosys = 0, n = 0;

	for (long nr = first; nr <= last; nr++, n++)
		if (syscall(nr, 0, 0, 0, 0, 0, 0) < 0 && errno == ENOSYS)
			enosys++;
	printf("distinct %d ENOSYS %d\n", n, enosys);
	return 0;
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 6 && strcmp(c, "pending") && strcmp(c, "distinct")) {
		good = in4(argv[2], atoi(argv[3]));
		evil = in4(argv[4], atoi(argv[5]));
	}
	if (!strcmp(c, "toctou") && argc == 7)
		return toctou(atoi(argv[6]));
	if (!strcmp(c, "families") && argc == 6)
		return families();
	if (!strcmp(c, "sendmmsg") && argc == 6)
		return sendmmsg_attack();
	if (!strcmp(c, "iouring") && argc == 6)
		return iouring();
	if (!strcmp(c, "pending") && argc == 6) {
		target = in4(argv[2], atoi(argv[3]));
		return pending(atoi(argv[4]), atoi(argv[5]));
	}
	if (!strcmp(c, "flood") && argc == 4)
		return flood(atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(c, "distinct") && argc == 4)
		return distinct(atol(argv[2]), atol(argv[3]));
	fprintf(stderr, "brk: bad command\n");
	return 2;
}
