<?php
// Usage: php fuzz/php-chunks.php SIZES [OPTIONS] FILE
// Like the reference trace.php, but feeds pieces of the comma-separated
// SIZES (used in turn) with is_final=false and goes on after a failing
// piece, then "" with is_final=true: the feeding of the `chunked` fuzz
// target and tests/mutated_fixtures.rs. SIZES "0" feeds the whole at once.
$ref = getenv('PHP_REFERENCE') ?: __DIR__ . '/../../shared/php-reference';
require $ref . '/common.php';

$sizes = array_map('intval', explode(',', $argv[1]));
array_splice($argv, 1, 1);
$o = parse_args($argv, true);
$data = file_get_contents($o['file']);
$p = make_parser($o);
$lines = [];
$pending = null;
$flush = function () use (&$pending, &$lines) {
    if ($pending !== null) { $lines[] = $pending[0] . ' ' . q($pending[1]); $pending = null; }
};
$emit = function (string $line) use (&$lines, $flush) { $flush(); $lines[] = $line; };
$text = function (string $kind, string $d) use (&$pending, $flush) {
    if ($pending !== null && $pending[0] === $kind) $pending[1] .= $d;
    else { $flush(); $pending = [$kind, $d]; }
};
xml_set_element_handler($p,
    function ($p, $name, $attrs) use ($emit) {
        $line = 'start ' . q($name);
        foreach ($attrs as $k => $val) $line .= ' ' . q((string)$k) . '=' . q($val);
        $emit($line);
    },
    function ($p, $name) use ($emit) { $emit('end ' . q($name)); });
xml_set_character_data_handler($p, function ($p, $d) use ($text) { $text('cdata', $d); });
xml_set_default_handler($p, function ($p, $d) use ($text) { $text('default', $d); });
xml_set_processing_instruction_handler($p, function ($p, $t, $d) use ($emit) { $emit('pi ' . v($t) . ' ' . v($d)); });
$args = fn(array $a) => implode(' ', array_map('v', array_slice($a, 1)));
xml_set_unparsed_entity_decl_handler($p, function (...$a) use ($emit, $args) { $emit('unparsed_entity_decl ' . $args($a)); });
xml_set_notation_decl_handler($p, function (...$a) use ($emit, $args) { $emit('notation_decl ' . $args($a)); });
xml_set_external_entity_ref_handler($p, function (...$a) use ($emit, $args) { $emit('external_entity_ref ' . $args($a)); return true; });
xml_set_start_namespace_decl_handler($p, function (...$a) use ($emit, $args) { $emit('start_ns ' . $args($a)); });
xml_set_end_namespace_decl_handler($p, function (...$a) use ($emit, $args) { $emit('end_ns ' . $args($a)); });

if ($sizes === [0]) {
    $ret = xml_parse($p, $data, true);
} else {
    $at = 0; $k = 0; $n = strlen($data);
    while ($at < $n) {
        $len = min($sizes[$k++ % count($sizes)], $n - $at);
        xml_parse($p, substr($data, $at, $len), false);
        $at += $len;
    }
    $ret = xml_parse($p, '', true);
}
$flush();
foreach ($lines as $l) echo $l, "\n";
echo 'ok ', $ret, "\n";
echo result_line($p);
