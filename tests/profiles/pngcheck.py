#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""pngcheck.py FILE [RGB...]: read a PNG on the host, with the standard
library only (no matplotlib, no PIL: not the code that wrote it), and print
one line: "png WIDTHxHEIGHT depth D type T pixels N distinct K" followed by
"RRGGBB=COUNT" for each colour asked for (RGB as six hex digits), the
number of pixels of exactly that colour. Exit 1, with the reason on stderr,
if the file is not a well-formed 8-bit non-interlaced PNG: the signature,
every chunk's CRC, IHDR first, IEND last, the image data inflating to
exactly HEIGHT filtered rows, every filter type known."""
import struct
import sys
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # grey, RGB, grey+alpha, RGBA


def die(why):
    print("pngcheck: " + why, file=sys.stderr)
    sys.exit(1)


def chunks(data):
    pos = len(SIGNATURE)
    while pos < len(data):
        if pos + 12 > len(data):
            die("truncated chunk at byte %d" % pos)
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length or pos + 12 + length > len(data):
            die("chunk %r runs past the end" % kind)
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            die("bad CRC in chunk %r" % kind)
        yield kind, body
        pos += 12 + length


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:8] != SIGNATURE:
        die("no PNG signature: %r" % data[:8])
    found = list(chunks(data))
    if not found or found[0][0] != b"IHDR" or found[-1][0] != b"IEND":
        die("IHDR is not first or IEND not last")
    w, h, depth, ctype, comp, filt, interlace = struct.unpack(
        ">IIBBBBB", found[0][1])
    if depth != 8 or ctype not in CHANNELS or comp or filt or interlace:
        die("not an 8-bit non-interlaced PNG: depth %d type %d interlace %d"
            % (depth, ctype, interlace))
    bpp = CHANNELS[ctype]
    raw = zlib.decompress(b"".join(b for k, b in found if k == b"IDAT"))
    stride = w * bpp
    if len(raw) != h * (1 + stride):
        die("image data is %d bytes, not %d rows of %d"
            % (len(raw), h, 1 + stride))
    prev = bytearray(stride)
    counts = {}
    for row in range(h):
        f = raw[row * (1 + stride)]
        line = bytearray(raw[row * (1 + stride) + 1:(row + 1) * (1 + stride)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                line[i] = (line[i] + paeth(a, b, c)) & 255
            elif f != 0:
                die("unknown filter type %d in row %d" % (f, row))
        for i in range(0, stride, bpp):
            px = bytes(line[i:i + 3]) if bpp >= 3 else bytes(line[i:i + 1]) * 3
            counts[px] = counts.get(px, 0) + 1
        prev = line
    out = ["png %dx%d depth %d type %d pixels %d distinct %d"
           % (w, h, depth, ctype, w * h, len(counts))]
    for rgb in sys.argv[2:]:
        out.append("%s=%d" % (rgb, counts.get(bytes.fromhex(rgb), 0)))
    print(" ".join(out))


if __name__ == "__main__":
    main()
