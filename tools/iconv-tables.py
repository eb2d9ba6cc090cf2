#!/usr/bin/env python3
"""Asks glibc's iconv on this machine (what libxml2 2.9.14 calls for every
label it does not decode itself) how each charset decodes every byte 00..FF,
and writes the data src/libxml/charsets/single_byte.rs reads:
single_byte.bin, one 256-entry table per stateless single-byte charset, and
single_byte.txt, its name and every label iconv resolves to it.

    tools/iconv-tables.py            # regenerate
    tools/iconv-tables.py --check    # fail if the committed files differ
    tools/iconv-tables.py --list     # charsets and labels, one per line

A label counts as libxml2 counts it: iconv_open() must succeed both ways
(xmlFindCharEncodingHandler opens a decoder and an encoder). A charset is
taken when every byte alone decodes to one character or is rejected
(EILSEQ), nothing is held back for a following byte (glibc's CP1255, CP1258
and TCVN compose and hold a base letter), and nothing waits for more input.
"""
import ctypes
import ctypes.util
import os
import subprocess
import sys

from table_files import write_or_check

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# OUT.bin: the code points; OUT.txt: names and labels (read by single_byte.rs)
OUT = os.path.join(ROOT, "src", "libxml", "charsets", "single_byte")

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
libc.iconv_open.restype = ctypes.c_void_p
libc.iconv_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
libc.iconv.restype = ctypes.c_size_t
libc.iconv.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p),
                       ctypes.POINTER(ctypes.c_size_t),
                       ctypes.POINTER(ctypes.c_char_p),
                       ctypes.POINTER(ctypes.c_size_t)]
libc.iconv_close.argtypes = [ctypes.c_void_p]
FAIL = ctypes.c_void_p(-1).value
EILSEQ, EINVAL = 84, 22


def opens(name):
    """Both directions, as xmlFindCharEncodingHandler requires."""
    a = libc.iconv_open(b"UTF-8", name.encode())
    if a in (None, FAIL):
        return None
    b = libc.iconv_open(name.encode(), b"UTF-8")
    if b in (None, FAIL):
        libc.iconv_close(a)
        return None
    libc.iconv_close(b)
    return a


def convert(cd, data):
    """One iconv() call without a flush, from the initial state, as
    xmlIconvWrapper makes it: (utf-8 output, bytes consumed, errno or 0)."""
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
    produced = outbuf.raw[: len(outbuf) - nout.value]
    return produced, len(data) - nin.value, err


def single_byte_table(cd):
    """The charset's 256 code points (None: rejected), or None when it is not
    a stateless single-byte charset."""
    table = []
    for b in range(256):
        out, used, err = convert(cd, [b])
        if err == EILSEQ and used == 0 and not out:
            table.append(None)
            continue
        if err or used != 1:
            return None
        s = out.decode("utf-8", "surrogatepass")
        if len(s) != 1:
            return None
        table.append(ord(s))
    valid = [b for b in range(256) if table[b] is not None]
    out, used, err = convert(cd, valid)
    if err or used != len(valid) or out.decode("utf-8", "surrogatepass") != "".join(chr(table[b]) for b in valid):
        return None
    return table


def labels():
    text = subprocess.run(["iconv", "-l"], capture_output=True, text=True, check=True).stdout
    names = []
    for item in text.replace(",", "\n").split():
        item = item.strip().rstrip("/")
        if item:
            names.append(item)
    return names


def is_xml_name(label):
    """What xmlParseEncName accepts: [A-Za-z] ([A-Za-z0-9._] | '-')*."""
    return label[:1].isascii() and label[:1].isalpha() and all(
        c.isascii() and (c.isalnum() or c in "._-") for c in label)


def collect():
    tables = {}  # tuple(table) -> [labels]
    for label in labels():
        if not is_xml_name(label):
            continue
        cd = opens(label)
        if cd is None:
            continue
        table = single_byte_table(cd)
        libc.iconv_close(cd)
        if table is not None:
            tables.setdefault(tuple(table), []).append(label.upper())
    return tables


# Names shown for a charset, in this order of preference among its labels.
PREFERRED = ["ISO-8859-1", "ANSI_X3.4-1968", "WINDOWS-1250", "WINDOWS-1251", "WINDOWS-1252",
             "WINDOWS-1253", "WINDOWS-1254", "WINDOWS-1256", "WINDOWS-1257", "KOI8-R", "KOI8-U",
             "IBM866", "MACCYRILLIC", "MACINTOSH", "TIS-620", "CP874", "IBM850", "IBM037",
             "IBM500", "IBM1047"]


def display_name(names):
    for p in PREFERRED:
        if p in names:
            return p
    iso = sorted(n for n in names if n.startswith("ISO-8859-"))
    return iso[0] if iso else sorted(names)[0]


def render(tables):
    """The two data files: the code points of every charset, 256 little-endian
    u16 each (0xFFFF: rejected), and one line a charset in the same order, its
    name, a tab and its labels (upper-cased, as iconv matches them
    case-insensitively)."""
    charsets = sorted(((display_name(n), t, sorted(set(n))) for t, n in tables.items()))
    points = bytearray()
    lines = []
    for name, table, names in charsets:
        assert all(c is None or c < 0xFFFF for c in table), name
        for c in table:
            points += (0xFFFF if c is None else c).to_bytes(2, "little")
        lines.append(name + "\t" + " ".join(names) + "\n")
    return {OUT + ".bin": bytes(points), OUT + ".txt": "".join(lines).encode()}, charsets


def main():
    tables = collect()
    files, charsets = render(tables)
    if "--list" in sys.argv:
        for name, _, names in charsets:
            print(name + "\t" + " ".join(names))
        return
    if write_or_check(files, "iconv"):
            print(f"{len(charsets)} charsets, {sum(len(n) for _, _, n in charsets)} labels -> {OUT}.{{bin,txt}}")


if __name__ == "__main__":
    main()
