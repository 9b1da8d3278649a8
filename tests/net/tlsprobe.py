#!/usr/bin/env python3
"""tests/net/tlsprobe.py: a TLS client inside the sandbox (tests/net/names.sh).

  tlsprobe.py CA HOST PORT SNI [CHUNK]

Connects to HOST (a name, resolved through the sandbox's resolver, or an
address) on PORT and makes a TLS handshake with server name SNI ("-": none;
the certificate is then checked against no name), trusting CA only, its
ClientHello written CHUNK bytes at a time (0.05 s apart; default all at
once). SNI http:HOST sends a plain HTTP request with that Host instead.
Prints "ok ADDR LINE" with the server's first line, or "refused
WHY".
"""
import socket
import ssl
import sys
import time


def main():
    ca, host, port, sni = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    chunk = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    ctx = ssl.create_default_context(cafile=ca)
    if sni == "-":
        ctx.check_hostname = False
    try:
        addr = socket.gethostbyname(host)
        s = socket.create_connection((addr, port), timeout=15)
    except OSError as e:
        print("refused", e.__class__.__name__, e.errno)
        return
    if sni.startswith("http:"):
        try:
            s.sendall(b"GET / HTTP/1.1\r\nHost: %s\r\n\r\n" % sni[5:].encode())
            line = s.makefile("rb").readline()
        except OSError as e:
            print("refused", e.__class__.__name__)
            return
        print(("ok %s %s" % (addr, line.decode().strip())) if line else "refused closed")
        return
    inc, out = ssl.MemoryBIO(), ssl.MemoryBIO()
    obj = ctx.wrap_bio(inc, out, server_hostname=None if sni == "-" else sni)
    first = True
    try:
        while True:
            try:
                obj.do_handshake()
                done = True
            except ssl.SSLWantReadError:
                done = False
            data = out.read()
            if data:
                if first and chunk:
                    for i in range(0, len(data), chunk):
                        s.sendall(data[i:i + chunk])
                        time.sleep(0.05)
                else:
                    s.sendall(data)
                first = False
            if done:
                break
            got = s.recv(65536)
            if not got:
                print("refused closed")
                return
            inc.write(got)
        line = b""
        while not line.endswith(b"\n"):
            try:
                line += obj.read(1024)
            except ssl.SSLWantReadError:
                got = s.recv(65536)
                if not got:
                    break
                inc.write(got)
        print("ok", addr, line.decode().strip())
    except (OSError, ssl.SSLError) as e:
        print("refused", e.__class__.__name__)


if __name__ == "__main__":
    main()
