//! Hot reload: trials, `Migrate`, commit and rollback.

mod common;

use common::Place;

#[test]
fn reload_commits_with_migrate_and_revives_disabled_instances() {
    let mut place = Place::new();
    let ws = place.workspace();
    let a = place.part("A", ws);
    let b = place.part("B", ws);
    let v1 = "count = 0\nfunction Update() count += 1 if count > 2 then error('v1 bug') end end";
    let s = place.script("Counter", a, v1);
    place.script("Counter", b, v1);
    let mut running = place.start();
    running.tick(8);
    assert_eq!(running.host.borrow().is_disabled(s), Some(true));
    running.take_log();
    let v2 = r#"
        count = 0
        function Migrate(old) count = old.count * 100 end
        function Update() count += 1 print(self.Name, count) end
    "#;
    assert_eq!(running.reload(s, v2), Ok(2));
    running.tick(1);
    assert_eq!(running.log(), vec!["Workspace.A.Counter: A 701", "Workspace.B.Counter: B 701"]);
    assert_eq!(running.host.borrow().is_disabled(s), Some(false));
    assert_eq!(running.sim.arena.script_source(s), Some(v2));
}

#[test]
fn a_failing_trial_rolls_back_everything() {
    let mut place = Place::new();
    let ws = place.workspace();
    let s = place.script("Keeper", ws, "n = 0\nworkspace:GetSignal('E'):Connect(function() print('v1 handler') end)\nfunction Update() n += 1 end");
    let mut running = place.start();
    running.tick(2);
    let before = running.host.borrow().connection_count();
    let bad_migrate = "workspace:GetSignal('E'):Connect(function() print('v2 handler') end)\nfunction Migrate(old) error('cannot migrate ' .. old.n) end";
    let err = running.reload(s, bad_migrate).unwrap_err();
    assert!(err.to_string().contains("cannot migrate 2"), "{err}");
    let err = running.reload(s, "this is not lua").unwrap_err();
    assert!(err.to_string().contains("load error"), "{err}");
    assert_eq!(running.host.borrow().connection_count(), before, "trial connections discarded");
    assert!(running.sim.arena.script_source(s).unwrap().starts_with("n = 0"));
    // The old instance still runs: emit from a helper script added now.
    let helper = running.sim.arena.create(arbor_core::Class::Script, "Emitter", Some(ws)).unwrap();
    running.sim.arena.set_script_source(helper, "workspace:GetSignal('E'):Emit()").unwrap();
    running.tick(1);
    assert!(running.log().iter().any(|l| l.ends_with("v1 handler")));
    assert!(!running.log().iter().any(|l| l.ends_with("v2 handler")));
}

#[test]
fn reloading_a_script_that_failed_to_load_starts_it_next_tick() {
    let mut place = Place::new();
    let ws = place.workspace();
    let s = place.script("Broken", ws, "local = 1");
    let mut running = place.start();
    running.tick(2);
    assert_eq!(running.host.borrow().instance_count(), 0);
    running.take_log();
    assert_eq!(running.reload(s, "print('fixed') function Update() end"), Ok(0));
    running.tick(2);
    assert_eq!(running.log(), vec!["Workspace.Broken: fixed"]);
    assert_eq!(running.host.borrow().instance_count(), 1);
}
