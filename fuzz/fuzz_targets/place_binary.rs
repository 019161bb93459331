//! Any bytes given to the binary place decoder: an arena or a clear error, never a panic; an
//! accepted place saves and loads back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(arena) = arbor_place::load_binary(data) {
        let saved = arbor_place::save_binary(&arena);
        arbor_place::load_binary(&saved).expect("a saved place loads");
    }
});
