//! The values that cross the C boundary: what a C call reads from its arguments ([`Arg`],
//! borrowing the stack), what it pushes as its result ([`Read`], owned, so the world borrow
//! can end before the push), and the message it raises ([`Fail`]). Nothing here allocates
//! for short strings or static messages.

use arbor_core::{Id, Vec3};
use std::borrow::Cow;

/// Up to this many bytes of a name are copied inline by a read.
const INLINE: usize = 62;

/// The result of a property read, owned so the world borrow can end before it is pushed.
pub enum Read {
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A vector.
    Vector(Vec3),
    /// A string with static storage (class, shape and material names).
    Static(&'static str),
    /// A short string copied inline.
    Inline([u8; INLINE], u8),
    /// A long string.
    Owned(String),
    /// An Instance handle, or nil.
    Instance(Option<Id>),
}

impl Read {
    /// `text`, copied.
    pub fn text(text: &str) -> Read {
        if text.len() <= INLINE {
            let mut buf = [0; INLINE];
            buf[..text.len()].copy_from_slice(text.as_bytes());
            Read::Inline(buf, text.len() as u8)
        } else {
            Read::Owned(text.to_owned())
        }
    }
}

/// A value being assigned to a property, borrowed from the Lua stack.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// nil.
    Nil,
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A vector (`Vector3`).
    Vector(Vec3),
    /// A string's bytes.
    Str(&'a [u8]),
    /// An Instance handle.
    Instance(Id),
    /// Any other value, by type name.
    Other(&'static str),
}

impl Arg<'_> {
    /// The type name used in error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Arg::Nil => "nil",
            Arg::Bool(_) => "boolean",
            Arg::Number(_) => "number",
            Arg::Vector(_) => "Vector3",
            Arg::Str(_) => "string",
            Arg::Instance(_) => "Instance",
            Arg::Other(t) => t,
        }
    }
}

/// A failure message.
pub type Fail = Cow<'static, str>;
