//! Behaviours (`docs/behaviours.md`, "Storing and binding behaviours", "The definition",
//! "Lifecycle") end to end: a bound door that opens and closes, instances starting in order
//! before their events, declared timers, bindings that do not fit and definitions that do
//! not load (reported, nothing started), and the moment limit while instances start.

mod behaviors_common;
mod common;

use arbor_core::{AttributeValue, Class, Id};
use behaviors_common::{attr, hosts_place, log};
use common::Place;

const DOOR: &str = r#"
return {
	host = "Part",
	fields = { Open = { type = "bool" } },
	properties = { CloseAfter = { type = "int", default = 2 } },
	events = { Open = {}, Close = {}, Opened = { by = "string" } },
	memory = { opens = 0 },
	auto = "Closed",
	states = {
		Closed = {
			enter = function(self) self.fields.Open = false end,
			on = { Open = function(self) self:Goto("Opened") end },
		},
		Opened = {
			enter = function(self)
				self.fields.Open = true
				self.memory.opens = self.memory.opens + 1
				self:StartTimer("Close", self.props.CloseAfter)
				self:Raise("Opened", { by = "door" })
			end,
			on = { Close = function(self) self:Goto("Closed") end },
		},
	},
	on = { Opened = function(self, e) print("opened by", e.by, "count", self.memory.opens) end },
	ready = function(self) print("door ready", self.memory.opens) end,
}
"#;

/// A place with behaviours `defs` and a door part bound to "Door".
fn door_place(defs: &[(&str, &str)]) -> (Place, Id, Id) {
    let mut place = Place::new();
    for (name, src) in defs {
        place.arena.behaviors_mut().set(name, src).unwrap();
    }
    let ws = place.workspace();
    let door = place.part("Door", ws);
    place.arena.set_flag(door, arbor_core::NodeFlags::ANCHORED, true).unwrap();
    place.arena.set_attribute(door, "Open", Some(AttributeValue::Bool(true))).unwrap();
    let binding = place.arena.create(Class::Behavior, "DoorBehavior", Some(door)).unwrap();
    place.arena.set_attribute(binding, "Behavior", Some(AttributeValue::String("Door".into()))).unwrap();
    (place, door, binding)
}

/// A Script that sends `event` to the Workspace child `target` at tick `at`.
fn sender(target: &str, event: &str, at: u32) -> String {
    format!(
        "local n = 0\nfunction Update()\n\tn += 1\n\tif n == {at} then game.Behaviors.Send(workspace:FindFirstChild('{target}'), '{event}') end\nend\n"
    )
}

#[test]
fn a_door_starts_closed_opens_on_an_event_and_closes_on_its_timer() {
    let (mut place, door, _) = door_place(&[("Door", DOOR)]);
    let ws = place.workspace();
    place.script("Opener", ws, &sender("Door", "Open", 5));
    let mut running = place.start();
    running.sim.step();
    assert_eq!(attr(&running, door, "Open"), Some(AttributeValue::Bool(false)), "{:?}", log(&running));
    assert!(log(&running).iter().any(|l| l.ends_with("door ready\t0")), "{:?}", log(&running));
    running.sim.run(10);
    assert_eq!(attr(&running, door, "Open"), Some(AttributeValue::Bool(true)), "{:?}", log(&running));
    assert!(log(&running).iter().any(|l| l.ends_with("opened by\tdoor\tcount\t1")), "{:?}", log(&running));
    // Two world minutes later (60 ticks each) the started timer closes it.
    running.sim.run(60 * 3);
    assert_eq!(attr(&running, door, "Open"), Some(AttributeValue::Bool(false)), "{:?}", log(&running));
    let stats = running.host.borrow().behavior_stats();
    assert_eq!((stats.running, stats.closed, stats.rolled_back), (1, 0, 0));
}

#[test]
fn instances_start_in_order_and_their_events_wait_until_all_have_started() {
    let src = r#"
return {
	host = "Part",
	events = { Hello = { from = "string" } },
	auto = "Idle",
	states = { Idle = { enter = function(self) print("enter", self.host.Name) end } },
	ready = function(self)
		print("ready", self.host.Name)
		self:Send(workspace:FindFirstChild("H0"), "Hello", { from = self.host.Name })
	end,
	on = { Hello = function(self, e) print("hello from", e.from) end },
}
"#;
    let (place, _) = hosts_place("Greeter", src, 3);
    let mut running = place.start();
    running.sim.step();
    let lines: Vec<String> =
        log(&running).into_iter().map(|l| l.split(": ").nth(1).unwrap_or("").to_owned()).collect();
    assert_eq!(
        lines,
        [
            "enter\tH0",
            "ready\tH0",
            "enter\tH1",
            "ready\tH1",
            "enter\tH2",
            "ready\tH2",
            "hello from\tH0",
            "hello from\tH1",
            "hello from\tH2"
        ],
    );
}

#[test]
fn declared_timers_skip_the_starting_minute_and_fire_on_the_minutes_that_fit() {
    let src = r#"
return {
	host = "Part",
	timers = { Tick = { every = 2, run = function(self) print("tick at", self:Now()) end } },
}
"#;
    let (place, _) = hosts_place("Clock", src, 1);
    let mut place = place;
    let ws = place.workspace();
    // A second host that appears at world minute 4 (a Script moves it into the world).
    let late = place.folder("Late", place.arena.root());
    let host = place.part("Later", late);
    place.arena.set_flag(host, arbor_core::NodeFlags::ANCHORED, true).unwrap();
    let b = place.arena.create(Class::Behavior, "Clock", Some(host)).unwrap();
    place.arena.set_attribute(b, "Behavior", Some(AttributeValue::String("Clock".into()))).unwrap();
    let _ = ws;
    place.script("Mover", ws, "local n = 0\nfunction Update() n += 1 if n == 241 then game.Workspace.Parent:FindFirstChild('Late'):FindFirstChild('Later').Parent = workspace end end");
    let mut running = place.start();
    running.sim.run(60 * 7);
    let fired: Vec<String> = log(&running).into_iter().filter(|l| l.contains("tick at")).collect();
    // H0 started in minute 0: fires at 2, 4, 6. Later started in minute 4: fires at 6 only.
    let of = |who: &str| {
        fired
            .iter()
            .filter(|l| l.contains(who))
            .map(|l| l.rsplit('\t').next().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(of("H0"), ["2", "4", "6"], "{fired:?}");
    assert_eq!(of("Later"), ["6"], "{fired:?}");
}

/// A change to the door place that makes its binding not fit.
type Tweak = Box<dyn Fn(&mut Place)>;

#[test]
fn a_binding_that_does_not_fit_does_not_start_and_is_reported() {
    let door_on_folder = |place: &mut Place| {
        let ws = place.workspace();
        let f = place.folder("NotAPart", ws);
        let b = place.arena.create(Class::Behavior, "B", Some(f)).unwrap();
        place.arena.set_attribute(b, "Behavior", Some(AttributeValue::String("Door".into()))).unwrap();
    };
    let cases: Vec<(&str, Tweak)> = vec![
        ("host type: 'Door' binds to a Part, but its host is a Folder", Box::new(door_on_folder)),
        (
            "contract field 'Open' (bool) is missing on the host",
            Box::new(|p: &mut Place| {
                let door = p.arena.find_first_child(p.workspace(), "Door").unwrap();
                p.arena.set_attribute(door, "Open", None).unwrap();
            }),
        ),
        (
            "contract field 'Open': it holds a number, not bool",
            Box::new(|p: &mut Place| {
                let door = p.arena.find_first_child(p.workspace(), "Door").unwrap();
                p.arena.set_attribute(door, "Open", Some(AttributeValue::Number(1.0))).unwrap();
            }),
        ),
        (
            "property 'CloseAfter': 1.5 is not a 32-bit integer",
            Box::new(|p: &mut Place| {
                let door = p.arena.find_first_child(p.workspace(), "Door").unwrap();
                let b = p.arena.find_first_child(door, "DoorBehavior").unwrap();
                p.arena.set_attribute(b, "CloseAfter", Some(AttributeValue::Number(1.5))).unwrap();
            }),
        ),
        (
            "property 'Speed' is not declared by 'Door'",
            Box::new(|p: &mut Place| {
                let door = p.arena.find_first_child(p.workspace(), "Door").unwrap();
                let b = p.arena.find_first_child(door, "DoorBehavior").unwrap();
                p.arena.set_attribute(b, "Speed", Some(AttributeValue::Number(1.0))).unwrap();
            }),
        ),
        (
            "no behaviour named 'Window' in the place",
            Box::new(|p: &mut Place| {
                let door = p.arena.find_first_child(p.workspace(), "Door").unwrap();
                let b = p.arena.find_first_child(door, "DoorBehavior").unwrap();
                p.arena.set_attribute(b, "Behavior", Some(AttributeValue::String("Window".into()))).unwrap();
            }),
        ),
    ];
    for (expected, tweak) in cases {
        let (mut place, _, _) = door_place(&[("Door", DOOR)]);
        tweak(&mut place);
        let mut running = place.start();
        running.sim.run(2);
        let reports = running.host.borrow_mut().take_behavior_reports();
        assert!(
            reports.iter().any(|r| r.entry == "check" && r.message == expected),
            "{expected}: {reports:?}"
        );
        assert!(!log(&running).iter().any(|l| l.contains("door ready")) || expected.contains("Folder"));
    }
}

#[test]
fn a_definition_that_does_not_load_is_reported_and_binds_nothing() {
    for (src, expected) in [
        ("return 5", "the chunk must return the definition table, not number"),
        ("return { on = { Nope = function() end } }", "'Nope' is not a declared event"),
        ("return { auto = 'X', states = {} }", "auto: 'X' is not one of the states"),
        ("return { memory = { n = { type = 'int', value = 0.5 } } }", "not an integer"),
        ("return {", "Expected"),
    ] {
        let (place, _) = hosts_place("Bad", src, 1);
        let mut running = place.start();
        running.sim.step();
        let text = log(&running).join("\n");
        assert!(text.contains("behaviour 'Bad': load error") && text.contains(expected), "{src}: {text}");
        assert_eq!(running.host.borrow().behavior_stats().running, 0);
    }
}

#[test]
fn an_infinite_literal_or_a_reserved_name_does_not_load() {
    for (src, expected) in [
        (
            "return { host = 'Part', memory = { x = { type = 'number', value = 1e999 } } }",
            "Bad:1: the number 1e999 is infinity",
        ),
        (
            "local __arbor_div = 1\nreturn {}",
            "Bad:1: '__arbor_div': names starting with '__arbor' are reserved",
        ),
    ] {
        let (place, _) = hosts_place("Bad", src, 1);
        let mut running = place.start();
        running.sim.step();
        let text = log(&running).join("\n");
        assert!(text.contains("behaviour 'Bad': load error") && text.contains(expected), "{src}: {text}");
    }
}

#[test]
fn the_moment_limit_during_starts_reports_once_and_starts_the_rest_next_moment() {
    let src = r#"
return {
	host = "Part",
	events = { Hi = {} },
	ready = function(self) print("ready", self.host.Name) self:Raise("Hi") end,
	on = { Hi = function(self) print("hi", self.host.Name) end },
}
"#;
    let (mut place, _) = hosts_place("Greeter", src, 4);
    place.arena.behaviors_mut().settings.transactions_per_moment = 2;
    let mut running = place.start();
    running.sim.step();
    let reports = running.host.borrow_mut().take_behavior_reports();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!((reports[0].entry.as_str(), reports[0].binding.as_str()), ("start", "Workspace.H2.Greeter"));
    assert_eq!(running.host.borrow().error_count(), 1, "{:?}", log(&running));
    let text = log(&running).join("\n");
    assert!(
        text.contains("2 deliveries still queued at the moment's limit were not delivered: event Hi ×2"),
        "{text}"
    );
    assert!(!text.contains("ready\tH3"), "{text}");
    running.sim.step();
    let text = log(&running).join("\n");
    assert!(text.contains("ready\tH3") && text.contains("hi\tH3"), "H3 starts in the next moment: {text}");
    let stats = running.host.borrow().behavior_stats();
    assert_eq!((stats.running, stats.closed), (3, 1));
}
