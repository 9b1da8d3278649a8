#!/usr/bin/env python3
"""tests/net/pypi.py: the package index of tests/net/pip.sh (issue 22), run
in a network namespace that test made. Never a real address.

  pypi.py wheel DIR NAME VERSION
      builds DIR/NAME-VERSION-py3-none-any.whl, a pure-python wheel made
      here with zipfile (no network, no build backend): NAME/__init__.py
      holding GREETING, and its dist-info (METADATA, WHEEL, RECORD with
      every file's SHA-256, as pip checks); prints the wheel's file name.
  pypi.py serve LOG READY CERT KEY ROOT INDEX FILES ADDR...
      HTTPS on port 443 of every ADDR, with the test CA's certificate CERT
      and key KEY: a request whose Host is INDEX gets the simple index
      (PEP 503) of the wheels in ROOT, each linked at https://FILES/...;
      one whose Host is FILES gets the wheel itself; any other Host, 404.
      Each request is logged ("get ADDR HOST PATH STATUS"), each TLS
      handshake too ("tls ADDR SNI"); READY is made once all listen.
"""
import base64
import hashlib
import html
import http.server
import os
import socketserver
import ssl
import sys
import threading
import zipfile


def record_hash(data):
    d = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(d).rstrip(b"=").decode()


def wheel(outdir, name, version):
    fname = "%s-%s-py3-none-any.whl" % (name, version)
    info = "%s-%s.dist-info" % (name, version)
    files = {
        name + "/__init__.py":
            ('GREETING = "hello from %s %s"\n' % (name, version)).encode(),
        info + "/METADATA":
            ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n"
             "Summary: the test package of tests/net/pip.sh\n"
             % (name, version)).encode(),
        info + "/WHEEL":
            b"Wheel-Version: 1.0\nGenerator: ward-tests\n"
            b"Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join("%s,%s,%d\n" % (p, record_hash(d), len(d))
                     for p, d in files.items())
    record += info + "/RECORD,,\n"
    files[info + "/RECORD"] = record.encode()
    path = os.path.join(outdir, fname)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for p, d in files.items():
            zi = zipfile.ZipInfo(p, date_time=(2020, 1, 1, 0, 0, 0))
            zi.external_attr = 0o644 << 16
            z.writestr(zi, d)
    print(fname)


lock = threading.Lock()


def log(f, line):
    with lock:
        f.write(line + "\n")
        f.flush()


def handler(logf, addr, root, index, files):
    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, status, ctype, body):
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            host = (self.headers.get("Host") or "").split(":")[0].lower()
            path = self.path.split("?")[0]
            status, ctype, body = 404, "text/plain", b"not here\n"
            wheels = sorted(w for w in os.listdir(root) if w.endswith(".whl"))
            if host == index and path.startswith("/simple/"):
                project = path[len("/simple/"):].strip("/")
                links = ""
                for w in wheels:
                    if project and w.split("-")[0] != project:
                        continue
                    with open(os.path.join(root, w), "rb") as wf:
                        h = hashlib.sha256(wf.read()).hexdigest()
                    links += ('<a href="https://%s/packages/%s#sha256=%s">%s'
                              '</a><br>\n' % (files, w, h, html.escape(w)))
                if links or not project:
                    status, ctype = 200, "text/html"
                    body = ("<!DOCTYPE html><html><body>\n%s</body></html>\n"
                            % links).encode()
            elif host == files and path.startswith("/packages/"):
                w = path[len("/packages/"):]
                if w in wheels:
                    with open(os.path.join(root, w), "rb") as wf:
                        body = wf.read()
                    status, ctype = 200, "application/octet-stream"
            log(logf, "get %s %s %s %d" % (addr, host, path, status))
            self.reply(status, ctype, body)
    return H


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def serve(args):
    logf = open(args[0], "a")
    ready, cert, key, root, index, files = args[1:7]
    servers = []
    for addr in args[7:]:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)

        def sni(sock, name, _ctx, a=addr):
            log(logf, "tls %s %s" % (a, name))
        ctx.sni_callback = sni
        srv = Server((addr, 443), handler(logf, addr, root, index, files))
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
        servers.append(srv)
    threads = [threading.Thread(target=s.serve_forever, daemon=True)
               for s in servers]
    for t in threads:
        t.start()
    open(ready, "w").close()
    for t in threads:
        t.join()


def main():
    if sys.argv[1] == "wheel":
        wheel(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "serve":
        serve(sys.argv[2:])
    else:
        sys.exit("usage: pypi.py wheel DIR NAME VERSION | serve ...")


if __name__ == "__main__":
    main()
