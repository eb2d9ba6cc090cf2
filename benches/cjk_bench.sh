#!/usr/bin/env bash
# `phpxml struct --quiet` against PHP's xml_parse_into_struct(), whole
# process, on a 32 MiB feed in each legacy charset given (default
# windows-1251 and Shift_JIS), under the UTF-8 and ISO-8859-1 targets, side
# by side in one run: a markdown table (hyperfine's means, the ratio, and
# whether both printed the same bytes).
#   benches/cjk_bench.sh [RUNS] [LABEL...]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then runs=$1; shift; fi
labels=${*:-windows-1251 Shift_JIS}
dir=${PHPXML_INPUTS:-/tmp/parse-inputs}
mkdir -p "$dir"
cargo build -q --release -p phpxml-cli --features fast-alloc
php="php -d error_reporting=0 -d memory_limit=-1 reference/phpxml.php"
rows=()
for label in $labels; do
    doc=$dir/feed-$label-32MiB.xml
    [ -f "$doc" ] || python3 - "$label" "$doc" <<'PY'
import sys
label, path = sys.argv[1], sys.argv[2]
up = label.upper()
words = {"EUC-KR": "한국어 문장과 텍스트", "CP949": "한국어 문장과 텍스트", "BIG5": "中文繁體文字與漢字"}.get(up, "日本語の文章とテキスト、東京都新宿区")
if up.startswith(("GB", "EUC-CN")):
    words = "中文简体文字与汉字"
if up in ("WINDOWS-1251", "CP1251", "KOI8-R", "KOI8-U", "ISO-8859-5", "CP866", "IBM866"):
    words = "Съешь же ещё этих мягких французских булок"
codec = {"SHIFT_JIS": "shift_jis"}.get(up, label)
item = '<item id="{i}"><title>{w}{i}</title><description>{w} {w} {w}</description><link>http://example.com/{i}</link></item>\n'
out = ['<?xml version="1.0" encoding="%s"?>\n<feed>\n' % label]
size, i = 0, 0
while size < 32 << 20:
    s = item.format(i=i, w=words)
    out.append(s); size += len(s.encode(codec)); i += 1
out.append('</feed>\n')
open(path, "wb").write("".join(out).encode(codec))
PY
    for target in UTF-8 ISO-8859-1; do
        same=no
        cmp -s <($php struct --quiet --encoding $target "$doc") \
               <(target/release/phpxml struct --quiet --encoding $target "$doc") && same=yes
        json=$(mktemp)
        hyperfine -N -w 1 -r "$runs" --export-json "$json" \
            -n php "$php struct --quiet --encoding $target $doc" \
            -n phpxml "target/release/phpxml struct --quiet --encoding $target $doc" > /dev/null
        rows+=("$(python3 - "$json" "$label" "$target" "$same" <<'PY'
import json, sys
r = {x["command"]: x["mean"] for x in json.load(open(sys.argv[1]))["results"]}
print(f"| {sys.argv[2]} | {sys.argv[3]} | {r['php']:.3f} | {r['phpxml']:.3f} | {r['php'] / r['phpxml']:.1f}x | {sys.argv[4]} |")
PY
)")
        rm -f "$json"
    done
done
echo "| charset | target | PHP s | phpxml s | ratio | same output |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
