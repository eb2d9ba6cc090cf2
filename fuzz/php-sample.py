#!/usr/bin/env python3
"""phpxml in pieces against PHP in the same pieces, on mutated fixtures.

    python3 fuzz/php-sample.py [COUNT] [SEED]      # 5000, 6 by default

Mutates documents of fixtures/php (the mutations of tests/mutated_fixtures.rs,
SplitMix64 from SEED: the same inputs on every run), cuts each into random
pieces (a cycle of one to seven sizes, or pieces of 1) and feeds them to PHP
(reference/phpxml.php trace --pieces) and to phpxml (fuzz/target/release/replay) with the
fixture's options: every handler call, the return value, error code, line,
column and byte index must be equal. Prints each difference (with a file to
replay it under /tmp/php-sample/) and the counts.

Needs the replay binary (`cd fuzz && cargo build --release --features replay
--bin replay`) and PHP 8.2 with the xml extension.
"""
import ctypes
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
REPLAY = os.path.join(HERE, "target", "release", "replay")
PHP = ["php", "-d", "error_reporting=0", os.path.join(TOP, "reference", "phpxml.php"), "trace"]
OUT = "/tmp/php-sample"
MAX_LEN = 8192
MASK = (1 << 64) - 1

INTERESTING = (b"<>&;#x\"'=/!?-[]:% \t\r\n\0\x01\x7f\x80\xbf\xc0\xc3\xa9\xe2\x82\xac"
               b"\xed\xa0\xef\xbb\xf0\x9f\xf8\xffaZ09")
SNIPPETS = [b"<!--", b"-->", b"<![CDATA[", b"]]>", b"<?", b"?>", b"</", b"/>", b"&amp;",
            b"&#x41;", b"&#0;", b"&e;", b"<!DOCTYPE a [<!ENTITY e \"x&#38;y\">]>", b"<!ENTITY",
            b"xmlns:p=\"urn:p\"", b"p:", b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>",
            b"\xef\xbb\xbf", b"\r\n"]


class Rng:
    """SplitMix64, as tests/mutated_fixtures.rs."""

    def __init__(self, seed):
        self.s = seed & MASK

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % max(n, 1)


def mutate(rng, doc, other):
    """One to three mutations (tests/mutated_fixtures.rs `mutate`)."""
    d = bytearray(doc)
    for _ in range(rng.below(3) + 1):
        at = rng.below(len(d) + 1)
        k = rng.below(8)
        if k == 0 and d:
            d[rng.below(len(d))] ^= 1 << rng.below(8)
        elif k == 1 and d:
            d[rng.below(len(d))] = INTERESTING[rng.below(len(INTERESTING))]
        elif k == 2:
            d[at:at] = INTERESTING[rng.below(len(INTERESTING))].to_bytes(1, "big")
        elif k == 3:
            d[at:at] = SNIPPETS[rng.below(len(SNIPPETS))]
        elif k == 4:
            n = min(rng.below(16), len(d) - at)
            del d[at:at + n]
        elif k == 5:
            n = min(rng.below(32), len(d) - at)
            copy = d[at:at + n]
            to = rng.below(len(d) + 1)
            d[to:to] = copy
        elif k == 6 and other:
            f = rng.below(len(other))
            n = min(rng.below(64), len(other) - f)
            d[at:at] = other[f:f + n]
        else:
            del d[at:]
    return bytes(d)


def fixtures():
    docs = []
    root = os.path.join(TOP, "fixtures", "php")
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith(".args"):
                continue
            words = open(os.path.join(dirpath, f)).read().split()
            if not words or words[0] == "json" or "--parse-huge" in words:
                continue
            xml = os.path.join(dirpath, f[:-5] + ".xml")
            if not os.path.exists(xml) or os.path.getsize(xml) > MAX_LEN:
                continue
            opts, it = [], iter(words[1:])
            for w in it:
                if w == "--chunk":
                    next(it, None)
                elif w != "--quiet":
                    opts.append(w)
            docs.append((os.path.relpath(xml, TOP), open(xml, "rb").read(), opts))
    docs.sort()
    if len(docs) < 900:
        sys.exit(f"fixtures found: {len(docs)}")
    return docs


def run(cmd):
    return subprocess.run(cmd, capture_output=True, timeout=60).stdout


LIBC = ctypes.CDLL(None)
LIBC.iconv_open.restype = ctypes.c_void_p
LIBC.iconv_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
LIBC.iconv_close.argtypes = [ctypes.c_void_p]


def iconv_opens(label):
    """Whether glibc's iconv opens `label` (libxml2 asks it before ICU)."""
    cd = LIBC.iconv_open(b"UTF-8", label)
    if cd in (None, ctypes.c_void_p(-1).value):
        return False
    LIBC.iconv_close(cd)
    return True


def not_decoded():
    """The labels of ENCODINGS.md's "Not decoded yet" tables, upper-cased."""
    with open(os.path.join(TOP, "ENCODINGS.md"), encoding="utf-8") as f:
        text = f.read().split("## Not decoded yet", 1)[1]
    return {m.upper().encode() for m in re.findall(r"^\| `([^`]+)` \|", text, re.M)}


NOT_DECODED = not_decoded()


def undecoded_label(path, php, ours):
    """A known limit (ENCODINGS.md, "Not decoded yet"): phpxml answers 32
    "Unsupported encoding" to a declared label that table lists, or to one
    iconv does not open, which PHP's libxml2 then opened with one of ICU's
    multi-byte converters."""
    last = lambda out: out.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    if not last(ours).startswith(b"result 32 ") or last(php).startswith(b"result 32 "):
        return False
    with open(path, "rb") as f:
        # the declaration's ASCII, also in a UTF-16 or UCS-4 document
        head = f.read(600).replace(b"\x00", b"")
    m = re.search(rb"""encoding\s*=\s*["']([^"']*)["']""", head)
    return m is not None and (m.group(1).upper() in NOT_DECODED or not iconv_opens(m.group(1)))


def check(case):
    n, sizes, opts, path = case
    s = ",".join(map(str, sizes))
    php = run(PHP + ["--pieces", s] + opts + [path])
    ours = run([REPLAY, s] + opts + [path])
    malformed = not php.endswith(b'"No error"\n')
    known = php != ours and undecoded_label(path, php, ours)
    return n, s, opts, path, php == ours, known, malformed, len(php) > 0


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    if not os.path.exists(REPLAY):
        sys.exit(f"no {REPLAY}: cd fuzz && cargo build --release --features replay --bin replay")
    docs = fixtures()
    rng = Rng(seed)
    os.makedirs(OUT, exist_ok=True)
    cases = []
    for n in range(count):
        _, base, opts = docs[rng.below(len(docs))]
        other = docs[rng.below(len(docs))][1]
        doc = mutate(rng, base, other)
        if rng.below(4) == 0:
            sizes = [1]
        else:
            sizes = [1 + rng.below(8 if rng.below(2) == 0 else 300) for _ in range(rng.below(7) + 1)]
        path = os.path.join(OUT, f"{n}.xml")
        with open(path, "wb") as f:
            f.write(doc)
        cases.append((n, sizes, opts, path))
    start = time.time()
    same = differ = known = malformed = pieces = 0
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for n, s, opts, path, equal, undecoded, bad, ran in pool.map(check, cases):
            if not ran:
                sys.exit(f"PHP printed nothing for {path}: does reference/phpxml.php run?")
            malformed += bad
            doc_len = os.path.getsize(path)
            sizes = list(map(int, s.split(",")))
            k, at = 0, 0
            while at < doc_len:
                at += sizes[k % len(sizes)]
                k += 1
            pieces += k
            if equal:
                same += 1
            elif undecoded:
                known += 1
                print(f"known (label not decoded)\t{path}\t{s}\t{' '.join(opts)}", flush=True)
            else:
                differ += 1
                print(f"differs\t{path}\t{s}\t{' '.join(opts)}", flush=True)
    print(f"{count} mutated inputs (seed {seed}; {malformed} malformed in PHP), {pieces} pieces: "
          f"{same} the same as PHP in the same pieces, {known} labels phpxml does not decode "
          f"(ENCODINGS.md's known limit), {differ} different; {time.time() - start:.0f} s")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
