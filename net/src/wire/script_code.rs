//! [`ScriptCode`]: one client script's compiled Luau bytecode, shipped from the server to a
//! client on the reliable, ordered code channel.
//!
//! Layout: tag `SCRIPT_CODE` (u8), the Script's server id (varint), the hash of the code
//! (u64; the client keys its code cache by it), the bytecode (varint length, then the bytes).
//!
//! Invariants: only compiled bytecode travels, never a source; the id is a server id (a
//! client-local id is refused); the bytecode is at most [`MAX_SCRIPT_CODE_BYTES`] and the
//! decoder checks the bound before it allocates.

use super::codec::{DecodeError, Reader, Writer};
use super::message::check_id;
use arbor_core::Id;
use std::sync::Arc;

const SCRIPT_CODE: u8 = 20;

/// The largest bytecode of one client script the server ships (a script compiling to more is
/// not shipped, and the server says so in its log).
pub const MAX_SCRIPT_CODE_BYTES: usize = 256 << 10;

/// One client script's bytecode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptCode {
    /// The Script instance (a server id).
    pub script: Id,
    /// The hash of `bytecode` ([`ScriptCode::hash_of`]).
    pub hash: u64,
    /// Luau bytecode, as `arbor_script`'s compiler produced it.
    pub bytecode: Arc<[u8]>,
}

impl ScriptCode {
    /// The code of `script`, with its hash.
    pub fn new(script: Id, bytecode: Arc<[u8]>) -> ScriptCode {
        ScriptCode { script, hash: Self::hash_of(&bytecode), bytecode }
    }

    /// The hash both sides use to name a piece of code (64-bit FNV-1a: stable across
    /// builds and platforms, which a std hasher is not).
    pub fn hash_of(bytecode: &[u8]) -> u64 {
        bytecode.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    }

    /// Encodes the message.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(self.bytecode.len() + 24);
        w.u8(SCRIPT_CODE);
        w.varint(self.script.0);
        w.u64(self.hash);
        w.bytes(&self.bytecode);
        w.into_vec()
    }

    /// Decodes a message; the hash must match the bytes.
    pub fn decode(bytes: &[u8]) -> Result<ScriptCode, DecodeError> {
        let mut r = Reader::new(bytes);
        if r.u8()? != SCRIPT_CODE {
            return Err(DecodeError::BadValue("script code tag"));
        }
        let script = check_id(r.varint()?)?;
        let hash = r.u64()?;
        let bytecode: Arc<[u8]> = r.bytes("script bytecode", MAX_SCRIPT_CODE_BYTES)?.into();
        r.finish()?;
        if Self::hash_of(&bytecode) != hash {
            return Err(DecodeError::BadValue("script code hash"));
        }
        Ok(ScriptCode { script, hash, bytecode })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn code_round_trips_and_checks_its_hash() {
        let code = ScriptCode::new(Id(42), Arc::from(&b"\x06bytecode"[..]));
        let bytes = code.encode();
        assert_eq!(ScriptCode::decode(&bytes), Ok(code));
        let mut corrupt = bytes.clone();
        *corrupt.last_mut().unwrap() ^= 1;
        assert_eq!(ScriptCode::decode(&corrupt), Err(DecodeError::BadValue("script code hash")));
    }

    #[test]
    fn client_local_ids_and_oversized_code_are_refused() {
        let local = ScriptCode::new(Id(arbor_core::raw::CLIENT_ID_BASE), Arc::from(&b"x"[..]));
        assert!(ScriptCode::decode(&local.encode()).is_err());
        let big = ScriptCode::new(Id(3), vec![0u8; MAX_SCRIPT_CODE_BYTES + 1].into());
        assert!(matches!(ScriptCode::decode(&big.encode()), Err(DecodeError::TooLong { .. })));
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = ScriptCode::decode(&bytes);
        }
    }
}
