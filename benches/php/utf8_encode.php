<?php
// Usage: php -d error_reporting=0 benches/php/utf8_encode.php FILE > OUT
// The PHP side of "phpxml encode FILE": read the whole file, utf8_encode()
// it, write the result (see BENCHMARKS.md).
$data = file_get_contents($argv[1]);
if ($data === false) {
    fwrite(STDERR, "cannot read {$argv[1]}\n");
    exit(2);
}
echo utf8_encode($data);
