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
#      and a new pid namespace and pivot_root, not chroot: the kernel
#      refuses user namespaces to a chrooted process, and ward would fail
#      with "clone3 into new namespaces: Operation not permitted". Inside:
#      a fresh proc and sysfs, the host's cgroup mounts bound read-write
#      (ward makes its cgroups below its own, as on the host), the host's
#      /dev, a tmpfs on /run; /tmp is the root's own directory, as on a
#      Debian 12 install. Then `cd /root/ward && make deps demo`, with a
#      clean environment, under timeout(1) (WARD_FRESH_TIMEOUT seconds,
#      default 1500).
#   4. Judged from the output alone: make exited 0, and the demo's run
#      report (the JSON after "== the run report (--report)") says reason
#      "exited", with ward's exit status 0.
#
# Prints "PASS fresh/make-deps-demo (times)" or "FAIL fresh/STEP: why"
# (STEP: prereq, readme, base, setup, make-deps-demo), or "SKIP fresh: why"
# when not root. Needs, on the host: root, debootstrap (make deps installs
# it), git, unshare, pivot_root and flock (util-linux), and the mirror.
# Every mount is made inside the namespaces, so none outlives the run; the
# pid namespace takes every process of the run with it; the temporary
# directory (under /var/tmp) is removed on every path (trap), after checking
# that nothing is mounted below it. Network traffic: only to the mirror, by
# debootstrap and by apt inside the root.
set -u

# ------------------------------------------------ inside the namespaces
# run.sh --init ROOT LIMIT: PID 1 of the new pid namespace. It reaps the
# orphans, as init does on a machine (the attack and lifecycle tests count
# what is left), while --enter runs under timeout.
if [ "${1:-}" = --init ]; then
	timeout -k 30 "$3" /bin/sh "$0" --enter "$2" &
	pid=$!
	wait "$pid" # dash reaps every child while it waits
	exit $?
fi
# run.sh --enter ROOT: in the new mount and pid namespaces; makes the mounts,
# pivots into ROOT and runs the README there.
if [ "${1:-}" = --enter ]; then
	set -e
	r=$2
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
	exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
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
# shellcheck disable=SC2317 # run by the trap
cleanup() {
	trap '' INT TERM
	if [ -n "$child" ]; then
		kill -KILL "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
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
# unshare ignores SIGTERM; when it is killed, its child is too
# (--kill-child), and with that PID 1 every process of the run.
unshare --mount --propagation private --pid --kill-child \
	/bin/sh "$here/run.sh" --init "$root" "$limit" \
	>"$work/log" 2>&1 </dev/null &
child=$!
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
