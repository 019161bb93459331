//! Focused regression tests for component-store bugs found by the model test
//! (`tests/model/`), one per bug, through the public API.

use arbor_core::{
    Arena, ArenaError, Class, ComponentId, FieldDef, FieldType, FieldValue, Schema, SchemaError,
};

fn health() -> Schema {
    Schema::new("Health", vec![FieldDef::new("hp", FieldType::I32), FieldDef::new("regen", FieldType::F32)])
}

#[test]
fn an_unknown_component_id_is_refused_not_a_panic() {
    let mut arena = Arena::new();
    let h = arena.register_component(health()).unwrap();
    let p = arena.create(Class::Part, "P", None).unwrap();
    arena.add_component(p, h, None).unwrap();
    let unknown = ComponentId(9);
    let rev = arena.revisions().global;
    assert_eq!(
        arena.set_field(p, unknown, "hp", FieldValue::I32(1)),
        Err(ArenaError::Component(SchemaError::UnknownComponent("#9".into())))
    );
    assert_eq!(arena.revisions().global, rev);
    assert_eq!(arena.field(p, unknown, "hp"), None);
    assert_eq!(arena.components().field_by_name(p, unknown, "hp"), None);
    assert_eq!(arena.components().row(p, unknown), None);
    assert_eq!(arena.components().lane(unknown, "hp"), None);
}
