<?php
// A classic handler-based RSS reader, as found in many PHP code bases.
// examples/rss_reader.rs is its port; both print the same bytes:
//   php examples/rss_reader.php examples/rss.xml
//   cargo run --example rss_reader examples/rss.xml

$insideItem = false;
$tag = '';
$title = $link = $description = '';

function startElement($parser, $name, $attrs) {
    global $insideItem, $tag;
    if ($insideItem) {
        $tag = $name;
    } elseif ($name == 'ITEM') {
        $insideItem = true;
    }
}

function endElement($parser, $name) {
    global $insideItem, $tag, $title, $link, $description;
    if ($name == 'ITEM') {
        printf("* %s\n  <%s>\n  %s\n", trim($title), trim($link), trim($description));
        $title = $link = $description = '';
        $insideItem = false;
    }
    $tag = '';
}

function characterData($parser, $data) {
    global $insideItem, $tag, $title, $link, $description;
    if ($insideItem) {
        switch ($tag) {
            case 'TITLE': $title .= $data; break;
            case 'LINK': $link .= $data; break;
            case 'DESCRIPTION': $description .= $data; break;
        }
    }
}

$xml_parser = xml_parser_create('UTF-8');
xml_set_element_handler($xml_parser, 'startElement', 'endElement');
xml_set_character_data_handler($xml_parser, 'characterData');
$fp = fopen($argv[1] ?? 'examples/rss.xml', 'r') or die("Error reading RSS data.");
while ($data = fread($fp, 4096)) {
    if (!xml_parse($xml_parser, $data, feof($fp))) {
        die(sprintf("XML error: %s at line %d\n",
            xml_error_string(xml_get_error_code($xml_parser)),
            xml_get_current_line_number($xml_parser)));
    }
}
fclose($fp);
xml_parser_free($xml_parser);
