#!/usr/bin/env bash
# Every command of the `phpxml` command line against PHP's equivalent, whole
# process, on the same input: one markdown row a command and mode, with
# whether the two outputs are identical (checked before timing), the mean
# wall time of each side, the speed ratio (PHP ÷ phpxml) of the means and of
# the medians, and the peak resident memory of each (/usr/bin/time).
#
#   benches/cli_table.sh [RUNS] [ROW-FILTER]
#
# RUNS (default 5) is hyperfine's count per side, with one warm-up; a
# ROW-FILTER (an extended regular expression over the row's label) runs only
# the matching rows, e.g. 'trace.*chunk'. The inputs are the 32 MiB
# benchmark documents (written by the parse bench to $PHPXML_INPUTS,
# default /tmp/parse-inputs) and a 64 MiB ISO-8859-1 French text made from
# the French feed. CLI_INPUTS (names of the benchmark documents, e.g.
# 'feed-ascii feed-french feed-cyrillic') and CLI_TARGETS (target
# encodings, e.g. 'UTF-8 ISO-8859-1') repeat the struct and trace rows for
# each input and target, labelled with both. Needs hyperfine, php (php8.2-cli php8.2-xml) and python3;
# PHP_REFERENCE=DIR points at the reference scripts (default
# ../shared/php-reference).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then runs=$1; shift; fi
filter=${1:-.}
ref=${PHP_REFERENCE:-../shared/php-reference}
inputs=${PHPXML_INPUTS:-/tmp/parse-inputs}
php="php -d error_reporting=0 -d memory_limit=-1"
bin=target/release/phpxml

cargo build -q --release -p phpxml-cli --features fast-alloc
if [ ! -f "$inputs/feed-french-32MiB.xml" ]; then
    cargo bench -q --bench parse --no-run 2>/dev/null
    bench=$(ls -t target/release/deps/parse-* | grep -v '\.d$' | head -1)
    PHPXML_WRITE_INPUTS="$inputs" "$bench" >/dev/null
fi
french=$inputs/feed-french-32MiB.xml
latin1=$inputs/french-latin1-64MiB.txt
[ -f "$latin1" ] || python3 - "$french" "$latin1" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read().encode("latin-1", "replace")
size = 64 << 20
open(sys.argv[2], "wb").write((text * (size // len(text) + 1))[:size])
PY

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

peak_mb() { # peak resident set size of one run, in MB
    /usr/bin/time -f '%M' -o "$tmp/rss" "$@" >/dev/null 2>/dev/null || true
    awk '{ printf "%.0f", $1 / 1000 }' "$tmp/rss"
}

row() { # LABEL PHPXML-COMMAND PHP-COMMAND
    local label=$1 ours=$2 theirs=$3 same
    [[ "$label" =~ $filter ]] || return 0
    if cmp -s <(eval "$ours" 2>/dev/null) <(eval "$theirs" 2>/dev/null); then same=yes; else same=NO; fi
    hyperfine -N -w 1 -r "$runs" --export-json "$tmp/r.json" "$ours" "$theirs" >/dev/null 2>&1
    local mem_ours mem_theirs
    # shellcheck disable=SC2086
    mem_ours=$(peak_mb $ours)
    # shellcheck disable=SC2086
    mem_theirs=$(peak_mb $theirs)
    python3 - "$tmp/r.json" "$label" "$same" "$mem_ours" "$mem_theirs" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1]))["results"]
label, same, mo, mt = sys.argv[2:]
print(f"| {label} | {same} | {a['mean']*1e3:.0f} | {b['mean']*1e3:.0f} | "
      f"{b['mean']/a['mean']:.2f}× | {b['median']/a['median']:.2f}× | {mo} | {mt} |")
PY
}

echo "| command (32 MiB French feed unless said) | output identical | phpxml ms | PHP ms | speed (means) | speed (medians) | phpxml peak MB | PHP peak MB |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
parse_rows() { # FILE OPTIONS LABEL-SUFFIX
    local file=$1 opts=$2 at=$3
    row "struct$at" "$bin struct $opts$file" "$php $ref/struct.php $opts$file"
    row "struct --quiet$at" "$bin struct --quiet $opts$file" "$php $ref/struct.php --quiet $opts$file"
    row "struct --format json$at" "$bin struct --format json $opts$file" "$php $ref/json.php $opts$file"
    row "trace$at" "$bin trace $opts$file" "$php $ref/trace.php $opts$file"
    row "trace --quiet$at" "$bin trace --quiet $opts$file" "$php $ref/trace.php --quiet $opts$file"
}
if [ -z "${CLI_INPUTS:-}${CLI_TARGETS:-}" ]; then
    parse_rows "$french" "" ""
else
    for name in ${CLI_INPUTS:-feed-french}; do
        for target in ${CLI_TARGETS:-UTF-8}; do
            parse_rows "$inputs/$name-32MiB.xml" "--target-encoding $target " " ($name, $target)"
        done
    done
fi
for n in 1 7 64 4096; do
    row "trace --chunk $n" "$bin trace --chunk $n $french" "$php $ref/trace.php --chunk $n $french"
    row "trace --quiet --chunk $n" "$bin trace --quiet --chunk $n $french" "$php $ref/trace.php --quiet --chunk $n $french"
done
for target in ISO-8859-1 US-ASCII UTF-8; do
    row "decode --to $target" "$bin decode --to $target $french" "$php benches/php/xml_utf8_decode.php $target $french"
done
row "encode (64 MiB ISO-8859-1 French)" "$bin encode $latin1" "$php benches/php/utf8_encode.php $latin1"
