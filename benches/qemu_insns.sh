#!/usr/bin/env bash
# aarch64 instruction counts (thousands, whole process) of the `phpxml`
# command under qemu-aarch64, scalar build against NEON build, where no ARM
# machine is at hand: qemu runs one guest instruction per translation block
# (`-singlestep`) and logs each block it runs (`-d nochain,exec`), so the
# log's lines count the instructions executed. Counts, not times: what an
# ARM core makes of them (NEON throughput, table lookups) is not measured.
#
#   benches/qemu_insns.sh SCALAR_BIN NEON_BIN [INPUTS] [KIB]
#
# The last rows count `encode` (PHP's utf8_encode()) on Latin-1 text.
#
# SCALAR_BIN: `phpxml` for aarch64 built without the NEON tiers (e.g. at the
# commit before them); NEON_BIN: built with them, e.g.
#   cargo build --release --target aarch64-unknown-linux-gnu -p phpxml-cli
# (CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc).
# INPUTS: the parse benchmark's documents (default /tmp/parse-inputs; the
# 4 MiB ones, written by `PHPXML_WRITE_INPUTS=DIR` of benches/parse.rs),
# cut to their first KIB KiB (default 256: every guest instruction is a
# log line, about 1 s a million).
set -euo pipefail
scalar=$1
neon=$2
inputs=${3:-/tmp/parse-inputs}
kib=${4:-256}
cut=$(mktemp -d)
trap 'rm -rf "$cut"' EXIT
count() { # instructions of one command, in thousands
    qemu-aarch64 -L /usr/aarch64-linux-gnu -singlestep -d nochain,exec -D /dev/stderr "$@" \
        2>&1 >/dev/null | grep -c '^Trace' | awk '{ printf "%d", $1 / 1e3 }'
}
printf 'document\tcommand\tscalar\tneon\n'
# The empty document: what starting the process costs.
: >"$cut/empty.xml"
for cmd in "decode --to ISO-8859-1" "struct --quiet"; do
    # shellcheck disable=SC2086 # the command's words
    printf 'empty\t%s\t%s\t%s\n' "$cmd" \
        "$(count "$scalar" $cmd "$cut/empty.xml")" "$(count "$neon" $cmd "$cut/empty.xml")"
done
for doc in feed-ascii feed-french feed-cyrillic config; do
    file="$cut/$doc.xml"
    head -c $((kib * 1024)) "$inputs/$doc-4MiB.xml" >"$file"
    for cmd in "decode --to ISO-8859-1" "struct --quiet" "struct --format json"; do
        # shellcheck disable=SC2086 # the command's words
        printf '%s\t%s\t%s\t%s\n' "$doc" "$cmd" \
            "$(count "$scalar" $cmd "$file")" "$(count "$neon" $cmd "$file")"
    done
done
# `utf8_encode()` (ISO-8859-1 to UTF-8) on the French document converted
# to ISO-8859-1, and on the Cyrillic one as ISO-8859-5 (read as Latin-1:
# every letter a high byte).
for pair in feed-french:ISO-8859-1 feed-cyrillic:ISO-8859-5; do
    doc=${pair%%:*}
    file="$cut/$doc-${pair#*:}.txt"
    head -c $((kib * 1024)) "$inputs/$doc-4MiB.xml" | iconv -f UTF-8 -t "${pair#*:}" -c >"$file" 2>/dev/null || true
    printf '%s (%s)\tencode\t%s\t%s\n' "$doc" "${pair#*:}" \
        "$(count "$scalar" encode "$file")" "$(count "$neon" encode "$file")"
done
