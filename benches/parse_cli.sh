#!/usr/bin/env bash
# Whole process against whole process: `phpxml struct --quiet --encoding ENC
# FILE` against PHP's reference script on the same file, with hyperfine, for
# each FILE given (written by `PHPXML_WRITE_INPUTS=DIR cargo bench --bench
# parse`) and both target encodings. Prints one markdown row per pair: mean
# and median wall time of each side, PHP / phpxml for the mean, the median,
# the fastest run and user+system CPU time.
#
# Usage: benches/parse_cli.sh [RUNS] FILE...   (from the repository's top;
# needs hyperfine and php; builds the release binary with its allocator; PHP_REFERENCE=DIR points
# at the reference scripts, default ../shared/php-reference)
set -euo pipefail
runs=10
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then runs=$1; shift; fi
ref=${PHP_REFERENCE:-../shared/php-reference}
cargo build -q --release -p phpxml-cli --features fast-alloc
bin=target/release/phpxml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| file | encoding | phpxml mean ms | PHP mean ms | mean | median | fastest | user+sys |"
echo "|---|---|---|---|---|---|---|---|"
for file in "$@"; do
    for enc in UTF-8 ISO-8859-1; do
        hyperfine -N -w 2 -r "$runs" --export-json "$tmp/r.json" \
            "$bin struct --quiet --encoding $enc $file" \
            "php $ref/struct.php --quiet --encoding $enc $file" >/dev/null 2>&1
        python3 - "$tmp/r.json" "$(basename "$file" .xml)" "$enc" <<'EOF'
import json, sys
a, b = json.load(open(sys.argv[1]))["results"]
cpu = lambda r: r["user"] + r["system"]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {a['mean']*1e3:.1f} | {b['mean']*1e3:.1f} | "
      f"{b['mean']/a['mean']:.2f}× | {b['median']/a['median']:.2f}× | "
      f"{b['min']/a['min']:.2f}× | {cpu(b)/cpu(a):.2f}× |")
EOF
    done
done
