#!/usr/bin/env python3
"""Turns the parse benchmark's results into the tables of benches/PARSE.md.

Usage: benches/parse_table.py [PHP_JSON...]

Reads target/criterion/parse_<size>_<document>/<variant>/new/ (written by
`cargo bench --bench parse --features expat`) and, if given, the JSON files that
`benches/php/parse_bench.php --json PHP_JSON` wrote. Prints, per size, the
throughput of every variant (MiB/s, from criterion's median time; PHP's
median of its runs) and the ratios the targets are about.
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "target", "criterion")
DOCS = ["feed-ascii", "feed-french", "feed-cyrillic", "config", "nested", "short-text", "soap"]
RUST = ["struct-utf8", "struct-latin1", "push-all", "push-elem", "push-all-4k", "push-elem-4k",
        "push-all-1b", "quick-xml", "expat", "expat-4k"]
PHP = ["struct-utf8", "struct-latin1", "push-all", "push-elem", "push-all-4k", "push-all-1b"]


def criterion(size, doc, variant):
    """(bytes, median seconds) or None."""
    base = os.path.join(ROOT, f"parse_{size}_{doc}", variant, "new")
    try:
        with open(os.path.join(base, "estimates.json")) as f:
            ns = json.load(f)["median"]["point_estimate"]
        with open(os.path.join(base, "benchmark.json")) as f:
            t = json.load(f).get("throughput") or {}
    except FileNotFoundError:
        return None
    return (t.get("Bytes") or t.get("BytesDecimal"), ns / 1e9)


def mibs(r):
    return None if r is None else r[0] / r[1] / 1048576


def fmt(x, unit=""):
    return "–" if x is None else f"{x:.0f}{unit}" if x >= 100 else f"{x:.1f}{unit}"


def ratio(a, b):
    return None if a is None or b is None else a / b


def main():
    php = {}
    for path in sys.argv[1:]:
        with open(path) as f:
            php.update(json.load(f))
    for size in ["4MiB", "32MiB"]:
        rows = [(doc, {v: mibs(criterion(size, doc, v)) for v in RUST}) for doc in DOCS]
        rows = [(d, r) for d, r in rows if any(x is not None for x in r.values())]
        if not rows:
            continue
        print(f"\n#### {size}: throughput, MiB/s (criterion median; PHP: median of its runs)\n")
        head = ["document"] + RUST + [f"PHP {v}" for v in PHP]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for doc, r in rows:
            p = php.get(f"{doc}-{size}", {})
            pm = {v: (p["bytes"] / p[v] / 1048576 if v in p else None) for v in PHP}
            cells = [doc] + [fmt(r[v]) for v in RUST] + [fmt(pm[v]) for v in PHP]
            print("| " + " | ".join(cells) + " |")
        print(f"\n#### {size}: ratios (higher is better for phpxml)\n")
        head = ["document", "push-all / quick-xml", "push-elem / quick-xml", "push-all / expat",
                "push-elem / expat", "push-all-4k / expat-4k", "1-byte slowdown (push-all / push-all-1b)",
                "struct-utf8 / PHP", "struct-latin1 / PHP", "push-all / PHP push-all"]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for doc, r in rows:
            p = php.get(f"{doc}-{size}", {})
            pm = {v: (p["bytes"] / p[v] / 1048576 if v in p else None) for v in PHP}
            cells = [doc] + [fmt(x, "×") for x in [
                ratio(r["push-all"], r["quick-xml"]),
                ratio(r["push-elem"], r["quick-xml"]),
                ratio(r["push-all"], r["expat"]),
                ratio(r["push-elem"], r["expat"]),
                ratio(r["push-all-4k"], r["expat-4k"]),
                ratio(r["push-all"], r["push-all-1b"]),
                ratio(r["struct-utf8"], pm["struct-utf8"]),
                ratio(r["struct-latin1"], pm["struct-latin1"]),
                ratio(r["push-all"], pm["push-all"]),
            ]]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
