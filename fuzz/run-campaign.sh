#!/usr/bin/env bash
# Runs every fuzz target in turn, one job each (the machine is shared), for
# the seconds given per target, and prints the execution counts.
#
#   python3 fuzz/make-corpus.py               # seed corpora from the fixtures
#   bash fuzz/run-campaign.sh 600 parse chunked
#
# Logs go to fuzz/logs/TARGET-DATE.log, findings to fuzz/artifacts/TARGET/,
# chunked differences to fuzz/logs/chunked-differences-DATE/ (see below).
# Stable toolchain, no sanitizer (`-s none`); with nightly drop `-s none` for ASan.
set -u
cd "$(dirname "$0")/.."
secs=${1:-600}
shift
targets=${*:-parse chunked decode stream_decode}
mkdir -p fuzz/logs
for t in $targets; do
    case $t in
        parse | chunked) len=8192 ;;
        *) len=65536 ;;
    esac
    stamp=$(date +%Y%m%d-%H%M%S)
    log=fuzz/logs/$t-$stamp.log
    if [ "$t" = chunked ] && [ -z "${STRICT:-}" ]; then
        # Differences outside fuzz/src/chunking.rs are kept for
        # fuzz/php-triage.py instead of stopping the run: most are PHP's own
        # (its results on malformed input depend on the chunks in more ways
        # than the predicate names). STRICT=1 stops at the first.
        export PHPXML_FUZZ_COLLECT=$PWD/fuzz/logs/chunked-differences-$stamp
    fi
    cargo +stable fuzz run -s none "$t" -- -max_total_time="$secs" -max_len="$len" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 > "$log" 2>&1
    echo "$t exit $?: $(grep -a -E '^Done|stat::number_of_executed_units' "$log" | tr '\n' ' ')"
    if [ -n "${PHPXML_FUZZ_COLLECT:-}" ]; then
        echo "  differences kept: $(find "$PHPXML_FUZZ_COLLECT" -type f 2>/dev/null | wc -l) in $PHPXML_FUZZ_COLLECT"
        unset PHPXML_FUZZ_COLLECT
    fi
done
