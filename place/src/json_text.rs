//! JSON text helpers: the one-line layout of values in saved files ([`InlineFormatter`]) and
//! the path of the value at an error position ([`path_at`]).

use serde_json::ser::Formatter;
use std::io;

/// A `serde_json` formatter writing a value on one line with a space after every `:` and
/// `,`: `{"class": "Part", "position": [0.0, 10.0, 0.0]}`.
pub(crate) struct InlineFormatter;

impl Formatter for InlineFormatter {
    fn begin_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }
    fn begin_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

/// Writes `value` on one line at the end of `out`.
pub(crate) fn write_inline<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    let mut ser = serde_json::Serializer::with_formatter(out, InlineFormatter);
    // Serializing plain data into a Vec cannot fail.
    let _ = value.serialize(&mut ser);
}

/// The path (`instances[3].children[0].name`) of the value being read at byte `offset` of
/// `text`, found by scanning the text up to there. Tolerates malformed text.
pub(crate) fn path_at(text: &str, offset: usize) -> String {
    enum Seg {
        Object { key: Option<String>, expecting_key: bool },
        Array { index: usize },
    }
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    let mut stack: Vec<Seg> = Vec::new();
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'{' => stack.push(Seg::Object { key: None, expecting_key: true }),
            b'[' => stack.push(Seg::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Seg::Array { index }) => *index += 1,
                Some(Seg::Object { key, expecting_key }) => {
                    *key = None;
                    *expecting_key = true;
                }
                None => {}
            },
            b':' => {
                if let Some(Seg::Object { expecting_key, .. }) = stack.last_mut() {
                    *expecting_key = false;
                }
            }
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Seg::Object { key, expecting_key: true }) = stack.last_mut() {
                    let raw = &bytes[start..i.min(bytes.len())];
                    *key = Some(String::from_utf8_lossy(raw).into_owned());
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for seg in &stack {
        match seg {
            Seg::Object { key: Some(k), .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Seg::Object { key: None, .. } => {}
            Seg::Array { index } => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

/// The byte offset of a `serde_json` error position (1-based line, byte column).
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> usize {
    if line <= 1 {
        return column.min(text.len());
    }
    let start = text.match_indices('\n').nth(line - 2).map_or(text.len(), |(i, _)| i + 1);
    (start + column).min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_follow_keys_and_indexes() {
        let text = r#"{"instances": [{"a": 1}, {"children": [{"attributes": {"Speed": {"Number": "x"#;
        assert_eq!(path_at(text, text.len()), "instances[1].children[0].attributes.Speed.Number");
        let text = r#"{"a": [1, 2, {"b": "#;
        assert_eq!(path_at(text, text.len()), "a[2].b");
        assert_eq!(path_at("", 0), "");
        assert_eq!(path_at(r#"{"x": "unterminated"#, 100), "x");
    }

    #[test]
    fn offsets_from_lines() {
        let text = "ab\ncd\nef";
        assert_eq!(offset_of(text, 1, 1), 1);
        assert_eq!(offset_of(text, 2, 1), 4);
        assert_eq!(offset_of(text, 3, 2), 8);
        assert_eq!(offset_of(text, 9, 9), 8);
    }
}
