//! [`SplitMix64`]: the arena's deterministic generator of GUIDs and persistent ids.
//!
//! A batch's GUIDs are drawn a run at a time ([`SplitMix64::fill_u128`]): draw `j` of a run
//! mixes `state + (j + 1) * GAMMA`, known up front, so two GUIDs are mixed per 256-bit
//! vector: with AVX-512 DQ/VL (native 64-bit lane multiplies), else with AVX2 (each
//! multiply from three 32-bit ones), else one by one. Every path gives exactly the values
//! successive `next_u128` calls give (tested against them), so GUID sequences are unchanged.
//!
//! What the vector paths save: `docs/perf/nodes.md` and `docs/perf/components.md`.

use std::mem::MaybeUninit;

/// SplitMix64's state increment.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
const MUL1: u64 = 0xBF58_476D_1CE4_E5B9;
const MUL2: u64 = 0x94D0_49BB_1331_11EB;

/// Deterministic 64-bit generator (SplitMix64): GUIDs and persistent ids here, and any tool
/// or test that needs repeatable pseudo-random numbers.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix64(pub u64);

/// SplitMix64's output function of a state.
#[inline(always)]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(MUL1);
    z = (z ^ (z >> 27)).wrapping_mul(MUL2);
    z ^ (z >> 31)
}

impl SplitMix64 {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix(self.0)
    }

    /// A uniform `f32` in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// 128 random bits: the first draw high, the second low.
    pub(crate) fn next_u128(&mut self) -> u128 {
        ((self.next() as u128) << 64) | self.next() as u128
    }

    /// Writes the values of `out.len()` successive [`next_u128`](Self::next_u128) calls into
    /// `out`, in order, leaving the generator as those calls would.
    pub(crate) fn fill_u128(&mut self, out: &mut [MaybeUninit<u128>]) {
        #[cfg(target_arch = "x86_64")]
        let done = if out.len() < 2 {
            0
        } else if std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512vl")
        {
            // SAFETY: `fill_avx512` needs AVX-512 F, DQ and VL, detected just above (VL and DQ
            // imply F).
            unsafe { fill_avx512(self.0, out) }
        } else if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: `fill_avx2` needs AVX2, detected just above.
            unsafe { fill_avx2(self.0, out) }
        } else {
            0
        };
        #[cfg(not(target_arch = "x86_64"))]
        let done = 0;
        // The vector paths drew `2 * done` words.
        self.0 = self.0.wrapping_add((2 * done as u64).wrapping_mul(GAMMA));
        self.fill_scalar(&mut out[done..]);
    }

    /// [`fill_u128`](Self::fill_u128) one call at a time.
    fn fill_scalar(&mut self, out: &mut [MaybeUninit<u128>]) {
        for v in out {
            v.write(self.next_u128());
        }
    }
}

/// Writes the `next_u128` values drawn from `state` into the longest even-length prefix of
/// `out`, two per 256-bit vector, and returns that length; the caller advances the state.
/// Guid `k`'s high word is draw `2k` (state `state + (2k + 1) * GAMMA`), its low word draw
/// `2k + 1`; in memory (little-endian) the low word comes first. Calling it is `unsafe`
/// (outside code compiled with these features): the caller must have detected them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl")]
fn fill_avx512(state: u64, out: &mut [MaybeUninit<u128>]) -> usize {
    use std::arch::x86_64::*;
    let at = |k: u64| state.wrapping_add(k.wrapping_mul(GAMMA)) as i64;
    // Lanes in memory order: guid 0 low, guid 0 high, guid 1 low, guid 1 high.
    let mut z = _mm256_set_epi64x(at(3), at(4), at(1), at(2));
    let step = _mm256_set1_epi64x(4u64.wrapping_mul(GAMMA) as i64);
    let (m1, m2) = (_mm256_set1_epi64x(MUL1 as i64), _mm256_set1_epi64x(MUL2 as i64));
    let pairs = out.len() / 2;
    let dst = out.as_mut_ptr().cast::<__m256i>();
    for i in 0..pairs {
        let mut x = _mm256_xor_si256(z, _mm256_srli_epi64::<30>(z));
        x = _mm256_mullo_epi64(x, m1);
        x = _mm256_xor_si256(x, _mm256_srli_epi64::<27>(x));
        x = _mm256_mullo_epi64(x, m2);
        x = _mm256_xor_si256(x, _mm256_srli_epi64::<31>(x));
        // SAFETY: `2 * i + 1 < out.len()`, so the 32 bytes at `dst + i` are `out[2i..2i + 2]`
        // (an unaligned store, any bit pattern a valid `u128`); on x86-64 a `u128` is two
        // little-endian words, low first, as the lanes are laid out.
        unsafe { _mm256_storeu_si256(dst.add(i), x) };
        z = _mm256_add_epi64(z, step);
    }
    pairs * 2
}

/// [`fill_avx512`] with AVX2 only: each 64-bit lane multiply built from three 32-bit ones
/// (`lo * lo + ((hi * lo + lo * hi) << 32)`, wrapping, as `wrapping_mul`). The caller must
/// have detected AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn fill_avx2(state: u64, out: &mut [MaybeUninit<u128>]) -> usize {
    use std::arch::x86_64::*;
    // A closure, so it is compiled with this function's target features.
    let mul = |x: __m256i, lo: __m256i, hi: __m256i| {
        let cross =
            _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64::<32>(x), lo), _mm256_mul_epu32(x, hi));
        _mm256_add_epi64(_mm256_mul_epu32(x, lo), _mm256_slli_epi64::<32>(cross))
    };
    let at = |k: u64| state.wrapping_add(k.wrapping_mul(GAMMA)) as i64;
    let mut z = _mm256_set_epi64x(at(3), at(4), at(1), at(2));
    let step = _mm256_set1_epi64x(4u64.wrapping_mul(GAMMA) as i64);
    let (m1, m1h) = (_mm256_set1_epi64x(MUL1 as i64), _mm256_set1_epi64x((MUL1 >> 32) as i64));
    let (m2, m2h) = (_mm256_set1_epi64x(MUL2 as i64), _mm256_set1_epi64x((MUL2 >> 32) as i64));
    let pairs = out.len() / 2;
    let dst = out.as_mut_ptr().cast::<__m256i>();
    for i in 0..pairs {
        let mut x = _mm256_xor_si256(z, _mm256_srli_epi64::<30>(z));
        x = mul(x, m1, m1h);
        x = _mm256_xor_si256(x, _mm256_srli_epi64::<27>(x));
        x = mul(x, m2, m2h);
        x = _mm256_xor_si256(x, _mm256_srli_epi64::<31>(x));
        // SAFETY: as in `fill_avx512`.
        unsafe { _mm256_storeu_si256(dst.add(i), x) };
        z = _mm256_add_epi64(z, step);
    }
    pairs * 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filled_run_equals_successive_draws() {
        for len in [0, 1, 2, 3, 7, 64, 65] {
            let mut a = SplitMix64(0xDEAD_BEEF);
            let mut b = a;
            let mut c = a;
            let mut out = vec![MaybeUninit::uninit(); len];
            a.fill_u128(&mut out);
            let mut scalar = vec![MaybeUninit::uninit(); len];
            c.fill_scalar(&mut scalar);
            for (v, s) in out.iter().zip(&scalar) {
                // SAFETY: `fill_u128` and `fill_scalar` write every element.
                let (v, s) = unsafe { (v.assume_init(), s.assume_init()) };
                assert_eq!(v, b.next_u128());
                assert_eq!(s, v);
            }
            assert_eq!((a.0, c.0), (b.0, b.0));
        }
    }

    /// Each vector path against the scalar one, whichever path `fill_u128` picks here.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn every_vector_path_equals_the_scalar_draws() {
        let avx512 = is_x86_feature_detected!("avx512dq") && is_x86_feature_detected!("avx512vl");
        let avx2 = is_x86_feature_detected!("avx2");
        for len in [0, 1, 2, 5, 64] {
            let state = 0x0123_4567_89AB_CDEF;
            let mut scalar = vec![MaybeUninit::uninit(); len];
            SplitMix64(state).fill_scalar(&mut scalar);
            let mut paths: Vec<Vec<MaybeUninit<u128>>> = Vec::new();
            if avx512 {
                let mut out = vec![MaybeUninit::uninit(); len];
                // SAFETY: AVX-512 DQ and VL detected above.
                assert_eq!(unsafe { fill_avx512(state, &mut out) }, len / 2 * 2);
                paths.push(out);
            }
            if avx2 {
                let mut out = vec![MaybeUninit::uninit(); len];
                // SAFETY: AVX2 detected above.
                assert_eq!(unsafe { fill_avx2(state, &mut out) }, len / 2 * 2);
                paths.push(out);
            }
            for out in paths {
                for (v, s) in out.iter().zip(&scalar).take(len / 2 * 2) {
                    // SAFETY: the vector paths write the even prefix, `fill_scalar` everything.
                    assert_eq!(unsafe { v.assume_init() }, unsafe { s.assume_init() });
                }
            }
        }
    }
}
