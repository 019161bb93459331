//! Any text given to the JSON place decoder: an arena or a clear error, never a panic; an
//! accepted place saves and loads back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(arena) = arbor_place::load_json(text) {
        let saved = arbor_place::save_json(&arena);
        arbor_place::load_json(&saved).expect("a saved place loads");
    }
});
