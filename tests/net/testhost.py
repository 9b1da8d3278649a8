#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A test host of tests/net/run.sh, run inside a network namespace the test
made: echo servers on chosen ports, and a packet counter that sees every
TCP or UDP packet arriving in the namespace, whatever its port, so that a
test can say "the host saw no packet" rather than trust the client's errno.

    testhost.py LOG READY [--bind ADDR] [--tcp P,P] [--udp P,P]
                [--abstract NAME]

LOG gets one line per event, flushed at once:
    pkt PROTO SRC DST DPORT     a TCP or UDP packet arrived (any port)
    mark TEXT                   a UDP datagram to port 9 (the harness's
                                marker: everything before it has arrived)
    conn PORT PEER              a TCP connection was accepted
    dgram PORT PEER             a UDP datagram was received
    unix NAME                   a connection to the abstract socket
READY is created once every socket is listening.

UDP: "reflect:N" sent to a port is answered from that port and from port N
(a socket bound there for the purpose); anything else is echoed.
"""
import argparse
import socket
import struct
import threading

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
lock = threading.Lock()


def log(f, line):
    with lock:
        f.write(line + "\n")
        f.flush()


def sniff(f, sock):
    while True:
        data, addr = sock.recvfrom(65535)
        if addr[2] == PACKET_OUTGOING:
            continue
        off = 14 if addr[3] == 1 else 0  # Ethernet header (not on lo)
        if addr[3] == 772:  # loopback: an Ethernet header of zeros
            off = 14
        if len(data) < off + 1:
            continue
        ver = data[off] >> 4
        if ver == 4 and len(data) >= off + 20:
            ihl = (data[off] & 15) * 4
            proto = data[off + 9]
            src = socket.inet_ntop(socket.AF_INET, data[off + 12:off + 16])
            dst = socket.inet_ntop(socket.AF_INET, data[off + 16:off + 20])
            l4 = off + ihl
        elif ver == 6 and len(data) >= off + 40:
            proto = data[off + 6]
            src = socket.inet_ntop(socket.AF_INET6, data[off + 8:off + 24])
            dst = socket.inet_ntop(socket.AF_INET6, data[off + 24:off + 40])
            l4 = off + 40
        else:
            continue
        if proto not in (6, 17) or len(data) < l4 + 4:
            continue
        dport = struct.unpack("!H", data[l4 + 2:l4 + 4])[0]
        name = "tcp" if proto == 6 else "udp"
        if proto == 17 and dport == 9:
            log(f, "mark " + data[l4 + 8:].decode(errors="replace"))
        else:
            log(f, "pkt %s %s %s %d" % (name, src, dst, dport))


def families(bind):
    if bind:
        fam = socket.AF_INET6 if ":" in bind else socket.AF_INET
        return [(fam, bind)]
    return [(socket.AF_INET, "0.0.0.0"), (socket.AF_INET6, "::")]


def tcp_server(f, fam, addr, port, ready):
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if fam == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    s.bind((addr, port))
    s.listen(64)
    ready.release()
    while True:
        c, peer = s.accept()
        log(f, "conn %d %s" % (port, peer[0]))
        c.settimeout(2)
        try:
            d = c.recv(256)
            c.sendall(b"echo:" + d)
        except OSError:
            pass
        c.close()


def udp_server(f, fam, addr, port, ready):
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if fam == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    s.bind((addr, port))
    ready.release()
    while True:
        d, peer = s.recvfrom(2048)
        log(f, "dgram %d %s" % (port, peer[0]))
        if d.startswith(b"reflect:"):
            other = int(d[8:])
            o = socket.socket(fam, socket.SOCK_DGRAM)
            o.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            o.bind((addr, other))
            o.sendto(b"from-%d" % other, peer)
            o.close()
            s.sendto(b"from-%d" % port, peer)
        else:
            s.sendto(b"echo:" + d, peer)


def unix_server(f, name, ready):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind("\0" + name)
    s.listen(8)
    ready.release()
    while True:
        c, _ = s.accept()
        log(f, "unix " + name)
        c.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("ready")
    ap.add_argument("--bind", default="")
    ap.add_argument("--tcp", default="")
    ap.add_argument("--udp", default="")
    ap.add_argument("--abstract", default="")
    a = ap.parse_args()
    f = open(a.log, "a")
    sn = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                       socket.htons(ETH_P_ALL))
    threads = [threading.Thread(target=sniff, args=(f, sn), daemon=True)]
    ready = threading.Semaphore(0)
    n = 0
    for kind, ports in (("tcp", a.tcp), ("udp", a.udp)):
        for p in filter(None, ports.split(",")):
            for fam, addr in families(a.bind):
                fn = tcp_server if kind == "tcp" else udp_server
                threads.append(threading.Thread(
                    target=fn, args=(f, fam, addr, int(p), ready),
                    daemon=True))
                n += 1
    if a.abstract:
        threads.append(threading.Thread(
            target=unix_server, args=(f, a.abstract, ready), daemon=True))
        n += 1
    for t in threads:
        t.start()
    for _ in range(n):
        ready.acquire()
    open(a.ready, "w").close()
    threading.Event().wait()


main()
