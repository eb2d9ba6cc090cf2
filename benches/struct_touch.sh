#!/usr/bin/env bash
# What the struct commands cost in instructions and memory, per feed and
# target: one tab-separated row per command with the instructions
# (callgrind, millions, 4 MiB feed) and the minor page faults and peak
# resident set (kB, /usr/bin/time, 32 MiB feed) of the whole process.
# Counts, not times: they hold on a loaded machine.
#
#   benches/struct_touch.sh [BIN] [OUT.tsv]
#
# BIN defaults to target/release/phpxml (build it first, with or without
# `--features fast-alloc`: mimalloc asks for transparent huge pages, so its
# faults are mostly 2 MiB pages; glibc's count the 4 KiB pages touched).
# The feeds are the parse bench's documents in $PHPXML_INPUTS (default
# /tmp/parse-inputs; `benches/cli_table.sh` writes them). Compare two
# builds with: join -t$'\t' before.tsv after.tsv
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/phpxml}
out=${2:-/dev/stdout}
inputs=${PHPXML_INPUTS:-/tmp/parse-inputs}
command -v valgrind >/dev/null || { echo "struct_touch.sh: valgrind is not installed" >&2; exit 1; }
[ -f "$inputs/feed-french-4MiB.xml" ] || { echo "struct_touch.sh: no feeds in $inputs" >&2; exit 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
{
    printf 'row\tinstructions (M)\tminor faults\tpeak kB\n'
    for feed in feed-french feed-cyrillic feed-ascii; do
        for target in UTF-8 ISO-8859-1; do
            for cmd in "struct" "struct --quiet" "struct --format json"; do
                # shellcheck disable=SC2086
                valgrind --tool=callgrind --callgrind-out-file=/dev/null \
                    "$bin" $cmd --target-encoding "$target" "$inputs/$feed-4MiB.xml" >/dev/null 2>"$log"
                ins=$(awk '/Collected/ { printf "%.1f", $NF / 1e6 }' "$log")
                # shellcheck disable=SC2086
                /usr/bin/time -f '%R %M' -o "$log" \
                    "$bin" $cmd --target-encoding "$target" "$inputs/$feed-32MiB.xml" >/dev/null
                read -r faults peak <"$log"
                printf '%s %s %s\t%s\t%s\t%s\n' "$cmd" "$feed" "$target" "$ins" "$faults" "$peak"
            done
        done
    done
} >"$out"
