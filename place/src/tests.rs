//! Unit tests of the place-file internals: error paths of the builder and the binary
//! checksum. The format itself is tested through the public API in `place/tests/place*.rs`.

use super::binary::checksum;
use super::build::{NodeSpec, TreeLoader};
use arbor_core::NodeFields;

fn spec(b: &mut TreeLoader, class: &'static str) -> NodeSpec<'static> {
    NodeSpec { class, fields: NodeFields::named(b.intern("x")) }
}

#[test]
fn builder_names_instances_by_their_place_in_the_file() {
    let mut b = TreeLoader::new(4);
    let s = spec(&mut b, "Folder");
    let a = b.add_node(None, None, 0, &s).unwrap();
    let c = b.add_node(Some(a), Some(a), 0, &s).unwrap();
    let d = b.add_node(Some(c), Some(c), 3, &s).unwrap();
    // A split entry: in the tree under `d`, in the file at the top level.
    let e = b.add_node(Some(d), None, 1, &s).unwrap();
    assert_eq!(b.path(d), "instances[0].children[0].children[3]");
    assert_eq!(b.path(e), "instances[1]");
    assert_eq!(
        b.err(d, "attributes.Speed", "bad").to_string(),
        "instances[0].children[0].children[3].attributes.Speed: bad"
    );
    let bad = spec(&mut b, "Spaceship");
    let err = b.add_node(Some(a), Some(a), 1, &bad).unwrap_err();
    assert_eq!(err.to_string(), "instances[0].children[1].class: unknown class 'Spaceship'");
    let arena = TreeLoader::new(0).tree_done().finish();
    assert_eq!(arena.len(), 2);
}

#[test]
fn checksum_follows_the_documented_rule() {
    assert_eq!(checksum(&[]), 0xcbf2_9ce4_8422_2325);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    h = (h ^ 0x0000_0000_0003_0201).wrapping_mul(0x100_0000_01b3);
    h ^= h >> 32;
    assert_eq!(checksum(&[1, 2, 3]), h ^ 3);
    assert_ne!(checksum(&[1, 2, 3, 0]), checksum(&[1, 2, 3]), "the length is mixed in");
    let a = checksum(&[0x80; 16]);
    let mut b = [0x80; 16];
    b[7] ^= 0x80;
    b[15] ^= 0x80;
    assert_ne!(checksum(&b), a, "high-bit flips in two words do not cancel");
}

#[test]
fn behaviours_and_their_settings_round_trip_in_both_forms() {
    let mut arena = arbor_core::Arena::new();
    assert!(crate::save_json(&arena).contains("\"version\": 1,"), "no behaviours: still version 1");
    arena.behaviors_mut().set("Door", "return { host = 'Part' }").unwrap();
    arena.behaviors_mut().settings.transactions_per_moment = 77;
    let text = crate::save_json(&arena);
    assert!(text.contains("\"version\": 2,") && text.contains("\"transactionsPerMoment\": 77"), "{text}");
    let back = crate::load_json(&text).unwrap();
    assert_eq!(back.behaviors(), arena.behaviors());
    let bin = crate::load_binary(&crate::save_binary(&arena)).unwrap();
    assert_eq!(bin.behaviors(), arena.behaviors());
    let twice =
        text.replace("\"behaviors\": [", "\"behaviors\": [\n    {\"name\": \"Door\", \"source\": \"\"},");
    let e = crate::load_json(&twice).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("a behaviour named 'Door' is already defined"), "{e}");
    let zero = text.replace("\"transactionsPerMoment\": 77", "\"transactionsPerMoment\": 0");
    let e = crate::load_json(&zero).map(|_| ()).unwrap_err().to_string();
    assert!(
        e.contains("transactionsPerMoment must be a whole number from 1 to 10000000; 0 is refused"),
        "{e}"
    );
}
