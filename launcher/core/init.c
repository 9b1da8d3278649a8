/* SPDX-License-Identifier: MIT */
/*
 * init.c: PID 1 of the sandbox, and the target it forks.
 *
 * init applies the whole sandbox to itself (mounts, identity, capabilities,
 * no_new_privs), so that the target inherits it through fork and init
 * holds nothing worth reaching; then it forks the target, reaps every
 * zombie, forwards SIGTERM/SIGINT/SIGHUP, and reports the target's status
 * to the supervisor. When init exits, the kernel kills whatever is left in
 * the pid namespace.
 *
 * init was made by a raw clone3(): glibc's idea of its thread id is the
 * supervisor's, so nothing here calls raise(), abort() or pthread_*;
 * every exit is _exit(), so no atexit handler (nor a sanitizer's leak
 * check) runs in the sandbox.
 */
#include "cmdline.h"
#include "exec.h"
#include "exitcode.h"
#include "fdpass.h"
#include "hardening.h"
#include "landlock.h"
#include "launch.h"
#include "memfd.h"
#include "mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

void ward_msg_send(int fd, uint32_t kind, int32_t code, const char *text)
{
	struct ward_msg m = {.kind = kind, .code = code};
	ssize_t n;

	if (text)
		snprintf(m.text, sizeof(m.text), "%s", text);
	do
		n = write(fd, &m, sizeof(m));
	while (n < 0 && errno == EINTR);
}

void ward_msg_send_raw(int fd, uint32_t kind, const void *data, size_t len)
{
	struct ward_msg m = {.kind = kind};
	ssize_t n;

	memcpy(m.text, data, len < sizeof(m.text) ? len : sizeof(m.text));
	do
		n = write(fd, &m, sizeof(m));
	while (n < 0 && errno == EINTR);
}

static _Noreturn void fail(const struct ward_launch *l, const ward_err *err)
{
	ward_msg_send(l->msg_wr, WARD_MSG_SETUP_FAILED, err->code, err->msg);
	_exit(WARD_EXIT_REFUSED);
}

/* Die with the supervisor. PR_SET_PDEATHSIG alone has a window (the
 * supervisor may already be gone when it is set) and is cleared by every
 * credential change, so it is set again after each, and then the lifeline
 * is checked: the supervisor holds the write end of sync_rd open for its
 * whole life, so a hang-up there means it is gone. (getppid() cannot tell:
 * it is 0 in a new pid namespace.) */
static int tie_to_supervisor(const struct ward_launch *l, ward_err *err)
{
	struct pollfd pfd = {.fd = l->sync_rd, .events = POLLIN};

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return ward_fail(err, errno, "prctl PR_SET_PDEATHSIG");
	if (poll(&pfd, 1, 0) < 0)
		return ward_fail(err, errno, "poll the lifeline");
	if (pfd.revents & (POLLHUP | POLLERR))
		_exit(WARD_EXIT_REFUSED); /* nobody to report to */
	return 0;
}

/* Wait for the supervisor's byte: the first says that our id maps are
 * written, the second that the target may start (the courier and the
 * broker are ready: they got so during this setup). */
static void wait_for_go(const struct ward_launch *l)
{
	char go;
	ssize_t n;

	do
		n = read(l->sync_rd, &go, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(WARD_EXIT_REFUSED); /* the supervisor gave up or died */
}

static int setup_stdio(const struct ward_launch *l, ward_err *err)
{
	for (int i = 0; i < 3; i++)
		if (l->stdio[i] != i && dup2(l->stdio[i], i) < 0)
			return ward_fail(err, errno, "dup2 %d", i);
	return 0;
}

/* The backstop (docs/spec.md 3.4): a timer of init's own, at wall + grace
 * + WARD_BACKSTOP_MARGIN_MS from the start byte, when the supervisor's wall
 * timer started. The supervisor ends every run long before it fires;
 * it is for a supervisor that cannot act any more (stopped by SIGSTOP,
 * stuck, starved): init's exit then ends the sandbox all the same, since
 * the kernel kills every process of the pid namespace with its init. Seed
 * 004: two layers of insurance, the second independent of the first.
 * SIGALRM is blocked until the reaping loop takes it with sigwaitinfo (as
 * PID 1, init would ignore it anyway: it has no handler). */
static void arm_backstop(const struct ward_limits *lim)
{
	uint64_t ms = lim->value[WARD_LIM_WALL] + WARD_BACKSTOP_MARGIN_MS;
	struct itimerval it = {0};
	sigset_t alrm;

	if (!ward_limit_is_set(lim, WARD_LIM_WALL))
		return;
	if (ward_limit_is_set(lim, WARD_LIM_GRACE))
		ms += lim->value[WARD_LIM_GRACE];
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, NULL);
	it.it_value.tv_sec = (time_t)(ms / 1000);
	it.it_value.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	setitimer(ITIMER_REAL, &it, NULL);
}

/* The backstop fired: say so without waiting for a supervisor that may be
 * stopped (the pipe has room for it, and O_NONBLOCK makes sure), then go,
 * and the namespace with init. */
static _Noreturn void backstop(const struct ward_launch *l)
{
	const struct ward_limits *lim = &l->policy->limits;
	uint64_t ms =
	    lim->value[WARD_LIM_WALL] + WARD_BACKSTOP_MARGIN_MS +
	    (ward_limit_is_set(lim, WARD_LIM_GRACE) ? lim->value[WARD_LIM_GRACE]
						    : 0);
	int fl = fcntl(l->msg_wr, F_GETFL);

	if (fl >= 0)
		fcntl(l->msg_wr, F_SETFL, fl | O_NONBLOCK);
	ward_msg_send(l->msg_wr, WARD_MSG_BACKSTOP,
		      ms > INT32_MAX ? INT32_MAX : (int32_t)ms, NULL);
	_exit(WARD_EXIT_SIGNAL_BASE + SIGKILL);
}

/* Set by init's setup, read by the target (which runs in init's memory):
 * the seccomp guard it adds when memfds could not be made non-executable
 * by the kernel's own setting (memfd.c); the Landlock ABI applied. */
static int memfd_guard, landlock_abi;

static void mounts_freep(struct ward_mounts **m)
{
	ward_mounts_free(*m);
}

static int dns_stub_fd = -1; /* with names: handed on with the listener */

/* Everything init does to itself, in order (docs/spec.md part 3). */
static int setup(const struct ward_launch *l, ward_err *err)
{
	const struct ward_policy *p = l->policy;
	const int keep[] = {l->sync_rd, l->msg_wr, l->notify_wr, l->hand_wr};
	const char *host =
	    p->identity.hostname[0] ? p->identity.hostname : "ward";
	__attribute__((cleanup(mounts_freep))) struct ward_mounts *mnts = NULL;
	struct ward_userns_limits nslim = {0};

	if (tie_to_supervisor(l, err) < 0 || setup_stdio(l, err) < 0 ||
	    ward_close_fds_except(keep, ARRAY_LEN(keep), err) < 0)
		return -1;
	if (setsid() < 0)
		return ward_fail(err, errno, "setsid");
	umask(0);
	/* What needs no id map is done while the supervisor writes them:
	 * capabilities in the new user namespace are there from the start. */
	if (ward_forbid_userns("/proc/sys", err) < 0)
		return -1;
	/* Before the credentials change: the setting is host root's. */
	memfd_guard = ward_memfd_noexec("/proc/sys", p->exec, err);
	if (memfd_guard < 0)
		return -1;
	wait_for_go(l);
	/* Sources are opened with the caller's rights (in root mode, host
	 * root's), before any mount changes what a path means -- and after
	 * the maps: until they exist no host uid is mapped, so capabilities
	 * in the new namespace override no permission, and a slot under a
	 * 0700 directory of the sandbox's host uid would open or not
	 * depending on a race with the supervisor. */
	mnts = ward_mounts_open(l, err);
	if (!mnts)
		return -1;
	/* The supervisor has put init into its v1 cgroups by now: a new
	 * cgroup namespace roots them (and the v2 one) at the run's own, so
	 * /proc/self/cgroup names no host path. */
	if (unshare(CLONE_NEWCGROUP) < 0)
		return ward_fail(err, errno, "unshare CLONE_NEWCGROUP");
	/* While the host's /proc is there; written once the mount table is
	 * built (hardening.h). */
	if (ward_userns_limits_open(&nslim, "/proc/sys", &p->limits, err) < 0)
		return -1;
	/* Only now: the supervisor could not have written the maps of a
	 * non-dumpable process (its /proc files belong to root). */
	if (prctl(PR_SET_DUMPABLE, 0) < 0)
		return ward_fail(err, errno, "prctl PR_SET_DUMPABLE");
	/* The sandbox user owns what the mount table creates; init keeps
	 * its capabilities in the new user namespace through this change
	 * (the namespace's uid 0 is not the caller's). */
	if (ward_set_identity(&p->identity, err) < 0 ||
	    ward_mounts_build(mnts, err) < 0 ||
	    ward_userns_limits_apply(&nslim, err) < 0)
		return -1;
	if (sethostname(host, strlen(host)) < 0)
		return ward_fail(err, errno, "sethostname %s", host);
	/* Every run has a network namespace of its own; what leaves it goes
	 * through the broker (docs/spec.md part 5). */
	if (ward_loopback_up(err) < 0 ||
	    (p->net.nnames && l->notify_wr >= 0 &&
	     (dns_stub_fd = ward_dns_stub_socket(err)) < 0) ||
	    ward_drop_caps(p->identity.caps_keep, err) < 0 ||
	    ward_no_new_privs(err) < 0)
		return -1;
	/* The file layer again, from inside: after pivot_root (the rules'
	 * paths are the sandbox's) and no_new_privs (which Landlock needs
	 * without CAP_SYS_ADMIN), last before the target's seccomp filter. */
	if (ward_landlock_apply(&p->landlock, &landlock_abi, err) < 0)
		return -1;
	/* The credential changes reset both of these. */
	if (prctl(PR_SET_DUMPABLE, 0) < 0)
		return ward_fail(err, errno, "prctl PR_SET_DUMPABLE");
	return tie_to_supervisor(l, err);
}

static _Noreturn void exec_failed(const struct ward_launch *l,
				  const ward_err *err)
{
	ward_msg_send(l->msg_wr, WARD_MSG_EXEC_FAILED, err->code, err->msg);
	_exit(err->code == ENOENT ? WARD_EXIT_NOT_FOUND
				  : WARD_EXIT_CANNOT_EXEC);
}

/* The seccomp listener's descriptor and the target's credentials, written
 * by the target (which runs in init's memory) and read by init once the
 * target has exec'd. */
static volatile int listener_fd = -1;
static struct ward_measured measured;
static volatile bool have_measured;
/* The program file, opened by the target a moment before its execve of
 * the same path, in the same mount namespace, while no other process of
 * the sandbox exists (init waits in vfork): the courier digests what the
 * kernel was asked to run (docs/spec.md 4.2). */
static volatile int program_fd = -1;
static volatile int program_errno;
static char program_path[PATH_MAX];

/* The target: what is per process, then seccomp, then execve. It runs in
 * init's memory (see spawn_target): no allocation, nothing written but its
 * own stack, listener_fd and the program_* statics. */
static _Noreturn void target_main(const struct ward_launch *l)
{
	const struct ward_policy *p = l->policy;
	struct ward_measured id;
	char path[PATH_MAX];
	ward_err err = {0};

	ward_reset_signals();
	/* Close-on-exec rather than closed: msg_wr must stay open until the
	 * execve succeeds, to report its failure. */
	if (close_range(3, ~0u, CLOSE_RANGE_CLOEXEC) < 0) {
		ward_fail(&err, errno, "close_range");
		fail(l, &err);
	}
	/* As the sandbox user, so that its permissions decide. */
	if (chdir(p->identity.workdir) < 0) {
		ward_fail(&err, errno, "chdir %s", p->identity.workdir);
		fail(l, &err);
	}
	if (ward_find_program(l->argv[0], ward_env_get(l->envp, "PATH"), path,
			      sizeof(path), &err) < 0)
		exec_failed(l, &err);
	memcpy(program_path, path, sizeof(path));
	program_fd =
	    open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0);
	program_errno = program_fd < 0 ? errno : 0;
	if (ward_set_rlimits(&p->limits, &err) < 0 ||
	    ward_memfd_guard_install(memfd_guard, &err) < 0)
		fail(l, &err);
	umask(l->umask);
	ward_measure_self(&id);
	id.landlock = landlock_abi;
	/* Last: the filter need not allow anything of the setup. */
	if (l->notify_wr >= 0) {
		int fd = -1;

		/* The listener lands in the descriptor table the target
		 * still shares with init (CLONE_FILES); execve gives the
		 * target a copy without it (it is close-on-exec). */
		if (ward_install_seccomp(&p->seccomp, &fd, &err) < 0)
			fail(l, &err);
		listener_fd = fd;
	} else if (ward_install_seccomp(&p->seccomp, NULL, &err) < 0) {
		fail(l, &err);
	}
	/* The credentials execve will keep, as the kernel holds them now
	 * (no system call after the filter: it may refuse them). */
	measured = id;
	measured.seccomp = 2;
	have_measured = true;
	execve(path, l->argv, l->envp);
	if (errno == ENOENT)
		ward_fail(&err, errno,
			  "%s: not found inside the sandbox (or the "
			  "interpreter its #! line names)",
			  path);
	else
		ward_fail(&err, errno, "%s", path);
	exec_failed(l, &err);
}

/* Reap everything; forward the catchable termination signals to every
 * process of the sandbox; report the target's status when it ends. */
static _Noreturn void reap(const struct ward_launch *l, pid_t target,
			   const sigset_t *set)
{
	for (;;) {
		siginfo_t si;
		int status;
		pid_t pid;

		if (sigwaitinfo(set, &si) < 0)
			continue;
		if (si.si_signo == SIGALRM)
			backstop(l);
		/* The whole group, not the target alone: its children and
		 * their orphans get the same chance to end cleanly (kill -1
		 * from PID 1 reaches every other process of the pid
		 * namespace). */
		if (si.si_signo != SIGCHLD) {
			kill(-1, si.si_signo);
			continue;
		}
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			if (pid != target)
				continue;
			ward_msg_send(l->msg_wr, WARD_MSG_TARGET_STATUS, status,
				      NULL);
			/* No child at all (of any kind, __WALL): every other
			 * process of the namespace would be one, orphans
			 * being init's. The supervisor may then start on
			 * what comes after the sandbox while the kernel
			 * takes the namespaces down. */
			if (waitid(P_ALL, 0, &si,
				   WEXITED | WNOHANG | WNOWAIT | __WALL) < 0 &&
			    errno == ECHILD)
				ward_msg_send(l->msg_wr, WARD_MSG_ALONE, 0,
					      NULL);
			_exit(WIFEXITED(status)
				  ? WEXITSTATUS(status)
				  : WARD_EXIT_SIGNAL_BASE + WTERMSIG(status));
		}
	}
}

static int target_entry(void *arg)
{
	target_main(arg);
}

/* Spawned as posix_spawn does: sharing init's memory (CLONE_VM) while init
 * waits (CLONE_VFORK) until the target has exec'd or died, on a stack of
 * its own; init's pages are not copied for a process about to exec. Its
 * signal dispositions, rlimits, umask and seccomp filter are its own (no
 * CLONE_SIGHAND, CLONE_THREAD, CLONE_FS). The descriptor table is shared
 * until the execve (CLONE_FILES), so that the program file and the
 * seccomp listener the target opens stay with init; execve gives the
 * target a copy without them (they are close-on-exec). */
static pid_t spawn_target(const struct ward_launch *l)
{
	const size_t size = 256 * 1024;
	char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	if (stack == MAP_FAILED)
		return -1;
	return clone(target_entry, stack + size,
		     CLONE_VM | CLONE_VFORK | CLONE_FILES | SIGCHLD, (void *)l);
}

/* Hand the target's seccomp listener to the supervisor, and keep no copy:
 * if the supervisor is gone, a kill rule's call fails (ENOSYS) and init
 * dies with it anyway (PR_SET_PDEATHSIG). */
static void pass_listener(const struct ward_launch *l)
{
	int fd = listener_fd;

	if (l->notify_wr < 0)
		return;
	if (fd >= 0) {
		ward_send_fd(l->notify_wr, fd);
		close(fd);
		/* The DNS stub's socket follows the listener: the broker
		 * serves it, init keeps no copy. */
		if (dns_stub_fd >= 0)
			ward_send_fd(l->notify_wr, dns_stub_fd);
	}
	if (dns_stub_fd >= 0)
		close(dns_stub_fd);
	close(l->notify_wr);
}

/* Hand the courier the program file, the last thing on its socket. */
static void pass_program(const struct ward_launch *l)
{
	struct ward_hand_program msg = {
	    {WARD_HAND_PROGRAM, (uint32_t)program_errno}, {0}};
	int fd = program_fd;

	if (l->hand_wr < 0)
		return;
	memcpy(msg.path, program_path, sizeof(msg.path));
	(void)ward_send_msg(l->hand_wr, &msg,
			    sizeof(msg.m) + strnlen(msg.path, PATH_MAX - 1) + 1,
			    fd);
	if (fd >= 0)
		close(fd);
	close(l->hand_wr);
}

_Noreturn void ward_init_main(const struct ward_launch *given)
{
	struct ward_launch own = *given;
	const struct ward_launch *l = &own;
	ward_err err = {0};
	sigset_t set;
	pid_t target;

	/* First of all, before the sandbox can read /proc/1/cmdline: init
	 * keeps copies of what it needs from ward's command line and
	 * forgets the rest (cmdline.c). */
	if (ward_forget_cmdline(&own, "/proc", &err) < 0 || setup(l, &err) < 0)
		fail(l, &err);
	/* The target starts with the supervisor's wall timer. */
	wait_for_go(l);
	arm_backstop(&l->policy->limits);
	/* Blocked before the fork, so no signal is lost in between; the
	 * target unblocks them. */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGALRM); /* the backstop */
	sigprocmask(SIG_BLOCK, &set, NULL);
	target = spawn_target(l);
	if (target < 0) {
		ward_fail(&err, errno, "spawn the target");
		fail(l, &err);
	}
	pass_listener(l);
	pass_program(l);
	if (have_measured)
		ward_msg_send_raw(l->msg_wr, WARD_MSG_IDENTITY, &measured,
				  sizeof(measured));
	close(l->sync_rd);
	reap(l, target, &set);
}
