#!/usr/bin/env python3
"""Checks PNG files against Python's zlib, an inflater and CRC-32 independent of viz/png.c (and of
png_check.c's reader): the signature, every chunk's CRC, and an IDAT stream that inflates to
exactly one filter byte plus width * 3 bytes per row.

    python3 png_zlib_check.py FILE...
"""
import struct
import sys
import zlib


def check(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "bad signature"
    at, idat, size = 8, b"", None
    while at < len(data):
        (n,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        (crc,) = struct.unpack(">I", data[at + 8 + n:at + 12 + n])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, "CRC of %r" % kind
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw = zlib.decompress(idat)
    assert size and len(raw) == size[1] * (1 + 3 * size[0]), "inflated size"
    print("%s: %d x %d, valid for zlib" % (path, size[0], size[1]))


for name in sys.argv[1:]:
    check(name)
