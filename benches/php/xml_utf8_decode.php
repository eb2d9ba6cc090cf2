<?php
// Usage: php -d error_reporting=0 benches/php/xml_utf8_decode.php TARGET FILE > OUT
// The PHP side of "phpxml decode --to TARGET FILE", made of PHP's own
// functions: ISO-8859-1 is utf8_decode(); US-ASCII is utf8_decode() with every
// byte above 0x7F then made `?` (the xml extension's xml_utf8_decode() gives
// `?` for every character its target cannot hold, with utf8_decode()'s widths
// for malformed sequences); UTF-8 passes the bytes through.
[, $target, $file] = $argv;
$data = file_get_contents($file);
if ($data === false) {
    fwrite(STDERR, "cannot read $file\n");
    exit(2);
}
switch (strtoupper($target)) {
    case 'ISO-8859-1':
        echo utf8_decode($data);
        break;
    case 'US-ASCII':
        $high = implode(array_map('chr', range(0x80, 0xFF)));
        echo strtr(utf8_decode($data), $high, str_repeat('?', 128));
        break;
    case 'UTF-8':
        echo $data;
        break;
    default:
        fwrite(STDERR, "unknown target $target\n");
        exit(2);
}
