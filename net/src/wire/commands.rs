//! Movement commands on the wire: [`InputCommand`] (one client physics step's intent) and
//! [`CommandWindow`] (the newest few commands, with the sequence number of the newest, that
//! every [`Input`](super::Input) message carries so a lost message loses no step).
//!
//! Invariants: a window holds at most [`MAX_INPUT_COMMANDS`] commands, numbered
//! `newest - len + 1 ..= newest`, oldest first, all ≥ 1 (sequence 0 means "none"); an empty
//! window has `newest == 0`; the slots past `len` are default (so decoding an encoded window
//! gives it back exactly).

use super::codec::{DecodeError, Reader, Writer};

/// Most commands one input message carries (the client's redundancy: a message lost among
/// fewer than this many in a row costs the server no step).
pub const MAX_INPUT_COMMANDS: usize = 8;

/// One client physics step's movement intent (1/60 s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InputCommand {
    /// Movement intent on X and Z, -127..=127 (-128 reads as -127).
    pub movement: [i8; 2],
    /// Buttons (bit 0: jump).
    pub buttons: u8,
}

/// The newest commands a client has (up to [`MAX_INPUT_COMMANDS`]), oldest first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommandWindow {
    newest: u32,
    len: u8,
    steps: [InputCommand; MAX_INPUT_COMMANDS],
}

impl CommandWindow {
    /// A window of `commands` (seq, command), oldest first and consecutive, keeping the
    /// newest [`MAX_INPUT_COMMANDS`]; `None` if they are not consecutive or a seq is 0.
    pub fn from_commands(commands: impl IntoIterator<Item = (u32, InputCommand)>) -> Option<Self> {
        let mut w = CommandWindow::default();
        for (seq, command) in commands {
            if seq == 0 || (w.len > 0 && Some(seq) != w.newest.checked_add(1)) {
                return None;
            }
            if usize::from(w.len) == MAX_INPUT_COMMANDS {
                w.steps.copy_within(1.., 0);
                w.len -= 1;
            }
            w.steps[usize::from(w.len)] = command;
            w.len += 1;
            w.newest = seq;
        }
        Some(w)
    }

    /// The sequence number of the newest command (0: the window is empty).
    pub fn newest(&self) -> u32 {
        self.newest
    }

    /// Commands held.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the window is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The commands with their sequence numbers, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = (u32, InputCommand)> + '_ {
        let first = self.newest.wrapping_sub(u32::from(self.len)).wrapping_add(1);
        self.steps[..self.len()].iter().enumerate().map(move |(i, c)| (first.wrapping_add(i as u32), *c))
    }

    /// Appends `newest:varint n:u8 (move_x:i8 move_z:i8 buttons:u8)×n`.
    pub(crate) fn encode(&self, w: &mut Writer) {
        w.varint(u64::from(self.newest));
        w.u8(self.len);
        for c in &self.steps[..self.len()] {
            w.u8(c.movement[0] as u8);
            w.u8(c.movement[1] as u8);
            w.u8(c.buttons);
        }
    }

    /// Reads what [`encode`](Self::encode) wrote, refusing a count past
    /// [`MAX_INPUT_COMMANDS`], a sequence 0 inside the window and a non-zero `newest` with
    /// no command.
    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let newest = r.varint_u32()?;
        let len = r.u8()?;
        if usize::from(len) > MAX_INPUT_COMMANDS {
            return Err(DecodeError::TooLong {
                what: "input commands",
                len: u64::from(len),
                max: MAX_INPUT_COMMANDS as u64,
            });
        }
        if (len == 0) != (newest == 0) || newest < u32::from(len) {
            return Err(DecodeError::BadValue("input command sequence"));
        }
        let mut steps = [InputCommand::default(); MAX_INPUT_COMMANDS];
        for step in steps.iter_mut().take(usize::from(len)) {
            *step = InputCommand { movement: [r.u8()? as i8, r.u8()? as i8], buttons: r.u8()? };
        }
        Ok(CommandWindow { newest, len, steps })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(x: i8) -> InputCommand {
        InputCommand { movement: [x, x.wrapping_neg()], buttons: (x & 1) as u8 }
    }

    #[test]
    fn a_window_keeps_the_newest_eight_consecutive_commands() {
        let w = CommandWindow::from_commands((1..=11).map(|s| (s, cmd(s as i8)))).unwrap();
        assert_eq!((w.newest(), w.len()), (11, 8));
        let seqs: Vec<u32> = w.iter().map(|(s, _)| s).collect();
        assert_eq!(seqs, (4..=11).collect::<Vec<_>>());
        assert!(w.iter().all(|(s, c)| c == cmd(s as i8)));
        assert!(CommandWindow::from_commands([(1, cmd(1)), (3, cmd(3))]).is_none());
        assert!(CommandWindow::from_commands([(0, cmd(1))]).is_none());
        assert_eq!(CommandWindow::from_commands([]), Some(CommandWindow::default()));
    }

    #[test]
    fn windows_round_trip_and_bad_ones_are_refused() {
        for n in [0u32, 1, 5, 8, 30] {
            let w = CommandWindow::from_commands((100..100 + n).map(|s| (s, cmd(s as i8)))).unwrap();
            let mut out = Writer::default();
            w.encode(&mut out);
            let mut r = Reader::new(out.as_slice());
            assert_eq!(CommandWindow::decode(&mut r), Ok(w));
            assert!(r.finish().is_ok());
        }
        // newest, count: too many; a count with no seq; a seq with no count; seqs reaching 0.
        for bad in [&[20u8, 9][..], &[0, 1, 0, 0, 0], &[5, 0], &[2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]] {
            assert!(CommandWindow::decode(&mut Reader::new(bad)).is_err(), "{bad:?}");
        }
    }
}
