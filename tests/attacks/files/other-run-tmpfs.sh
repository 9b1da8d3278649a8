# attack: files/other-run-tmpfs
# boundary: files
# profile: python
# modes: root rootless
# requires: python3
# seeds: 000-secret
# what: two runs at once. The first writes a secret into /tmp, /work and
#   /dev/shm, a System V shared memory segment and a POSIX message queue,
#   and listens on an abstract unix socket; the second, started while the
#   first waits, looks for all of them
# expect: the second run finds nothing (files ENOENT, shmget ENOENT,
#   mq_open ENOENT, connect ECONNREFUSED) and the secret is in none of its
#   output
# control: the first run looks with the same code and finds every one
#   (a positive canary in the sandbox)
# if it fails: the tmpfs entries of the mount table (a fresh tmpfs per
#   run, launcher/core/mounts.c), the IPC and network namespaces
#   (clone3 flags, launcher/core/ns.c)

attack() {
	local secret i
	secret=$(rand_hex 20)
	put tmpfs_secret.py <<'PY'
import errno, mmap, os, socket, sys, time, ctypes, ctypes.util

KEY = 0x57415244
libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
PLACES = ["/tmp/secret", "/work/secret", "/dev/shm/secret"]

def plant(secret):
    for p in PLACES:
        with open(p, "w") as f:
            f.write(secret)
    shm = libc.shmget(KEY, 4096, 0o1666)  # IPC_CREAT | 0666
    addr = libc.shmat(shm, None, 0)
    ctypes.memmove(addr, secret.encode(), len(secret))
    mq = libc.mq_open(b"/ward-secret", os.O_CREAT | os.O_RDWR, 0o666, None)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind("\0ward-secret-socket")
    s.listen(1)
    return s, mq

def look(secret):
    for p in PLACES:
        try:
            with open(p) as f:
                print("file %s %s" % (p, "found" if secret in f.read() else "other"))
        except OSError as e:
            print("file %s %s" % (p, errno.errorcode[e.errno]))
    shm = libc.shmget(KEY, 0, 0)
    if shm < 0:
        print("shm", errno.errorcode[ctypes.get_errno()])
    else:
        addr = libc.shmat(shm, None, 0)
        print("shm", "found" if ctypes.string_at(addr, len(secret)) == secret.encode() else "other")
    mq = libc.mq_open(b"/ward-secret", os.O_RDWR)
    print("mq", errno.errorcode[ctypes.get_errno()] if mq < 0 else "found")
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        c.connect("\0ward-secret-socket")
        print("socket found")
    except OSError as e:
        print("socket", errno.errorcode[e.errno])

if sys.argv[1] == "plant":
    keep = plant(sys.argv[2])
    look(sys.argv[2])
    sys.stdout.flush()
    open("/output/ready", "w").close()
    time.sleep(float(sys.argv[3]))
else:
    look(sys.argv[2])
PY
	# The first run, in the background, with an output slot of its own.
	mkdir "$CASE_T/out1" && chown "$HUID:$HUID" "$CASE_T/out1"
	# It stays 12 s: nothing from outside can reach it sooner (its input
	# slot is an overlay and its output slot a tmpfs, docs/spec.md 3.5),
	# and the check below says whether it was still there when the second
	# run had looked.
	sbx -b -o "$CASE_T/out1" -- python3 /input/tmpfs_secret.py plant "$secret" 12
	local first=$SBX_PID first_so=$SO
	i=0
	while [ ! -e "$CASE_T/out1/ready" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sbx -- python3 /input/tmpfs_secret.py look "$secret"
	control "the first run still held its secrets when the second had looked" \
		kill -0 "$first"
	check "files of the other run: ENOENT; $(why)" test "$(grep -c '^file .* ENOENT$' "$SO")" = 3
	check "its shared memory: ENOENT; $(why)" so_has "shm ENOENT"
	check "its message queue: ENOENT; $(why)" so_has "mq ENOENT"
	check "its abstract socket: ECONNREFUSED; $(why)" so_has "socket ECONNREFUSED"
	check "the secret in no output of the second run" nothing_leaks "$secret"
	wait "$first"
	control "the first run finds its own files; $(head -c 300 "$first_so" | tr '\n' '|')" \
		test "$(grep -c '^file .* found$' "$first_so")" = 3
	control "the first run finds its shm, queue and socket" \
		grep -qx "shm found" "$first_so"
	control "... and its queue" grep -qx "mq found" "$first_so"
	control "... and its socket" grep -qx "socket found" "$first_so"
}
