<?php
// PHP's traces (reference/phpxml.php's `trace`) of the composing charsets,
// a fresh parser per sequence, under the UTF-8 and the ISO-8859-1 target
// (tools/capture-driver.php prints the hashes).
//   bytes      every byte 00..FF in text, declared windows-1255 (range 0),
//              windows-1258 (1), TCVN (2)
//   pairs-LABEL   every two-byte sequence 0000..FFFF in text (each base
//              letter with each mark), in 16 ranges of 4096 (by first byte)
//   triples    windows-1255: shin (F9), a mark C0..DF, then every byte
//              (shin with dagesh or a dot is held for a second mark)
//
//   php -d error_reporting=0 tools/capture-composing.php [--raw] CASE
// Run by tools/capture-hashes composing, one PHP process per case;
// tests/encodings.rs builds the same documents.

require __DIR__ . '/capture-driver.php';

const COMPOSING_LABELS = ['windows-1255', 'windows-1258', 'TCVN'];

function composing_doc(string $case, int $k, int $seq): string {
    [$label, $text] = match (true) {
        $case === 'bytes' => [COMPOSING_LABELS[$k], chr($seq)],
        $case === 'triples' => ['windows-1255', "\xF9" . pack('n', $seq)],
        default => [substr($case, strlen('pairs-')), pack('n', $seq)],
    };
    return '<?xml version="1.0" encoding="' . $label . '"?><a>' . $text . '</a>';
}

function composing_ranges(string $case): array {
    return match (true) {
        $case === 'bytes' => array_fill(0, count(COMPOSING_LABELS), range(0, 255)),
        $case === 'triples' => [range(0xC000, 0xDFFF)],
        default => array_map(fn($k) => range($k * 4096, $k * 4096 + 4095), range(0, 15)),
    };
}

capture_hashes($argv, 'capture-composing.php', 'composing_ranges', 'composing_doc');
