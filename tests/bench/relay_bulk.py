#!/usr/bin/env python3
"""tests/bench/relay_bulk.py: bulk bytes for bench_relay.sh.

  relay_bulk.py server ADDR PORT...   for each connection: read the request
                                      head, answer with MiB bytes (the
                                      request's path, /N) and close
  relay_bulk.py client HOST PORT MIB  one GET of MIB MiB: prints
                                      "CONNECT_US TTFB_US MIBPS" (MiB/s
                                      from the first byte to the last)
"""
import socket
import sys
import threading
import time


def serve(addr, port):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    s.listen(16)
    chunk = b"x" * (1 << 20)
    while True:
        c, _ = s.accept()
        head = b""
        while b"\r\n\r\n" not in head:
            got = c.recv(4096)
            if not got:
                break
            head += got
        try:
            mib = int(head.split(b" ")[1][1:])
            for _ in range(mib):
                c.sendall(chunk)
        except (OSError, ValueError, IndexError):
            pass
        c.close()


def client(host, port, mib):
    addr = socket.gethostbyname(host)
    t0 = time.perf_counter()
    s = socket.create_connection((addr, port))
    t1 = time.perf_counter()
    s.sendall(b"GET /%d HTTP/1.1\r\nHost: %s\r\n\r\n" % (mib, host.encode()))
    buf = bytearray(1 << 20)
    view = memoryview(buf)
    n = s.recv_into(view)
    t2 = time.perf_counter()
    first = total = n
    while n:
        n = s.recv_into(view)
        total += n
    t3 = time.perf_counter()
    if total != mib << 20:
        print("short", total)
        sys.exit(1)
    # The throughput from the first byte on: the time to it (connect and
    # the relay's judging of the request) is the latency, printed apart.
    print("%d %d %.0f" % ((t1 - t0) * 1e6, (t2 - t0) * 1e6,
                          (total - first) / (1 << 20) / (t3 - t2)))


if __name__ == "__main__":
    if sys.argv[1] == "server":
        ts = [threading.Thread(target=serve, args=(sys.argv[2], int(p)),
                               daemon=True) for p in sys.argv[3:]]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    else:
        client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
