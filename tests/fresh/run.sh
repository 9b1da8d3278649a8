#!/bin/sh
# SPDX-License-Identifier: MIT
# The fresh-machine suite: the README's first command, `make deps demo`, on a
# Debian 12 that has never had the packages, in one invocation, as root.
#
#   1. A bare Debian 12 root: `debootstrap --variant=minbase --include=make
#      bookworm`, from the Debian mirror the host's apt uses (the URI of its
#      `bookworm` index target; WARD_FRESH_MIRROR overrides it). The base is
#      cached as a tarball in $WARD_FRESH_CACHE (default
#      /var/cache/ward-fresh), keyed by the day (UTC), the mirror and
#      CACHE_VERSION below, under a lock; older bases of ours are removed
#      when a new one is made. make is the only package added: a user who
#      runs the README as root needs nothing else (as a user, sudo too).
#   2. The host's apt sources for bookworm, bookworm-updates and
#      bookworm-security (same URIs and components), its proxy and
#      Check-Valid-Until/Check-Date settings, its /etc/resolv.conf and its
#      /etc/hosts (the root shares the host's hostname) are copied in; `git archive` of WARD_FRESH_REV (default HEAD) of the
#      repository this script lives in is unpacked at /root/ward. What is
#      tested is the commit, not the work tree.
#   3. The root is entered with a new mount namespace (private propagation)
#      and pivot_root, not chroot: the kernel refuses user namespaces to a
#      chrooted process, and ward would fail with "clone3 into new
#      namespaces: Operation not permitted". Not a new pid namespace: ward
#      names its run cgroups by pid and removes the empty ones whose pid is
#      not alive, so a ward in another pid namespace than the wards of the
#      host, in the same cgroup hierarchies, would remove theirs (and they
#      its) between mkdir and clone3 ("clone3 into new namespaces: No such
#      file or directory"). Inside:
#      a fresh proc and sysfs, the host's cgroup mounts bound read-write
#      (ward makes its cgroups below its own, as on the host), the host's
#      /dev, a tmpfs on /run; /tmp is the root's own directory, as on a
#      Debian 12 install. Then `cd /root/ward && make deps demo`, with a
#      clean environment, under timeout(1) (WARD_FRESH_TIMEOUT seconds,
#      default 1500). Orphans are reaped by the host's init, as on a
#      machine.
#   4. Judged from the output alone: make exited 0, and the demo's run
#      report (the JSON after "== the run report (--report)") says reason
#      "exited", with ward's exit status 0.
#
# Prints "PASS fresh/make-deps-demo (times)" or "FAIL fresh/STEP: why"
# (STEP: prereq, readme, base, setup, make-deps-demo), or "SKIP fresh: why"
# when not root. Needs, on the host: root, debootstrap (make deps installs
# it), git, unshare, pivot_root and flock (util-linux), and the mirror.
# Every mount is made inside mount namespaces of the run, so none outlives
# it. On every path (trap), every process in the run's mount namespace is
# killed (the namespace is held open meanwhile, so that its id cannot be
# another's), then the temporary directory (under /var/tmp) is removed,
# after checking that nothing is mounted below it. Network traffic: only to
# the mirror, by debootstrap and by apt inside the root.
set -u

# ------------------------------------------------- inside the namespace
# run.sh --enter WORK LIMIT: in the new mount namespace; says which it is
# (WORK/mntns), makes the mounts, pivots into WORK/root and runs the README
# there.
if [ "${1:-}" = --enter ]; then
	set -e
	readlink /proc/self/ns/mnt >"$2/mntns.tmp"
	mv "$2/mntns.tmp" "$2/mntns"
	r=$2/root
	limit=$3
	mount --bind "$r" "$r" # pivot_root needs a mount point
	mount -t proc -o nosuid,nodev,noexec proc "$r/proc"
	mount -t sysfs -o nosuid,nodev,noexec sysfs "$r/sys"
	mount --rbind /sys/fs/cgroup "$r/sys/fs/cgroup"
	mount --rbind /dev "$r/dev"
	mount -t tmpfs -o nosuid,nodev,mode=0755 tmpfs "$r/run"
	mkdir -m 1777 "$r/run/lock"
	cd "$r"
	mkdir .oldroot
	pivot_root . .oldroot
	cd /
	umount -l /.oldroot
	rmdir /.oldroot
	# A fresh machine: neither a compiler nor pkg-config yet.
	for c in cc pkg-config; do
		if command -v "$c" >/dev/null 2>&1; then
			echo "fresh: the root is not fresh: it has $c"
			exit 3
		fi
	done
	echo "== fresh: make deps demo"
	exec timeout -k 30 "$limit" \
		env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LOGNAME=root USER=root SHELL=/bin/sh \
		/bin/sh -c 'cd /root/ward && make deps demo'
fi

# ------------------------------------------------------------- the host
CACHE_VERSION=1
SUITE=bookworm
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 2
cache=${WARD_FRESH_CACHE:-/var/cache/ward-fresh}
rev=${WARD_FRESH_REV:-HEAD}
limit=${WARD_FRESH_TIMEOUT:-1500}

fail() { # STEP WHY
	echo "FAIL fresh/$1: $2"
	exit 1
}
now() { date +%s; }
t0=$(now)

if [ "$(id -u)" != 0 ]; then
	echo "SKIP fresh: needs root (debootstrap, mount namespaces, pivot_root)"
	exit 0
fi
for c in debootstrap git unshare pivot_root flock timeout tar; do
	command -v "$c" >/dev/null 2>&1 ||
		fail prereq "$c is not installed (debootstrap: make deps)"
done
# The command the README gives is the one run here.
grep -qx '    make deps demo' README.md ||
	fail readme "README.md no longer gives \`make deps demo' as a set-up command"
commit=$(git rev-parse --verify -q "$rev^{commit}") ||
	fail prereq "$rev: not a commit of $top"

# The host's Debian mirror: the URI of its bookworm index target.
# shellcheck disable=SC2016 # apt-get's own $(FIELD) syntax
targets=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' \
	'Identifier: Packages' 2>/dev/null | sort -u)
mirror=${WARD_FRESH_MIRROR:-$(printf '%s\n' "$targets" | awk -v s="$SUITE" '$2 == s { print $1; exit }')}
[ -n "$mirror" ] ||
	fail prereq "the host's apt has no $SUITE source (set WARD_FRESH_MIRROR to a Debian mirror)"
mirror=${mirror%/}
# The host's proxy, if apt uses one, for debootstrap's wget too.
apt_opt() { # NAME: the value of apt's option NAME on this host, or nothing
	v=
	eval "$(apt-config shell v "$1" 2>/dev/null)"
	printf '%s' "$v"
}
proxy=$(apt_opt Acquire::http::Proxy)
if [ -n "$proxy" ] && [ "$proxy" != DIRECT ]; then
	http_proxy=$proxy
	export http_proxy
fi

work=$(mktemp -d /var/tmp/ward-fresh.XXXXXX) || fail setup "mktemp failed"
root=$work/root
child=
ns=
# ns_procs: the processes in the run's mount namespace (fd 8 holds it).
# shellcheck disable=SC2317 # run by the trap
ns_procs() {
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/ns/mnt" 2>/dev/null)" != "$ns" ] || echo "${p#/proc/}"
	done
}
# shellcheck disable=SC2317 # run by the trap
cleanup() {
	trap '' INT TERM
	[ -z "$child" ] || kill -KILL "$child" 2>/dev/null
	if [ -n "$ns" ]; then
		tries=0
		while pids=$(ns_procs) && [ -n "$pids" ] && [ "$tries" -lt 20 ]; do
			# shellcheck disable=SC2086 # a list of pids
			kill -KILL $pids 2>/dev/null
			sleep 0.5
			tries=$((tries + 1))
		done
		[ -z "$pids" ] || echo "fresh: processes of the run left: $pids"
		exec 8<&-
	fi
	[ -z "$child" ] || wait "$child" 2>/dev/null
	[ -z "${base:-}" ] || rm -f "$base.tmp.$$"
	# The mounts live in the run's namespaces; never remove through one.
	left=$(awk -v w="$work" '$5 == w || index($5, w "/") == 1' /proc/self/mountinfo)
	if [ -n "$left" ]; then
		echo "fresh: mounts left below $work, not removed:"
		printf '%s\n' "$left"
	else
		rm -rf --one-file-system "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ------------------------------------------------------------- the base
mkey=$(printf '%s' "$mirror" | sha256sum | cut -c1-8)
base=$cache/$SUITE-minbase-make-v$CACHE_VERSION-$(date -u +%Y%m%d)-$mkey.tar.gz
mkdir -p "$cache" || fail base "cannot make $cache"
mkdir "$root"
tb=$(now)
(
	flock -w 1800 9 || {
		echo "fresh: $cache/.lock: held for 30 minutes"
		exit 1
	}
	if [ -f "$base" ]; then
		echo "cached"
		tar -C "$root" --numeric-owner -xpzf "$base" || exit 1
		exit 0
	fi
	echo "built"
	# In a mount namespace of its own: the proc and sys debootstrap mounts
	# in the root go with it, however it ends.
	unshare --mount --propagation private \
		debootstrap --variant=minbase --include=make "$SUITE" "$root" "$mirror" \
		>"$work/debootstrap.log" 2>&1 || {
		tail -15 "$work/debootstrap.log"
		echo "fresh: debootstrap failed"
		exit 1
	}
	rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb
	tar -C "$root" --numeric-owner -cpzf "$base.tmp.$$" . &&
		mv "$base.tmp.$$" "$base" || {
		rm -f "$base.tmp.$$"
		exit 1
	}
	for old in "$cache/$SUITE"-minbase-*.tar.gz; do
		[ "$old" = "$base" ] || rm -f "$old"
	done
) 9>>"$cache/.lock" >"$work/base.log" 2>&1 || {
	cat "$work/base.log"
	fail base "no $SUITE root (see above)"
}
how=$(head -1 "$work/base.log")
tb=$(($(now) - tb))

# ------------------------------------------------------------ the setup
{
	cp /etc/resolv.conf /etc/hosts "$root/etc/" &&
		printf '%s\n' "$targets" | awk -v s="$SUITE" -v m="$mirror" '
			$2 == s || index($2, s "-") == 1 { print "deb " $1 " " $2 " " $3; n++ }
			END { if (!n) print "deb " m "/ " s " main" }' \
			>"$root/etc/apt/sources.list" &&
		for o in Acquire::http::Proxy Acquire::https::Proxy \
			Acquire::Check-Valid-Until Acquire::Check-Date; do
			v=$(apt_opt "$o")
			[ -z "$v" ] || printf '%s "%s";\n' "$o" "$v"
		done >"$root/etc/apt/apt.conf.d/99ward-fresh-host" &&
		mkdir "$root/root/ward" &&
		git archive --format=tar "$commit" | tar -C "$root/root/ward" -xf -
} >"$work/setup.log" 2>&1 || fail setup "$(tail -3 "$work/setup.log" | tr '\n' ' ')"

# -------------------------------------------------------------- the run
tr0=$(now)
unshare --mount --propagation private \
	/bin/sh "$here/run.sh" --enter "$work" "$limit" >"$work/log" 2>&1 </dev/null &
child=$!
# Hold the run's mount namespace open (fd 8) until the end, so that the
# cleanup kills its processes by an id no other namespace can have.
while [ ! -f "$work/mntns" ] && kill -0 "$child" 2>/dev/null; do sleep 0.1; done
if [ -f "$work/mntns" ] && command exec 8<"/proc/$child/ns/mnt" &&
	[ "$(readlink /proc/$$/fd/8)" = "$(cat "$work/mntns")" ]; then
	ns=$(cat "$work/mntns")
fi
wait "$child"
rc=$?
child=
tr=$(($(now) - tr0))

# ------------------------------------------------------------ the judge
report=$(sed -n '/^== the run report (--report)$/,$p' "$work/log")
# The report's own reason is its first (those of the export entries follow),
# whether jq printed it or not.
reason=$(printf '%s\n' "$report" | grep -o '"reason": *"[^"]*"' | head -1 | sed 's/.*: *"//; s/"$//')
why=
if [ "$rc" = 124 ]; then
	why="timed out after $limit s (WARD_FRESH_TIMEOUT)"
elif [ "$rc" = 137 ]; then
	why="killed (SIGKILL: after the timeout of $limit s, or from outside)"
elif [ "$rc" != 0 ]; then
	err=$(grep -m1 -E 'undefined reference|error:|Error [0-9]+|E: |not fresh|No such file' "$work/log")
	why="make deps demo exited $rc${err:+: $err}"
elif [ -z "$report" ]; then
	why="the demo printed no run report"
elif [ "$reason" != exited ]; then
	why="the run report's reason is \"${reason:-none}\", not \"exited\""
elif ! grep -qx '(ward exited 0)' "$work/log"; then
	why="ward did not exit 0"
fi
total=$(($(now) - t0))
times="make deps demo ${tr}s, base $how ${tb}s, total ${total}s; $(git rev-parse --short "$commit")"
if [ -n "$why" ]; then
	echo "-- the last lines of its output:"
	tail -25 "$work/log"
	echo "FAIL fresh/make-deps-demo: $why ($times)"
	exit 1
fi
echo "PASS fresh/make-deps-demo ($times)"
exit 0
