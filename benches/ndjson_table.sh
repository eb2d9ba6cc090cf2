#!/usr/bin/env bash
# `phpxml struct --format ndjson` against PHP's json_encode() of the same
# arrays (`reference/phpxml.php json`, the same work without the NDJSON
# wrapping), whole process, on the 32 MiB ASCII, French and Cyrillic feeds
# with UTF-8 and ISO-8859-1 targets: one markdown row each, with the mean
# wall times, the speed ratio (PHP ÷ phpxml) of the means and of the
# medians, and the peak resident memory of phpxml, of `phpxml struct
# --quiet` on the same input (the bound is that plus 16 MiB) and of PHP.
#
#   benches/ndjson_table.sh [RUNS]
#
# RUNS (default 10) is hyperfine's count per side, with one warm-up. The
# inputs are written by the parse bench as for benches/cli_table.sh. Needs
# hyperfine, php (php8.2-cli php8.2-xml) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
inputs=${PHPXML_INPUTS:-/tmp/parse-inputs}
bin=target/release/phpxml
php="php -d error_reporting=0 -d memory_limit=-1"

cargo build -q --release -p phpxml-cli --features fast-alloc
if [ ! -f "$inputs/feed-french-32MiB.xml" ]; then
    cargo bench -q --bench parse --no-run 2>/dev/null
    bench=$(ls -t target/release/deps/parse-* | grep -v '\.d$' | head -1)
    PHPXML_WRITE_INPUTS="$inputs" "$bench" >/dev/null
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

peak_mb() { # peak resident set size of one run, in MB
    /usr/bin/time -f '%M' -o "$tmp/rss" "$@" >/dev/null 2>/dev/null || true
    awk '{ printf "%.0f", $1 / 1000 }' "$tmp/rss"
}

echo "| feed, target | phpxml ms | PHP ms | speed (means) | speed (medians) | phpxml peak MB | struct --quiet peak MB | PHP peak MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for feed in feed-ascii feed-french feed-cyrillic; do
    for target in UTF-8 ISO-8859-1; do
        file=$inputs/$feed-32MiB.xml
        ours="$bin struct --format ndjson --target-encoding $target $file"
        theirs="$php reference/phpxml.php json --target-encoding $target $file"
        hyperfine -N -w 1 -r "$runs" --export-json "$tmp/r.json" "$ours" "$theirs" >/dev/null 2>&1
        read -r ms_ours ms_theirs means medians < <(python3 - "$tmp/r.json" <<'PY'
import json, statistics, sys
ours, theirs = json.load(open(sys.argv[1]))["results"]
print(round(ours["mean"] * 1000), round(theirs["mean"] * 1000),
      "%.2f" % (theirs["mean"] / ours["mean"]),
      "%.2f" % (statistics.median(theirs["times"]) / statistics.median(ours["times"])))
PY
        )
        # shellcheck disable=SC2086
        echo "| $feed, $target | $ms_ours | $ms_theirs | ${means}× | ${medians}× | $(peak_mb $ours) | $(peak_mb $bin struct --quiet --target-encoding $target $file) | $(peak_mb $theirs) |"
    done
done
