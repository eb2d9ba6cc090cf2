<?php
// The loop tools/capture-wide.php, capture-stateful.php and
// capture-composing.php share: PHP's traces (reference/phpxml.php's `trace`)
// of one document per sequence, a fresh parser each, under the UTF-8 and the
// ISO-8859-1 target; prints `CASE RANGE TARGET SHA256` per range of
// sequences (`--raw`: the traces themselves, each after a
// `== TARGET CASE SEQUENCE` line).

$source = file_get_contents(__DIR__ . '/../reference/phpxml.php');
eval('?' . '>' . preg_replace('/^main\(\$argv\);$/m', '', $source));

// $ranges(CASE): the ranges, each a list of sequences (integers);
// $doc(CASE, RANGE, SEQUENCE): the document's bytes.
function capture_hashes(array $argv, string $script, callable $ranges, callable $doc): void {
    $raw = ($argv[1] ?? '') === '--raw';
    $case = $argv[$raw ? 2 : 1] ?? fail("usage: $script [--raw] CASE");
    foreach (['UTF-8' => [], 'ISO-8859-1' => ['--encoding', 'ISO-8859-1']] as $target => $opts) {
        foreach ($ranges($case) as $k => $seqs) {
            $all = '';
            foreach ($seqs as $seq) {
                ob_start();
                run_trace(arguments('trace', [...$opts, 'data://text/plain;base64,' . base64_encode($doc($case, $k, $seq))]));
                $out = ob_get_clean();
                if ($raw) printf("== %s %s %X\n%s", $target, $case, $seq, $out);
                $all .= $out;
            }
            if (!$raw) echo $case, "\t", $k, "\t", $target, "\t", hash('sha256', $all), "\n";
        }
    }
}
