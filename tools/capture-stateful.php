<?php
// PHP's traces (reference/phpxml.php's `trace`) of a short ISO-2022-JP text,
// a fresh parser per sequence, under the UTF-8 and the ISO-8859-1 target;
// prints `CASE RANGE TARGET SHA256` per range (`--raw`: the traces
// themselves, each after a `== TARGET CASE SEQUENCE` line).
//   jis      every lead/trail pair 0000..FFFF after ESC $ B, in 16 ranges
//            of 4096 (by lead byte)
//   single   every byte 00..FF in the ASCII set (range 0) and after
//            ESC ( J, JIS X 0201 Roman (range 1)
//
//   php -d error_reporting=0 tools/capture-stateful.php [--raw] CASE
// Run by tools/capture-hashes stateful, one PHP process per case; tests/encodings.rs
// builds the same documents.

require __DIR__ . '/capture-driver.php';

function stateful_doc(string $case, int $k, int $seq): string {
    $escape = ['jis' => "\x1b\$B" . pack('n', $seq), 'single' => ($k ? "\x1b(J" : '') . chr($seq)][$case];
    return '<?xml version="1.0" encoding="ISO-2022-JP"?><a>' . $escape . "\x1b(B</a>";
}

function stateful_ranges(string $case): array {
    if ($case === 'jis') {
        return array_map(fn($k) => range($k * 4096, $k * 4096 + 4095), range(0, 15));
    }
    return [range(0, 255), range(0, 255)];
}

capture_hashes($argv, 'capture-stateful.php', 'stateful_ranges', 'stateful_doc');
