<?php
// The classic `xml2array()` over xml_parse_into_struct(): a document as
// nested PHP arrays, repeated tags turned into lists, attributes beside
// their element as `TAG_attr` (`N_attr` inside a list), text between
// children as `#text`. Prints json_encode() of the result;
// examples/xml2array.rs is its port and prints the same bytes.
//
//   php examples/xml2array.php examples/xml2array.xml

function add(array &$array, string $tag, $value, array $attributes): void
{
    if (!array_key_exists($tag, $array)) {
        $array[$tag] = $value;
        if ($attributes) {
            $array["{$tag}_attr"] = $attributes;
        }
    } elseif (is_array($array[$tag]) && array_key_exists(0, $array[$tag])) {
        $array[$tag][] = $value;
        if ($attributes) {
            $array[$tag][array_key_last($array[$tag]) . '_attr'] = $attributes;
        }
    } else {
        // the second of a tag: the first and its attributes become a list
        $array[$tag] = [$array[$tag], $value];
        if (isset($array["{$tag}_attr"])) {
            $array[$tag]['0_attr'] = $array["{$tag}_attr"];
            unset($array["{$tag}_attr"]);
        }
        if ($attributes) {
            $array[$tag]['1_attr'] = $attributes;
        }
    }
}

function xml2array(string $xml): array
{
    $parser = xml_parser_create('');
    xml_parser_set_option($parser, XML_OPTION_CASE_FOLDING, 0);
    xml_parser_set_option($parser, XML_OPTION_SKIP_WHITE, 1);
    if (!xml_parse_into_struct($parser, trim($xml), $values)) {
        throw new RuntimeException(sprintf('%s at line %d',
            xml_error_string(xml_get_error_code($parser)),
            xml_get_current_line_number($parser)));
    }
    $current = [];
    $open = [];
    foreach ($values as $entry) {
        $tag = $entry['tag'];
        $attributes = $entry['attributes'] ?? [];
        switch ($entry['type']) {
            case 'open':
                $open[] = [$current, $tag, $attributes];
                $current = [];
                if (isset($entry['value'])) {
                    $current['#text'] = $entry['value'];
                }
                break;
            case 'cdata':
                $current['#text'] = ($current['#text'] ?? '') . $entry['value'];
                break;
            case 'complete':
                add($current, $tag, $entry['value'] ?? '', $attributes);
                break;
            case 'close':
                [$parent, $tag, $attributes] = array_pop($open);
                add($parent, $tag, $current, $attributes);
                $current = $parent;
                break;
        }
    }
    return $current;
}

$xml = file_get_contents($argv[1]);
echo json_encode(xml2array($xml), JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
