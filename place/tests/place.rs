//! Place files: the shipped example loads, both forms round-trip a rich arena (classes,
//! names, order, properties, attributes, tags, handles, references, components, sources;
//! Transient and non-archivable subtrees left out), and bad files fail with clean errors
//! naming the offending item.

mod place_support;

use arbor_core::{Arena, AttributeValue, Class, Id, Vec3, components::FieldValue};
use arbor_place::doc::PlaceFile;
use arbor_place::{
    PLACE_BINARY_MAGIC, PLACE_FORMAT_VERSION, PlaceError, load_binary, load_json, save_binary, save_json,
};
use place_support::{dump, sample};

const EXAMPLE: &str = include_str!("../../places/example.place.json");

fn find(arena: &Arena, under: Id, name: &str) -> Id {
    arena.find_first_descendant(under, name).unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn example_place_loads() {
    let arena = load_json(EXAMPLE).expect("the example place loads");
    let ws = arena.workspace();
    let base = find(&arena, ws, "Baseplate");
    let b = arena.get(base).unwrap();
    assert!(b.anchored());
    assert_eq!(b.size(), Vec3::new(512.0, 20.0, 512.0));
    assert_eq!(b.position().y + b.size().y / 2.0, 0.0, "the baseplate's top is at y = 0");
    let pad = arena.handle("SpawnPad").expect("SpawnPad handle");
    assert_eq!(arena.name_of(pad), Some("SpawnPad"));
    assert!(arena.tagged("Spawn").any(|t| t == pad));
    let ball = find(&arena, ws, "Ball");
    assert_eq!(arena.get(ball).unwrap().appearance().shape, arbor_core::Shape::Ball);
    assert!(!arena.get(ball).unwrap().anchored());
    assert_eq!(arena.tagged("Pushable").count(), 2);
    // The welded model.
    let cart = find(&arena, ws, "Cart");
    assert_eq!(arena.get(cart).unwrap().class(), Class::Model);
    let body = find(&arena, cart, "Body");
    let seat_weld = find(&arena, cart, "SeatWeld");
    assert_eq!(arena.get(seat_weld).unwrap().reference(0), Some(body));
    assert_eq!(arena.get(seat_weld).unwrap().reference(1), Some(find(&arena, cart, "Seat")));
    // The lifetime component.
    let lifetime = arena.components().component("Lifetime").expect("Lifetime schema");
    let flare = find(&arena, ws, "Flare");
    assert_eq!(arena.field(flare, lifetime, "Remaining"), Some(FieldValue::F64(5.0)));
    // The ObjectValue, the bullets folder, the scripts.
    let fav = find(&arena, ws, "FavouriteCrate");
    let crate_part = arena.get(fav).unwrap().reference(0).expect("ObjectValue.Value");
    assert_eq!(arena.name_of(crate_part), Some("Crate"));
    assert_eq!(arena.get(find(&arena, ws, "Bullets")).unwrap().class(), Class::Folder);
    assert_eq!(arena.script_source(find(&arena, ws, "Hello")), Some("print(\"hello from Arbor\")\n"));
    let mover = find(&arena, ws, "PlatformMover");
    assert!(arena.script_source(mover).unwrap().contains("function Update(dt)"));
    assert_eq!(
        arena.attribute(mover, "Platform"),
        Some(&AttributeValue::Ref(arena.handle("MovingPlatform")))
    );
    // Settings, ids, and the top-level folder outside the world.
    assert_eq!(arena.attribute(ws, "FallenPartsDestroyHeight"), Some(&AttributeValue::Number(-500.0)));
    let prefabs = find(&arena, arena.root(), "Prefabs");
    assert_eq!(arena.get(prefabs).unwrap().parent(), Some(arena.root()));
    assert!(
        !arena
            .get(find(&arena, prefabs, "Bullet"))
            .unwrap()
            .flags()
            .contains(arbor_core::NodeFlags::IN_WORLD)
    );
    assert!(arena.get(body).unwrap().flags().contains(arbor_core::NodeFlags::IN_WORLD));
    let ids: Vec<u64> = arena.iter().map(|n| n.id().0).collect();
    assert_eq!(ids, (1..=arena.len() as u64).collect::<Vec<_>>(), "fresh server ids, counting up");
    // It is written in the canonical layout: saving it gives the same text.
    assert_eq!(save_json(&arena), EXAMPLE);
    assert!(EXAMPLE.lines().count() < 200);
}

#[test]
fn json_round_trip_keeps_the_tree_and_drops_transient_subtrees() {
    let s = sample();
    let json = save_json(&s.arena);
    let loaded = load_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(dump(&loaded), dump(&s.arena));
    assert_eq!(save_json(&loaded), json, "saving a loaded place gives the same file");
    check_sample_specifics(&s, &loaded);
    assert!(json.contains("\"parent\": "), "the deep chain was split into a top-level entry");
}

#[test]
fn binary_round_trip_keeps_the_tree_and_drops_transient_subtrees() {
    let s = sample();
    let bytes = save_binary(&s.arena);
    assert!(bytes.starts_with(PLACE_BINARY_MAGIC));
    let loaded = load_binary(&bytes).unwrap();
    assert_eq!(dump(&loaded), dump(&s.arena));
    assert_eq!(save_binary(&loaded), bytes, "saving a loaded place gives the same bytes");
    check_sample_specifics(&s, &loaded);
    // The two forms hold the same place.
    let via_json = load_json(&save_json(&load_binary(&bytes).unwrap())).unwrap();
    assert_eq!(save_binary(&via_json), bytes);
}

fn check_sample_specifics(s: &place_support::Sample, loaded: &Arena) {
    let ws = loaded.workspace();
    assert_eq!(loaded.find_first_descendant(ws, "Character"), None, "Transient subtree left out");
    assert_eq!(loaded.find_first_descendant(ws, "Head"), None);
    assert_eq!(loaded.handle("Head"), None);
    assert_eq!(loaded.find_first_descendant(ws, "NotArchived"), None, "non-archivable left out");
    assert_eq!(loaded.find_first_descendant(ws, "InsideHidden"), None);
    assert_eq!(loaded.find_first_descendant(loaded.root(), "Detached"), None);
    let seat = loaded.find_first_descendant(ws, "Seat").unwrap();
    assert_eq!(
        loaded.attribute(seat, "Owner"),
        Some(&AttributeValue::Ref(None)),
        "reference to a left-out instance"
    );
    assert_eq!(loaded.attribute(seat, "Loose"), Some(&AttributeValue::Ref(None)));
    let crate_part = loaded.handle("TheCrate").unwrap();
    let original = s.arena.get(s.crate_part).unwrap();
    assert_eq!(loaded.get(crate_part).unwrap().persistent_id(), original.persistent_id());
    assert_eq!(loaded.find_persistent(original.persistent_id().unwrap()), Some(crate_part));
    let value = loaded.find_first_descendant(ws, "Target").unwrap();
    assert_eq!(loaded.get(value).unwrap().reference(0), Some(crate_part));
    assert!(loaded.referrers(crate_part).any(|(h, _)| h == value), "reverse reference index rebuilt");
    assert_eq!(loaded.tagged("Pushable").collect::<Vec<_>>(), vec![crate_part]);
    let link = loaded.components().component("Link").unwrap();
    let seat_row = loaded.field(seat, link, "Target");
    assert_eq!(seat_row, Some(FieldValue::Ref(Some(crate_part))));
    assert!(loaded.component_referrers(crate_part).any(|(h, _, _)| h == seat));
    assert_eq!(loaded.attribute(ws, "FallenPartsDestroyHeight"), Some(&AttributeValue::Number(-250.0)));
    // Every loaded instance got a fresh id; the source's ids mean nothing here.
    assert!(loaded.len() < s.arena.len());
    assert!(loaded.get(s.transient).is_none_or(|n| n.name() != s.arena.get(s.transient).unwrap().name()));
    let _ = (s.transient_child, s.hidden, s.value, s.deep_leaf);
}

#[test]
fn place_file_model_converts_both_ways() {
    let s = sample();
    let file = PlaceFile::from_arena(&s.arena);
    assert_eq!(file.instances[0].class, "Workspace");
    let arena = file.to_arena().unwrap();
    assert_eq!(dump(&arena), dump(&s.arena));
    // The streaming writer produces exactly the model's document.
    let json = save_json(&s.arena);
    let parsed: PlaceFile<'_> = serde_json::from_str(&json).unwrap();
    assert_eq!(format!("{parsed:?}"), format!("{file:?}"));
}

#[test]
fn an_empty_arena_saves_and_loads() {
    let arena = Arena::new();
    for loaded in [load_json(&save_json(&arena)).unwrap(), load_binary(&save_binary(&arena)).unwrap()] {
        assert_eq!(loaded.len(), 2);
        assert_eq!(
            loaded.attribute(loaded.workspace(), "FallenPartsDestroyHeight"),
            Some(&AttributeValue::Number(-500.0))
        );
    }
    let minimal = load_json(r#"{"format": "arbor-place", "version": 1}"#).unwrap();
    assert_eq!(minimal.len(), 2);
}

#[test]
fn loaded_arena_marks_the_world_dirty_and_starts_with_no_events() {
    let mut arena = load_json(EXAMPLE).unwrap();
    assert!(arena.pending_events().is_empty());
    let dirty = arena.take_dirty_transforms();
    assert!(dirty.contains(&arena.workspace()));
}

// ---- bad files ----

fn json_err(text: &str) -> PlaceError {
    match load_json(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}

fn place(instances: &str) -> String {
    format!(
        r#"{{"format": "arbor-place", "version": 1, "components": [{{"name": "Lifetime", "fields": [{{"name": "Remaining", "type": "F64"}}]}}], "instances": {instances}}}"#
    )
}

#[test]
fn truncated_json_names_where_it_stopped() {
    let cut = &EXAMPLE[..EXAMPLE.len() / 2];
    let e = json_err(cut);
    let msg = e.to_string();
    assert!(matches!(e, PlaceError::Syntax { .. }), "{msg}");
    assert!(msg.contains("EOF"), "{msg}");
    assert!(msg.starts_with("instances[0].children["), "{msg}");
}

#[test]
fn wrong_types_name_their_path() {
    let e = json_err(&place(
        r#"[{"class": "Workspace", "name": "Workspace", "children": [{"class": "Part", "name": "P", "position": "up"}]}]"#,
    ));
    let msg = e.to_string();
    assert!(msg.starts_with("instances[0].children[0].position: invalid type: string \"up\""), "{msg}");
    let e = json_err(&place(
        r#"[{"class": "Folder", "name": "F"}, {"class": "Folder", "name": "G", "children": [{"class": "Part", "name": "P", "attributes": {"Speed": {"Number": "fast"}}}]}]"#,
    ));
    let msg = e.to_string();
    assert!(msg.starts_with("instances[1].children[0].attributes.Speed.Number: "), "{msg}");
    assert!(msg.contains("expected a number"), "{msg}");
    let e = json_err(&place(r#"[{"class": "Part", "name": "P", "positon": [0, 0, 0]}]"#));
    assert!(e.to_string().starts_with("instances[0].positon: unknown field `positon`"), "{e}");
    let e = json_err(&place(r#"[{"class": "Part", "name": "P", "size": [1, 2]}]"#));
    assert!(
        e.to_string().contains("instances[0].size: invalid length 2, expected an array of 3 numbers"),
        "{e}"
    );
    let e = json_err(&place(
        r#"[{"class": "Part", "name": "P", "attributes": {"A": {"Number": 1}, "A": {"Number": 2}}}]"#,
    ));
    assert!(e.to_string().starts_with("instances[0].attributes.A: duplicate key 'A'"), "{e}");
}

#[test]
fn out_of_range_transparency_and_bad_names_are_refused() {
    let e = json_err(&place(r#"[{"class": "Part", "name": "P", "transparency": 5}]"#));
    assert_eq!(e.to_string(), "instances[0].transparency: must be between 0 and 1, got 5");
    let e = json_err(&place(r#"[{"class": "Folder", "name": "A\u0000B"}]"#));
    assert_eq!(e.to_string(), "instances[0].name: a name cannot contain a NUL character");
    let long = "x".repeat(1025);
    let e = json_err(&place(&format!(r#"[{{"class": "Folder", "name": "{long}"}}]"#)));
    assert_eq!(e.to_string(), "instances[0].name: a name is at most 1024 bytes long");
    // The empty name is a name.
    assert!(load_json(&place(r#"[{"class": "Folder", "name": ""}]"#)).is_ok());
}

#[test]
fn unknown_class_and_misplaced_classes_are_refused() {
    let e = json_err(&place(r#"[{"class": "Folder", "name": "A"}, {"class": "Spaceship", "name": "S"}]"#));
    assert_eq!(e.to_string(), "instances[1].class: unknown class 'Spaceship'");
    let e = json_err(&place(
        r#"[{"class": "Folder", "name": "A", "children": [{"class": "Frame", "name": "F"}]}]"#,
    ));
    assert_eq!(e.to_string(), "instances[0].children[0].class: a Frame cannot be a child of a Folder");
    let e = json_err(&place(
        r#"[{"class": "Folder", "name": "A", "children": [{"class": "Workspace", "name": "W"}]}]"#,
    ));
    assert_eq!(e.to_string(), "instances[0].children[0].class: a Workspace can only be a top-level instance");
    let e = json_err(&place(r#"[{"class": "Workspace", "name": "W"}, {"class": "Workspace", "name": "W"}]"#));
    assert_eq!(e.to_string(), "instances[1].class: a second Workspace (the first is instances[0])");
    let e = json_err(&place(r#"[{"class": "DataModel", "name": "Game"}]"#));
    assert!(e.to_string().starts_with("instances[0].class: a DataModel cannot appear"), "{e}");
}

#[test]
fn component_errors_name_the_row() {
    let e = json_err(&place(r#"[{"class": "Part", "name": "P", "components": {"Health": {"Value": 1}}}]"#));
    assert_eq!(
        e.to_string(),
        "instances[0].components.Health: unknown component 'Health' (declare it in \"components\")"
    );
    let e = json_err(&place(
        r#"[{"class": "Part", "name": "P", "components": {"Lifetime": {"Remaining": "soon"}}}]"#,
    ));
    assert_eq!(e.to_string(), "instances[0].components.Lifetime.Remaining: expected a number (F64)");
    let e = json_err(&place(r#"[{"class": "Part", "name": "P", "components": {"Lifetime": {"Left": 1}}}]"#));
    assert_eq!(
        e.to_string(),
        "instances[0].components.Lifetime.Left: component 'Lifetime' has no field 'Left'"
    );
    let e = json_err(
        r#"{"format": "arbor-place", "version": 1, "components": [{"name": "A", "fields": [], "requires": ["B"]}]}"#,
    );
    assert_eq!(e.to_string(), "components[0]: component 'A' requires unknown component 'B'");
    let e = json_err(
        r#"{"format": "arbor-place", "version": 1, "components": [{"name": "A", "fields": []}, {"name": "A", "fields": []}]}"#,
    );
    assert_eq!(e.to_string(), "components[1].name: component 'A' is declared twice");
}

#[test]
fn reference_and_handle_errors_name_both_sides() {
    let e = json_err(&place(r#"[{"class": "ObjectValue", "name": "V", "references": {"Value": 9}}]"#));
    assert_eq!(e.to_string(), "instances[0].references.Value: no instance in the file has ref 9");
    let e = json_err(&place(r#"[{"class": "Part", "name": "P", "attributes": {"Target": {"Ref": 3}}}]"#));
    assert_eq!(e.to_string(), "instances[0].attributes.Target.Ref: no instance in the file has ref 3");
    let e = json_err(&place(r#"[{"class": "ObjectValue", "name": "V", "references": {"Part0": null}}]"#));
    assert_eq!(
        e.to_string(),
        "instances[0].references.Part0: a ObjectValue has no reference property 'Part0'"
    );
    let e = json_err(&place(
        r#"[{"class": "Part", "name": "A", "ref": 1}, {"class": "Part", "name": "B", "ref": 1}]"#,
    ));
    assert_eq!(e.to_string(), "instances[1].ref: ref 1 is used twice (first by instances[0])");
    let e = json_err(&place(
        r#"[{"class": "Part", "name": "A", "handle": "Pad"}, {"class": "Folder", "name": "F", "children": [{"class": "Part", "name": "B", "handle": "Pad"}]}]"#,
    ));
    assert_eq!(
        e.to_string(),
        "instances[1].children[0].handle: handle name 'Pad' is already used by instances[0]"
    );
    let e = json_err(&place(r#"[{"class": "Part", "name": "A", "source": "print(1)"}]"#));
    assert_eq!(e.to_string(), "instances[0].source: only a Script has source, not a Part");
    let e = json_err(&place(r#"[{"class": "Part", "name": "A", "parent": 5}]"#));
    assert!(e.to_string().starts_with("instances[0].parent: no earlier instance has ref 5"), "{e}");
    let pid = "0000000000000000000000000000abcd";
    let e = json_err(&place(&format!(
        r#"[{{"class": "Part", "name": "A", "persistentId": "{pid}"}}, {{"class": "Part", "name": "B", "persistentId": "{pid}"}}]"#
    )));
    assert_eq!(
        e.to_string(),
        format!("instances[1].persistentId: persistent id {pid} is already used by instances[0]")
    );
}

#[test]
fn setting_given_twice_is_refused() {
    let text = r#"{"format": "arbor-place", "version": 1, "settings": {"FallenPartsDestroyHeight": -80},
        "instances": [{"class": "Workspace", "name": "Workspace", "attributes": {"FallenPartsDestroyHeight": {"Number": -90}}}]}"#;
    assert!(
        json_err(text)
            .to_string()
            .starts_with("instances[0].attributes.FallenPartsDestroyHeight: also given")
    );
    let text = r#"{"format": "arbor-place", "version": 1, "settings": {"FallenPartsDestroyHeight": -80}}"#;
    let arena = load_json(text).unwrap();
    assert_eq!(
        arena.attribute(arena.workspace(), "FallenPartsDestroyHeight"),
        Some(&AttributeValue::Number(-80.0))
    );
}

#[test]
fn wrong_format_or_newer_version_is_refused_clearly() {
    let e = json_err(r#"{"format": "arbor-place", "version": 99, "instances": [], "futureField": {"x": 1}}"#);
    assert_eq!(e, PlaceError::TooNew { found: 99, supported: PLACE_FORMAT_VERSION });
    assert!(e.to_string().contains("newer than this build supports"), "{e}");
    let e = json_err(r#"{"format": "arbor-place", "version": 0}"#);
    assert_eq!(e, PlaceError::BadVersion(0));
    let e = json_err(r#"{"format": "blender-scene", "version": 1}"#);
    assert!(matches!(e, PlaceError::NotAPlace(_)), "{e}");
    let e = json_err(r#"{"hello": "world"}"#);
    assert!(matches!(e, PlaceError::NotAPlace(_)), "{e}");
    let e = json_err("not json at all");
    assert!(matches!(e, PlaceError::Syntax { line: 1, .. }), "{e}");
}

fn bin_err(bytes: &[u8]) -> PlaceError {
    match load_binary(bytes) {
        Ok(_) => panic!("accepted {} bytes", bytes.len()),
        Err(e) => e,
    }
}

#[test]
fn binary_header_errors_are_clear() {
    let good = save_binary(&sample().arena);
    let e = bin_err(b"hello");
    assert!(matches!(e, PlaceError::NotAPlace(_)), "{e}");
    let e = bin_err(EXAMPLE.as_bytes());
    assert!(e.to_string().contains("looks like JSON"), "{e}");
    let mut newer = good.clone();
    newer[8..12].copy_from_slice(&7u32.to_le_bytes());
    assert_eq!(bin_err(&newer), PlaceError::TooNew { found: 7, supported: PLACE_FORMAT_VERSION });
    let mut zero = good.clone();
    zero[8..12].copy_from_slice(&0u32.to_le_bytes());
    assert_eq!(bin_err(&zero), PlaceError::BadVersion(0));
    let e = bin_err(&good[..good.len() - 10]);
    assert!(e.to_string().contains("truncated"), "{e}");
    let e = bin_err(&good[..12]);
    assert!(e.to_string().contains("header is truncated"), "{e}");
    let mut flipped = good.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x40;
    let e = bin_err(&flipped);
    assert_eq!(e, PlaceError::Damaged("the checksum does not match the body".into()));
}

#[test]
fn deep_json_nesting_is_refused_without_a_crash() {
    let mut text = String::from(r#"{"format": "arbor-place", "version": 1, "instances": ["#);
    for _ in 0..100 {
        text.push_str(r#"{"class": "Folder", "name": "F", "children": ["#);
    }
    let e = json_err(&text);
    assert!(e.to_string().contains("recursion limit exceeded"), "{e}");
}

#[test]
fn out_of_range_floats_and_value_field_policies_are_refused() {
    let text = r#"{"format": "arbor-place", "version": 1,
        "components": [{"name": "Heat", "fields": [{"name": "T", "type": "F32"}]}],
        "instances": [{"class": "Part", "name": "A", "components": {"Heat": {"T": 1e300}}}]}"#;
    let e = json_err(text);
    assert!(e.to_string().starts_with("instances[0].components.Heat.T: expected"), "{e}");
    let ok = text.replace("1e300", r#""inf""#);
    assert!(load_json(&ok).is_ok(), "a written infinity still loads");
    let text = r#"{"format": "arbor-place", "version": 1,
        "components": [{"name": "Heat", "fields": [{"name": "T", "type": "F32", "onDestroy": "DestroyHolder"}]}],
        "instances": []}"#;
    let e = json_err(text);
    assert_eq!(
        e.to_string(),
        "components[0]: field 'Heat.T' is not an InstanceRef and cannot have an onDestroy policy"
    );
}

#[test]
fn a_file_with_too_many_attributes_on_one_instance_is_refused() {
    let attrs: Vec<String> = (0..5_000).map(|i| format!(r#""a{i}": {{"Number": {i}}}"#)).collect();
    let e = json_err(&place(&format!(
        r#"[{{"class": "Part", "name": "A", "attributes": {{{}}}}}]"#,
        attrs.join(",")
    )));
    assert!(e.to_string().contains("attributes.a4096") && e.to_string().contains("4096 attributes"), "{e}");
}

#[test]
fn a_script_run_context_loads_round_trips_and_is_checked() {
    let ok = place(
        r#"[{"class": "Workspace", "name": "Workspace", "children": [{"class": "Script", "name": "Hud", "source": "print(1)", "attributes": {"RunContext": {"String": "Client"}}}]}]"#,
    );
    let arena = load_json(&ok).unwrap();
    let hud = arena.find_first_child(arena.workspace(), "Hud").unwrap();
    assert_eq!(arbor_core::RunContext::of(&arena, hud), Ok(arbor_core::RunContext::Client));
    let again = arbor_place::load_binary(&arbor_place::save_binary(&arena)).unwrap();
    let hud = again.find_first_child(again.workspace(), "Hud").unwrap();
    assert_eq!(
        arbor_core::RunContext::of(&again, hud),
        Ok(arbor_core::RunContext::Client),
        "binary keeps it"
    );

    let bad = json_err(&place(
        r#"[{"class": "Script", "name": "S", "attributes": {"RunContext": {"String": "Everywhere"}}}]"#,
    ));
    assert_eq!(
        bad.to_string(),
        r#"instances[0].attributes.RunContext: RunContext must be "Server", "Client" or "Both", not "Everywhere""#
    );
    let on_part = json_err(&place(
        r#"[{"class": "Part", "name": "P", "attributes": {"RunContext": {"String": "Client"}}}]"#,
    ));
    assert_eq!(
        on_part.to_string(),
        "instances[0].attributes.RunContext: only a Script has a RunContext, not a Part"
    );
}
