# attack: files/inherited-fd
# boundary: files
# profile: python
# modes: root rootless
# requires: probe-slot
# seeds: 000-secret
# what: the caller starts ward with descriptors 5, 7 and 9 open on a
#   secret file, a pipe holding a secret, and a directory of the host; the
#   program reads every descriptor from 3 to 1023 and lists /proc/self/fd
# expect: no descriptor above 2 is open (fds 0 1 2 only), the secrets
#   appear in no output
# control: the same program outside the sandbox, with the same
#   descriptors, reads the secrets through them
# if it fails: init closes every descriptor but its pipes
#   (launcher/core/init.c, step 2), the target marks the rest close-on-exec
#   (launcher/core/exec.c)

attack() {
	local secret secret2
	secret=$(rand_hex 20)
	secret2=$(rand_hex 20)
	echo "$secret" >"$CASE_T/secret.txt" && chmod 644 "$CASE_T/secret.txt"
	sbx -- /input/atk readfds 5<"$CASE_T/secret.txt" 7< <(echo "$secret2") 9<"$CASE_T"
	check "only fds 0-2; $(why)" so_has "fds none"
	check "the file's secret in no output" nothing_leaks "$secret"
	check "the pipe's secret in no output" nothing_leaks "$secret2"
	sbx -- /input/probe fds 5<"$CASE_T/secret.txt" 9<"$CASE_T"
	check "/proc/self/fd lists 0 1 2; $(why)" so_has "fds 0 1 2"
	outside -- "$IN/atk" readfds 5<"$CASE_T/secret.txt" 7< <(echo "$secret2") 9<"$CASE_T"
	control "outside, fd 5 reads the secret; $(cwhy)" co_has "fd 5 $secret"
	control "outside, fd 7 reads the pipe; $(cwhy)" co_has "fd 7 $secret2"
}
