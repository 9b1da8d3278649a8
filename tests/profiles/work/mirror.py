#!/usr/bin/python3
"""The pinned mirror of the agent-net workload (tests/profiles/run.sh), run
by the test inside a network namespace it made: HTTPS on ADDR:443 serving
the files of DIR with CERT/KEY, and a plain TCP listener on ADDR:80 that
only logs (the workload must not reach it).

    mirror.py ADDR DIR CERT KEY LOG READY

LOG gets "get PATH" per HTTPS request and "conn 80 PEER" per connection on
port 80; READY is created once both listen.
"""
import http.server
import socket
import ssl
import sys
import threading

addr, root, cert, key, logpath, ready = sys.argv[1:7]
log = open(logpath, "a", buffering=1)
lock = threading.Lock()


def note(line):
    with lock:
        log.write(line + "\n")


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **kw):
        super().__init__(*a, directory=root, **kw)

    def do_GET(self):
        note("get " + self.path)
        super().do_GET()

    def log_message(self, *a):
        pass


def port80(s):
    while True:
        c, peer = s.accept()
        note("conn 80 %s" % peer[0])
        c.close()


httpd = http.server.ThreadingHTTPServer((addr, 443), Handler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
httpd.socket = ctx.wrap_socket(httpd.socket, server_side=True)
plain = socket.socket()
plain.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
plain.bind((addr, 80))
plain.listen(8)
threading.Thread(target=port80, args=(plain,), daemon=True).start()
open(ready, "w").close()
httpd.serve_forever()
