#!/usr/bin/env bash
# `phpxml struct --quiet` against PHP's xml_parse_into_struct(), whole
# process, on a 32 MiB feed in each multi-byte charset given (default
# Shift_JIS), under the UTF-8 and ISO-8859-1 targets: hyperfine's table.
#   benches/cjk_bench.sh [RUNS] [LABEL...]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then runs=$1; shift; fi
labels=${*:-Shift_JIS}
dir=${PHPXML_INPUTS:-/tmp/parse-inputs}
mkdir -p "$dir"
cargo build -q --release --features fast-alloc --bin phpxml
for label in $labels; do
    doc=$dir/feed-cjk-$label-32MiB.xml
    [ -f "$doc" ] || python3 - "$label" "$doc" <<'PY'
import sys
label, path = sys.argv[1], sys.argv[2]
words = "日本語の文章と中文汉字、한국어" if label.upper().startswith(("GB", "EUC-CN", "GBK")) else "日本語の文章とテキスト、東京都新宿区"
words = {"EUC-KR": "한국어 문장과 텍스트", "CP949": "한국어 문장과 텍스트", "BIG5": "中文繁體文字與漢字"}.get(label.upper(), words)
if label.upper().startswith(("GB", "EUC-CN")):
    words = "中文简体文字与汉字"
item = '<item id="{i}"><title>{w}{i}</title><description>{w} {w} {w}</description><link>http://example.com/{i}</link></item>\n'
out = ['<?xml version="1.0" encoding="%s"?>\n<feed>\n' % label]
size, i = 0, 0
while size < 32 << 20:
    s = item.format(i=i, w=words)
    out.append(s); size += len(s.encode(label if label.upper() != "SHIFT_JIS" else "shift_jis")); i += 1
out.append('</feed>\n')
open(path, "wb").write("".join(out).encode(label))
PY
    for target in UTF-8 ISO-8859-1; do
        hyperfine -N -w 1 -r "$runs" \
            -n "php $label $target" "php -d error_reporting=0 -d memory_limit=-1 reference/phpxml.php struct --quiet --encoding $target $doc" \
            -n "phpxml $label $target" "target/release/phpxml struct --quiet --encoding $target $doc"
    done
done
