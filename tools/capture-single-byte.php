<?php
// PHP's trace (reference/phpxml.php's `trace`) of
// an XML declaration of encoding LABEL then `<a>B</a>`, for every byte B 00..FF,
// a fresh parser per byte, under the UTF-8 and the ISO-8859-1 target:
// prints `LABEL TARGET SHA256` per target, the hash over the 256 traces in
// byte order (`--raw`: the traces themselves, each after a `== XX` line).
//
//   php -d error_reporting=0 tools/capture-single-byte.php [--raw] LABEL
//
// Run by tools/capture-single-byte, one PHP process per label.

$source = file_get_contents(__DIR__ . '/../reference/phpxml.php');
eval('?' . '>' . preg_replace('/^main\(\$argv\);$/m', '', $source));

$raw = ($argv[1] ?? '') === '--raw';
$label = $argv[$raw ? 2 : 1] ?? fail('usage: capture-single-byte.php [--raw] LABEL');
foreach (['UTF-8' => [], 'ISO-8859-1' => ['--encoding', 'ISO-8859-1']] as $target => $opts) {
    $all = '';
    for ($b = 0; $b < 256; $b++) {
        $doc = '<?xml version="1.0" encoding="' . $label . '"?' . '><a>' . chr($b) . '</a>';
        ob_start();
        run_trace(arguments('trace', [...$opts, 'data://text/plain;base64,' . base64_encode($doc)]));
        $out = ob_get_clean();
        if ($raw) printf("== %s %02X\n%s", $target, $b, $out);
        $all .= $out;
    }
    if (!$raw) echo $label, "\t", $target, "\t", hash('sha256', $all), "\n";
}
