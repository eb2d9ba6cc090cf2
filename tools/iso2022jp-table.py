#!/usr/bin/env python3
"""Asks glibc's iconv on this machine (what libxml2 2.9.14 calls for the
label ISO-2022-JP) how it decodes every two-byte JIS X 0208 code 21..7E x
21..7E after ESC $ B, and writes src/libxml/charsets/jisx0208.bin: 94 x 94
big-endian u16 code points, 0 where iconv rejects the pair (EILSEQ).

    tools/iso2022jp-table.py            # regenerate
    tools/iso2022jp-table.py --check    # fail if the committed file differs

It also checks the assumptions src/libxml/charsets/stateful.rs makes about
glibc's iso-2022-jp.c: ESC $ @ (JIS X 0208-1978) decodes with the same
table, ESC ( J (JIS X 0201 Roman) differs from ASCII only at 5C and 7E.
"""
import ctypes
import ctypes.util
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "libxml", "charsets", "jisx0208.bin")

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
libc.iconv_open.restype = ctypes.c_void_p
libc.iconv_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
libc.iconv.restype = ctypes.c_size_t
libc.iconv.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p),
                       ctypes.POINTER(ctypes.c_size_t),
                       ctypes.POINTER(ctypes.c_char_p),
                       ctypes.POINTER(ctypes.c_size_t)]
EILSEQ = 84


def convert(cd, data):
    """One iconv() call from the initial state: (utf-8 output, bytes
    consumed, errno or 0)."""
    libc.iconv(cd, None, None, None, None)
    inbuf = ctypes.create_string_buffer(bytes(data), len(data))
    outbuf = ctypes.create_string_buffer(64 + 8 * len(data))
    pin = ctypes.c_char_p(ctypes.addressof(inbuf))
    pout = ctypes.c_char_p(ctypes.addressof(outbuf))
    nin = ctypes.c_size_t(len(data))
    nout = ctypes.c_size_t(len(outbuf))
    ctypes.set_errno(0)
    r = libc.iconv(cd, ctypes.byref(pin), ctypes.byref(nin), ctypes.byref(pout), ctypes.byref(nout))
    err = ctypes.get_errno() if r == ctypes.c_size_t(-1).value else 0
    return outbuf.raw[: len(outbuf) - nout.value], len(data) - nin.value, err


def pair(cd, escape, lead, trail):
    """The code point iconv gives the pair, 0 when it rejects it."""
    out, used, err = convert(cd, escape + bytes([lead, trail]))
    if err == EILSEQ and used == 3 and not out:
        return 0
    s = out.decode("utf-8")
    assert not err and used == 5 and len(s) == 1, (lead, trail, out, used, err)
    assert ord(s) <= 0xFFFF
    return ord(s)


def main():
    cd = libc.iconv_open(b"UTF-8", b"ISO-2022-JP")
    assert cd not in (None, ctypes.c_void_p(-1).value)
    table = bytearray()
    for lead in range(0x21, 0x7F):
        for trail in range(0x21, 0x7F):
            c = pair(cd, b"\x1b$B", lead, trail)
            assert pair(cd, b"\x1b$@", lead, trail) == c
            table += struct.pack(">H", c)
    for b in range(0x21, 0x7F):
        out, used, err = convert(cd, b"\x1b(J" + bytes([b]))
        want = {0x5C: "\u00a5", 0x7E: "\u203e"}.get(b, chr(b))
        assert (out.decode("utf-8"), used, err) == (want, 4, 0), b
    if "--check" in sys.argv:
        with open(OUT, "rb") as f:
            if f.read() != bytes(table):
                sys.exit("%s differs from iconv's table" % OUT)
        print("%s: iconv agrees" % OUT)
        return
    with open(OUT, "wb") as f:
        f.write(table)
    print("%d defined pairs -> %s" % (sum(1 for i in range(0, len(table), 2) if table[i:i + 2] != b"\0\0"), OUT))


main()
