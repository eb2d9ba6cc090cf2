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
// Run by tools/capture-stateful, one PHP process per case; tests/encodings.rs
// builds the same documents.

$source = file_get_contents(__DIR__ . '/../reference/phpxml.php');
eval('?' . '>' . preg_replace('/^main\(\$argv\);$/m', '', $source));

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

$raw = ($argv[1] ?? '') === '--raw';
$case = $argv[$raw ? 2 : 1] ?? fail('usage: capture-stateful.php [--raw] CASE');
foreach (['UTF-8' => [], 'ISO-8859-1' => ['--encoding', 'ISO-8859-1']] as $target => $opts) {
    foreach (stateful_ranges($case) as $k => $seqs) {
        $all = '';
        foreach ($seqs as $seq) {
            ob_start();
            run_trace(arguments('trace', [...$opts, 'data://text/plain;base64,' . base64_encode(stateful_doc($case, $k, $seq))]));
            $out = ob_get_clean();
            if ($raw) printf("== %s %s %X\n%s", $target, $case, $seq, $out);
            $all .= $out;
        }
        if (!$raw) echo $case, "\t", $k, "\t", $target, "\t", hash('sha256', $all), "\n";
    }
}
