//! The rewrite's lexer: Luau source to tokens (names, keywords, numbers, strings with their
//! long brackets and interpolations, attributes, punctuation), each a byte span of the
//! source. Errors carry the byte where they are found.

use super::edit::RESERVED_PREFIX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tk {
    Name,
    Keyword,
    Number,
    Str,
    InterpSimple,
    InterpBegin,
    InterpMid,
    InterpEnd,
    Attr,
    AttrOpen,
    Punct,
    Eof,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub(super) kind: Tk,
    pub(super) start: usize,
    pub(super) end: usize,
}

pub(super) const KEYWORDS: [&str; 21] = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local", "nil",
    "not", "or", "repeat", "return", "then", "true", "until", "while",
];

pub(super) const PUNCT3: [&str; 3] = ["...", "..=", "//="];
pub(super) const PUNCT2: [&str; 14] =
    ["..", "//", "::", "->", "==", "~=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "^="];
pub(super) const PUNCT1: &[u8] = b"+-*/%^#=<>(){}[];:,.?&|~";

pub(super) type Fail = (usize, String);

/// The level of a long bracket `[==[` opening at `i`, if one does.
pub(super) fn long_open(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while b.get(j) == Some(&b'=') {
        j += 1;
    }
    (b.get(j) == Some(&b'[')).then_some(j - i - 1)
}

/// The end (one past) of the long bracket text of level `level` whose content starts at `i`.
pub(super) fn long_close(b: &[u8], mut i: usize, level: usize, start: usize) -> Result<usize, Fail> {
    while i < b.len() {
        if b[i] == b']'
            && b[i + 1..].iter().take(level).all(|&c| c == b'=')
            && b.get(i + 1 + level) == Some(&b']')
        {
            return Ok(i + level + 2);
        }
        i += 1;
    }
    Err((start, "an unfinished long string or comment".to_owned()))
}

/// Scans an interpolated string section from `i` (just after `` ` `` or `}`) to its `` ` ``
/// (returns `false`) or its `{` (returns `true`); the index is one past it.
pub(super) fn interp_section(b: &[u8], mut i: usize, start: usize) -> Result<(usize, bool), Fail> {
    while i < b.len() {
        match b[i] {
            b'`' => return Ok((i + 1, false)),
            b'{' => return Ok((i + 1, true)),
            b'\\' if b.get(i + 1) == Some(&b'u') && b.get(i + 2) == Some(&b'{') => i += 3,
            b'\\' => i += escape_len(b, i),
            b'\n' | b'\r' => break,
            _ => i += 1,
        }
    }
    Err((start, "an unfinished interpolated string".to_owned()))
}

pub(super) fn lex(src: &str) -> Result<Vec<Token>, Fail> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    // Open braces: `true` for an interpolated string's `{`.
    let mut braces: Vec<bool> = Vec::new();
    let mut i = 0;
    if b.starts_with(b"#!") {
        while i < b.len() && b[i] != b'\n' {
            i += 1;
        }
    }
    let push = |out: &mut Vec<Token>, kind, start, end| out.push(Token { kind, start, end });
    while i < b.len() {
        let c = b[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => i += 1,
            b'-' if b.get(i + 1) == Some(&b'-') => {
                i += 2;
                match (b.get(i) == Some(&b'[')).then(|| long_open(b, i)).flatten() {
                    Some(level) => i = long_close(b, i + level + 2, level, start)?,
                    None => {
                        while i < b.len() && b[i] != b'\n' {
                            i += 1;
                        }
                    }
                }
            }
            b'[' if long_open(b, i).is_some() => {
                let level = long_open(b, i).unwrap_or(0);
                i = long_close(b, i + level + 2, level, start)?;
                push(&mut out, Tk::Str, start, i);
            }
            b'"' | b'\'' => {
                i += 1;
                loop {
                    match b.get(i) {
                        None | Some(b'\n') | Some(b'\r') => {
                            return Err((start, "an unfinished string".to_owned()));
                        }
                        Some(&q) if q == c => break,
                        Some(b'\\') => i += escape_len(b, i),
                        Some(_) => i += 1,
                    }
                }
                i += 1;
                push(&mut out, Tk::Str, start, i);
            }
            b'`' => {
                let (end, open) = interp_section(b, i + 1, start)?;
                i = end;
                if open {
                    braces.push(true);
                    push(&mut out, Tk::InterpBegin, start, i);
                } else {
                    push(&mut out, Tk::InterpSimple, start, i);
                }
            }
            b'{' => {
                braces.push(false);
                i += 1;
                push(&mut out, Tk::Punct, start, i);
            }
            b'}' => {
                if braces.pop() == Some(true) {
                    let (end, open) = interp_section(b, i + 1, start)?;
                    i = end;
                    if open {
                        braces.push(true);
                        push(&mut out, Tk::InterpMid, start, i);
                    } else {
                        push(&mut out, Tk::InterpEnd, start, i);
                    }
                } else {
                    i += 1;
                    push(&mut out, Tk::Punct, start, i);
                }
            }
            b'0'..=b'9' => {
                i = number_end(b, i);
                push(&mut out, Tk::Number, start, i);
            }
            b'.' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                i = number_end(b, i);
                push(&mut out, Tk::Number, start, i);
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let word = &src[start..i];
                if word.starts_with(RESERVED_PREFIX) {
                    return Err((
                        start,
                        format!(
                            "'{word}': names starting with '{RESERVED_PREFIX}' are reserved for the engine"
                        ),
                    ));
                }
                let kind = if KEYWORDS.contains(&word) { Tk::Keyword } else { Tk::Name };
                push(&mut out, kind, start, i);
            }
            b'@' => {
                if b.get(i + 1) == Some(&b'[') {
                    i += 2;
                    push(&mut out, Tk::AttrOpen, start, i);
                } else {
                    i += 1;
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                    push(&mut out, Tk::Attr, start, i);
                }
            }
            _ => {
                let rest = &src[i..];
                let len = if PUNCT3.iter().any(|p| rest.starts_with(p)) {
                    3
                } else if PUNCT2.iter().any(|p| rest.starts_with(p)) {
                    2
                } else if PUNCT1.contains(&c) {
                    1
                } else {
                    let ch = rest.chars().next().unwrap_or('?');
                    return Err((start, format!("unexpected character '{ch}'")));
                };
                i += len;
                push(&mut out, Tk::Punct, start, i);
            }
        }
    }
    push(&mut out, Tk::Eof, b.len(), b.len());
    Ok(out)
}

/// Bytes of the escape starting with the backslash at `i` (a backslash and CR LF is one).
pub(super) fn escape_len(b: &[u8], i: usize) -> usize {
    if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') { 3 } else { 2 }
}

/// One past the number starting at `i` (Luau's number pattern).
pub(super) fn number_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.' || b[i] == b'_') {
        i += 1;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
    }
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    i
}

/// Whether the number literal `text` is infinite (hexadecimal and binary ones never are).
pub(super) fn infinite_literal(text: &str) -> bool {
    let t = text.replace('_', "");
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("0x") || lower.starts_with("0b") {
        return false;
    }
    t.parse::<f64>().is_ok_and(f64::is_infinite)
}
