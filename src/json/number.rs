//! Numbers as `json_encode()` writes them: PHP's numeric-string test for
//! `JSON_NUMERIC_CHECK`, integers, and floats with `serialize_precision`
//! -1 (the shortest representation that reads back as the same double).

use std::io::Write as _;

/// What PHP's `is_numeric_string()` makes of a string: an integer or a
/// double. `None` stands for PHP's "not numeric".
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Number {
    /// Fits in a PHP int.
    Int(i64),
    /// Has a fraction or exponent, or overflows a PHP int.
    Float(f64),
}

/// The whitespace PHP skips around a numeric string: space, `\t`, `\n`,
/// `\r`, `\v` and `\f`.
const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)
}

/// Digits of `i64::MIN` without the sign: an integer of nineteen digits is
/// compared with this to tell whether it overflows.
const LONG_MIN_DIGITS: &[u8] = b"9223372036854775808";

/// The most digits (leading zeros not counted) an integer may have before
/// PHP stops counting and reads it as a double: `MAX_LENGTH_OF_LONG`.
const MAX_LENGTH_OF_LONG: usize = 20;

/// PHP 8's `is_numeric_string()` (no errors allowed), as
/// `JSON_NUMERIC_CHECK` calls it.
///
/// Accepted: optional leading whitespace, an optional sign, then either
/// digits with an optional fraction and exponent, or `.` and digits with an
/// optional exponent, then optional trailing whitespace. No hexadecimal, no
/// `_`, no `inf`/`nan`. Integers of up to nineteen significant digits that
/// fit in an `i64` are integers; longer ones, and anything with `.` or an
/// exponent, are doubles.
pub(crate) fn numeric_string(s: &[u8]) -> Option<Number> {
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let start = s.iter().position(|&b| !is_space(b))?;
    let mut p = start;
    let negative = at(p) == b'-';
    if matches!(at(p), b'-' | b'+') {
        p += 1;
    }
    if at(p).is_ascii_digit() {
        while at(p) == b'0' {
            p += 1;
        }
        let mut digits = 0;
        let mut value: u64 = 0;
        loop {
            if digits >= MAX_LENGTH_OF_LONG {
                return float_from(s, start);
            }
            let b = at(p);
            if b.is_ascii_digit() {
                // Wraps only past twenty digits, where the value is unused.
                value = value.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
                digits += 1;
                p += 1;
                continue;
            }
            let exponent_follows = matches!(b, b'e' | b'E') && {
                let e = if matches!(at(p + 1), b'+' | b'-') {
                    p + 2
                } else {
                    p + 1
                };
                at(e).is_ascii_digit()
            };
            if b == b'.' || exponent_follows {
                return float_from(s, start);
            }
            break;
        }
        if !s[p..].iter().all(|&b| is_space(b)) {
            return None;
        }
        // Nineteen digits may exceed the range. PHP compares the rest of
        // the string, trailing whitespace included, with the digits of
        // i64::MIN: so "-9223372036854775808" is an int, but the same with
        // a trailing space is a double.
        if digits == MAX_LENGTH_OF_LONG - 1 {
            let rest = &s[p - digits..];
            let fits = rest < LONG_MIN_DIGITS || (rest == LONG_MIN_DIGITS && negative);
            if !fits {
                return Some(Number::Float(parse_float(&s[start..]).0));
            }
        }
        #[allow(clippy::cast_possible_wrap)] // two's complement, as PHP
        let value = if negative {
            value.wrapping_neg()
        } else {
            value
        } as i64;
        return Some(Number::Int(value));
    }
    if at(p) == b'.' && at(p + 1).is_ascii_digit() {
        return float_from(s, start);
    }
    None
}

/// The double at `s[start..]`, if only whitespace follows it.
fn float_from(s: &[u8], start: usize) -> Option<Number> {
    let (value, len) = parse_float(&s[start..]);
    s[start + len..]
        .iter()
        .all(|&b| is_space(b))
        .then_some(Number::Float(value))
}

/// `zend_strtod()` on a string that starts with a sign, a digit or `.`
/// followed by a digit: the longest prefix of the form
/// `[sign] digits [. digits] [(e|E) [sign] digits]`, correctly rounded,
/// and its length.
fn parse_float(s: &[u8]) -> (f64, usize) {
    let digits_from = |mut i: usize| {
        while s.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut end = usize::from(matches!(s.first(), Some(b'+' | b'-')));
    end = digits_from(end);
    if s.get(end) == Some(&b'.') {
        end = digits_from(end + 1);
    }
    if matches!(s.get(end), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(s.get(end + 1), Some(b'+' | b'-')));
        let exp_end = digits_from(end + 1 + sign);
        if exp_end > end + 1 + sign {
            end = exp_end;
        }
    }
    let text = std::str::from_utf8(&s[..end]).expect("ASCII by construction");
    let value = text
        .parse::<f64>()
        .expect("a decimal float by construction");
    (value, end)
}

/// Appends a PHP int in decimal.
pub(crate) fn write_int(value: i64, out: &mut Vec<u8>) {
    // Levels and positions, most of them small: one or two digits written
    // at once, no division on the path of every entry of a large struct.
    if let Ok(small) = u8::try_from(value)
        && small < 100
    {
        if small < 10 {
            out.push(b'0' + small);
        } else {
            let pair = &DIGIT_PAIRS[2 * usize::from(small)..][..2];
            out.extend_from_slice(&[pair[0], pair[1]]);
        }
        return;
    }
    // digits from the right into a stack buffer, two at a time (ending
    // at 20: the bytes after are room for a copy of fixed size)
    let mut digits = [0u8; 36];
    let mut at = 20;
    let mut n = value.unsigned_abs();
    while n >= 100 {
        let pair = (n % 100) as usize;
        n /= 100;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&DIGIT_PAIRS[2 * pair..][..2]);
    }
    if n >= 10 {
        at -= 2;
        digits[at..at + 2].copy_from_slice(&DIGIT_PAIRS[2 * n as usize..][..2]);
    } else {
        at -= 1;
        digits[at] = b'0' + n as u8;
    }
    if value < 0 {
        out.push(b'-');
    }
    push_digits(&digits, at, out);
}

/// Appends `,` when `comma`, then a PHP int in decimal: [`write_int`]
/// for the positions of an index list, those from 0 to 10^8 − 1 (every
/// position of a document under some gigabytes) made as one word of eight
/// digits whose leading zeros are cut, written with the comma as one
/// 16-byte piece.
#[inline]
pub(crate) fn write_list_int(value: i64, comma: bool, out: &mut Vec<u8>) {
    let Some(n) = u32::try_from(value).ok().filter(|&n| n < 100_000_000) else {
        if comma {
            out.push(b',');
        }
        write_int(value, out);
        return;
    };
    let pair = |k: u32| {
        let k = 2 * k as usize;
        u64::from(u16::from_le_bytes([DIGIT_PAIRS[k], DIGIT_PAIRS[k + 1]]))
    };
    let (high, low) = (n / 10_000, n % 10_000);
    // the first digit in the low byte
    let word =
        pair(high / 100) | pair(high % 100) << 16 | pair(low / 100) << 32 | pair(low % 100) << 48;
    // each byte is '0' to '9': the leading zeros are the low zero bytes
    // of the digits' values (all but the last digit)
    let zeros = ((word - 0x3030_3030_3030_3030).trailing_zeros() / 8).min(7);
    let digits = word >> (8 * zeros);
    let comma = usize::from(comma);
    let piece = if comma == 1 {
        u128::from(b',') | u128::from(digits) << 8
    } else {
        u128::from(digits)
    };
    let end = out.len() + comma + 8 - zeros as usize;
    out.extend_from_slice(&piece.to_le_bytes());
    out.truncate(end);
}

/// Appends `digits[at..20]`, the digits of a number written from the
/// right to end at 20: sixteen bytes at once and the excess cut off,
/// cheaper than a copy of variable length (the bytes after 20 are room
/// for it).
#[inline]
pub(crate) fn push_digits(digits: &[u8; 36], at: usize, out: &mut Vec<u8>) {
    let end = out.len() + 20 - at;
    if at >= 4 {
        out.extend_from_slice(&digits[at..at + 16]);
        out.truncate(end);
    } else {
        out.extend_from_slice(&digits[at..20]);
    }
}

/// `00` to `99`.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// Appends a finite double as `json_encode()` writes it with
/// `serialize_precision = -1`: the shortest digits that read back as the
/// same double, in plain notation when the decimal exponent is from -4 to
/// 16 (`0.0001`, `1.0e-5`, `10000000000000000`, `1.0e+17`), otherwise as
/// `d.ddde±x`, with at least one digit after the point. With
/// `zero_fraction`, `.0` is added when there is no point.
pub(crate) fn write_double(value: f64, zero_fraction: bool, out: &mut Vec<u8>) {
    debug_assert!(value.is_finite());
    // Rust's `{:e}` gives the shortest round-trip digits: `-1.2345e-7`.
    let mut buf = [0u8; 32];
    let mut cursor = &mut buf[..];
    write!(cursor, "{value:e}").expect("32 bytes hold any f64 in {:e}");
    let written = 32 - cursor.len();
    let text = &buf[..written];
    let (negative, text) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let e = text.iter().position(|&b| b == b'e').expect("{:e} has an e");
    let exponent: i32 = std::str::from_utf8(&text[e + 1..])
        .expect("ASCII")
        .parse()
        .expect("{:e} has an integer exponent");
    let mut digits = [0u8; 24];
    let mut n = 0;
    for &b in text[..e].iter().filter(|&&b| b != b'.') {
        digits[n] = b;
        n += 1;
    }
    break_tie_to_even(value, &mut digits[..n]);
    let digits = &digits[..n];
    // The value is 0.DIGITS × 10^point, as dtoa reports it.
    let point = exponent + 1;
    let start = out.len();
    if negative {
        out.push(b'-');
    }
    if !(-3..=17).contains(&point) {
        out.push(digits[0]);
        out.push(b'.');
        if digits.len() > 1 {
            out.extend_from_slice(&digits[1..]);
        } else {
            out.push(b'0');
        }
        out.push(b'e');
        out.push(if point - 1 < 0 { b'-' } else { b'+' });
        write!(out, "{}", (point - 1).unsigned_abs()).expect("Vec");
    } else if point <= 0 {
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', point.unsigned_abs() as usize));
        out.extend_from_slice(digits);
    } else {
        let point = point.unsigned_abs() as usize;
        if digits.len() <= point {
            out.extend_from_slice(digits);
            out.extend(std::iter::repeat_n(b'0', point - digits.len()));
        } else {
            out.extend_from_slice(&digits[..point]);
            out.push(b'.');
            out.extend_from_slice(&digits[point..]);
        }
    }
    if zero_fraction && !out[start..].contains(&b'.') {
        out.extend_from_slice(b".0");
    }
}

/// When the exact value of `value` lies halfway between two shortest
/// candidates, PHP's `zend_dtoa()` takes the one with the even last digit
/// (1708138771029252.25 prints as `…252.2`), where Rust's formatting may
/// take the other. Rewrites `digits` (Rust's shortest) to the even one.
///
/// A tie needs an exact decimal expansion one digit longer than the
/// shortest, ending in 5. The exact expansion of `m × 2^-s` (m odd) is
/// `m × 5^s` digits long; past s = 25 that is over 18 digits, more than a
/// tie with at most 17 shortest digits allows, so u128 arithmetic is enough.
fn break_tie_to_even(value: f64, digits: &mut [u8]) {
    let bits = value.to_bits();
    let biased = i32::try_from((bits >> 52) & 0x7FF).expect("11 bits");
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    if mantissa == 0 {
        return;
    }
    let zeros = mantissa.trailing_zeros();
    let odd = mantissa >> zeros;
    let s = -(exponent + i32::try_from(zeros).expect("< 64"));
    if !(1..=25).contains(&s) {
        return;
    }
    let exact = u128::from(odd) * 5u128.pow(s.unsigned_abs());
    let exact_digits = exact.checked_ilog10().map_or(1, |l| l as usize + 1);
    if exact_digits != digits.len() + 1 {
        return;
    }
    let below = exact / 10;
    let even = if below % 2 == 0 { below } else { below + 1 };
    let text = even.to_string();
    if text.len() == digits.len() {
        digits.copy_from_slice(text.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double(value: f64, zero_fraction: bool) -> String {
        let mut out = Vec::new();
        write_double(value, zero_fraction, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn write_list_int_is_decimal() {
        let mut cases = vec![i64::MIN, -1, 99_999_999, 100_000_000, i64::MAX];
        cases.extend(0..=100_000);
        cases.extend((0..27).flat_map(|k| {
            let p = 1i64 << k;
            [p - 1, p, p + 1, 10i64.pow(k % 9) - 1, 10i64.pow(k % 9)]
        }));
        for n in cases {
            for comma in [false, true] {
                let mut out = vec![b'x'];
                write_list_int(n, comma, &mut out);
                let sep = if comma { "," } else { "" };
                assert_eq!(out, format!("x{sep}{n}").as_bytes(), "{n}");
            }
        }
    }

    #[test]
    fn write_int_is_decimal() {
        let mut cases = vec![i64::MIN, i64::MIN + 1, i64::MAX, -100, -99, -10, -9, -1];
        cases.extend(0..=1100);
        cases.extend(
            (0..63).flat_map(|k| [(1i64 << k) - 1, 1i64 << k, 10i64.saturating_pow(k % 19)]),
        );
        for n in cases {
            let mut out = vec![b'x'];
            write_int(n, &mut out);
            assert_eq!(out, format!("x{n}").as_bytes(), "{n}");
        }
    }

    #[test]
    fn doubles_as_php_prints_them() {
        // Printed by PHP 8.2: json_encode($d) and with JSON_PRESERVE_ZERO_FRACTION.
        let cases: &[(f64, &str, &str)] = &[
            (0.0, "0", "0.0"),
            (-0.0, "-0", "-0.0"),
            (1.0, "1", "1.0"),
            (1e15, "1000000000000000", "1000000000000000.0"),
            (1e16, "10000000000000000", "10000000000000000.0"),
            (1e17, "1.0e+17", "1.0e+17"),
            (1e25, "1.0e+25", "1.0e+25"),
            (1.5e25, "1.5e+25", "1.5e+25"),
            (0.0001, "0.0001", "0.0001"),
            (0.00001, "1.0e-5", "1.0e-5"),
            (0.1, "0.1", "0.1"),
            (
                1.234_567_890_123_456_8e17,
                "1.2345678901234568e+17",
                "1.2345678901234568e+17",
            ),
            (5e-324, "5.0e-324", "5.0e-324"),
            (
                f64::MAX,
                "1.7976931348623157e+308",
                "1.7976931348623157e+308",
            ),
            (-1.5, "-1.5", "-1.5"),
            // An exact tie between …252.2 and …252.3: dtoa takes the even one.
            (
                1_708_138_771_029_252.2,
                "1708138771029252.2",
                "1708138771029252.2",
            ),
        ];
        for &(value, plain, zero_fraction) in cases {
            assert_eq!(double(value, false), plain, "{value:e}");
            assert_eq!(double(value, true), zero_fraction, "{value:e}");
        }
    }

    #[test]
    fn numeric_strings_as_php_reads_them() {
        use Number::{Float, Int};
        // From PHP 8.2: json_encode($s, JSON_NUMERIC_CHECK).
        let cases: &[(&str, Option<Number>)] = &[
            ("1", Some(Int(1))),
            (" \t\n\r\x0B\x0C1\x0C ", Some(Int(1))),
            ("1.", Some(Float(1.0))),
            (".5", Some(Float(0.5))),
            ("-.5", Some(Float(-0.5))),
            ("+.5e3", Some(Float(500.0))),
            ("1E5", Some(Float(1e5))),
            ("1e", None),
            ("1e+", None),
            ("0x1A", None),
            ("00012", Some(Int(12))),
            ("-0", Some(Int(0))),
            ("9223372036854775807", Some(Int(i64::MAX))),
            ("9223372036854775807 ", Some(Int(i64::MAX))),
            (
                "9223372036854775808",
                Some(Float(9_223_372_036_854_775_808.0)),
            ),
            ("-9223372036854775808", Some(Int(i64::MIN))),
            (
                "-9223372036854775808 ",
                Some(Float(-9_223_372_036_854_775_808.0)),
            ),
            (
                "12345678901234567890",
                Some(Float(12_345_678_901_234_567_890.0)),
            ),
            ("0000000000000000000000000001", Some(Int(1))),
            ("1e400", Some(Float(f64::INFINITY))),
            ("1e-400", Some(Float(0.0))),
            ("1_000", None),
            ("1 x", None),
            (" ", None),
            (".", None),
            ("-", None),
            ("1.5.5", None),
            ("1\0", None),
        ];
        for &(s, expected) in cases {
            assert_eq!(numeric_string(s.as_bytes()), expected, "{s:?}");
        }
    }
}
