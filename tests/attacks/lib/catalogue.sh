# shellcheck shell=bash
# tests/attacks/lib/catalogue.sh: the attack catalogue, read from the
# headers of the attack files ($A/BOUNDARY/NAME.sh), for ward-attack
# (tools/ward-attack) and gen-doc.sh. Needs A.
#
# Headers an attack file gives (continuation lines start with "#   "):
#   attack, boundary, what, expect, control, if it fails (docs/attacks.md)
#   profile    the stdlib profile it was written for (its "home"): the
#              policy under attack stands in for it
#   modes      root and/or rootless
#   requires   what it needs of the policy under attack to run at all:
#              python3, sh, bash, node (the policy runs that interpreter),
#              probe-slot (a slot `input` at /input that runs the static
#              probe programs), output-slot (a writable slot `output` at
#              /output), export (an export section), net (a network
#              allow-list)
#   card       the scorecard's boundary when it is not the boundary's own
#   seeds      the rows of the seeds' tables it stands for (seed_rows)

# header FILE KEY: the value of "# KEY: ..." (continuation lines joined)
header() {
	awk -v k="# $2:" '
		index($0, k) == 1 { v = substr($0, length(k) + 2); on = 1; next }
		on && /^#   / { sub(/^#[ ]+/, ""); v = v " " $0; next }
		{ on = 0 }
		/^[^#]/ { exit }
		END { print v }' "$1"
}

# attack_files: every attack file, in catalogue order.
attack_files() {
	local f
	for f in "$A"/*/*.sh; do
		case $f in "$A"/lib/*) continue ;; esac
		echo "$f"
	done
}

# home FILE: the stdlib profile an attack was written for (the layers
# attacks and the test-policy ones run with python's).
home() {
	local p
	p=$(header "$1" profile)
	case $p in "" | layers) echo python ;; *) echo "$p" ;; esac
}

# card FILE: the attack's boundary on the scorecard, one of seed 000's six:
# files, network, resources, identity, lifecycle, output channel. The
# kernel's surface is the identity's (what a process may become).
CARD_BOUNDARIES="files|network|resources|identity|lifecycle|output channel"
card() {
	local c
	c=$(header "$1" card)
	[ -n "$c" ] || c=$(header "$1" boundary)
	case $c in "kernel surface") c=identity ;; esac
	echo "$c"
}

# The rows of the seeds' tables (seed_rows: ID|SEED|TEXT), as the seeds
# word them: seed 000's adversarial table (对抗测试: what is tried, what
# must be seen, where to look first) and seed 004's malicious sample set
# (恶意样本集: run after every change of the security configuration, all
# of them must fail).
seed_rows() {
	cat <<'EOF'
000-secret|000|读取宿主秘密诱饵：路径不可见，审计日志中没有内容泄漏 (a host secret bait: the path is invisible, nothing leaks)
000-network|000|访问公网与云元数据地址：连接被宿主网络策略拒绝并留下痕迹 (the public network and cloud metadata: refused, with a trace)
000-runaway|000|fork bomb 或无限循环：进程数或墙钟超限，整组进程被清理 (fork bomb or endless loop: pids or wall limit, the whole group cleaned)
000-fill|000|写满磁盘或巨量 stdout：配额触发且宿主服务仍然可用 (a full disk or huge stdout: the quota fires, the host stays up)
000-traversal|000|符号链接或压缩包路径穿越：导出器拒绝沙箱之外的目标 (symlinks or archive paths: the exporter refuses targets outside)
000-mixed|000|正确程序与业务反例组合：安全测试通过，错误产物被拦截 (a correct program with a wrong one: security holds, the wrong product is stopped)
004-reverse-shell|004|反向 shell 代码 (reverse shell)
004-fork-bomb|004|fork bomb
004-disk-fill|004|磁盘占满脚本 (disk filling script)
004-intranet-probe|004|内网探测脚本 (intranet probing script)
004-privilege|004|提权尝试脚本 (privilege escalation attempts)
EOF
}

# catalogue_list: every attack, its home, modes, requirements and card.
catalogue_list() {
	local f
	printf '%-34s %-10s %-14s %-16s %s\n' ATTACK HOME MODES CARD REQUIRES
	attack_files | while read -r f; do
		printf '%-34s %-10s %-14s %-16s %s\n' "$(header "$f" attack)" "$(home "$f")" \
			"$(header "$f" modes)" "$(card "$f")" "$(header "$f" requires)"
	done
}
