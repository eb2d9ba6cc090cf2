#!/usr/bin/env python3
"""Interleaved CPU-time comparison of two commands (whole process).

    benches/cpu_pair.py ROUNDS 'COMMAND A' 'COMMAND B'

Each round runs A and B once, in alternating order, output to /dev/null,
and takes each child's user + system time from wait4(). Prints the median
and the minimum of each, and their ratios (B / A). Taking turns keeps both
sides under the same load on a shared machine; the minimum is the run least
disturbed by other work.
"""
import os
import shlex
import statistics
import subprocess
import sys


def cpu_ms(argv):
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(argv, stdout=null)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"{argv[0]} exited {child.returncode}")
    return (usage.ru_utime + usage.ru_stime) * 1e3


def main():
    rounds, a, b = int(sys.argv[1]), shlex.split(sys.argv[2]), shlex.split(sys.argv[3])
    times = {0: [], 1: []}
    for warm in range(2):
        cpu_ms(a), cpu_ms(b)
    for r in range(rounds):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for k in order:
            times[k].append(cpu_ms((a, b)[k]))
    ma, mb = statistics.median(times[0]), statistics.median(times[1])
    na, nb = min(times[0]), min(times[1])
    print(f"A median {ma:.1f} ms min {na:.1f} ms | B median {mb:.1f} ms min {nb:.1f} ms"
          f" | ratio median {mb / ma:.2f} min {nb / na:.2f}")


main()
