#!/usr/bin/env python3
"""tests/net/dnsserver.py: the test's own DNS server and TCP hosts, in a
network namespace tests/net/names.sh made (issue 22). Never a real
address.

  dnsserver.py LOG READY ADDR ZONE TCP...

ZONE is NAME=ADDR[,NAME=ADDR...]: A records (TTL given as NAME=ADDR/TTL);
any other name is NXDOMAIN, AAAA of a known name is empty. Every query is
logged ("query NAME TYPE FROM"). TCP is ADDR:PORT: each accepts, logs
"accept ADDR:PORT FROM", writes "hello ADDR" (on port 80, after the
request's head) and closes. tls:ADDR:PORT
does the same over TLS, with the certificate and key of the environment's
TLS_CERT and TLS_KEY, and logs "tls ADDR:PORT SNI" after the handshake.
"""
import os
import ssl
import socket
import struct
import sys
import threading

lock = threading.Lock()


def log(f, line):
    with lock:
        f.write(line + "\n")
        f.flush()


def parse_name(data, off):
    labels = []
    while True:
        n = data[off]
        off += 1
        if n == 0:
            return ".".join(labels), off
        labels.append(data[off:off + n].decode("ascii", "replace"))
        off += n


def dns(f, addr, zone):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, 53))
    while True:
        data, peer = s.recvfrom(4096)
        try:
            qid, flags, qd = struct.unpack("!HHH", data[:6])
            name, end = parse_name(data, 12)
            qtype, qclass = struct.unpack("!HH", data[end:end + 4])
        except Exception:
            continue
        log(f, "query %s %d %s" % (name.lower(), qtype, peer[0]))
        question = data[12:end + 4]
        known = name.lower() in zone
        answers = b""
        count = 0
        if known and qtype == 1:
            a, ttl = zone[name.lower()]
            answers = (b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, ttl, 4)
                       + socket.inet_aton(a))
            count = 1
        rcode = 0 if known else 3
        hdr = struct.pack("!HHHHHH", qid, 0x8180 | rcode, 1, count, 0, 0)
        s.sendto(hdr + question + answers, peer)


def accepted(f, addr, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    s.listen(16)
    while True:
        c, peer = s.accept()
        log(f, "accept %s:%d %s" % (addr, port, peer[0]))
        yield c


def tcp(f, addr, port):
    for c in accepted(f, addr, port):
        try:
            # Port 80 is plain HTTP's: the request's head is read first
            # (closing with it unread would reset the connection).
            head = b""
            while port == 80 and b"\r\n\r\n" not in head:
                got = c.recv(4096)
                if not got:
                    break
                head += got
            c.sendall(b"hello " + addr.encode() + b"\n")
        finally:
            c.close()


def tls(f, addr, port):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(os.environ["TLS_CERT"], os.environ["TLS_KEY"])
    seen = {}

    def sni(sock, name, _ctx):
        seen[sock] = name
    ctx.sni_callback = sni
    for c in accepted(f, addr, port):
        c.settimeout(10)
        try:
            t = ctx.wrap_socket(c, server_side=True)
            log(f, "tls %s:%d %s" % (addr, port, seen.pop(t, None)))
            t.sendall(b"hello " + addr.encode() + b"\n")
            t.close()
        except Exception as e:
            log(f, "tlsfail %s:%d %s" % (addr, port, type(e).__name__))
            c.close()


def main():
    logf = open(sys.argv[1], "a")
    zone = {}
    for item in sys.argv[4].split(","):
        name, rest = item.split("=")
        a, _, ttl = rest.partition("/")
        zone[name] = (a, int(ttl) if ttl else 60)
    threads = [threading.Thread(target=dns, args=(logf, sys.argv[3], zone),
                                daemon=True)]
    for hp in sys.argv[5:]:
        fn = tcp
        if hp.startswith("tls:"):
            fn, hp = tls, hp[4:]
        h, p = hp.rsplit(":", 1)
        threads.append(threading.Thread(target=fn, args=(logf, h, int(p)),
                                        daemon=True))
    for t in threads:
        t.start()
    import time
    time.sleep(0.3)
    open(sys.argv[2], "w").close()
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
