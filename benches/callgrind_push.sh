#!/usr/bin/env bash
# Instruction counts (callgrind) of push parsing against bare quick-xml on
# the seven 4 MiB benchmark documents: push-all (every handler set, one
# call), push-all-1b (one byte a call) and quick-xml reading every event,
# in millions and per input byte, with the ratios the targets name.
#
#   benches/callgrind_push.sh [OUT.md] [DOCUMENT...]
#
# Builds the parse bench in release, writes the documents to
# $PHPXML_INPUTS (default /tmp/parse-inputs) if they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
inputs=${PHPXML_INPUTS:-/tmp/parse-inputs}
out=${1:-/dev/stdout}
shift || true
docs=("$@")
[ ${#docs[@]} -gt 0 ] || docs=(feed-ascii feed-french feed-cyrillic config nested short-text soap)
command -v valgrind >/dev/null || { echo "callgrind_push.sh: valgrind is not installed" >&2; exit 1; }

cargo bench -q --bench parse --no-run 2>/dev/null
bench=$(ls -t target/release/deps/parse-* | grep -v '\.d$' | head -1)
[ -f "$inputs/config-4MiB.xml" ] || PHPXML_WRITE_INPUTS="$inputs" "$bench" >/dev/null

. benches/common/instructions.sh
count() { # total instructions of one variant on one file
    PHPXML_PROFILE="$1 $2" instructions "$bench"
}

{
    echo '| document | push-all M | quick-xml M | push-all-1b M | push-all /byte | quick-xml /byte | push-all-1b /byte | quick-xml ÷ push-all | 1b ÷ one-shot |'
    echo '|---|---:|---:|---:|---:|---:|---:|---:|---:|'
    for doc in "${docs[@]}"; do
        file="$inputs/$doc-4MiB.xml"
        bytes=$(stat -c %s "$file")
        push=$(count push-all "$file")
        quick=$(count quick-xml "$file")
        byte=$(count push-all-1b "$file")
        awk -v d="$doc" -v n="$bytes" -v p="$push" -v q="$quick" -v b="$byte" 'BEGIN {
            printf "| %s | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f× | %.2f× |\n",
                d, p / 1e6, q / 1e6, b / 1e6, p / n, q / n, b / n, q / p, b / p
        }'
    done
} >"$out"
