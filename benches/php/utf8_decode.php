<?php
// Usage: php -d error_reporting=0 benches/php/utf8_decode.php FILE > OUT
// The PHP side of "phpxml decode --to ISO-8859-1 FILE": read the whole file,
// utf8_decode() it, write the result (see BENCHMARKS.md).
$data = file_get_contents($argv[1]);
if ($data === false) {
    fwrite(STDERR, "cannot read {$argv[1]}\n");
    exit(2);
}
echo utf8_decode($data);
