//! The `phpxml` command line: see `phpxml --help`.

mod convert;
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
  struct [OPTIONS] FILE    xml_parse_into_struct(): print the return value, $values and
                           $index as PHP's var_export() writes them, and the error state
  trace [OPTIONS] FILE     xml_parse() with every handler set: print one line per
                           handler call, the return value and the error state
  decode --to ENC [FILE]   convert UTF-8 to ENC as PHP's xml_utf8_decode() does
                           (ENC: ISO-8859-1, US-ASCII or UTF-8, any case;
                           ISO-8859-1 is PHP's utf8_decode())
  encode [FILE]            convert ISO-8859-1 to UTF-8 as PHP's utf8_encode() does
  help [COMMAND]           this help, or a command's (also: phpxml COMMAND --help)

struct and trace print, byte for byte, what PHP's reference scripts struct.php
and trace.php print; their options are PHP calls (see phpxml struct --help).

exit status:
  0  success; for struct and trace, whenever FILE could be read: a malformed
     document is output (its `result` line), not a failure
  1  reading input or writing output failed (decode, encode), or writing failed
  2  bad arguments; for struct and trace also an unreadable FILE or a value PHP
     rejects with a ValueError (an unsupported encoding): a message on standard
     error, nothing on standard output
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
  --quiet                print only the `ok` and `result` lines
  -h, --help             this help
";

const EXIT_STATUS: &str = "\
exit status: 0 whenever FILE could be read (a malformed document is not a
failure: see the result line); 2 for bad arguments, an unreadable FILE or an
encoding PHP rejects with a ValueError (message on standard error, nothing on
standard output); 1 if writing the output fails.
";

fn struct_help() -> String {
    format!(
        "\
usage: phpxml struct [OPTIONS] FILE

Parses FILE with xml_parse_into_struct($parser, $data, $values, $index) and
prints what PHP 8.2 prints with the reference script struct.php:

  ok <var_export of the return value: 1 or 0>
  values <var_export($values)>
  index <var_export($index)>
  result <code> <line> <column> <byte index> \"<xml_error_string(code)>\"

where code, line, column and byte index are xml_get_error_code(),
xml_get_current_line_number(), xml_get_current_column_number() and
xml_get_current_byte_index() after the parse.

{PARSER_OPTIONS}
{EXIT_STATUS}"
    )
}

fn trace_help() -> String {
    format!(
        "\
usage: phpxml trace [OPTIONS] [--chunk N] FILE

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

{PARSER_OPTIONS}  --chunk N              feed N bytes at a time (max(1, (int)N)) with
                         xml_parse($parser, $piece, false), stop at the first
                         failure, then xml_parse($parser, \"\", true)

{EXIT_STATUS}"
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
pub enum Failure {
    /// Wrong arguments: exit 2, with a pointer to the command's help.
    Usage(String),
    /// What the PHP scripts exit 2 for besides arguments (an unreadable
    /// file, an encoding PHP rejects): exit 2, message only.
    Refused(String),
    /// Reading or writing failed: exit 1.
    Io(String),
}

/// The help of a command, if it has one.
fn help_of(command: &str) -> Option<String> {
    match command {
        "struct" => Some(struct_help()),
        "trace" => Some(trace_help()),
        "decode" => Some(DECODE_HELP.to_owned()),
        "encode" => Some(ENCODE_HELP.to_owned()),
        _ => None,
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = args.first().map_or("", String::as_str);
    let rest = args.get(1..).unwrap_or_default();
    // Only as the first argument, so that an option's value stays a value.
    if rest.first().is_some_and(|a| a == "-h" || a == "--help")
        && let Some(help) = help_of(command)
    {
        print!("{help}");
        return ExitCode::SUCCESS;
    }
    let result = match command {
        "decode" => convert::decode(rest),
        "encode" => convert::encode(rest),
        "struct" => parse::structure(rest),
        "trace" => parse::trace(rest),
        "-h" | "--help" | "help" => match rest.first() {
            None => {
                print!("{USAGE}");
                Ok(())
            }
            Some(c) => help_of(c).map_or_else(
                || Err(Failure::Usage(format!("no command `{c}`"))),
                |help| {
                    print!("{help}");
                    Ok(())
                },
            ),
        },
        "-V" | "--version" => {
            println!("phpxml {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        "" => Err(Failure::Usage("no command given".to_owned())),
        other => Err(Failure::Usage(format!("unknown command `{other}`"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
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
        Err(Failure::Io(why)) => {
            eprintln!("phpxml {command}: {why}");
            ExitCode::from(1)
        }
    }
}
