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
import importlib.util
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "libxml", "charsets", "jisx0208.bin")

# iconv over ctypes, as tools/iconv-tables.py asks it
_spec = importlib.util.spec_from_file_location("iconv_tables", os.path.join(ROOT, "tools", "iconv-tables.py"))
iconv_tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(iconv_tables)
convert, EILSEQ = iconv_tables.convert, iconv_tables.EILSEQ


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
    cd = iconv_tables.opens("ISO-2022-JP")
    assert cd is not None
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
