<?php
// PHP's traces (reference/phpxml.php's `trace`) of a one-unit text in the
// fixed-width forms, a fresh parser per unit, under the UTF-8 and the
// ISO-8859-1 target; prints `CASE TARGET SHA256` per range of units
// (`--raw`: the traces themselves, each after a `== TARGET UNIT` line).
//   ucs2     every UCS-2 unit 0000..FFFF, little-endian, declared UCS-2 in
//            a UTF-16LE document, in 16 ranges of 4096
//   ucs4, utf32be, utf32, detected   code points at the edges, big-endian,
//            declared UCS-4 / UTF-32BE / UTF-32, or no declaration (ICU)
//
//   php -d error_reporting=0 tools/capture-wide.php [--raw] CASE
// Run by tools/capture-hashes wide, one PHP process per case; tests/encodings.rs
// builds the same documents.

require __DIR__ . '/capture-driver.php';

const EDGES = [0x80, 0xFF, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000,
    0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x10FFFF, 0x110000, 0x1FFFFF, 0x200000, 0x3FFFFFF,
    0x4000000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF];

function wide_doc(string $case, int $k, int $unit): string {
    if ($case === 'ucs2') {
        $le = fn($s) => implode('', array_map(fn($c) => $c . "\0", str_split($s)));
        return $le('<?xml version="1.0" encoding="UCS-2"?><a>') . pack('v', $unit) . $le('</a>');
    }
    $decl = ['ucs4' => ' encoding="UCS-4"', 'utf32be' => ' encoding="UTF-32BE"',
        'utf32' => ' encoding="UTF-32"', 'detected' => ''][$case];
    $be = fn($s) => implode('', array_map(fn($c) => "\0\0\0" . $c, str_split($s)));
    return $be('<?xml version="1.0"' . $decl . '?><a>') . pack('N', $unit) . $be('</a>');
}

function wide_ranges(string $case): array {
    if ($case === 'ucs2') {
        return array_map(fn($k) => range($k * 4096, $k * 4096 + 4095), range(0, 15));
    }
    return [array_merge(range(0, 0x7F), EDGES)];
}

capture_hashes($argv, 'capture-wide.php', 'wide_ranges', 'wide_doc');
