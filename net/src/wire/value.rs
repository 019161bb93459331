//! [`WireValue`]: one replicated value (an attribute's, or a field of a game-defined
//! component) with its wire encoding, and the longest string the wire carries.
//!
//! Invariants: a decoded string is at most [`MAX_TEXT`] bytes; a string longer than that is
//! cut at a character boundary before it is sent, so encoding never exceeds what decoding
//! accepts.

use super::codec::{DecodeError, Reader, Writer};
use super::quantize::{quantize_position, quantize_rotation};
use arbor_core::components::FieldValue;
use std::sync::Arc;

/// Longest name or attribute string on the wire, in bytes (names are capped at 1,024 by
/// the arena; longer attribute strings are cut at a character boundary and say so).
pub(crate) const MAX_TEXT: usize = 1024;

/// A replicated attribute value.
#[derive(Clone, Debug, PartialEq)]
pub enum WireValue {
    /// A boolean.
    Bool(bool),
    /// A number, bit for bit.
    Number(f64),
    /// A string.
    String(Arc<str>),
    /// A vector (quantised as positions).
    Vector3([i32; 3]),
    /// A reference to an instance (raw id; 0 for none).
    Ref(u64),
    /// A component's integer field.
    Int(i64),
    /// A component's quaternion field (smallest three).
    Rotation(u32),
}

impl WireValue {
    pub(crate) fn encode(&self, w: &mut Writer) {
        match self {
            WireValue::Bool(b) => w.u8(u8::from(*b)),
            WireValue::Number(n) => {
                w.u8(2);
                w.u64(n.to_bits());
            }
            WireValue::String(s) => {
                w.u8(3);
                w.str(s);
            }
            WireValue::Vector3(v) => {
                w.u8(4);
                for c in v {
                    w.zigzag(i64::from(*c));
                }
            }
            WireValue::Ref(id) => {
                w.u8(5);
                w.varint(*id);
            }
            WireValue::Int(i) => {
                w.u8(6);
                w.zigzag(*i);
            }
            WireValue::Rotation(q) => {
                w.u8(7);
                w.u32(*q);
            }
        }
    }

    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<WireValue, DecodeError> {
        Ok(match r.u8()? {
            0 => WireValue::Bool(false),
            1 => WireValue::Bool(true),
            2 => WireValue::Number(f64::from_bits(r.u64()?)),
            3 => WireValue::String(Arc::from(r.str("string value", MAX_TEXT)?)),
            4 => WireValue::Vector3([r.zigzag_i32()?, r.zigzag_i32()?, r.zigzag_i32()?]),
            5 => WireValue::Ref(r.varint()?),
            6 => WireValue::Int(r.zigzag()?),
            7 => WireValue::Rotation(r.u32()?),
            _ => return Err(DecodeError::BadValue("value tag")),
        })
    }

    /// The wire form of a component field.
    pub fn from_field(value: &FieldValue) -> WireValue {
        match value {
            FieldValue::Bool(b) => WireValue::Bool(*b),
            FieldValue::I32(i) => WireValue::Int(i64::from(*i)),
            FieldValue::I64(i) => WireValue::Int(*i),
            FieldValue::F32(f) => WireValue::Number(f64::from(*f)),
            FieldValue::F64(f) => WireValue::Number(*f),
            FieldValue::Vector3(v) => WireValue::Vector3(quantize_position(*v)),
            FieldValue::Quaternion(q) => WireValue::Rotation(quantize_rotation(*q)),
            FieldValue::String(s) => WireValue::String(cut(s)),
            FieldValue::Ref(r) => WireValue::Ref(r.map_or(0, |id| id.0)),
        }
    }
}

/// `text`, cut to at most [`MAX_TEXT`] bytes at a character boundary.
pub(crate) fn cut(text: &str) -> Arc<str> {
    if text.len() <= MAX_TEXT {
        return Arc::from(text);
    }
    let mut end = MAX_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Arc::from(&text[..end])
}
