#!/usr/bin/env python3
"""tests/net/connectproxy.py: a tiny HTTP CONNECT proxy for tests/net/pip.sh
(ward --upstream-proxy), in a network namespace that test made. Never a
real address.

  connectproxy.py LOG READY MAP LISTEN...

MAP is NAME=ADDR[,NAME=ADDR...]: where `CONNECT NAME:PORT` goes (the
proxy's own resolution; any other name gets 502). LISTEN is
ADDR:PORT:MODE, MODE one of
  ok            200, then the bytes both ways
  deny=NAME     403 for NAME, as ok for the others
  garbage       a reply that is no HTTP head ("HTTP/1.1 200 OK" and a
                header line without a colon)
  slow          as ok, its reply written a byte at a time, 20 ms apart
Each request is logged ("connect NAME:PORT FROM STATUS"); READY is made
once every listener listens.
"""
import socket
import sys
import threading
import time

lock = threading.Lock()


def log(f, line):
    with lock:
        f.write(line + "\n")
        f.flush()


def pipe(a, b):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            b.sendall(d)
    except OSError:
        pass
    try:
        b.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def serve(f, c, peer, zone, mode):
    c.settimeout(10)
    head = b""
    while b"\r\n\r\n" not in head and len(head) < 8192:
        d = c.recv(4096)
        if not d:
            c.close()
            return
        head += d
    first = head.split(b"\r\n", 1)[0].decode("ascii", "replace").split()
    if len(first) != 3 or first[0] != "CONNECT":
        log(f, "bad %s %s" % (peer[0], first))
        c.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        c.close()
        return
    name, _, port = first[1].rpartition(":")
    status = 200
    if mode == "garbage":
        log(f, "connect %s:%s %s garbage" % (name, port, peer[0]))
        c.sendall(b"HTTP/1.1 200 OK\r\nbroken header\r\n\r\n")
        c.close()
        return
    if mode.startswith("deny=") and name == mode[5:]:
        status = 403
    elif name not in zone:
        status = 502
    if status != 200:
        log(f, "connect %s:%s %s %d" % (name, port, peer[0], status))
        c.sendall(b"HTTP/1.1 %d No\r\nContent-Length: 0\r\n\r\n" % status)
        c.close()
        return
    try:
        u = socket.create_connection((zone[name], int(port)), timeout=10)
    except OSError:
        log(f, "connect %s:%s %s 504" % (name, port, peer[0]))
        c.sendall(b"HTTP/1.1 504 Gateway Timeout\r\n\r\n")
        c.close()
        return
    log(f, "connect %s:%s %s 200" % (name, port, peer[0]))
    head = (b"HTTP/1.1 200 Connection established\r\n"
            b"Proxy-Agent: ward-tests\r\n\r\n")
    if mode == "slow":
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for i in range(len(head)):
            c.sendall(head[i:i + 1])
            time.sleep(0.02)
    else:
        c.sendall(head)
    c.settimeout(None)
    u.settimeout(None)
    t = threading.Thread(target=pipe, args=(u, c), daemon=True)
    t.start()
    pipe(c, u)
    t.join()
    c.close()
    u.close()


def listen(f, addr, port, zone, mode):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    s.listen(16)
    return s


def accept_loop(f, s, zone, mode):
    while True:
        c, peer = s.accept()
        threading.Thread(target=serve, args=(f, c, peer, zone, mode),
                         daemon=True).start()


def main():
    logf = open(sys.argv[1], "a")
    zone = dict(item.split("=", 1) for item in sys.argv[3].split(","))
    threads = []
    for spec in sys.argv[4:]:
        addr, port, mode = spec.split(":", 2)
        s = listen(logf, addr, int(port), zone, mode)
        threads.append(threading.Thread(target=accept_loop,
                                        args=(logf, s, zone, mode),
                                        daemon=True))
    for t in threads:
        t.start()
    open(sys.argv[2], "w").close()
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
