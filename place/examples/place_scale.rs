//! Saves and loads a 1,000,000-instance place in both forms and prints the times and sizes.
//!
//! `cargo run --release -p arbor-place --example place_scale [INSTANCES]` (set `PLACE_PHASES=1`
//! to split the JSON load into parsing and building).
//!
//! The place: 1,000 models under the Workspace, each holding parts (positions, sizes, some
//! rotated, coloured or anchored), with a weld per model, attributes on every 20th part, a tag
//! on every 100th and a `Lifetime` row on every 100th.

use arbor_core::{
    Appearance, Arena, AttributeValue, Class, Color, LocalTransform, Material, NodeFlags, Quat, Vec3,
    components::{FieldDef, FieldType, FieldValue, Schema},
};
use arbor_place::{load_binary, load_json, save_binary, save_json};
use std::time::Instant;

fn build(total: usize) -> Arena {
    let mut a = Arena::new();
    let lifetime = a
        .register_component(Schema::new("Lifetime", vec![FieldDef::new("Remaining", FieldType::F64)]))
        .unwrap();
    let ws = a.workspace();
    let models = 1000.min(total / 4).max(1);
    let per_model = (total.saturating_sub(2 + models)) / models;
    let mut n = 0usize;
    for m in 0..models {
        let model = a.create(Class::Model, &format!("Model{m}"), Some(ws)).unwrap();
        let mut first = None;
        for k in 0..per_model.saturating_sub(1) {
            let p = a.create(Class::Part, "Part", Some(model)).unwrap();
            let f = n as f32;
            let rotation =
                if n.is_multiple_of(10) { Quat::from_rotation_y(f * 0.01) } else { Quat::IDENTITY };
            a.set_transform(
                p,
                LocalTransform {
                    position: Vec3::new(f % 500.0, 5.0 + (f % 37.0), (f / 500.0) % 500.0),
                    rotation,
                },
            )
            .unwrap();
            a.set_size(p, Vec3::new(2.0, 1.0 + (k % 3) as f32, 2.0)).unwrap();
            if n.is_multiple_of(7) {
                let look = Appearance {
                    color: Color([(n % 255) as u8, 80, 200, 255]),
                    material: Material::Metal,
                    ..Default::default()
                };
                a.set_appearance(p, look).unwrap();
            }
            if n.is_multiple_of(3) {
                a.set_flag(p, NodeFlags::ANCHORED, true).unwrap();
            }
            if n.is_multiple_of(20) {
                a.set_attribute(p, "Health", Some(AttributeValue::Number(100.0))).unwrap();
                a.set_attribute(p, "Team", Some(AttributeValue::String("red".into()))).unwrap();
            }
            if n.is_multiple_of(100) {
                a.add_tag(p, "Loot").unwrap();
                a.add_component(p, lifetime, Some(&[FieldValue::F64(30.0)])).unwrap();
            }
            first.get_or_insert(p);
            n += 1;
        }
        let weld = a.create(Class::Weld, "Weld", Some(model)).unwrap();
        if let Some(p) = first {
            a.set_reference(weld, 0, Some(p)).unwrap();
            a.set_reference(weld, 1, Some(p)).unwrap();
        }
    }
    a
}

fn time<T>(label: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    println!("{label:<16} {:>9.1} ms", t.elapsed().as_secs_f64() * 1000.0);
    out
}

fn main() {
    let total: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let arena = time("build (create)", || build(total));
    println!("instances        {:>9}", arena.len());
    let json = time("save_json", || save_json(&arena));
    println!(
        "json size        {:>9.1} MB ({:.1} bytes/instance)",
        json.len() as f64 / 1e6,
        json.len() as f64 / arena.len() as f64
    );
    let from_json = time("load_json", || load_json(&json).unwrap());
    if std::env::var_os("PLACE_PHASES").is_some() {
        let file: arbor_place::doc::PlaceFile<'_> = time("  parse", || serde_json::from_str(&json).unwrap());
        let built = time("  to_arena", || file.to_arena().unwrap());
        time("  drop doc", || drop(file));
        drop(built);
        let doc = time("  from_arena", || arbor_place::doc::PlaceFile::from_arena(&arena));
        drop(doc);
    }
    drop(json);
    let bytes = time("save_binary", || save_binary(&arena));
    println!(
        "binary size      {:>9.1} MB ({:.1} bytes/instance)",
        bytes.len() as f64 / 1e6,
        bytes.len() as f64 / arena.len() as f64
    );
    let from_binary = time("load_binary", || load_binary(&bytes).unwrap());
    assert_eq!(from_json.len(), arena.len());
    assert_eq!(from_binary.len(), arena.len());
    time("drop arenas", || drop((arena, from_json, from_binary)));
}
