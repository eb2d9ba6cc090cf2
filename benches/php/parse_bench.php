<?php
// Usage: php -d error_reporting=0 benches/php/parse_bench.php [--runs N] [--json OUT] FILE...
//
// The PHP side of benches/parse.rs: on each FILE (written by
// `PHPXML_WRITE_INPUTS=DIR cargo bench --bench parse`), times inside PHP
// with hrtime():
//   struct-utf8 / struct-latin1   xml_parse_into_struct() with target UTF-8 / ISO-8859-1
//   push-all                      xml_parse() whole, every handler set (as trace.php), no-op
//   push-elem                     xml_parse() whole, element + character data handlers only
//   push-all-4k / push-elem-4k    the same in 4 KiB pieces, then "" with is_final
//   push-all-1b                   every handler, 1-byte pieces (files up to 10 MB only)
// The handlers count, so each run is checked against the others (and
// against the Rust side's counts in the JSON). Prints one line per
// measurement: FILE VARIANT BYTES MEDIAN_SECONDS MiB/s; with --json OUT
// also writes the medians for benches/parse_table.py.

$runs = 5;
$json = null;
$files = [];
for ($i = 1; $i < $argc; $i++) {
    if ($argv[$i] === '--runs') $runs = max(1, (int)$argv[++$i]);
    elseif ($argv[$i] === '--json') $json = $argv[++$i];
    else $files[] = $argv[$i];
}
if (!$files) {
    fwrite(STDERR, "usage: php parse_bench.php [--runs N] [--json OUT] FILE...\n");
    exit(2);
}

final class Counter {
    public int $starts = 0;
    public int $ends = 0;
    public int $text = 0;
    function start($p, $name, $attrs) { $this->starts++; }
    function end($p, $name) { $this->ends++; }
    function cdata($p, $data) { $this->text += strlen($data); }
    function noop(...$args) {}
    function ext(...$args) { return true; }
}

/** xml_parse() over $data in pieces of $chunk bytes (0: whole): [ok, error code, counter]. */
function push(string $data, bool $all, int $chunk): array {
    $p = xml_parser_create();
    $c = new Counter();
    xml_set_element_handler($p, [$c, 'start'], [$c, 'end']);
    xml_set_character_data_handler($p, [$c, 'cdata']);
    if ($all) {
        xml_set_default_handler($p, [$c, 'noop']);
        xml_set_processing_instruction_handler($p, [$c, 'noop']);
        xml_set_unparsed_entity_decl_handler($p, [$c, 'noop']);
        xml_set_notation_decl_handler($p, [$c, 'noop']);
        xml_set_external_entity_ref_handler($p, [$c, 'ext']);
        xml_set_start_namespace_decl_handler($p, [$c, 'noop']);
        xml_set_end_namespace_decl_handler($p, [$c, 'noop']);
    }
    if ($chunk === 0) {
        $ok = xml_parse($p, $data, true);
    } else {
        $ok = 1;
        $n = strlen($data);
        for ($i = 0; $i < $n; $i += $chunk) {
            $ok = xml_parse($p, substr($data, $i, $chunk), false);
            if ($ok !== 1) break;
        }
        if ($ok === 1) $ok = xml_parse($p, '', true);
    }
    return [$ok, xml_get_error_code($p), $c];
}

function into_struct(string $data, string $target): array {
    $p = xml_parser_create($target);
    $ok = xml_parse_into_struct($p, $data, $values, $index);
    return [$ok, count($values)];
}

/** Median wall time of $runs calls of $f, and its last result. */
function timed(int $runs, callable $f): array {
    $times = [];
    $r = null;
    for ($i = 0; $i < $runs; $i++) {
        $t = hrtime(true);
        $r = $f();
        $times[] = (hrtime(true) - $t) / 1e9;
        gc_collect_cycles();
    }
    sort($times);
    return [$times[intdiv(count($times), 2)], $r];
}

$results = [];
foreach ($files as $file) {
    $data = file_get_contents($file);
    if ($data === false) {
        fwrite(STDERR, "cannot read $file\n");
        exit(2);
    }
    $len = strlen($data);
    $huge = $len > 10000000; // libxml2's XML_MAX_LOOKUP_LIMIT: whole parses end with error 1
    $name = basename($file, '.xml');
    $ref = push($data, false, 4096);
    if ($ref[0] !== 1 || $ref[2]->starts === 0 || $ref[2]->starts !== $ref[2]->ends) {
        fwrite(STDERR, "$name: not well-formed in 4 KiB pieces\n");
        exit(1);
    }
    $expect = [$ref[2]->starts, $ref[2]->ends, $ref[2]->text];
    $variants = [
        'struct-utf8' => fn() => into_struct($data, 'UTF-8'),
        'struct-latin1' => fn() => into_struct($data, 'ISO-8859-1'),
        'push-all' => fn() => push($data, true, 0),
        'push-elem' => fn() => push($data, false, 0),
        'push-all-4k' => fn() => push($data, true, 4096),
        'push-elem-4k' => fn() => push($data, false, 4096),
    ];
    if (!$huge) $variants['push-all-1b'] = fn() => push($data, true, 1);
    $entries = null;
    foreach ($variants as $variant => $f) {
        $n = str_ends_with($variant, '-1b') ? 1 : $runs;
        [$secs, $r] = timed($n, $f);
        if (str_starts_with($variant, 'struct')) {
            $entries ??= $r[1];
            if ($r[0] !== ($huge ? 0 : 1) || $r[1] !== $entries || $entries < $expect[0]) {
                fwrite(STDERR, "$name $variant: unexpected result\n");
                exit(1);
            }
        } else {
            [$ok, $code, $c] = $r;
            $whole = !str_contains($variant, '-4k') && !str_contains($variant, '-1b');
            $want = ($whole && $huge) ? [0, 1] : [1, 0];
            if ([$ok, $code] !== $want || [$c->starts, $c->ends, $c->text] !== $expect) {
                fwrite(STDERR, "$name $variant: unexpected result\n");
                exit(1);
            }
        }
        printf("%s %s %d %.6f %.1f\n", $name, $variant, $len, $secs, $len / $secs / 1048576);
        $results[$name][$variant] = $secs;
    }
    $results[$name]['bytes'] = $len;
    $results[$name]['counts'] = $expect;
}
if ($json !== null) file_put_contents($json, json_encode($results, JSON_PRETTY_PRINT) . "\n");
