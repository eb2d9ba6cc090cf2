#!/usr/bin/env python3
"""Sorts inputs of the `chunked` fuzz target by what PHP does with them.

    python3 fuzz/php-triage.py DIR [LIMIT]
    python3 fuzz/php-triage.py --plain DIR     # cases of tests/mutated_fixtures.rs

For each input (header + chunk plan + document, see fuzz/src/lib.rs) runs
PHP (reference/phpxml.php trace --pieces) and phpxml (fuzz/target/release/replay) whole and
in the input's chunks, every handler set as in trace.php, and prints one line
per input in one of these classes:

  php-depends   PHP itself gives different whole and chunked results
                (ours must then equal PHP in both modes: `ours-differs`
                marks where it does not)
  ours-only     PHP gives the same results, phpxml does not: a bug
  same          neither differs with every handler set (the difference
                needs the input's handler set, which PHP's script cannot
                replay)
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from importlib import import_module

check = import_module("php-check")
REPLAY = os.path.join(HERE, "target", "release", "replay")
PHP = ["php", "-d", "error_reporting=0", os.path.join(os.path.dirname(HERE), "reference", "phpxml.php"), "trace"]


def php(sizes, args, xml):
    """reference/phpxml.php fed as replay is: SIZES "0" is the whole at once."""
    return run(PHP + ([] if sizes == "0" else ["--pieces", sizes]) + args + [xml])


def run(cmd):
    return subprocess.run(cmd, capture_output=True, timeout=60).stdout


def plain(d):
    """Cases written by tests/mutated_fixtures.rs: N.xml and N.case (sizes, options)."""
    counts = {}
    for name in sorted(os.listdir(d)):
        if not name.endswith(".case"):
            continue
        sizes, args = open(os.path.join(d, name)).read().split("\n")[:2]
        xml = os.path.join(d, name[:-5] + ".xml")
        args = args.split()
        pw = php("0", args, xml)
        pc = php(sizes, args, xml)
        ow = run([REPLAY, "0"] + args + [xml])
        oc = run([REPLAY, sizes] + args + [xml])
        if pw != pc:
            cls = "php-depends" + ("" if (ow, oc) == (pw, pc) else " ours-differs")
        else:
            cls = "ours-only" if ow != oc else "same"
        counts[cls] = counts.get(cls, 0) + 1
        print(f"{cls}\t{name}\t{sizes}\t{' '.join(args)}", flush=True)
    print(counts, file=sys.stderr)


def main():
    if sys.argv[1] == "--plain":
        plain(sys.argv[2])
        return
    d = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 10**9
    counts = {}
    for name in sorted(os.listdir(d))[:limit]:
        data = open(os.path.join(d, name), "rb").read()
        try:
            args, sizes, doc = check.decode(data, True)
        except Exception:
            continue
        with tempfile.NamedTemporaryFile(suffix=".xml", delete=False) as f:
            f.write(doc)
        s = ",".join(map(str, sizes))
        try:
            pw = php("0", args, f.name)
            pc = php(s, args, f.name)
            ow = run([REPLAY, "0"] + args + [f.name])
            oc = run([REPLAY, s] + args + [f.name])
        finally:
            os.unlink(f.name)
        if pw != pc:
            cls = "php-depends" + ("" if (ow, oc) == (pw, pc) else " ours-differs")
        elif ow != oc:
            cls = "ours-only"
        else:
            cls = "same" + ("" if ow == pw else " ours-differs")
        counts[cls] = counts.get(cls, 0) + 1
        print(f"{cls}\t{name}\t{s}\t{' '.join(args)}\t{doc[:120]!r}", flush=True)
    print(counts, file=sys.stderr)


if __name__ == "__main__":
    main()
