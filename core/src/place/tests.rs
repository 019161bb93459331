//! Unit tests of the place-file internals: error paths of the builder and the binary
//! checksum. The format itself is tested through the public API in `core/tests/place*.rs`.

use super::binary::checksum;
use super::build::{Builder, NodeSpec};
use crate::page::{DEFAULT_SIZE, LocalTransform};
use crate::value::{Appearance, NodeFlags};

fn spec(b: &mut Builder, class: &'static str) -> NodeSpec<'static> {
    NodeSpec {
        class,
        name: b.intern("x"),
        flags: NodeFlags::NEW,
        transform: LocalTransform::default(),
        size: DEFAULT_SIZE,
        appearance: Appearance::default(),
    }
}

#[test]
fn builder_names_instances_by_their_place_in_the_file() {
    let mut b = Builder::new(4);
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
    let arena = {
        let b = Builder::new(0);
        b.finish()
    };
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
