//! Software prefetch: a hint that brings memory into cache before it is read. It never
//! faults and changes no value, so it is safe whatever the address; on targets without
//! the instruction it does nothing.

/// Asks for the cache line holding `p` (any address: one outside live memory is simply not
/// fetched).
#[inline(always)]
pub(crate) fn prefetch_ptr<T>(p: *const T) {
    prefetch_line(p.cast());
}

#[inline(always)]
fn prefetch_line(p: *const i8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetch` only hints the cache: it never dereferences `p` architecturally,
    // cannot fault, and SSE (which provides it) is part of the x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
