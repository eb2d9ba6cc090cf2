<?php
// Times PHP's json_encode() on the inputs of benches/json.rs, and compares
// with criterion's results when they are there. See benches/JSON.md.
//
//     JSON_BENCH_INPUTS=target/json-inputs cargo bench --bench json   # writes the inputs
//     cargo bench --bench json                                         # criterion's figures
//     php benches/php/json_bench.php target/json-inputs [target/criterion]
// or, with the quick mode of benches/json.rs (robust on a busy machine):
//     JSON_BENCH_QUICK=target/json-quick.txt cargo bench --bench json
//     php benches/php/json_bench.php target/json-inputs target/json-quick.txt
//
// For each input and for flags 0 and JSON_UNESCAPED_UNICODE, json_encode()
// is timed with hrtime() over 300 rounds of about 200 KB of input, and the
// fastest round counts. short_lines_1000.txt is
// 1,000 strings, one per line, each encoded on its own; every other file is
// one string. Throughput is input bytes per second.
//
// With a criterion directory, prints one table row per input:
//     input | PHP MB/s | ours MB/s | ours/PHP | ours/reference  (for each flag set)
// where "reference" is the same escaper on the reference decoder only.

ini_set('serialize_precision', '-1');

// PHP's own speed differs from one process to the next (the same input can
// run two or three times faster in one process than in another, which looks
// like the luck of the heap layout), so with --runs N the timing is done by
// N fresh PHP processes and the table shows their median and their best,
// with our ratios against both.
$args = array_slice($argv, 1);
$runs = 1;
$rates_only = false;
foreach ($args as $k => $a) {
    if ($a === '--runs' && isset($args[$k + 1])) { $runs = max(1, (int)$args[$k + 1]); unset($args[$k], $args[$k + 1]); }
    if ($a === '--rates') { $rates_only = true; unset($args[$k]); }
}
$args = array_values($args);
$dir = $args[0] ?? null;
if ($dir === null || !is_dir($dir)) {
    fwrite(STDERR, "usage: php json_bench.php INPUT_DIR [CRITERION_DIR | QUICK_REPORT] [--runs N]\n");
    exit(2);
}
$criterion = $args[1] ?? null; // criterion's directory or the quick report

const ORDER = ['cyrillic', 'cjk', 'french', 'emoji', 'english_emoji', 'ascii_e_acute', 'ascii_16', 'ascii_4k',
    'html', 'urls', 'quote_every_16', 'newline_every_40', 'short_lines_1000'];

// Best of 300 rounds of about 200 KB of input each: like the quick mode of
// benches/json.rs, this holds up on a busy machine.
function php_rate(array $parts, int $flags): float {
    $bytes = array_sum(array_map('strlen', $parts));
    foreach ($parts as $p) {
        if (json_encode($p, $flags) === false) { fwrite(STDERR, "json_encode failed\n"); exit(1); }
    }
    $reps = max(1, intdiv(200000, $bytes));
    $best = INF;
    for ($round = 0; $round < 300; $round++) {
        $t0 = hrtime(true);
        for ($i = 0; $i < $reps; $i++) {
            foreach ($parts as $p) json_encode($p, $flags);
        }
        $best = min($best, (hrtime(true) - $t0) / $reps);
    }
    return $bytes / ($best / 1e9);
}

// Our time per call in ns: from the quick report (a file), or criterion's
// mean (a directory); null when absent.
function our_ns(?string $source, string $input, string $function): ?float {
    if ($source === null) return null;
    if (is_file($source)) {
        foreach (file($source, FILE_IGNORE_NEW_LINES) as $line) {
            [$i, $f, , $ns] = explode(' ', $line);
            if ($i === $input && $f === $function) return (float)$ns;
        }
        return null;
    }
    $matches = glob("$source/json_$input/$function/*/new/estimates.json");
    if (!$matches) return null;
    $e = json_decode(file_get_contents($matches[0]), true);
    return $e['mean']['point_estimate'];
}

$mb = fn(float $rate) => sprintf('%.0f', $rate / 1e6);
$flag_sets = [0 => '', JSON_UNESCAPED_UNICODE => '_unicode'];

function parts_of(string $dir, string $name): array {
    $file = "$dir/$name.txt";
    if (!is_file($file)) { fwrite(STDERR, "missing $file\n"); exit(1); }
    $data = file_get_contents($file);
    return str_starts_with($name, 'short_lines') ? explode("\n", $data) : [$data];
}

if ($rates_only) {
    foreach ($flag_sets as $flags => $suffix) {
        foreach (ORDER as $name) {
            printf("%s %d %.0f\n", $name, $flags, php_rate(parts_of($dir, $name), $flags));
        }
    }
    exit(0);
}

// PHP's rates: this process, or the median and best of N fresh ones.
$samples = [];
if ($runs === 1) {
    foreach ($flag_sets as $flags => $suffix) {
        foreach (ORDER as $name) $samples["$name $flags"][] = php_rate(parts_of($dir, $name), $flags);
    }
} else {
    for ($r = 0; $r < $runs; $r++) {
        $cmd = escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(__FILE__) . ' ' . escapeshellarg($dir) . ' --rates';
        foreach (explode("\n", trim(shell_exec($cmd))) as $line) {
            [$name, $flags, $rate] = explode(' ', $line);
            $samples["$name $flags"][] = (float)$rate;
        }
    }
}
function median(array $xs): float { sort($xs); $n = count($xs); return $n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2; }

printf("PHP %s, %s, %d process%s\n", PHP_VERSION, php_uname('m'), $runs, $runs > 1 ? 'es (median and best)' : '');
foreach ($flag_sets as $flags => $suffix) {
    $label = $flags ? 'JSON_UNESCAPED_UNICODE' : 'flags 0';
    echo "\n$label\n";
    if ($runs > 1) {
        echo "| input | bytes | PHP MB/s (median) | PHP MB/s (best) | ours MB/s | ours / PHP median | ours / PHP best | reference MB/s | ours / reference |\n";
        echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    } else {
        echo "| input | bytes | PHP MB/s | ours MB/s | ours / PHP | reference MB/s | ours / reference |\n";
        echo "|---|---:|---:|---:|---:|---:|---:|\n";
    }
    foreach (ORDER as $name) {
        $bytes = array_sum(array_map('strlen', parts_of($dir, $name)));
        $xs = $samples["$name $flags"];
        $php = median($xs);
        $best = max($xs);
        $ours = our_ns($criterion, $name, "ours$suffix");
        $ref = our_ns($criterion, $name, "reference$suffix");
        $ours_rate = $ours ? $bytes / ($ours / 1e9) : null;
        $ref_rate = $ref ? $bytes / ($ref / 1e9) : null;
        $ratio = fn(?float $a, float $b, string $f) => $a ? sprintf($f, $a / $b) : '-';
        if ($runs > 1) {
            printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", $name, $bytes, $mb($php), $mb($best),
                $ours_rate ? $mb($ours_rate) : '-', $ratio($ours_rate, $php, '%.1fx'), $ratio($ours_rate, $best, '%.1fx'),
                $ref_rate ? $mb($ref_rate) : '-', ($ours_rate && $ref_rate) ? sprintf('%.2fx', $ours_rate / $ref_rate) : '-');
        } else {
            printf("| %s | %d | %s | %s | %s | %s | %s |\n", $name, $bytes, $mb($php),
                $ours_rate ? $mb($ours_rate) : '-', $ratio($ours_rate, $php, '%.1fx'),
                $ref_rate ? $mb($ref_rate) : '-', ($ours_rate && $ref_rate) ? sprintf('%.2fx', $ours_rate / $ref_rate) : '-');
        }
    }
}
