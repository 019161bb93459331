//! Software prefetch: a hint that brings memory into cache before it is read. It never
//! faults and changes no value, so it is safe whatever the address; on targets without
//! the instruction it does nothing.

/// Cache line size assumed when striding through a slice.
const LINE: usize = 64;

/// Asks for every cache line of `data` to be brought into the first-level cache.
#[inline(always)]
pub(crate) fn prefetch<T>(data: &[T]) {
    let bytes = std::mem::size_of_val(data);
    let base = data.as_ptr().cast::<i8>();
    let mut off = 0;
    while off < bytes {
        prefetch_line(base.wrapping_add(off));
        off += LINE;
    }
}

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
