#!/usr/bin/env bash
# Instructions per call (callgrind) of the bulk conversion and of
# encoding_rs on the short strings of benches/decode.rs (1 to 64 bytes,
# ASCII and French): a run of CALLS calls less a run of none, over CALLS.
#
#   benches/callgrind_short.sh [CALLS]
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-10000}
command -v valgrind >/dev/null || { echo "callgrind_short.sh: valgrind is not installed" >&2; exit 1; }
cargo bench -q --bench decode --no-run 2>/dev/null
bench=$(ls -t target/release/deps/decode-* | grep -v '\.d$' | head -1)

. benches/common/instructions.sh
count() { # total instructions of one run of the driver
    PHPXML_CALLS="$1" instructions "$bench"
}

printf '| string | bulk instructions/call | encoding_rs instructions/call | encoding_rs ÷ bulk |\n|---|---:|---:|---:|\n'
for kind in ascii french; do
    for len in 1 4 8 16 32 64; do
        name=$kind-$len
        row=()
        for variant in bulk encoding_rs; do
            zero=$(count "$variant $name 0")
            many=$(count "$variant $name $calls")
            row+=("$(( (many - zero) / calls ))")
        done
        awk -v n="$name" -v b="${row[0]}" -v e="${row[1]}" \
            'BEGIN { printf "| %s | %d | %d | %.2f× |\n", n, b, e, e / b }'
    done
done
