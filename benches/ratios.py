#!/usr/bin/env python3
"""Turns criterion's results into the markdown tables of BENCHMARKS.md.

Usage: benches/ratios.py GROUP_PREFIX VARIANTS PAIRS

  GROUP_PREFIX  e.g. decode/4KiB: every criterion group under it is a row
  VARIANTS      comma-separated variants whose throughput is shown (GiB/s)
  PAIRS         comma-separated A:B pairs; each column is A's speed over
                B's (time of B / time of A), so > 1 means A is faster

Reads target/criterion/<group>/<variant>/new/{estimates,benchmark}.json and
uses the median time of each variant.
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "criterion")


def load(group_dir, variant, name):
    path = os.path.join(ROOT, group_dir, variant, "new", name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def main():
    prefix, variants, pairs = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
    pairs = [p.split(":") for p in pairs if p]
    dir_prefix = prefix.replace("/", "_") + "_"
    head = ["input"] + [f"{v} GiB/s" for v in variants] + [f"{a} ÷ {b}" for a, b in pairs]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for group_dir in sorted(d for d in os.listdir(ROOT) if d.startswith(dir_prefix)):
        times, size = {}, None
        for v in set(variants) | {x for p in pairs for x in p}:
            est = load(group_dir, v, "estimates.json")
            if est is not None:
                times[v] = est["median"]["point_estimate"]
                bench = load(group_dir, v, "benchmark.json")
                t = (bench or {}).get("throughput") or {}
                size = t.get("Bytes") or t.get("BytesDecimal") or size
        if not times or size is None:
            continue
        cells = [group_dir[len(dir_prefix):]]
        for v in variants:
            cells.append(f"{size / times[v] / 1.073741824:.2f}" if v in times else "–")
        for a, b in pairs:
            cells.append(f"{times[b] / times[a]:.2f}×" if a in times and b in times else "–")
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
