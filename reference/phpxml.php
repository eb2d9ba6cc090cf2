<?php
// The PHP side of the `phpxml` command line: run it with your own PHP and
// compare, byte for byte, with what `phpxml` prints.
//
//   php reference/phpxml.php struct [OPTIONS] [--format json [--json-flags N]] FILE
//   php reference/phpxml.php trace  [OPTIONS] [--chunk N | --pieces SIZES] FILE
//   php reference/phpxml.php json   [OPTIONS] [--json-flags N] FILE   (= struct --format json)
//   php reference/phpxml.php decode --to ENC FILE
//   php reference/phpxml.php encode FILE
//
// FILE may be `-` (standard input). OPTIONS are PHP calls, applied in the
// order given: --encoding ENC, --ns SEP, --case-folding N, --target-encoding
// ENC, --skip-white N, --skip-tagstart N, --parse-huge N (PHP 8.4+), --quiet.
// The output formats are described in reference/README.md. Run it with
// `-d error_reporting=0`: PHP's warnings and deprecation notices are not part
// of the output. Exit status: 0 whenever FILE was read (a malformed document
// is output, not a failure), 2 for bad arguments, an unreadable FILE or a
// value PHP rejects with a ValueError.

function fail(string $why): never
{
    fwrite(STDERR, "phpxml.php: $why\n");
    exit(2);
}

/** Command line of one command: [options in order, the file, flags]. */
function arguments(string $command, array $args): array
{
    $options = [
        '--case-folding' => XML_OPTION_CASE_FOLDING,
        '--target-encoding' => XML_OPTION_TARGET_ENCODING,
        '--skip-white' => XML_OPTION_SKIP_WHITE,
        '--skip-tagstart' => XML_OPTION_SKIP_TAGSTART,
    ];
    if (defined('XML_OPTION_PARSE_HUGE')) {
        $options['--parse-huge'] = XML_OPTION_PARSE_HUGE;
    }
    $with_value = ['--encoding', '--ns', '--chunk', '--pieces', '--format', '--json-flags', '--to'];
    $got = ['encoding' => null, 'ns' => null, 'set' => [], 'quiet' => false, 'chunk' => null, 'pieces' => null,
        'format' => $command === 'json' ? 'json' : 'var_export', 'json_flags' => 0, 'to' => null, 'file' => null];
    // `--json-flags N` is taken out first, wherever it stands (so that it is
    // never another option's value), as the contract's json.php does.
    for ($i = 0; $i + 1 < count($args); $i++) {
        if ($args[$i] === '--json-flags') {
            $got['json_flags'] = (int)$args[$i + 1];
            array_splice($args, $i, 2);
            $i--;
        }
    }
    for ($i = 0; $i < count($args); $i++) {
        $arg = $args[$i];
        if ($arg === '--quiet') {
            $got['quiet'] = true;
            continue;
        }
        if (isset($options[$arg]) || in_array($arg, $with_value, true)) {
            if (!array_key_exists($i + 1, $args)) fail("$arg needs a value");
            $value = $args[++$i];
            switch ($arg) {
                case '--encoding': $got['encoding'] = $value; break;
                case '--ns': $got['ns'] = $value; break;
                case '--chunk': $got['chunk'] = max(1, (int)$value); break;
                case '--pieces': $got['pieces'] = array_map(fn($n) => max(1, (int)$n), explode(',', $value)); break;
                case '--format': $got['format'] = $value; break;
                case '--json-flags': $got['json_flags'] = (int)$value; break;
                case '--to': $got['to'] = $value; break;
                default:
                    $got['set'][] = [$options[$arg], $arg === '--target-encoding' ? $value : (int)$value];
            }
            continue;
        }
        if ($arg === '--parse-huge') fail('--parse-huge needs PHP 8.4 or later');
        if ($got['file'] === null && ($arg === '-' || !str_starts_with($arg, '-'))) {
            $got['file'] = $arg;
            continue;
        }
        fail("unexpected argument $arg");
    }
    if ($got['file'] === null) fail('no input file');
    if (!in_array($got['format'], ['var_export', 'json'], true)) fail("unknown format {$got['format']}");
    return $got;
}

function input(string $file): string
{
    $data = file_get_contents($file === '-' ? 'php://stdin' : $file);
    if ($data === false) fail("cannot read $file");
    return $data;
}

function parser(array $got): XMLParser
{
    try {
        if ($got['ns'] !== null) {
            $parser = xml_parser_create_ns($got['encoding'], $got['ns']);
        } elseif ($got['encoding'] !== null) {
            $parser = xml_parser_create($got['encoding']);
        } else {
            $parser = xml_parser_create();
        }
        foreach ($got['set'] as [$option, $value]) {
            xml_parser_set_option($parser, $option, $value);
        }
    } catch (ValueError $e) {
        fail($e->getMessage());
    }
    return $parser;
}

/**
 * A byte string as the trace and result lines quote it: printable ASCII and
 * well-formed UTF-8 as they are, `\` `"` LF CR TAB backslash-escaped, any
 * other byte as \xHH.
 */
function quoted(string $bytes): string
{
    static $escapes = null;
    if ($escapes === null) {
        $escapes = ['\\' => '\\\\', '"' => '\\"', "\n" => '\\n', "\r" => '\\r', "\t" => '\\t'];
        foreach (array_merge(range(0x00, 0x1F), [0x7F]) as $b) {
            $escapes[chr($b)] ??= sprintf('\\x%02X', $b);
        }
    }
    // PCRE's UTF-8 check has the same rule (shortest form, no surrogates,
    // at most U+10FFFF): a valid string needs only the ASCII escapes.
    if (preg_match('//u', $bytes)) {
        return '"' . strtr($bytes, $escapes) . '"';
    }
    $out = '';
    $n = strlen($bytes);
    for ($i = 0; $i < $n;) {
        $len = utf8_sequence_length($bytes, $i, $n);
        if ($len > 1) {
            $out .= substr($bytes, $i, $len);
        } else {
            $out .= $escapes[$bytes[$i]] ?? ($bytes[$i] < "\x80" ? $bytes[$i] : sprintf('\\x%02X', ord($bytes[$i])));
            $len = 1;
        }
        $i += $len;
    }
    return '"' . $out . '"';
}

/** The length of the well-formed multi-byte UTF-8 sequence at $i, or 0. */
function utf8_sequence_length(string $s, int $i, int $n): int
{
    $lead = ord($s[$i]);
    // [length, lowest and highest second byte] by lead byte.
    if ($lead >= 0xC2 && $lead <= 0xDF) [$len, $lo, $hi] = [2, 0x80, 0xBF];
    elseif ($lead === 0xE0) [$len, $lo, $hi] = [3, 0xA0, 0xBF];
    elseif ($lead === 0xED) [$len, $lo, $hi] = [3, 0x80, 0x9F];
    elseif ($lead >= 0xE1 && $lead <= 0xEF) [$len, $lo, $hi] = [3, 0x80, 0xBF];
    elseif ($lead === 0xF0) [$len, $lo, $hi] = [4, 0x90, 0xBF];
    elseif ($lead >= 0xF1 && $lead <= 0xF3) [$len, $lo, $hi] = [4, 0x80, 0xBF];
    elseif ($lead === 0xF4) [$len, $lo, $hi] = [4, 0x80, 0x8F];
    else return 0;
    if ($i + $len > $n) return 0;
    $second = ord($s[$i + 1]);
    if ($second < $lo || $second > $hi) return 0;
    for ($k = 2; $k < $len; $k++) {
        $b = ord($s[$i + $k]);
        if ($b < 0x80 || $b > 0xBF) return 0;
    }
    return $len;
}

/** A handler argument: strings quoted; false, true, null and integers bare. */
function argument(mixed $value): string
{
    if (is_string($value)) return quoted($value);
    if (is_bool($value)) return $value ? 'true' : 'false';
    if ($value === null) return 'null';
    return (string)$value;
}

function result_line(XMLParser $parser): string
{
    $code = xml_get_error_code($parser);
    return 'result ' . implode(' ', [$code, xml_get_current_line_number($parser),
        xml_get_current_column_number($parser), xml_get_current_byte_index($parser)])
        . ' ' . quoted((string)xml_error_string($code)) . "\n";
}

/** xml_parse_into_struct(), printed with var_export() or json_encode(). */
function run_struct(array $got): void
{
    $data = input($got['file']);
    $parser = parser($got);
    $ok = xml_parse_into_struct($parser, $data, $values, $index);
    if ($got['format'] === 'json') {
        foreach ([$values, $index] as $array) {
            $json = json_encode($array, $got['json_flags']);
            echo $json === false ? 'false ' . json_last_error() : $json, "\n";
        }
        return;
    }
    echo 'ok ', var_export($ok, true), "\n";
    if (!$got['quiet']) {
        echo 'values ', var_export($values, true), "\n";
        echo 'index ', var_export($index, true), "\n";
    }
    echo result_line($parser);
}

/** xml_parse() with every handler set, one line a handler call. */
function run_trace(array $got): void
{
    $data = input($got['file']);
    $parser = parser($got);
    $quiet = $got['quiet'];
    // Adjacent character data (and adjacent default data) make one line.
    $text_kind = null;
    $text = '';
    $flush = function () use (&$text_kind, &$text): void {
        if ($text_kind !== null) {
            echo $text_kind, ' ', quoted($text), "\n";
            $text_kind = null;
            $text = '';
        }
    };
    $line = function (string $line) use ($flush, $quiet): void {
        if ($quiet) return;
        $flush();
        echo $line, "\n";
    };
    // (A closure, not an arrow function: those capture by value.)
    $data_handler = function (string $kind) use (&$text_kind, &$text, $flush, $quiet): Closure {
        return function ($parser, string $data) use (&$text_kind, &$text, $flush, $quiet, $kind): void {
            if ($quiet) return;
            if ($text_kind !== $kind) {
                $flush();
                $text_kind = $kind;
            }
            $text .= $data;
        };
    };
    $call = fn(string $name) => function ($parser, ...$args) use ($line, $name) {
        $line($name . ' ' . implode(' ', array_map('argument', $args)));
        return true;
    };
    xml_set_element_handler($parser,
        function ($parser, string $name, array $attributes) use ($line): void {
            $out = 'start ' . quoted($name);
            foreach ($attributes as $key => $value) {
                $out .= ' ' . quoted((string)$key) . '=' . quoted($value);
            }
            $line($out);
        },
        function ($parser, string $name) use ($line): void {
            $line('end ' . quoted($name));
        });
    xml_set_character_data_handler($parser, $data_handler('cdata'));
    xml_set_default_handler($parser, $data_handler('default'));
    xml_set_processing_instruction_handler($parser, function ($parser, $target, $data) use ($line): void {
        $line('pi ' . argument($target) . ' ' . argument($data));
    });
    xml_set_unparsed_entity_decl_handler($parser, $call('unparsed_entity_decl'));
    xml_set_notation_decl_handler($parser, $call('notation_decl'));
    xml_set_external_entity_ref_handler($parser, $call('external_entity_ref'));
    xml_set_start_namespace_decl_handler($parser, $call('start_ns'));
    xml_set_end_namespace_decl_handler($parser, $call('end_ns'));

    if ($got['pieces'] !== null) {
        // The chunked fuzz target's feeding: the sizes in turn, going on
        // after a failing piece.
        for ($at = 0, $k = 0; $at < strlen($data); $at += $size, $k++) {
            $size = $got['pieces'][$k % count($got['pieces'])];
            xml_parse($parser, substr($data, $at, $size), false);
        }
        $ok = xml_parse($parser, '', true);
    } elseif ($got['chunk'] === null) {
        $ok = xml_parse($parser, $data, true);
    } else {
        $ok = 1;
        for ($at = 0; $ok === 1 && $at < strlen($data); $at += $got['chunk']) {
            $ok = xml_parse($parser, substr($data, $at, $got['chunk']), false);
        }
        if ($ok === 1) $ok = xml_parse($parser, '', true);
    }
    $flush();
    echo 'ok ', $ok, "\n";
    echo result_line($parser);
}

/** utf8_decode() and its US-ASCII and UTF-8 siblings (phpxml decode --to ENC). */
function run_decode(array $got): void
{
    $data = input($got['file']);
    switch (strtoupper((string)$got['to'])) {
        case 'ISO-8859-1':
            echo utf8_decode($data);
            break;
        case 'US-ASCII':
            // xml_utf8_decode() gives `?` for what US-ASCII cannot hold,
            // with utf8_decode()'s widths for malformed sequences.
            echo strtr(utf8_decode($data), implode(array_map('chr', range(0x80, 0xFF))), str_repeat('?', 128));
            break;
        case 'UTF-8':
            echo $data;
            break;
        default:
            fail('decode needs --to ISO-8859-1, US-ASCII or UTF-8');
    }
}

function main(array $argv): void
{
    $command = $argv[1] ?? '';
    $args = array_slice($argv, 2);
    match ($command) {
        'struct', 'json' => run_struct(arguments($command, $args)),
        'trace' => run_trace(arguments($command, $args)),
        'decode' => run_decode(arguments($command, $args)),
        'encode' => print(utf8_encode(input(arguments($command, $args)['file']))),
        default => fail('usage: php phpxml.php struct|trace|json|decode|encode [OPTIONS] FILE'),
    };
}

main($argv);
