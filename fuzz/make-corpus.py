#!/usr/bin/env python3
"""Builds the seed corpora of the fuzz targets from the PHP fixtures.

    python3 fuzz/make-corpus.py        # writes fuzz/corpus/<target>/ (git-ignored)

Each fixture document fixtures/php/**/NAME.xml becomes one seed per target,
with the header bytes its NAME.args stand for (see fuzz/src/lib.rs): the
options of the reference script, all handlers for trace and none for struct,
and for `chunked` the fixture's --chunk size (or 1 byte). The decoder targets
also get the utf8_decode/utf8_encode boundary strings of fixtures/utf8.
Seeds are cut at MAX bytes; names are content hashes, so reruns add nothing.
"""
import hashlib
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")
OUT = os.path.join(HERE, "corpus")
MAX = 16384

ENCODINGS = {"ISO-8859-1": 2, "US-ASCII": 3, "UTF-8": 4, "utf-8": 5, "iso-8859-1": 6}
SEPARATORS = {":": 0, "@": 1, "#": 2, "|": 3, "::": 4, "->": 5, "^": 7}
TARGETS = {"ISO-8859-1": 1, "US-ASCII": 2, "UTF-8": 3}
TAGSTARTS = {"1": 1, "3": 2, "100": 3}


def header(args):
    toks = args.split()
    sub, opts = toks[0], toks[1:]
    b0 = b1 = 0
    b2 = 0xFF if sub == "trace" else 0
    chunk = 1
    i = 0
    while i < len(opts):
        o = opts[i]
        if o == "--quiet":
            i += 1
            continue
        v = opts[i + 1]
        i += 2
        if o == "--encoding":
            b0 |= ENCODINGS.get(v, 0)
        elif o == "--ns":
            b0 |= 8 | (SEPARATORS.get(v, 0) << 4)
        elif o == "--case-folding":
            b1 |= 1 | (2 if v not in ("0", "") else 0)
        elif o == "--skip-white":
            b1 |= 4 | (8 if v not in ("0", "") else 0)
        elif o == "--target-encoding":
            b1 |= TARGETS.get(v, 0) << 4
        elif o == "--skip-tagstart":
            b1 |= TAGSTARTS.get(v, 1) << 6
        elif o == "--chunk":
            chunk = max(1, min(int(v), 128))
    return bytes([b0, b1, b2]), chunk


def write(target, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    data = data[:MAX]
    p = os.path.join(d, hashlib.sha1(data).hexdigest())
    if not os.path.exists(p):
        with open(p, "wb") as f:
            f.write(data)


def main():
    n = 0
    for dirpath, _, files in os.walk(os.path.join(FIXTURES, "php")):
        for f in sorted(files):
            if not f.endswith(".args"):
                continue
            base = os.path.join(dirpath, f[:-5])
            xml = open(base + ".xml", "rb").read()
            hdr, chunk = header(open(base + ".args").read())
            doc = xml[: MAX - 8]
            write("parse", hdr + doc)
            write("chunked", hdr + bytes([chunk - 1]) + doc)
            write("chunked", hdr + bytes([0x81, 0, 6]) + doc)
            write("decode", bytes([len(doc) % 16]) + doc)
            write("stream_decode", bytes([n % 3, 0x82, 0, 2, 63]) + doc)
            n += 1
    cases = os.path.join(FIXTURES, "utf8", "cases.txt")
    for line in open(cases):
        raw = bytes.fromhex(line.split()[0]) if line.split() else b""
        write("decode", bytes([len(raw) % 16]) + raw)
        write("stream_decode", bytes([len(raw) % 3, 0]) + raw)
    for t in sorted(os.listdir(OUT)):
        print(f"{t}: {len(os.listdir(os.path.join(OUT, t)))} seeds")


if __name__ == "__main__":
    main()
