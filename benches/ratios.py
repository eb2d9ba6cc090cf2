#!/usr/bin/env python3
"""Turns criterion's results into the markdown tables of BENCHMARKS.md.

Usage: benches/ratios.py GROUP_PREFIX BASELINE [VARIANT ...]

Reads target/criterion/<group>/<variant>/new/estimates.json for every group
whose name starts with GROUP_PREFIX, and prints one row per group: the
throughput of each variant (GiB/s, from the median time) and its speed
relative to BASELINE (>1 means faster than the baseline).
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "target", "criterion")


def median_ns(group, variant):
    path = os.path.join(ROOT, group, variant, "new", "estimates.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)["median"]["point_estimate"]


def throughput_bytes(group, variant):
    path = os.path.join(ROOT, group, variant, "new", "benchmark.json")
    with open(path) as f:
        t = json.load(f).get("throughput") or {}
    return t.get("Bytes") or t.get("BytesDecimal")


def main():
    prefix, baseline, *variants = sys.argv[1:]
    variants = [baseline] + variants
    groups = sorted(
        d.replace("_", "/", 0)
        for d in os.listdir(ROOT)
        if d.startswith(prefix.replace("/", "_"))
    )
    head = ["input"] + [f"{v} GiB/s" for v in variants] + [f"{v} / {baseline}" for v in variants[1:]]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for g in groups:
        times = {v: median_ns(g, v) for v in variants}
        if times[baseline] is None:
            continue
        size = throughput_bytes(g, baseline)
        cells = [g[len(prefix.replace("/", "_")):].lstrip("_")]
        for v in variants:
            t = times[v]
            cells.append("–" if t is None else f"{size / t / 1.073741824:.2f}")
        for v in variants[1:]:
            t = times[v]
            cells.append("–" if t is None else f"{times[baseline] / t:.2f}×")
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
