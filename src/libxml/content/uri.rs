//! Which strings libxml2 2.9.14's `xmlParseURI` accepts: it is asked of
//! namespace names (error 99, `XML_WAR_NS_URI`) and of entity system ids
//! (error 91, `XML_ERR_INVALID_URI`, and 92, `XML_ERR_URI_FRAGMENT`, for
//! one with a fragment).

/// Whether `xmlParseURI` returns a URI for `u`, as its
/// `xmlParse3986URIReference` decides: an absolute URI, else a relative
/// reference, each consuming every byte. Quirks kept: an IPv4 host is always
/// read as a reg-name (same bytes accepted), a bracketed host takes any bytes
/// up to the first `]`, a `:` after the host needs digits worth at most
/// 2^31-1, and the fragment also takes `[` and `]`.
pub(in crate::libxml) fn valid_uri(u: &[u8]) -> bool {
    parse_uri(u).is_some()
}

/// What `xmlParseURI` makes of `u`: `None` when it returns no URI, else
/// whether the URI has a fragment (`uri->fragment` set, even empty),
/// which an entity's system id must not (error 92). A `#` inside a
/// bracketed host is part of the host, not a fragment.
pub(in crate::libxml) fn parse_uri(u: &[u8]) -> Option<Fragment> {
    absolute_uri(u).or_else(|| relative_ref(u))
}

/// Whether a URI `xmlParseURI` accepted has a fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::libxml) enum Fragment {
    Absent,
    Present,
}

/// Where `u`'s `scheme ":"` puts its `:`, if `u` starts with one
/// (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`).
pub(in crate::libxml) fn scheme_end(u: &[u8]) -> Option<usize> {
    if !u.first().is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let i = 1 + u[1..]
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
        .count();
    (u.get(i) == Some(&b':')).then_some(i)
}

/// `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`.
fn absolute_uri(u: &[u8]) -> Option<Fragment> {
    let i = scheme_end(u)?;
    query_and_fragment_end(u, hier_part(u, i + 1, None)?)
}

/// `relative-part [ "?" query ] [ "#" fragment ]`.
fn relative_ref(u: &[u8]) -> Option<Fragment> {
    query_and_fragment_end(u, hier_part(u, 0, Some(b':'))?)
}

/// `"//" authority path-abempty / path-absolute / path-rootless / path-empty`;
/// a relative reference's first segment stops at `first_stop` (`:`).
fn hier_part(u: &[u8], i: usize, first_stop: Option<u8>) -> Option<usize> {
    match (u.get(i), u.get(i + 1)) {
        (Some(b'/'), Some(b'/')) => Some(more_segments(u, authority(u, i + 2)?)),
        (Some(b'/'), _) => match segment(u, i + 1, None) {
            Some(j) => Some(more_segments(u, j)),
            None => Some(i + 1),
        },
        _ if pchar_len(u, i).is_some() => Some(more_segments(u, segment(u, i, first_stop)?)),
        _ => Some(i),
    }
}

/// Optional query and fragment, then the end of the string: whether a
/// fragment was there, or `None` when bytes are left.
fn query_and_fragment_end(u: &[u8], mut i: usize) -> Option<Fragment> {
    if u.get(i) == Some(&b'?') {
        i = scan(u, i + 1, |c| matches!(c, b'/' | b'?'));
    }
    let mut fragment = Fragment::Absent;
    if u.get(i) == Some(&b'#') {
        fragment = Fragment::Present;
        i = scan(u, i + 1, |c| matches!(c, b'/' | b'?' | b'[' | b']'));
    }
    (i == u.len()).then_some(fragment)
}

/// `[ userinfo "@" ] host [ ":" port ]`.
fn authority(u: &[u8], start: usize) -> Option<usize> {
    let mut i = skip(u, start, |c| unreserved(c) || sub_delim(c) || c == b':');
    i = if u.get(i) == Some(&b'@') {
        i + 1
    } else {
        start
    };
    if u.get(i) == Some(&b'[') {
        i += 1 + u[i + 1..].iter().position(|&c| c == b']')? + 1;
    } else {
        i = skip(u, i, |c| unreserved(c) || sub_delim(c));
    }
    if u.get(i) == Some(&b':') {
        i += 1;
        let digits = u[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        let mut port: u64 = 0;
        for &c in &u[i..i + digits] {
            port = port * 10 + u64::from(c - b'0');
            if port > i32::MAX.unsigned_abs().into() {
                return None;
            }
        }
        i += digits;
    }
    Some(i)
}

/// `*( "/" segment )`.
fn more_segments(u: &[u8], mut i: usize) -> usize {
    while u.get(i) == Some(&b'/') {
        i = segment(u, i + 1, None).unwrap_or(i + 1);
    }
    i
}

/// A segment of pchars, ending also at `stop`; `None` unless it starts
/// with a pchar (a `stop` there gives an empty segment).
fn segment(u: &[u8], mut i: usize, stop: Option<u8>) -> Option<usize> {
    pchar_len(u, i)?;
    while let Some(n) = pchar_len(u, i) {
        if stop.is_some() && u.get(i).copied() == stop {
            break;
        }
        i += n;
    }
    Some(i)
}

/// Skips `%XX` escapes and the bytes `byte` admits.
fn skip(u: &[u8], mut i: usize, byte: impl Fn(u8) -> bool) -> usize {
    while let Some(n) = pct_len(u, i).or_else(|| u.get(i).is_some_and(|&c| byte(c)).then_some(1)) {
        i += n;
    }
    i
}

/// Skips pchars and the bytes `extra` admits.
fn scan(u: &[u8], i: usize, extra: impl Fn(u8) -> bool) -> usize {
    skip(u, i, |c| pchar_byte(c) || extra(c))
}

/// Length of the pchar at `i`: `%XX` (3), unreserved, sub-delims, `:`, `@` (1).
fn pchar_len(u: &[u8], i: usize) -> Option<usize> {
    pct_len(u, i).or_else(|| u.get(i).is_some_and(|&c| pchar_byte(c)).then_some(1))
}

fn pchar_byte(c: u8) -> bool {
    unreserved(c) || sub_delim(c) || c == b':' || c == b'@'
}

fn pct_len(u: &[u8], i: usize) -> Option<usize> {
    (u.get(i) == Some(&b'%')
        && u.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
        && u.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
    .then_some(3)
}

fn unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~')
}

fn sub_delim(c: u8) -> bool {
    matches!(
        c,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}
