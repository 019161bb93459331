//! The byte codec under every wire message: [`Writer`] appends fixed-width little-endian
//! integers and LEB128 varints; [`Reader`] reads them back and refuses anything that does not
//! fit what remains.
//!
//! Invariants: a [`Reader`] never allocates from a length it read without first checking
//! that length against a caller-given maximum *and* against the bytes left; a varint longer
//! than its type is an error, never a wrap-around; decoding never panics on any input.

use thiserror::Error;

/// Why bytes from the wire were refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DecodeError {
    /// The message ended inside a value.
    #[error("message truncated")]
    Truncated,
    /// A varint ran past the width of its type.
    #[error("varint overflows its type")]
    VarintOverflow,
    /// A count or length is larger than its bound or than the bytes left.
    #[error("{what}: {len} exceeds the bound of {max}")]
    TooLong {
        /// What was being read.
        what: &'static str,
        /// The length on the wire.
        len: u64,
        /// The bound it broke.
        max: u64,
    },
    /// A string is not UTF-8.
    #[error("string is not UTF-8")]
    BadUtf8,
    /// A value outside its type's range (an unknown class, a bad tag).
    #[error("bad value: {0}")]
    BadValue(&'static str),
    /// Bytes were left after the message.
    #[error("{0} trailing bytes after the message")]
    Trailing(usize),
}

/// Appends wire values to a byte buffer.
#[derive(Clone, Debug, Default)]
pub struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// An empty writer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Self { buf: Vec::with_capacity(capacity) }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Drops everything after the first `len` bytes (undoing a value that did not fit).
    pub fn truncate(&mut self, len: usize) {
        self.buf.truncate(len);
    }

    /// The bytes written.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// The bytes written, by value.
    pub fn into_vec(self) -> Vec<u8> {
        self.buf
    }

    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// Four bytes, little-endian.
    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Eight bytes, little-endian.
    pub fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// An unsigned LEB128 varint (1 byte below 128, at most 10).
    pub fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    /// A signed varint, zigzag-coded so small magnitudes take one byte.
    pub fn zigzag(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    /// A length-prefixed byte string.
    pub fn bytes(&mut self, v: &[u8]) {
        self.varint(v.len() as u64);
        self.buf.extend_from_slice(v);
    }

    /// A length-prefixed UTF-8 string.
    pub fn str(&mut self, v: &str) {
        self.bytes(v.as_bytes());
    }
}

/// Reads wire values from a byte slice, bounding every length before it is used.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader over `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Self { buf, pos: 0 }
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Fails unless every byte was read.
    pub fn finish(&self) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(DecodeError::Trailing(n)),
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if self.remaining() < n {
            return Err(DecodeError::Truncated);
        }
        let out = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }

    /// Four bytes, little-endian.
    pub fn u32(&mut self) -> Result<u32, DecodeError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Eight bytes, little-endian.
    pub fn u64(&mut self) -> Result<u64, DecodeError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// An unsigned LEB128 varint of at most 64 bits.
    pub fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut out = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            let part = u64::from(b & 0x7f);
            if shift == 63 && part > 1 {
                return Err(DecodeError::VarintOverflow);
            }
            out |= part << shift;
            if b & 0x80 == 0 {
                return Ok(out);
            }
        }
        Err(DecodeError::VarintOverflow)
    }

    /// A varint that must fit 32 bits.
    pub fn varint_u32(&mut self) -> Result<u32, DecodeError> {
        u32::try_from(self.varint()?).map_err(|_| DecodeError::VarintOverflow)
    }

    /// A zigzag-coded signed varint.
    pub fn zigzag(&mut self) -> Result<i64, DecodeError> {
        let v = self.varint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// A zigzag varint that must fit 32 bits.
    pub fn zigzag_i32(&mut self) -> Result<i32, DecodeError> {
        i32::try_from(self.zigzag()?).map_err(|_| DecodeError::VarintOverflow)
    }

    /// A count of items that each take at least `min_item_bytes`, at most `max`: refused
    /// before anything is allocated for them when the bytes left could not hold them.
    pub fn count(
        &mut self,
        what: &'static str,
        max: usize,
        min_item_bytes: usize,
    ) -> Result<usize, DecodeError> {
        let n = self.varint()?;
        let fits = (self.remaining() / min_item_bytes.max(1)) as u64;
        let bound = (max as u64).min(fits);
        if n > bound {
            return Err(DecodeError::TooLong { what, len: n, max: bound });
        }
        Ok(n as usize)
    }

    /// A length-prefixed byte string of at most `max` bytes.
    pub fn bytes(&mut self, what: &'static str, max: usize) -> Result<&'a [u8], DecodeError> {
        let n = self.count(what, max, 1)?;
        self.take(n)
    }

    /// A length-prefixed UTF-8 string of at most `max` bytes.
    pub fn str(&mut self, what: &'static str, max: usize) -> Result<&'a str, DecodeError> {
        std::str::from_utf8(self.bytes(what, max)?).map_err(|_| DecodeError::BadUtf8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn varints_round_trip_at_the_edges() {
        for v in [0, 1, 127, 128, 16_383, 16_384, u32::MAX as u64, u64::MAX] {
            let mut w = Writer::default();
            w.varint(v);
            let mut r = Reader::new(w.as_slice());
            assert_eq!(r.varint(), Ok(v));
            r.finish().unwrap();
        }
        for v in [0, -1, 1, i64::MIN, i64::MAX, -300] {
            let mut w = Writer::default();
            w.zigzag(v);
            assert_eq!(Reader::new(w.as_slice()).zigzag(), Ok(v));
        }
    }

    #[test]
    fn an_overlong_varint_is_refused() {
        let bytes = [0xff; 11];
        assert_eq!(Reader::new(&bytes).varint(), Err(DecodeError::VarintOverflow));
        let mut ten = [0xffu8; 10];
        ten[9] = 0x02; // bit 64
        assert_eq!(Reader::new(&ten).varint(), Err(DecodeError::VarintOverflow));
    }

    #[test]
    fn a_length_past_the_bytes_left_is_refused_before_allocating() {
        let mut w = Writer::default();
        w.varint(1 << 40);
        let err = Reader::new(w.as_slice()).bytes("name", usize::MAX).unwrap_err();
        assert!(matches!(err, DecodeError::TooLong { what: "name", .. }));
        let mut w = Writer::default();
        w.str("hello");
        assert!(matches!(Reader::new(w.as_slice()).str("name", 4), Err(DecodeError::TooLong { .. })));
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut r = Reader::new(&bytes);
            let _ = r.varint();
            let _ = r.zigzag();
            let _ = r.str("s", 16);
            let _ = r.count("c", 8, 2);
            let _ = r.u64();
        }
    }
}
