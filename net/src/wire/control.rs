//! [`Control`]: the reliable, ordered messages from the server: the welcome, a kick's reason,
//! and the character this client owns.
//!
//! Invariants: a kick's reason is cut to [`MAX_REASON_BYTES`] at a character boundary; a
//! character id is a server id (0 on the wire means none); decoding arbitrary bytes returns an
//! error, never panics.

use super::codec::{DecodeError, Reader, Writer};
use super::message::check_id;
use arbor_core::Id;

const WELCOME: u8 = 10;
const KICK: u8 = 11;
const CHARACTER: u8 = 12;

/// Longest kick reason, in bytes.
pub(crate) const MAX_REASON_BYTES: usize = 256;

/// Reliable, ordered messages from the server.
#[derive(Clone, Debug, PartialEq)]
pub enum Control {
    /// Sent once on connect.
    Welcome {
        /// The user id from the connect token.
        user_id: u64,
        /// The streaming radius, in studs.
        radius: f32,
        /// Ticks between snapshots.
        network_every: u8,
    },
    /// The server is disconnecting this client.
    Kick {
        /// Why.
        reason: String,
    },
    /// The character this client's user owns now (`None`: none any more).
    Character {
        /// The character's id.
        id: Option<Id>,
    },
}

impl Control {
    /// Encodes the message.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(32);
        match self {
            Control::Welcome { user_id, radius, network_every } => {
                w.u8(WELCOME);
                w.varint(*user_id);
                w.u32(radius.to_bits());
                w.u8(*network_every);
            }
            Control::Kick { reason } => {
                w.u8(KICK);
                let mut end = reason.len().min(MAX_REASON_BYTES);
                while !reason.is_char_boundary(end) {
                    end -= 1;
                }
                w.str(&reason[..end]);
            }
            Control::Character { id } => {
                w.u8(CHARACTER);
                w.varint(id.map_or(0, |i| i.0));
            }
        }
        w.into_vec()
    }

    /// Decodes a control message.
    pub fn decode(bytes: &[u8]) -> Result<Control, DecodeError> {
        let mut r = Reader::new(bytes);
        let out = match r.u8()? {
            WELCOME => {
                let user_id = r.varint()?;
                let radius = f32::from_bits(r.u32()?);
                if !radius.is_finite() || radius < 0.0 {
                    return Err(DecodeError::BadValue("radius"));
                }
                Control::Welcome { user_id, radius, network_every: r.u8()? }
            }
            KICK => Control::Kick { reason: r.str("kick reason", MAX_REASON_BYTES)?.to_owned() },
            CHARACTER => match r.varint()? {
                0 => Control::Character { id: None },
                raw => Control::Character { id: Some(check_id(raw)?) },
            },
            _ => return Err(DecodeError::BadValue("control tag")),
        };
        r.finish()?;
        Ok(out)
    }
}
