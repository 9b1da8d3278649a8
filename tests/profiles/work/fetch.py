# The agent-net profile's workload (tests/profiles/run.sh): an agent's tool
# fetching a file from its pinned mirror over HTTPS (the name from the
# /etc/hosts the policy makes, the test CA from the input slot), then
# trying the same host on a port the policy does not allow.
import errno
import hashlib
import json
import socket
import ssl
import urllib.request

ctx = ssl.create_default_context(cafile="/input/ca.pem")
with urllib.request.urlopen("https://mirror/data.csv", context=ctx, timeout=10) as r:
    body = r.read()
    status = r.status

try:
    socket.create_connection(("mirror", 80), timeout=5).close()
    port80 = "connected"
except OSError as e:
    port80 = errno.errorcode.get(e.errno, str(e.errno))

with open("/output/fetch.json", "w") as f:
    json.dump({"status": status, "bytes": len(body),
               "sha256": hashlib.sha256(body).hexdigest(),
               "lines": body.count(b"\n"), "port80": port80}, f, sort_keys=True)
print("fetched", len(body))
