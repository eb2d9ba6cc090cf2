#!/usr/bin/env python3
"""Replays a `chunked` (or `parse`) fuzz input through PHP and phpxml.

    python3 fuzz/php-check.py [--parse] ARTIFACT

Decodes the header (fuzz/src/lib.rs) into reference-script options, writes
the document to a temporary file and prints what PHP prints
(reference/phpxml.php trace) whole and with --chunk N (fixed-size plans
only), next to what `phpxml trace` prints. The trace sets every handler, so the fuzz input's handler byte is
not replayed.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
REF = os.path.join(TOP, "reference", "phpxml.php")

ENCODINGS = [None, None, "ISO-8859-1", "US-ASCII", "UTF-8", "utf-8", "iso-8859-1", None]
# fuzz/src/lib.rs's DECLARATIONS
DECLARATIONS = ["windows-1251", "KOI8-R", "ISO-8859-2", "ISO8859-7", "IBM037", "macintosh", "CP866",
                "TIS-620", "Shift_JIS", "windows-31j", "EUC-JP", "GB2312", "GBK", "GB18030", "Big5",
                "Big5-HKSCS", "EUC-KR", "CP949", "UCS-2", "UCS-2BE", "UCS-4", "UTF-32", "UTF-32BE",
                "UTF-16LE", "ISO-2022-JP", "windows-1255", "windows-1258", "TCVN", "x-mac-cyrillic",
                "LATIN-2", "windows-28595", "ascii7"]
SEPARATORS = [":", "@", "#", "|", "::", "->", "", "^"]
TARGETS = [None, "ISO-8859-1", "US-ASCII", "UTF-8"]
TAGSTARTS = [None, "1", "3", "100"]


def decode(data, chunked):
    h, rest = data[:3], data[3:]
    decl = None
    if h[0] & 0x80:
        decl, rest = DECLARATIONS[rest[0] % len(DECLARATIONS)], rest[1:]
    args = []
    if ENCODINGS[h[0] & 7]:
        args += ["--encoding", ENCODINGS[h[0] & 7]]
    if h[0] & 8 and SEPARATORS[(h[0] >> 4) & 7]:
        args += ["--ns", SEPARATORS[(h[0] >> 4) & 7]]
    if h[1] & 1:
        args += ["--case-folding", "1" if h[1] & 2 else "0"]
    if h[1] & 4:
        args += ["--skip-white", "1" if h[1] & 8 else "0"]
    if TARGETS[(h[1] >> 4) & 3]:
        args += ["--target-encoding", TARGETS[(h[1] >> 4) & 3]]
    if TAGSTARTS[h[1] >> 6]:
        args += ["--skip-tagstart", TAGSTARTS[h[1] >> 6]]
    sizes = None
    if chunked:
        m, rest = rest[0], rest[1:]
        if m < 128:
            sizes = [m + 1]
        else:
            n = (m & 15) + 1
            sizes, rest = [b + 1 for b in rest[:n]], rest[n:]
    if decl:
        rest = b'<?xml version="1.0" encoding="' + decl.encode() + b'"?>' + rest
    return args, sizes, rest


def run(cmd):
    return subprocess.run(cmd, capture_output=True).stdout.decode("utf-8", "replace")


def main():
    parse_only = sys.argv[1] == "--parse"
    path = sys.argv[-1]
    data = open(path, "rb").read()
    args, sizes, doc = decode(data, not parse_only)
    print("args", args, "chunks", sizes)
    print("doc", repr(doc))
    exe = os.environ.get("PHPXML", os.path.join(TOP, "target", "debug", "phpxml"))
    with tempfile.NamedTemporaryFile(suffix=".xml", delete=False) as f:
        f.write(doc)
    try:
        variants = [[]]
        if sizes and len(sizes) == 1:
            variants.append(["--chunk", str(sizes[0])])
        for v in variants:
            php = run(["php", "-d", "error_reporting=0", REF, "trace"] + args + v + [f.name])
            ours = run([exe, "trace"] + args + v + [f.name])
            print(f"== PHP trace {' '.join(v)}\n{php}", end="")
            if ours != php:
                print(f"== phpxml differs:\n{ours}", end="")
            else:
                print("== phpxml same")
    finally:
        os.unlink(f.name)


if __name__ == "__main__":
    main()
