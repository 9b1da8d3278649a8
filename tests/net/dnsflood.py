#!/usr/bin/env python3
"""tests/net/dnsflood.py: a flood of DNS queries at the sandbox's stub
(tests/net/names.sh): N queries for distinct names as fast as one process
can send them, then one ordinary lookup. Prints "sent N answered M" and
the lookup's address (or "noaddr"). A second argument sends them to that
server instead of the stub (the attack suite's control, outside)."""
import socket
import struct
import sys
import time


def query(qid, name):
    q = struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    return q + b"\0" + struct.pack("!HH", 1, 1)


def main():
    n = int(sys.argv[1])
    server = sys.argv[2] if len(sys.argv) > 2 else "127.0.0.53"
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setblocking(False)
    sent = answered = 0
    for i in range(n):
        try:
            s.sendto(query(i & 0xffff, "f%d.flood.test" % i), (server, 53))
            sent += 1
        except BlockingIOError:
            pass
        try:
            while True:
                s.recv(512)
                answered += 1
        except BlockingIOError:
            pass
    end = time.time() + 3
    s.settimeout(0.2)
    while time.time() < end:
        try:
            s.recv(512)
            answered += 1
        except socket.timeout:
            break
    print("sent", sent, "answered", answered)
    try:
        print(socket.gethostbyname("index.test"))
    except OSError:
        print("noaddr")


if __name__ == "__main__":
    main()
