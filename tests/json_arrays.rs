//! `json::write_values` and `json::write_index`, the arrays streamed one at
//! a time (`--format ndjson`), against the value model's `json_encode()` of
//! the same arrays (`struct_to_value`, `Value::encode`), which is checked
//! against PHP elsewhere: the same bytes and the same `json_last_error()`,
//! on every fixture's document under both targets and the flags that
//! change what a failing string does.

mod common;

use phpxml::Parser;
use phpxml::json::{self, JsonFlags, struct_to_value};

#[test]
fn streamed_arrays_are_the_value_models_on_every_fixture() {
    let cases = common::corpus::cases();
    let flag_sets = [
        0,
        JsonFlags::PARTIAL_OUTPUT_ON_ERROR.bits(),
        JsonFlags::INVALID_UTF8_SUBSTITUTE.bits(),
        4_194_304 | JsonFlags::UNESCAPED_UNICODE.bits() | JsonFlags::FORCE_OBJECT.bits(), // and JSON_THROW_ON_ERROR
        JsonFlags::PRETTY_PRINT.bits() | JsonFlags::PARTIAL_OUTPUT_ON_ERROR.bits(),
    ];
    let (mut compared, mut failing) = (0usize, 0usize);
    for case in &cases {
        let doc = case.read_xml();
        for target in ["UTF-8", "ISO-8859-1"] {
            let result = Parser::new(Some(target)).unwrap().parse_into_struct(&doc);
            let (values, index) = struct_to_value(&result);
            for bits in flag_sets {
                let flags = JsonFlags::from_bits(bits);
                for (is_values, value) in [(true, &values), (false, &index)] {
                    let mut expected = Vec::new();
                    let expected_error = value.encode(flags, &mut expected).err();
                    if expected_error.is_some()
                        && !flags.contains(JsonFlags::PARTIAL_OUTPUT_ON_ERROR)
                    {
                        expected.clear();
                    }
                    let mut out = Vec::new();
                    let error = if is_values {
                        json::write_values(&result, flags, &mut out)
                    } else {
                        json::write_index(&result, flags, &mut out)
                    }
                    .unwrap();
                    assert_eq!(error, expected_error, "{} {target} {bits}", case.name);
                    assert!(
                        out == expected,
                        "{} {target} {bits}:\n{}\n{}",
                        case.name,
                        String::from_utf8_lossy(&out),
                        String::from_utf8_lossy(&expected)
                    );
                    compared += 1;
                    failing += usize::from(error.is_some());
                }
            }
        }
    }
    println!("{compared} arrays compared, {failing} failing");
    assert!(compared >= 2 * 2 * flag_sets.len() * common::corpus::MIN_CASES);
    assert!(
        failing > 100,
        "{failing} failing arrays: the failure path is not exercised"
    );
}
