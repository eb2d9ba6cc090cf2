<?php
// PHP's trace (reference/phpxml.php's `trace`) of an XML declaration of
// encoding LABEL then `<a>SEQ</a>`, a fresh parser per sequence, under the
// UTF-8 and the ISO-8859-1 target, hashed per range: every two-byte
// sequence 0000..FFFF (range `2:X`: first byte X0..XF), and for GB18030
// the four-byte sequences b1 b2 b3 b4 with every b1 81..FE (range `4:B1`),
// every b2 30..39, b3 at the edges of the rows iconv maps and densely
// between (FOUR_B3), b4 30..39 and its two neighbours.
// Prints `LABEL TARGET RANGE SHA256` per range and target (`--raw`: the
// traces themselves, each after a `== TARGET SEQ` line, for one RANGE).
//
//   php -d error_reporting=0 tools/capture-multi-byte.php [--raw RANGE] LABEL
//
// Run by tools/capture-multi-byte, one PHP process per charset;
// tests/encodings.rs builds the same sequences.

const FOUR_B3 = [0x30, 0x80, 0x81, 0x82, 0x83, 0x99, 0x9A, 0x9B, 0xA4, 0xA5, 0xA6, 0xC0, 0xD2, 0xFD, 0xFE, 0xFF];
const FOUR_B4 = [0x2F, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A];

$source = file_get_contents(__DIR__ . '/../reference/phpxml.php');
eval('?' . '>' . preg_replace('/^main\(\$argv\);$/m', '', $source));

$raw = ($argv[1] ?? '') === '--raw' ? $argv[2] : null;
$label = $argv[$raw === null ? 1 : 3] ?? fail('usage: capture-multi-byte.php [--raw RANGE] LABEL');

$ranges = [];
for ($hi = 0; $hi < 16; $hi++) {
    $seqs = [];
    for ($lead = $hi * 16; $lead < $hi * 16 + 16; $lead++)
        for ($trail = 0; $trail < 256; $trail++) $seqs[] = chr($lead) . chr($trail);
    $ranges[sprintf('2:%X', $hi)] = $seqs;
}
if (strtoupper($label) === 'GB18030') {
    for ($b1 = 0x81; $b1 <= 0xFE; $b1++) {
        $seqs = [];
        for ($b2 = 0x30; $b2 <= 0x39; $b2++)
            foreach (FOUR_B3 as $b3) foreach (FOUR_B4 as $b4) $seqs[] = chr($b1) . chr($b2) . chr($b3) . chr($b4);
        $ranges[sprintf('4:%02X', $b1)] = $seqs;
    }
}
foreach ($ranges as $range => $seqs) {
    if ($raw !== null && $raw !== $range) continue;
    foreach (['UTF-8' => [], 'ISO-8859-1' => ['--encoding', 'ISO-8859-1']] as $target => $opts) {
        $ctx = hash_init('sha256');
        foreach ($seqs as $seq) {
            $doc = '<?xml version="1.0" encoding="' . $label . '"?' . '><a>' . $seq . '</a>';
            ob_start();
            run_trace(arguments('trace', [...$opts, 'data://text/plain;base64,' . base64_encode($doc)]));
            $out = ob_get_clean();
            if ($raw !== null) printf("== %s %s\n%s", $target, bin2hex($seq), $out);
            hash_update($ctx, $out);
        }
        if ($raw === null) echo $label, "\t", $target, "\t", $range, "\t", hash_final($ctx), "\n";
    }
}
