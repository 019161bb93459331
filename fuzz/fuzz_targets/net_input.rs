//! The server's input path past the decoder, as `NetServer` runs it for one client: a
//! streaming radius (any f32: NaN, infinities, the extremes) and then a run of records, each
//! either an input message (any bytes, decoded as the server decodes them: its ack goes to
//! the view, its focus moves the view) or a raw focus (any three f32s, as a character's
//! position would give), every one followed by a network tick (view update and messages).
//! Nothing panics, every focus lands inside ±`WORLD_EXTENT`, and no refocus looks at more
//! cells than the mirror has occupied cells, however far the focus jumps.
//!
//! Record layout after the 4-byte radius: a tag byte, then for an even tag a length byte
//! `n` (at most 64) and `n` bytes of input message, for an odd tag 12 bytes of focus.
#![no_main]

use arbor_core::{Arena, Class, Vec3};
use arbor_net::replication::{ClientView, Mirror};
use arbor_net::wire::Input;
use arbor_sim::physics::WORLD_EXTENT;
use libfuzzer_sys::fuzz_target;

/// Parts near the origin, at the world's edge, past it and far past it.
fn place() -> Arena {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let spots = [
        Vec3::ZERO,
        Vec3::new(100.0, 0.0, -40.0),
        Vec3::new(2000.0, 5.0, 2000.0),
        Vec3::new(WORLD_EXTENT, 0.0, WORLD_EXTENT),
        Vec3::new(-WORLD_EXTENT, 0.0, WORLD_EXTENT),
        Vec3::new(8.0e6, 0.0, -8.0e6),
        Vec3::new(1.0e30, 0.0, 1.0e30),
    ];
    for (i, at) in spots.into_iter().enumerate() {
        let p = arena.create(Class::Part, &format!("P{i}"), Some(ws)).expect("a part");
        arena.set_position(p, at).expect("a finite position");
        arena.create(Class::Part, "Child", Some(p)).expect("a child part");
    }
    arena
}

fuzz_target!(|data: &[u8]| {
    let Some((radius, mut rest)) = data.split_first_chunk::<4>() else { return };
    let arena = place();
    let mut mirror = Mirror::new();
    let world = |id| arena.get(id).map_or(Vec3::ZERO, |n| n.position());
    mirror.capture(&arena, &world);
    let mut view = ClientView::new(Vec3::ZERO, f32::from_le_bytes(*radius));
    view.update(&arena, &mirror);
    let mut ticks = 0u64;
    while let Some((&tag, tail)) = rest.split_first() {
        if tag % 2 == 0 {
            let Some((&n, tail)) = tail.split_first() else { return };
            let n = usize::from(n).min(64).min(tail.len());
            let (bytes, tail) = tail.split_at(n);
            rest = tail;
            if let Ok(input) = Input::decode(bytes) {
                // An ack of an unsent snapshot disconnects the client: the run ends there.
                if view.ack(&arena, &mirror, input.ack, input.ack_bits).is_err() {
                    return;
                }
                if let Some(focus) = input.focus_position() {
                    view.set_focus(focus);
                }
            }
        } else {
            let Some((raw, tail)) = tail.split_first_chunk::<12>() else { return };
            rest = tail;
            let f = |i: usize| f32::from_le_bytes([raw[i], raw[i + 1], raw[i + 2], raw[i + 3]]);
            view.set_focus(Vec3::new(f(0), f(4), f(8)));
        }
        let focus = view.focus();
        assert!(focus.is_finite() && focus.abs().max_element() <= WORLD_EXTENT, "{focus}");
        mirror.capture(&arena, &world);
        view.update(&arena, &mirror);
        let _ = view.build(&mirror, 4096, 2);
        ticks += 1;
        if ticks > 256 {
            break;
        }
    }
    let stats = view.stats();
    assert!(
        stats.refocus_cells <= stats.refocuses * mirror.occupied_cells() as u64,
        "{stats:?}, {} occupied cells",
        mirror.occupied_cells()
    );
});
