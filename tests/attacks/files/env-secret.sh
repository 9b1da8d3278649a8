# attack: files/env-secret
# boundary: files
# profile: python
# modes: root rootless
# requires: python3
# seeds: 000-secret
# what: the caller's environment holds a token (WARD_ATTACK_TOKEN,
#   AWS_SECRET_ACCESS_KEY, a HOME with the token in it); the script dumps
#   its environment, /proc/self/environ, and init's /proc/1/environ (init is
#   a clone of the supervisor, so its memory holds the caller's environment)
# expect: the token appears in no output; the environment is exactly the
#   policy's (HOME=/work, LANG, PATH); /proc/1/environ fails with EACCES
# control: the same script outside the sandbox, given the same environment,
#   prints the token
# if it fails: the env section and launcher/supervisor/main.c (the environment is
#   built from the policy only, step 9 of the launch), init's
#   PR_SET_DUMPABLE(0) (launcher/core/init.c)

attack() {
	local secret
	secret=$(rand_hex 20)
	put dump_env.py <<'PY'
import errno, os
for k in sorted(os.environ):
    print("env %s=%s" % (k, os.environ[k]))
for p in ("/proc/self/environ", "/proc/1/environ", "/proc/1/cmdline"):
    try:
        with open(p, "rb") as f:
            print("read %s %s" % (p, f.read().replace(b"\0", b" ").decode(errors="replace")))
    except OSError as e:
        print("read %s %s" % (p, errno.errorcode[e.errno]))
PY
	sbx -e "WARD_ATTACK_TOKEN=$secret" -e "AWS_SECRET_ACCESS_KEY=$secret" \
		-e "HOME=/root/$secret" -- python3 /input/dump_env.py
	check "the token in no output; $(why)" nothing_leaks "$secret"
	check "/proc/1/environ: EACCES; $(why)" so_has "read /proc/1/environ EACCES"
	check "the environment is the policy's; $(why)" \
		test "$(grep '^env ' "$SO" | tr '\n' ' ')" = "env HOME=/work env LANG=C.UTF-8 env PATH=/usr/local/bin:/usr/bin:/bin "
	outside -e "WARD_ATTACK_TOKEN=$secret" -e "AWS_SECRET_ACCESS_KEY=$secret" \
		-- /usr/bin/python3 "$IN/dump_env.py"
	control "outside, the script prints the token; $(cwhy)" co_has "env WARD_ATTACK_TOKEN=$secret"
}
