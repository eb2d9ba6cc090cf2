//! The `phpxml` command line: see `phpxml --help`.

mod compare;
mod convert;
mod many;
mod parse;
mod script;

use std::process::ExitCode;

#[cfg(feature = "fast-alloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
phpxml: parse and convert XML exactly as PHP 8.2's xml extension does

usage: phpxml <command> [options]

commands:
  struct [OPTIONS] FILE... xml_parse_into_struct(): print the return value, $values and
                           $index as PHP's var_export() writes them, and the error state
                           (--format json: json_encode(); --format ndjson: for machines)
  trace [OPTIONS] FILE...  xml_parse() with every handler set: print one line per
                           handler call, the return value and the error state
  compare [OPTIONS] PATH...
                           run every document through your PHP and through phpxml,
                           report the differences (exit 1 on any)
  capture [OPTIONS] PATH... --out DIR
                           record PHP's outputs as NAME.{xml,args,out} test cases
                           (replayed in cargo test by phpxml::testing)
  decode --to ENC [FILE]   convert UTF-8 to ENC as PHP's xml_utf8_decode() does
                           (ENC: ISO-8859-1, US-ASCII or UTF-8, any case;
                           ISO-8859-1 is PHP's utf8_decode())
  encode [FILE]            convert ISO-8859-1 to UTF-8 as PHP's utf8_encode() does
  help [COMMAND]           this help, or a command's (also: phpxml COMMAND --help)

struct and trace print, byte for byte, what PHP's reference scripts struct.php
and trace.php print; their options are PHP calls (see phpxml struct --help).
FILE `-` is standard input for every command; `--` ends the options.

exit status:
  0  success; for struct and trace, whenever every FILE could be read: a
     malformed document is output (its `result` line), not a failure; also
     when the reader of standard output goes away (`phpxml struct f | head`):
     the output stops quietly
  1  reading input or writing output failed (decode, encode), or writing
     failed; compare: a document differs or PHP failed
  2  bad arguments; for struct and trace also an unreadable FILE or a value PHP
     rejects with a ValueError (an unsupported encoding): a message on standard
     error
  3  --fail-on-error, and a document is malformed
";

const PARSER_OPTIONS: &str = "\
parser options (each is one PHP call, applied in the order given; an option not
given is not set; integer values go through PHP's (int) cast, so `--skip-white
yes` is 0):
  --encoding ENC         xml_parser_create(ENC): ENC is the target encoding,
                         ISO-8859-1, US-ASCII or UTF-8 in any case, or \"\" (UTF-8,
                         the document decides its own encoding). Without it:
                         xml_parser_create(), target UTF-8. The input encoding
                         always comes from the document (BOM, XML declaration).
  --ns SEP               xml_parser_create_ns(ENC, SEP) instead: namespace-aware;
                         names in a namespace become URI, first byte of SEP, local
                         name (an empty SEP joins URI and local name directly)
  --case-folding N       XML_OPTION_CASE_FOLDING: 0 keeps names as written; any
                         other value upper-cases ASCII letters in element and
                         attribute names (the default)
  --target-encoding ENC  XML_OPTION_TARGET_ENCODING: the encoding of every string
                         given out (ISO-8859-1, US-ASCII, UTF-8); characters it
                         cannot hold become `?`
  --skip-white N         XML_OPTION_SKIP_WHITE: non-zero leaves whitespace-only text
                         (space, tab, line feed) out of $values. Default 0
  --skip-tagstart N      XML_OPTION_SKIP_TAGSTART: cut the first N bytes of element
                         names. Default 0; negative: PHP warns and uses 0
  --parse-huge N         XML_OPTION_PARSE_HUGE (PHP 8.4): non-zero lifts libxml2's
                         limits (names 10 MB, values, comments and PIs 1 GB, no
                         10 MB lookup limit, no entity amplification check)
  --quiet                print only the `ok` and `result` lines
  -h, --help             this help

Option values are taken as PHP takes them: the next argument, whatever it is
(`--ns -`), so `--skip-white FILE` takes FILE as its value.
";

const MANY_FILES: &str = "\
many files:
  FILE...                several files and directories (walked recursively, in
                         name order); `-` is standard input. With more than one
                         file, or a directory, each file's output is preceded by
                         a header line `==> PATH <==` (as head(1) writes it); one
                         FILE prints exactly what PHP prints, nothing added
  --glob PATTERN         the files taken from directories (default `*.xml`; a
                         PATTERN with `/` matches the path below the directory)
  --jobs N               parallel workers, at least 1 (default: one per core);
                         the output stays in input order
  --fail-on-error        exit 3 when a document is malformed (error code not 0)
  A progress bar appears on standard error when it is a terminal.
";

const EXIT_STATUS: &str = "\
exit status: 0 whenever every FILE could be read (a malformed document is not
a failure: see the result line), and when the reader of standard output goes
away (the output stops quietly); 2 for bad arguments, an unreadable FILE or an
encoding PHP rejects with a ValueError (message on standard error, nothing on
standard output); 1 if writing the output fails; 3 with --fail-on-error when a
document is malformed.
";

fn struct_help() -> String {
    format!(
        "\
usage: phpxml struct [OPTIONS] [--format php|json|ndjson] [--json-flags N] FILE...

Parses FILE with xml_parse_into_struct($parser, $data, $values, $index) and
prints what PHP 8.2 prints with the reference script struct.php:

  ok <var_export of the return value: 1 or 0>
  values <var_export($values)>
  index <var_export($index)>
  result <code> <line> <column> <byte index> \"<xml_error_string(code)>\"

where code, line, column and byte index are xml_get_error_code(),
xml_get_current_line_number(), xml_get_current_column_number() and
xml_get_current_byte_index() after the parse.

output formats:
  --format php           the above (default)
  --format json          what the reference script json.php prints: the line
                         json_encode($values, N), then json_encode($index, N);
                         `false <json_last_error()>` for an encoding that fails.
                         It stays exactly PHP's output (the byte contract that
                         `phpxml compare` and the fixtures check), so it has no
                         return value or error state: use ndjson for machines
  --format ndjson        one JSON object per file and line, for one file too:
                         {{\"file\", \"ok\": 1|0 (the return value), \"error\": {{\"code\",
                         \"message\", \"line\", \"column\", \"byte_index\"}}, \"values\",
                         \"index\", \"values_error\", \"index_error\"}}: values and index
                         are PHP's json_encode() bytes (JSON_PRETTY_PRINT left
                         out), or null when json_encode() fails, *_error then
                         saying why ({{\"code\": 5, \"message\", \"explanation\"}}: an
                         ISO-8859-1 or US-ASCII target gives bytes that are not
                         UTF-8); an unreadable file gives {{\"file\", \"read_error\"}}
  --json-flags N         json_encode()'s flags for json and ndjson ((int)N, e.g.
                         128 JSON_PRETTY_PRINT, 2097152 JSON_INVALID_UTF8_SUBSTITUTE)

{PARSER_OPTIONS}
{MANY_FILES}
{EXIT_STATUS}"
    )
}

fn trace_help() -> String {
    format!(
        "\
usage: phpxml trace [OPTIONS] [--chunk N] FILE...

Sets every handler (xml_set_element_handler, xml_set_character_data_handler,
xml_set_default_handler, xml_set_processing_instruction_handler,
xml_set_unparsed_entity_decl_handler, xml_set_notation_decl_handler,
xml_set_external_entity_ref_handler returning true,
xml_set_start_namespace_decl_handler, xml_set_end_namespace_decl_handler),
parses FILE with xml_parse() and prints what PHP 8.2 prints with the reference
script trace.php: one line per handler call, adjacent character data merged
into one `cdata` line and adjacent default data into one `default` line,

  start \"NAME\" \"ATTR\"=\"VALUE\" ...   end \"NAME\"   cdata \"TEXT\"   default \"TEXT\"
  pi \"TARGET\" \"DATA\"|false   unparsed_entity_decl ...   notation_decl ...
  external_entity_ref ...   start_ns ...   end_ns ...

then `ok <return value of the last xml_parse()>` and the same `result` line as
phpxml struct. Strings are quoted: UTF-8 and printable ASCII as they are, \\ \"
LF CR TAB escaped, any other byte as \\xHH; `false` is PHP's false.

{PARSER_OPTIONS}  --chunk N              feed N bytes at a time with xml_parse($parser, $piece,
                         false), stop at the first failure, then
                         xml_parse($parser, \"\", true). N is a whole number, at
                         least 1: PHP's trace.php would quietly read 0 or `abc`
                         as max(1, (int)N) = 1, phpxml refuses them (exit 2)

{MANY_FILES}
{EXIT_STATUS}"
    )
}

fn compare_help() -> String {
    format!(
        "\
usage: phpxml compare [--script struct|trace|json] [OPTIONS] [--php CMD] PATH...
       phpxml capture [--script struct|trace|json] [OPTIONS] [--php CMD] PATH... --out DIR

compare runs every document through your own PHP and through phpxml, with the
same options, and compares the outputs byte for byte:

  CMD -d error_reporting=0 phpxml.php COMMAND OPTIONS FILE

phpxml.php is the project's reference script (reference/phpxml.php), built
into this binary and written to a temporary file. CMD is `php` by default
(--php \"php8.2\", --php \"chroot /srv/bookworm php\": split at spaces); it needs
the xml extension (Debian: apt-get install php8.2-cli php8.2-xml).

A NAME.xml with a NAME.args beside it (a captured case, as in fixtures/php)
runs with the case's command and options instead of the command line's.

  --script COMMAND       struct (default), trace or json (= struct --format json)
  --format text|json     the report: a summary and the first differences as
                         unified diffs (default), or one JSON document for CI
                         ({{\"php\", \"documents\", \"identical\", \"different\",
                         \"php_failed\", \"seconds\", \"problems\": [{{\"file\", \"args\",
                         \"verdict\", \"diff\"|\"why\"}}]}})
  --show N               differences shown in the text report (default 3)
  --chunk N, --json-flags N   as trace's and struct's
  --jobs N, --glob PATTERN    as struct's (directories: *.xml by default)

A document is identical when both print the same bytes and both ran (or both
refused: an encoding PHP rejects). PHP failed: PHP could not run, crashed or
died where phpxml ran (not the script's exit 2 for a refused input).

capture writes, for every document, DIR/NAME.xml (a copy), NAME.args (the line
`COMMAND OPTIONS`) and NAME.out (PHP's standard output, then its standard
error): the layout of fixtures/php, replayed without PHP by
phpxml::testing::assert_replays(DIR) in cargo test. NAME is the file's path
below the directory given, without .xml (the file's stem for a file).

{PARSER_OPTIONS}
exit status: 0 when every document is identical (compare) or captured
(capture); 1 when one differs, PHP failed, or a document was not captured;
2 for bad arguments or a PHP that does not run.
"
    )
}

const DECODE_HELP: &str = "\
usage: phpxml decode --to ENC [FILE]

Converts UTF-8 to ENC as PHP's xml_utf8_decode() does: ENC is ISO-8859-1 (PHP's
utf8_decode()), US-ASCII or UTF-8 (passed through unchanged), in any ASCII case.
A character ENC cannot hold becomes `?`, and so does each malformed sequence,
with PHP's widths. FILE (default: standard input; `-` too) is converted in
64 KiB blocks, in constant memory; output goes to standard output.

exit status: 0 on success, 1 when reading or writing fails, 2 for bad arguments.
";

const ENCODE_HELP: &str = "\
usage: phpxml encode [FILE]

Converts ISO-8859-1 to UTF-8 as PHP's utf8_encode() does: every byte is one
character. FILE (default: standard input; `-` too) is converted in 64 KiB
blocks; output goes to standard output.

exit status: 0 on success, 1 when reading or writing fails, 2 for bad arguments.
";

/// A failure of the command line, with the exit status it maps to.
#[derive(Debug)]
pub enum Failure {
    /// Wrong arguments: exit 2, with a pointer to the command's help.
    Usage(String),
    /// What the PHP scripts exit 2 for besides arguments (an unreadable
    /// file, an encoding PHP rejects): exit 2, message only.
    Refused(String),
    /// Reading or writing failed: exit 1.
    Io(String),
    /// The reader of standard output went away: exit 0, quietly.
    ClosedPipe,
    /// `--fail-on-error`, and a document is malformed: exit 3.
    Malformed(String),
    /// `compare` found differences, or `capture` failures: exit 1.
    Found(String),
}

/// The help of a command, if it has one.
fn help_of(command: &str) -> Option<String> {
    match command {
        "struct" => Some(struct_help()),
        "trace" => Some(trace_help()),
        "decode" => Some(DECODE_HELP.to_owned()),
        "encode" => Some(ENCODE_HELP.to_owned()),
        "compare" | "capture" => Some(compare_help()),
        _ => None,
    }
}

/// Prints a help text; a closed standard output is no error (`| head`).
fn say(text: &str) {
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = args.first().map_or("", String::as_str);
    let rest = args.get(1..).unwrap_or_default();
    // Only as the first argument, so that an option's value stays a value.
    if rest.first().is_some_and(|a| a == "-h" || a == "--help")
        && let Some(help) = help_of(command)
    {
        say(&help);
        return ExitCode::SUCCESS;
    }
    let result = match command {
        "decode" => convert::decode(rest),
        "encode" => convert::encode(rest),
        "struct" => parse::structure(rest),
        "trace" => parse::trace(rest),
        "compare" => compare::compare(rest),
        "capture" => compare::capture(rest),
        "-h" | "--help" | "help" => match rest.first() {
            None => {
                say(USAGE);
                Ok(())
            }
            Some(c) => help_of(c).map_or_else(
                || Err(Failure::Usage(format!("no command `{c}`"))),
                |help| {
                    say(&help);
                    Ok(())
                },
            ),
        },
        "-V" | "--version" => {
            say(&format!("phpxml {}\n", env!("CARGO_PKG_VERSION")));
            Ok(())
        }
        "" => Err(Failure::Usage("no command given".to_owned())),
        other => Err(Failure::Usage(format!("unknown command `{other}`"))),
    };
    match result {
        // A reader that went away (`| head`) is no failure.
        Ok(()) | Err(Failure::ClosedPipe) => ExitCode::SUCCESS,
        Err(Failure::Usage(why)) => {
            if help_of(command).is_some() {
                eprintln!("phpxml {command}: {why}\n(see `phpxml {command} --help`)");
            } else {
                eprintln!("phpxml: {why}\n\n{USAGE}");
            }
            ExitCode::from(2)
        }
        Err(Failure::Refused(why)) => {
            eprintln!("phpxml {command}: {why}");
            ExitCode::from(2)
        }
        Err(Failure::Io(why) | Failure::Found(why)) => {
            eprintln!("phpxml {command}: {why}");
            ExitCode::from(1)
        }
        Err(Failure::Malformed(why)) => {
            eprintln!("phpxml {command}: {why}");
            ExitCode::from(3)
        }
    }
}

/// Standard output for writes of whole blocks (converted text, or a
/// `BufWriter`'s 64 KiB). On Unix a duplicate of its descriptor: `io::Stdout` is line-buffered and scans
/// every write for its last newline, a pass over all the output.
pub(crate) fn block_stdout() -> Box<dyn std::io::Write> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(std::fs::File::from(fd));
        }
    }
    Box::new(std::io::stdout().lock())
}
