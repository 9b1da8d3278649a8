# attack: files/persistence
# boundary: lifecycle
# profile: shell
# modes: root rootless
# requires: bash output-slot
# what: a first run plants what would run again later: ~/.bashrc and
#   ~/.profile (HOME=/work), /etc/profile.d and /etc/cron.d entries, a
#   crontab in /var/spool/cron/crontabs, files in /tmp and /dev/shm; a
#   second run of the same profile looks for them
# expect: the second run finds none of them (each ENOENT), and no cron
#   or profile directory of the host holds the marker
# control: the first run reads back each file it could write, and a
#   file planted in the output slot, which persists by design, is found
#   by the second run: the check would see persistence
# if it fails: a tmpfs reused between runs, or a writable bind of a host
#   directory (the fs section; launcher/core/mounts.c); the read-only root

attack() {
	put plant.sh <<'SH'
mark=$1
for f in /work/.bashrc /work/.profile /etc/profile.d/$mark.sh /etc/cron.d/$mark \
	/var/spool/cron/crontabs/sandbox /tmp/.$mark /dev/shm/.$mark /output/.$mark; do
	if (echo "echo $mark" >"$f") 2>/dev/null && grep -q "$mark" "$f"; then
		echo "plant $f ok"
	else
		echo "plant $f failed"
	fi
done
SH
	put look.sh <<'SH'
mark=$1
for f in /work/.bashrc /work/.profile /etc/profile.d/$mark.sh /etc/cron.d/$mark \
	/var/spool/cron/crontabs/sandbox /tmp/.$mark /dev/shm/.$mark /output/.$mark; do
	if grep -qs "$mark" "$f"; then echo "found $f"; else echo "absent $f"; fi
done
SH
	sbx -- bash /input/plant.sh "$MARK"
	local first=$SO
	sbx -- bash /input/look.sh "$MARK"
	for f in /work/.bashrc /work/.profile /etc/profile.d/$MARK.sh /etc/cron.d/$MARK \
		/var/spool/cron/crontabs/sandbox /tmp/.$MARK /dev/shm/.$MARK; do
		check "the second run does not find $f; $(why)" so_has "absent $f"
	done
	check "no marker in the host's cron and profile directories" \
		test -z "$(grep -rlsF "$MARK" /etc/cron.d /etc/profile.d /var/spool/cron /root/.bashrc /root/.profile 2>/dev/null)"
	control "the first run wrote ~/.bashrc, /tmp and /output" \
		test "$(grep -cE '^plant (/work/.bashrc|/tmp/.*|/output/.*) ok$' "$first")" = 3
	control "the output slot's file persists into the second run; $(why)" \
		so_has "found /output/.$MARK"
}
