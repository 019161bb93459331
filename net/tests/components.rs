//! Game-defined components end to end without sockets: written a field or a chunk at a
//! time they replicate (lifetimes do not), and an update carries only the components that
//! changed, under loss.

mod common;

use arbor_net::wire::{EntityState, WireValue};
use common::place::place;
use common::{Pipe, replicated};

#[test]
fn components_replicate_whether_written_one_field_or_a_chunk_at_a_time_but_lifetimes_do_not() {
    use arbor_core::components::{FieldDef, FieldType, FieldValue, Query, Schema};
    let (mut arena, ids) = place(20);
    let heat =
        arena.register_component(Schema::new("Heat", vec![FieldDef::new("Value", FieldType::F32)])).unwrap();
    let lifetimes = arbor_sim::lifetime::Lifetimes::new(&mut arena).unwrap();
    for &p in &ids[2..12] {
        arena.add_component(p, heat, None).unwrap();
    }
    lifetimes.set(&mut arena, ids[3], 60.0).unwrap();
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);
    assert_eq!(pipe.replica.component(ids[2], "Heat"), Some(&[WireValue::Number(0.0)][..]));
    assert!(pipe.replica.component(ids[3], "Lifetime").is_none(), "Lifetime is server-side");

    // One field through set_field, the rest chunk by chunk, one component removed.
    pipe.arena.set_field(ids[2], heat, "Value", FieldValue::F32(5.0)).unwrap();
    let lane = pipe.arena.components().lane(heat, "Value").unwrap();
    pipe.arena.for_each_chunk_mut(&mut Query::new(&[heat]), &[], &[lane], |mut chunk| {
        for v in chunk.write::<f32>(0).iter_mut() {
            *v += 1.0;
        }
    });
    pipe.arena.remove_component(ids[11], heat).unwrap();
    pipe.converge(100);
    assert_eq!(pipe.replica.component(ids[2], "Heat"), Some(&[WireValue::Number(6.0)][..]));
    assert_eq!(pipe.replica.component(ids[5], "Heat"), Some(&[WireValue::Number(1.0)][..]));
    assert!(pipe.replica.component(ids[11], "Heat").is_none());
    let truth: u64 = replicated(&pipe.arena)
        .into_iter()
        .map(|id| {
            let node = pipe.arena.get(id).unwrap();
            let lifetime = pipe.arena.components().component(arbor_sim::lifetime::LIFETIME);
            EntityState::capture_with(&pipe.arena, &node, &|c| Some(c) != lifetime).hash(id)
        })
        .fold(0, |a, h| a ^ h);
    assert_eq!(pipe.replica.world_hash(), truth);
}

#[test]
fn an_update_carries_only_the_components_that_changed_and_survives_loss() {
    use arbor_core::components::{FieldDef, FieldType, FieldValue, Schema};
    let (mut arena, ids) = place(20);
    let long = |name: &str| Schema::new(name, vec![FieldDef::new("LongFieldName", FieldType::String)]);
    let (a, b, c) = (
        arena.register_component(long("AlphaComponent")).unwrap(),
        arena.register_component(long("BetaComponent")).unwrap(),
        arena.register_component(Schema::new("Gamma", vec![FieldDef::new("Value", FieldType::F64)])).unwrap(),
    );
    for &p in &ids[2..12] {
        for k in [a, b, c] {
            arena.add_component(p, k, None).unwrap();
        }
        arena
            .set_field(p, a, "LongFieldName", FieldValue::String("a fairly long text value".into()))
            .unwrap();
        arena
            .set_field(p, b, "LongFieldName", FieldValue::String("another fairly long text".into()))
            .unwrap();
    }
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);

    // One small field of one component: the update is a patch of it alone.
    pipe.arena.set_field(ids[4], c, "Value", FieldValue::F64(2.5)).unwrap();
    let bytes = pipe.sent_bytes;
    pipe.step();
    let update = pipe.sent_bytes - bytes;
    assert!(update < 40, "{update} bytes for one changed number of one component");
    assert_eq!(pipe.replica.component(ids[4], "Gamma"), Some(&[WireValue::Number(2.5)][..]));

    // Under loss, with components changing, added and removed: every message check passes
    // (the pipe fails at once otherwise) and the replica converges.
    pipe.loss = 0.4;
    pipe.ack_loss = 0.2;
    for t in 0..60 {
        let p = ids[2 + t % 10];
        pipe.arena.set_field(p, c, "Value", FieldValue::F64(t as f64)).unwrap();
        if t % 7 == 0 {
            pipe.arena.remove_component(p, b).unwrap();
        }
        if t % 11 == 0 {
            let _ = pipe.arena.add_component(ids[2 + (t / 11) % 10], b, None);
        }
        pipe.step();
    }
    pipe.converge(200);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    assert_eq!(pipe.replica.stats().apply_errors, 0);
    assert_eq!(pipe.replica.stats().message_mismatches, 0);
}
