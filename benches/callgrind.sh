#!/usr/bin/env bash
# Instruction counts (callgrind, millions) of push-all and of
# `phpxml struct --quiet` on the seven 4 MiB benchmark documents: the check
# that a change which should not move speed did not (counts are stable under
# load, unlike times).
#
#   benches/callgrind.sh [OUT.tsv]
#
# Builds in release, writes the documents to $PHPXML_INPUTS (default
# /tmp/parse-inputs) if they are missing, and prints one row a document.
# Compare two builds with: join -t$'\t' before.tsv after.tsv
set -euo pipefail
cd "$(dirname "$0")/.."
inputs=${PHPXML_INPUTS:-/tmp/parse-inputs}
out=${1:-/dev/stdout}
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 1; }

cargo build -q --release -p phpxml-cli --features fast-alloc
cargo bench -q --bench parse --no-run 2>/dev/null
bench=$(ls -t target/release/deps/parse-* | grep -v '\.d$' | head -1)
[ -f "$inputs/config-4MiB.xml" ] || PHPXML_WRITE_INPUTS="$inputs" "$bench" >/dev/null

count() { # prints the total instructions of one command, in millions
    local log
    log=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$log"
    awk '/Collected/ { printf "%.1f", $NF / 1e6 }' "$log"
    rm -f "$log"
}

{
    printf 'document\tpush-all\tstruct\n'
    for doc in feed-ascii feed-french feed-cyrillic config nested short-text soap; do
        file="$inputs/$doc-4MiB.xml"
        push=$(PHPXML_PROFILE="push-all $file" count "$bench")
        cli=$(count target/release/phpxml struct --quiet --encoding UTF-8 "$file")
        printf '%s\t%s\t%s\n' "$doc" "$push" "$cli"
    done
} >"$out"
