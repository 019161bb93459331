//! [`CharacterState`]: the per-client message that closes the prediction loop. Every network
//! tick the server sends each client, on the unreliable snapshot channel, the newest input
//! command it applied for that client's character and the state of the character's root part
//! after that tick's physics step, exactly (f32 bits, not the 1/256-stud snapshot grid).
//!
//! It is its own message, not a field of a snapshot: a snapshot is filled under a byte budget
//! by priority and may be split or deferred, and this state must reach the client every
//! network tick whatever else waits; it is 45 bytes at most and stands alone.
//!
//! Invariants: decoding refuses a non-finite position or velocity, a character id outside
//! the server range, and trailing bytes; arbitrary bytes never panic it.

use super::codec::{DecodeError, Reader, Writer};
use super::message::check_id;
use arbor_core::Id;
use glam::Vec3;

/// The message tag (after snapshot 0x01 and input 0x02).
pub(crate) const CHARACTER_STATE: u8 = 3;

/// The server's state of a client's own character, for reconciliation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CharacterState {
    /// The server's replication epoch (one per network tick): orders these messages and
    /// dates them on the snapshots' timeline.
    pub epoch: u32,
    /// The sequence number of the newest input command applied for this client (0: none).
    pub acked: u32,
    /// A running count (modulo 256) of the physics steps that did not apply this client's
    /// next command in sequence (the server's queue was empty and it repeated the last
    /// command, or commands were skipped or lost). Steady in steady play; when it changed
    /// since the previous state the client received, the state still holds, but the client
    /// could not have predicted it.
    pub irregular: u8,
    /// Commands of this client still waiting in the server's queue after this tick's step
    /// (up to [`MAX_QUEUED_COMMANDS`](crate::prediction::MAX_QUEUED_COMMANDS)): the client
    /// paces its command clock by it ([`InputPacer`](crate::prediction::InputPacer)).
    pub queued: u8,
    /// The character and its root part's world state, if the client owns one.
    pub body: Option<BodyState>,
}

/// A character's root part after a physics step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyState {
    /// The character (the instance the client was told it owns).
    pub character: Id,
    /// The root part's world position, studs.
    pub position: Vec3,
    /// The root part's linear velocity, studs/s.
    pub velocity: Vec3,
}

fn vec3(r: &mut Reader<'_>) -> Result<Vec3, DecodeError> {
    let v = Vec3::new(f32::from_bits(r.u32()?), f32::from_bits(r.u32()?), f32::from_bits(r.u32()?));
    if !v.is_finite() {
        return Err(DecodeError::BadValue("non-finite character state"));
    }
    Ok(v)
}

impl CharacterState {
    /// Encodes `0x03 epoch:varint acked:varint irregular:u8 queued:u8 character:varint
    /// [position:f32×3 velocity:f32×3 if character != 0]`.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(48);
        w.u8(CHARACTER_STATE);
        w.varint(u64::from(self.epoch));
        w.varint(u64::from(self.acked));
        w.u8(self.irregular);
        w.u8(self.queued);
        match self.body {
            Some(b) => {
                w.varint(b.character.0);
                for v in [b.position, b.velocity] {
                    for c in v.to_array() {
                        w.u32(c.to_bits());
                    }
                }
            }
            None => w.varint(0),
        }
        w.into_vec()
    }

    /// Decodes a character state message.
    pub fn decode(bytes: &[u8]) -> Result<CharacterState, DecodeError> {
        if bytes.len() > 64 {
            return Err(DecodeError::TooLong { what: "character state", len: bytes.len() as u64, max: 64 });
        }
        let mut r = Reader::new(bytes);
        if r.u8()? != CHARACTER_STATE {
            return Err(DecodeError::BadValue("not a character state"));
        }
        let epoch = r.varint_u32()?;
        let acked = r.varint_u32()?;
        let irregular = r.u8()?;
        let queued = r.u8()?;
        let body = match r.varint()? {
            0 => None,
            raw => {
                let character = check_id(raw)?;
                Some(BodyState { character, position: vec3(&mut r)?, velocity: vec3(&mut r)? })
            }
        };
        r.finish()?;
        Ok(CharacterState { epoch, acked, irregular, queued, body })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sample() -> CharacterState {
        CharacterState {
            epoch: 300,
            acked: 70_000,
            irregular: 2,
            queued: 3,
            body: Some(BodyState {
                character: Id(77),
                position: Vec3::new(1.5, -3.25, 1.0e5),
                velocity: Vec3::new(16.0, -0.001, 0.0),
            }),
        }
    }

    #[test]
    fn a_state_round_trips_exactly_and_cut_or_bent_ones_are_refused() {
        for s in [sample(), CharacterState { epoch: 1, acked: 0, irregular: 0, queued: 0, body: None }] {
            assert_eq!(CharacterState::decode(&s.encode()), Ok(s));
        }
        let bytes = sample().encode();
        assert!(bytes.len() <= 40, "{} bytes", bytes.len());
        for cut in 0..bytes.len() {
            assert!(CharacterState::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(CharacterState::decode(&longer), Err(DecodeError::Trailing(1)));
        // A NaN coordinate, a client-local character id, another tag.
        let mut nan = sample();
        nan.body.as_mut().unwrap().velocity.y = f32::NAN;
        assert!(CharacterState::decode(&nan.encode()).is_err());
        let mut local = sample();
        local.body.as_mut().unwrap().character = Id(arbor_core::raw::CLIENT_ID_BASE);
        assert!(CharacterState::decode(&local.encode()).is_err());
        let mut tag = bytes;
        tag[0] = 1;
        assert!(CharacterState::decode(&tag).is_err());
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic_the_decoder(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            if let Ok(s) = CharacterState::decode(&bytes) {
                prop_assert_eq!(CharacterState::decode(&s.encode()), Ok(s));
            }
        }

        #[test]
        fn the_largest_state_is_45_bytes(epoch in any::<u32>(), acked in any::<u32>(), raw in 1u64..(1 << 52)) {
            let body = BodyState { character: Id(raw), position: Vec3::ONE, velocity: Vec3::ZERO };
            let s = CharacterState { epoch, acked, irregular: 255, queued: 255, body: Some(body) };
            let bytes = s.encode();
            prop_assert!(bytes.len() <= 45, "{} bytes", bytes.len());
            prop_assert_eq!(CharacterState::decode(&bytes), Ok(s));
        }
    }
}
