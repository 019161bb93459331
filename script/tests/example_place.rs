//! The example place's scripts (`places/example.place.json`) run as `arbor run` runs them:
//! each prints what it is there to show.

use arbor_place::load_json;
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation};
use std::cell::RefCell;
use std::rc::Rc;

#[test]
fn the_example_place_scripts_run() {
    let arena = load_json(include_str!("../../places/example.place.json")).expect("the example place loads");
    let host = Rc::new(RefCell::new(ScriptHost::new(&arena, HostConfig::default()).unwrap()));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(host.clone());
    sim.run(150);
    let log: Vec<String> = host.borrow().log().into_iter().map(|l| l.text).collect();
    let has = |text: &str| log.iter().any(|l| l == text);
    assert!(has("Workspace.Hello: hello from Arbor"), "{log:?}");
    assert!(has("Workspace.Turret: fired 5 bullets; 5 in flight"), "{log:?}");
    // 60 health at 30 per second: two seconds, 120 ticks.
    let healed: Vec<&String> = log.iter().filter(|l| l.contains("healed to 100")).collect();
    assert_eq!(healed.len(), 2, "{log:?}");
    assert!(healed.iter().all(|l| *l == "Workspace.CrateHealth: Workspace.Crate healed to 100"), "{log:?}");
    assert_eq!(host.borrow().system_count(), 1);
}
