//! `attribute_write_10k`: string attribute writes, which pay for the place's text bound,
//! against number attribute writes (no text).

use arbor_core::{Arena, Class, Id};
use criterion::Criterion;

/// Writes that add text pay for the place's text bound (`Arena::max_text_bytes`): string
/// attribute writes against number attribute writes (no text), on 10,000 parts, a cap set.
pub(super) fn text_write_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("attribute_write_10k");
    let mut arena = Arena::new();
    arena.set_max_text_bytes(256 << 20);
    let ws = arena.workspace();
    let parts: Vec<Id> = (0..10_000).map(|_| arena.create(Class::Part, "P", Some(ws)).unwrap()).collect();
    let texts: [std::sync::Arc<str>; 2] = ["alpha".into(), "omega".into()];
    let mut flip = 0usize;
    group.bench_function("string", |b| {
        b.iter(|| {
            flip ^= 1;
            for &p in &parts {
                let v = arbor_core::AttributeValue::String(texts[flip].clone());
                arena.set_attribute(p, "Tag", Some(v)).unwrap();
            }
        })
    });
    group.bench_function("number_baseline", |b| {
        b.iter(|| {
            flip ^= 1;
            for &p in &parts {
                arena.set_attribute(p, "Hp", Some(arbor_core::AttributeValue::Number(flip as f64))).unwrap();
            }
        })
    });
    group.finish();
}
