#!/usr/bin/env python3
"""Re-encodes a drape-view screenshot for committing: the viewer writes PNGs without compression
(stored deflate blocks, so that it needs no zlib); this picks a filter per row (the smallest sum of
absolute differences, as libpng's heuristic does) and compresses with zlib at level 9, about ten
times smaller. It also checks the input with a real inflater.

    python3 viz/tools/png_compact.py build/bin/drape-view.png docs/viewer.png
"""
import struct
import sys
import zlib


def chunks(data):
    at = 8
    while at < len(data):
        (n,) = struct.unpack(">I", data[at:at + 4])
        yield data[at + 4:at + 8], data[at + 8:at + 8 + n]
        at += 12 + n


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def main(src, dst):
    data = open(src, "rb").read()
    idat, width, height = b"", 0, 0
    for kind, body in chunks(data):
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
            assert body[8:10] == b"\x08\x02", "8-bit RGB only"
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = 1 + 3 * width
    out, prev = bytearray(), bytes(3 * width)
    for y in range(height):
        assert raw[y * stride] == 0, "unfiltered input only"
        row = raw[y * stride + 1:(y + 1) * stride]
        best = None
        for f in range(5):
            o = bytearray(len(row))
            for i, v in enumerate(row):
                a = row[i - 3] if i >= 3 else 0
                b = prev[i]
                c = prev[i - 3] if i >= 3 else 0
                o[i] = (v - (0, a, b, (a + b) // 2, paeth(a, b, c))[f]) & 255
            cost = sum(v if v < 128 else 256 - v for v in o)
            if best is None or cost < best[0]:
                best = (cost, f, o)
        out.append(best[1])
        out += best[2]
        prev = row

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    png = (b"\x89PNG\r\n\x1a\n" +
           chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
           chunk(b"IDAT", zlib.compress(bytes(out), 9)) + chunk(b"IEND", b""))
    open(dst, "wb").write(png)
    print("%s: %d x %d, %d bytes (from %d)" % (dst, width, height, len(png), len(data)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
