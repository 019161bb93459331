//! Positions on the wire as deltas. An update's position group names a *base*: the position
//! the instance had in an earlier message the client acknowledged, `back` sequence numbers
//! before this one, and carries only the axes that differ from it, each as a zigzag delta
//! on the 1/256-stud grid. A create, or an update with no usable base, carries the position
//! whole.
//!
//! The client keeps, per held instance, the positions of the last [`POSITION_HISTORY`]
//! messages that carried one ([`PositionHistory`]), however old. The server uses a base only
//! while it has sent the instance's position fewer than [`POSITION_HISTORY`] times since
//! the base's message (so the client cannot have pushed it out of its history); the
//! replica checks the base is there before it applies anything of the message, and a
//! message whose base is missing is not applied (nor acknowledged).
//!
//! When the server has sent no position since the base's, the client's newest remembered
//! position is the base, and the update says so instead of naming it.
//!
//! Update form: `head:u8` — 0 for the whole position (`zz×3` follows); else bits 0–2 the
//! axes present (x, y, z) and bits 3–7 the base: `back` when it is 1..=29, 30 with
//! `back:varint` after the head for an older base, 31 for the newest position held; then
//! one `zz` per present axis.

use super::codec::{DecodeError, Reader, Writer};

/// Positions a client remembers per held instance (and the most sends the server makes
/// against one base).
pub const POSITION_HISTORY: usize = 4;

/// The largest `back` written in the head byte; older bases follow it as a varint.
const INLINE_BACK: u32 = 29;
/// The head's base code of an escaped `back`.
const ESCAPED_BACK: u8 = 30;
/// The head's base code of "the newest position held".
const NEWEST: u8 = 31;

/// How the server writes an update's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionSend {
    /// The whole position.
    Whole,
    /// Against the position `base` of the message `back` sequence numbers earlier.
    Delta {
        /// How many sequence numbers before this message the base's message is (from 1).
        back: u32,
        /// The base position.
        base: [i32; 3],
    },
    /// Against `base`, the newest position the client holds (no position was sent since).
    FromNewest {
        /// The base position.
        base: [i32; 3],
    },
}

/// A decoded update position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionWire {
    /// The whole position.
    Whole([i32; 3]),
    /// Deltas against the base `back` sequence numbers earlier (0 on absent axes).
    Delta {
        /// How many sequence numbers before this message the base's message is.
        back: u32,
        /// Per axis, the difference from the base.
        delta: [i32; 3],
    },
    /// Deltas against the newest position the client holds.
    FromNewest {
        /// Per axis, the difference from the base.
        delta: [i32; 3],
    },
}

/// Writes an update's position.
pub(crate) fn encode(position: [i32; 3], send: PositionSend, w: &mut Writer) {
    let (code, back, base) = match send {
        PositionSend::Delta { back, base } if (1..=INLINE_BACK).contains(&back) => (back as u8, None, base),
        PositionSend::Delta { back, base } if back >= 1 => (ESCAPED_BACK, Some(back), base),
        PositionSend::FromNewest { base } => (NEWEST, None, base),
        _ => {
            w.u8(0);
            for c in position {
                w.zigzag(i64::from(c));
            }
            return;
        }
    };
    let delta: [i64; 3] = std::array::from_fn(|k| i64::from(position[k]) - i64::from(base[k]));
    let axes = (0..3).filter(|&k| delta[k] != 0).fold(0u8, |m, k| m | (1 << k));
    w.u8((code << 3) | axes);
    if let Some(back) = back {
        w.varint(u64::from(back));
    }
    for (k, d) in delta.iter().enumerate() {
        if axes & (1 << k) != 0 {
            w.zigzag(*d);
        }
    }
}

/// Reads an update's position.
pub(crate) fn decode(r: &mut Reader<'_>) -> Result<PositionWire, DecodeError> {
    let head = r.u8()?;
    if head == 0 {
        return Ok(PositionWire::Whole([r.zigzag_i32()?, r.zigzag_i32()?, r.zigzag_i32()?]));
    }
    let (code, axes) = (head >> 3, head & 7);
    let back = match code {
        0 => return Err(DecodeError::BadValue("position base")),
        ESCAPED_BACK => match r.varint_u32()? {
            b if b > INLINE_BACK => Some(b),
            _ => return Err(DecodeError::BadValue("position base")),
        },
        NEWEST => None,
        b => Some(u32::from(b)),
    };
    let mut delta = [0i32; 3];
    for (k, d) in delta.iter_mut().enumerate() {
        if axes & (1 << k) != 0 {
            *d = r.zigzag_i32()?;
        }
    }
    Ok(match back {
        Some(back) => PositionWire::Delta { back, delta },
        None => PositionWire::FromNewest { delta },
    })
}

impl PositionWire {
    /// The position, for message `seq`, against `history` (`None` when the base is not
    /// held, or the sum leaves `i32`).
    pub fn resolve(self, seq: u32, history: Option<&PositionHistory>) -> Option<[i32; 3]> {
        let (base, delta) = match self {
            PositionWire::Whole(p) => return Some(p),
            PositionWire::Delta { back, delta } => (history?.at(seq.checked_sub(back)?)?, delta),
            PositionWire::FromNewest { delta } => (history?.newest()?, delta),
        };
        let mut out = [0i32; 3];
        for k in 0..3 {
            out[k] = i32::try_from(i64::from(base[k]) + i64::from(delta[k])).ok()?;
        }
        Some(out)
    }
}

/// A client's last [`POSITION_HISTORY`] positions of one instance, by message sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionHistory {
    /// `(seq, position)`, oldest overwritten first; seq 0 marks an empty slot.
    slots: [(u32, [i32; 3]); POSITION_HISTORY],
    next: u8,
}

impl PositionHistory {
    /// Remembers that message `seq` left the instance at `position`.
    pub fn push(&mut self, seq: u32, position: [i32; 3]) {
        let at = usize::from(self.next);
        self.slots[at] = (seq, position);
        self.next = ((at + 1) % POSITION_HISTORY) as u8;
    }

    /// The newest position remembered.
    pub fn newest(&self) -> Option<[i32; 3]> {
        let at = (usize::from(self.next) + POSITION_HISTORY - 1) % POSITION_HISTORY;
        let (seq, p) = self.slots[at];
        (seq != 0).then_some(p)
    }

    /// The position message `seq` left, if remembered.
    pub fn at(&self, seq: u32) -> Option<[i32; 3]> {
        if seq == 0 {
            return None;
        }
        self.slots.iter().find(|(s, _)| *s == seq).map(|&(_, p)| p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_move_costs_a_head_byte_and_the_axes_that_changed() {
        let mut w = Writer::default();
        encode([1000, 500, 2060], PositionSend::Delta { back: 2, base: [1000, 500, 2000] }, &mut w);
        assert_eq!(w.as_slice().len(), 2);
        let wire = decode(&mut Reader::new(w.as_slice())).unwrap();
        assert_eq!(wire, PositionWire::Delta { back: 2, delta: [0, 0, 60] });
        let mut h = PositionHistory::default();
        h.push(8, [1000, 500, 2000]);
        assert_eq!(wire.resolve(10, Some(&h)), Some([1000, 500, 2060]));
        assert_eq!(wire.resolve(11, Some(&h)), None, "no base at 9");
        assert_eq!(wire.resolve(10, None), None, "nothing held");
        // No position sent since the base: the newest held, one head byte.
        let mut w = Writer::default();
        encode([1000, 500, 2060], PositionSend::FromNewest { base: [1000, 500, 2000] }, &mut w);
        assert_eq!(w.as_slice().len(), 2);
        let wire = decode(&mut Reader::new(w.as_slice())).unwrap();
        assert_eq!(wire.resolve(50, Some(&h)), Some([1000, 500, 2060]));
    }

    #[test]
    fn the_whole_form_round_trips_and_bad_heads_are_refused() {
        let mut w = Writer::default();
        encode([-7, 1 << 30, 3], PositionSend::Whole, &mut w);
        assert_eq!(decode(&mut Reader::new(w.as_slice())).unwrap(), PositionWire::Whole([-7, 1 << 30, 3]));
        // Back 0 with axes, truncated deltas, an escaped back that fits the head.
        assert!(decode(&mut Reader::new(&[0b0000_0111])).is_err());
        assert!(decode(&mut Reader::new(&[0b0000_1111, 2])).is_err());
        assert!(decode(&mut Reader::new(&[0b1111_0001, 5, 2])).is_err());
        // An old base: the back follows the head.
        let mut w = Writer::default();
        encode([10, 0, 0], PositionSend::Delta { back: 400, base: [4, 0, 0] }, &mut w);
        assert_eq!(
            decode(&mut Reader::new(w.as_slice())).unwrap(),
            PositionWire::Delta { back: 400, delta: [6, 0, 0] }
        );
        // A delta that leaves i32 does not resolve.
        let mut h = PositionHistory::default();
        h.push(4, [10, 0, 0]);
        let wire = PositionWire::Delta { back: 1, delta: [i32::MAX, 0, 0] };
        assert_eq!(wire.resolve(5, Some(&h)), None);
    }

    #[test]
    fn the_history_keeps_the_last_positions() {
        let mut h = PositionHistory::default();
        for seq in 1..=6u32 {
            h.push(seq, [seq as i32; 3]);
        }
        assert_eq!(h.at(2), None);
        for seq in 3..=6u32 {
            assert_eq!(h.at(seq), Some([seq as i32; 3]));
        }
        assert_eq!(h.at(0), None);
        assert_eq!(h.newest(), Some([6; 3]));
        assert_eq!(PositionHistory::default().newest(), None);
    }
}
