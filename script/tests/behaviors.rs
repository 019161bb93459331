//! Behaviours (`docs/behaviours.md`) end to end: definitions and bindings, starting,
//! transactions that undo themselves, error reports, budgets, the moment limit, determinism
//! rules.

mod common;

use arbor_core::{AttributeValue, Class, Id};
use common::{Place, Running};

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

fn log(running: &Running) -> Vec<String> {
    running.host.borrow().log().into_iter().map(|l| l.text).collect()
}

fn attr(running: &Running, id: Id, name: &str) -> Option<AttributeValue> {
    running.sim.arena.attribute(id, name).cloned()
}

/// A Script that sends `event` to the Workspace child `target` at tick `at`.
fn sender(target: &str, event: &str, at: u32) -> String {
    format!(
        "local n = 0\nfunction Update()\n\tn += 1\n\tif n == {at} then game.Behaviors.Send(workspace:FindFirstChild('{target}'), '{event}') end\nend\n"
    )
}

/// Two hosts (`H0`, `H1`) that ping-pong forever: every delivery raises two more.
const PING_PONG: &str = r#"
return {
	host = "Part",
	events = { Ping = {} },
	memory = { n = 0 },
	ready = function(self) if self.host.Name == "H0" then self:Send(workspace:FindFirstChild("H1"), "Ping") end end,
	on = { Ping = function(self)
		self.memory.n = self.memory.n + 1
		local other = self.host.Name == "H0" and "H1" or "H0"
		self:Send(workspace:FindFirstChild(other), "Ping")
		self:Send(workspace:FindFirstChild(other), "Ping")
	end },
}
"#;

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

const CHAOS: &str = r#"
return {
	host = "Part",
	fields = { Count = { type = "int", min = 0, max = 10 }, Label = { type = "string" } },
	events = { Go = { kind = "string" }, Echo = {} },
	memory = { n = 0, big = 0, ratio = { type = "number", value = 0 } },
	auto = "Calm",
	states = { Calm = {}, Busy = { enter = function(self) self.memory.n = self.memory.n + 100 end } },
	on = {
		Go = function(self, e)
			self.fields.Label = "touched"
			self.fields.Count = 3
			self.memory.n = self.memory.n + 1
			local copy = workspace:FindFirstChild("Crate"):Clone()
			copy.Parent = workspace
			workspace:FindFirstChild("Junk"):Destroy()
			workspace:FindFirstChild("Box").Parent = workspace:FindFirstChild("Shelf")
			workspace:FindFirstChild("Crate"):SetAttribute("Seen", true)
			self:Raise("Echo")
			self:StartTimer("Echo", 5)
			self:Goto("Busy")
			print("about to", e.kind)
			local k = e.kind
			if k == "overflow" then
				self.memory.big = 2147483647 + 1
			elseif k == "divzero" then
				self.memory.ratio = 1 / 0
			elseif k == "nan" then
				self.memory.ratio = 0 / 0
			elseif k == "budget" then
				while true do end
			elseif k == "memory" then
				local t = {}
				for i = 1, 200000 do t[i] = i end
			elseif k == "check" then
				self.fields.Count = 11
			elseif k == "luaerror" then
				error("boom")
			elseif k == "nil" then
				local x = nil
				x.y = 1
			end
		end,
		Echo = function(self) print("echo", self.memory.n) end,
	},
}
"#;

/// A world for `CHAOS`: the host part and the instances its handler touches, and a Script
/// sending `Go { kind }` at the third tick.
fn chaos_place(kind: &str) -> (Running, Id) {
    let mut place = Place::new();
    place.arena.behaviors_mut().set("Chaos", CHAOS).unwrap();
    if kind == "memory" {
        // So that the memory budget, not the unit budget, is what the loop runs into.
        place.arena.behaviors_mut().settings.units_per_transaction = 10_000_000;
    }
    let ws = place.workspace();
    let host = place.part("Chaos", ws);
    place.arena.set_attribute(host, "Count", Some(AttributeValue::Number(0.0))).unwrap();
    place.arena.set_attribute(host, "Label", Some(AttributeValue::String("fresh".into()))).unwrap();
    let b = place.arena.create(Class::Behavior, "Chaos", Some(host)).unwrap();
    place.arena.set_attribute(b, "Behavior", Some(AttributeValue::String("Chaos".into()))).unwrap();
    for name in ["Crate", "Junk", "Box"] {
        place.part(name, ws);
    }
    let junk = place.arena.find_first_child(ws, "Junk").unwrap();
    place.part("JunkChild", junk);
    place.folder("Shelf", ws);
    place.folder("Spacer", ws);
    for id in place.arena.iter().filter(|n| n.class() == Class::Part).map(|n| n.id()).collect::<Vec<_>>() {
        place.arena.set_flag(id, arbor_core::NodeFlags::ANCHORED, true).unwrap();
    }
    let send = format!(
        "local n = 0\nfunction Update()\n\tn += 1\n\tif n == 3 then game.Behaviors.Send(workspace:FindFirstChild('Chaos'), 'Go', {{ kind = '{kind}' }}) end\nend\n"
    );
    place.script("Sender", ws, &send);
    (place.start(), host)
}

fn hash(running: &Running) -> (u64, u64) {
    (running.sim.arena.world_hash(), running.host.borrow().behavior_hash())
}

#[test]
fn every_error_kind_undoes_the_whole_transaction() {
    let cases = [
        ("overflow", "integer overflow"),
        ("divzero", "division by zero"),
        ("nan", "NaN"),
        ("budget", "script exceeded its instruction budget"),
        ("memory", "the transaction exceeded its memory budget"),
        ("check", "field 'Count' failed its check: 11 is above its max 10"),
        ("luaerror", "boom"),
        ("nil", "attempt to index nil"),
    ];
    for (kind, expected) in cases {
        let (mut running, host) = chaos_place(kind);
        running.sim.run(2);
        let before = hash(&running);
        let live_before = running.sim.arena.len();
        running.sim.step();
        let reports = running.host.borrow_mut().take_behavior_reports();
        assert_eq!(reports.len(), 1, "{kind}: {:?}", log(&running));
        let r = &reports[0];
        assert!(r.message.contains(expected), "{kind}: {r}");
        assert_eq!(r.entry, "event Go", "{kind}");
        assert!(r.line.is_some() && r.column.is_some(), "{kind}: {r}");
        assert!(r.log.iter().any(|l| l == &format!("about to\t{kind}")), "{kind}: {r}");
        assert_eq!(hash(&running).0, before.0, "{kind}: the world is as before\n{r}");
        assert_eq!(running.sim.arena.len(), live_before, "{kind}");
        assert_eq!(running.sim.arena.attribute(host, "Label"), Some(&AttributeValue::String("fresh".into())));
        let stats = running.host.borrow().behavior_stats();
        assert_eq!((stats.running, stats.closed, stats.rolled_back), (0, 1, 1), "{kind}");
        // Nothing it raised or started is delivered later, and nothing retries it.
        running.sim.run(60 * 7);
        assert!(!log(&running).iter().any(|l| l.contains("echo")), "{kind}: {:?}", log(&running));
        assert_eq!(running.host.borrow().behavior_stats().rolled_back, 1);
    }
}

#[test]
fn a_committed_transaction_keeps_its_writes_and_publishes_after_commit() {
    let (mut running, host) = chaos_place("fine");
    running.sim.run(2);
    let before = hash(&running);
    running.sim.step();
    assert_ne!(hash(&running), before);
    assert_eq!(running.sim.arena.attribute(host, "Label"), Some(&AttributeValue::String("touched".into())));
    let ws = running.sim.arena.workspace();
    assert!(running.sim.arena.find_first_child(ws, "Junk").is_none());
    let shelf = running.sim.arena.find_first_child(ws, "Shelf").unwrap();
    assert!(running.sim.arena.find_first_child(shelf, "Box").is_some());
    // The raised event ran in the same moment, after the commit (memory saw n = 101).
    assert!(log(&running).iter().any(|l| l.ends_with("echo\t101")), "{:?}", log(&running));
    // The started timer delivers it again five minutes later.
    running.sim.run(60 * 6);
    assert_eq!(log(&running).iter().filter(|l| l.ends_with("echo\t101")).count(), 2, "{:?}", log(&running));
}

#[test]
fn a_failed_field_check_reports_the_line_that_last_wrote_the_field() {
    let (mut running, _) = chaos_place("check");
    running.sim.run(3);
    let r = running.host.borrow_mut().take_behavior_reports().remove(0);
    let line_of = |needle: &str| CHAOS.lines().position(|l| l.contains(needle)).unwrap() as u32 + 1;
    assert_eq!(r.line, Some(line_of("self.fields.Count = 11")), "{r}");
    assert_eq!(
        r.last_write.as_deref(),
        Some(format!("Chaos:{}", line_of("self.fields.Count = 11")).as_str())
    );
    assert_eq!(r.column, Some(5));
}

#[test]
fn a_runtime_error_reports_its_line_and_call_stack() {
    let (mut running, _) = chaos_place("luaerror");
    running.sim.run(3);
    let r = running.host.borrow_mut().take_behavior_reports().remove(0);
    let line = CHAOS.lines().position(|l| l.contains("error(\"boom\")")).unwrap() as u32 + 1;
    assert_eq!(r.line, Some(line), "{r}");
    assert_eq!(r.stack.first().map(String::as_str), Some(format!("Chaos:{line} in Go").as_str()), "{r}");
    assert_eq!((r.minute, r.tick), (0, 2));
    assert!(r.to_string().contains(&format!("Chaos:{line}:5: boom")), "{r}");
}

/// A place whose Workspace holds `hosts` parts, each bound to behaviour `name`.
fn hosts_place(name: &str, source: &str, hosts: usize) -> (Place, Vec<Id>) {
    let mut place = Place::new();
    place.arena.behaviors_mut().set(name, source).unwrap();
    let ws = place.workspace();
    let mut ids = Vec::new();
    for k in 0..hosts {
        let host = place.part(&format!("H{k}"), ws);
        place.arena.set_flag(host, arbor_core::NodeFlags::ANCHORED, true).unwrap();
        let b = place.arena.create(Class::Behavior, name, Some(host)).unwrap();
        place.arena.set_attribute(b, "Behavior", Some(AttributeValue::String(name.into()))).unwrap();
        ids.push(host);
    }
    (place, ids)
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

fn counted(limit_src: &str, n: usize) -> String {
    limit_src.replace("N_", &n.to_string())
}

/// Runs behaviour source `src` once on one host (its `ready`), returns the reports.
fn ready_reports(src: &str) -> Vec<arbor_script::BehaviorReport> {
    let (place, _) = hosts_place("Limit", src, 1);
    let mut running = place.start();
    running.sim.step();
    running.host.borrow_mut().take_behavior_reports()
}

#[test]
fn the_field_and_timer_limits_hold_at_their_limit_and_fail_one_past_it() {
    let fields: String = (0..17).map(|k| format!("F{k} = {{ type = 'int' }}, ")).collect();
    let fields_src = format!(
        "return {{ host = 'Part', fields = {{ {fields} }}, ready = function(self) for k = 0, N_ - 1 do self.fields['F' .. k] = k end end }}"
    );
    let with_fields = |n: usize| {
        let (mut place, hosts) = hosts_place("Limit", &counted(&fields_src, n), 1);
        for k in 0..17 {
            place.arena.set_attribute(hosts[0], &format!("F{k}"), Some(AttributeValue::Number(0.0))).unwrap();
        }
        let mut running = place.start();
        running.sim.step();
        running.host.borrow_mut().take_behavior_reports()
    };
    assert!(with_fields(16).is_empty());
    let r = with_fields(17);
    assert!(r[0].message.contains("more than 16 distinct fields written in one transaction"), "{r:?}");
    let timers = "return { host = 'Part', events = { T = {} }, ready = function(self) for k = 1, N_ do self:StartTimer('T', 1) end end }";
    assert!(ready_reports(&counted(timers, 16)).is_empty());
    let r = ready_reports(&counted(timers, 17));
    assert!(r[0].message.contains("more than 16 started timers on one instance"), "{r:?}");
}

#[test]
fn the_unit_budget_stops_the_same_code_at_the_same_point() {
    let src = "return { host = 'Part', memory = { n = 0 }, ready = function(self) local x = 0 for i = 1, N_ do x += i end self.memory.n = 1 end }";
    // The largest loop that fits, found once; then it fits again and one more iteration does not.
    let fits = |n: usize| ready_reports(&counted(src, n)).is_empty();
    let (mut lo, mut hi) = (1usize, 200_000usize);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if fits(mid) { lo = mid } else { hi = mid }
    }
    // Each iteration runs `FORNLOOP` and the checked `x += i` (the add, then loading,
    // calling and keeping the result of its check): 5 units.
    assert!(lo > 15_000 && lo < 100_000, "{lo}");
    assert!(lo < 20_000, "the check of `+` is metered: {lo}");
    assert!(fits(lo));
    let r = ready_reports(&counted(src, lo + 1));
    assert!(r[0].message.contains("script exceeded its instruction budget"), "{r:?}");
    assert_eq!(r[0].line, Some(1));
}

#[test]
fn the_log_limit_cuts_and_marks_and_is_not_an_error() {
    let src = "return { host = 'Part', ready = function(self) print(string.rep('x', 500)) for i = 1, 30 do print('line', i) end error('after the log') end }";
    let r = ready_reports(src);
    let log = &r[0].log;
    assert_eq!(log.len(), 21, "{log:?}");
    assert!(log[0].ends_with("… (cut at 400 characters)") && log[0].starts_with(&"x".repeat(400)));
    assert_eq!(log[19], "line\t19");
    assert_eq!(log[20], "… (log cut: more than 20 lines in one transaction)");
    assert!(r[0].message.contains("after the log"));
    // Without an error the cut log is published and nothing is reported.
    let ok = "return { host = 'Part', ready = function(self) for i = 1, 30 do print('line', i) end end }";
    assert!(ready_reports(ok).is_empty());
}

#[test]
fn the_moment_limit_fails_the_transaction_over_it_and_reports_what_was_dropped() {
    // Two hosts ping-pong forever: every delivery raises the next.
    let (mut place, _) = hosts_place("Pinger", PING_PONG, 2);
    place.arena.behaviors_mut().settings.transactions_per_moment = 50;
    let mut running = place.start();
    running.sim.step();
    let reports = running.host.borrow_mut().take_behavior_reports();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(reports[0].message, "the moment's limit of 50 transactions was reached");
    let text = log(&running).join("\n");
    assert!(
        text.contains("deliveries still queued at the moment's limit were not delivered: event Ping ×"),
        "{text}"
    );
    let stats = running.host.borrow().behavior_stats();
    assert_eq!(stats.committed, 50);
    assert_eq!((stats.running, stats.closed), (1, 1));
    // The next moment starts as usual (nothing queued is carried over).
    running.sim.step();
    assert_eq!(running.host.borrow().behavior_stats().committed, 50);
}

#[test]
fn determinism_rules_hold_inside_behaviours() {
    let src = r#"
return {
	host = "Part",
	memory = { a = 0, b = 0, s = "" },
	ready = function(self)
		self.memory.a = self:Random(1, 1000000)
		self.memory.b = self:Random(1, 1000000)
		print("round", math.round(2.5), math.round(-2.5), math.round(0.49999999999999994))
		print("order", "é" > "z", "Z" < "a", "ab" < "b")
		local ok1, e1 = pcall(os.time)
		local ok2, e2 = pcall(math.random)
		print("clock", ok1, e1)
		print("random", ok2, e2)
		print("now", self:Now())
		print("draws", self.memory.a, self.memory.b)
	end,
}
"#;
    let run = || {
        let (place, _) = hosts_place("Rules", src, 2);
        let mut running = place.start();
        running.sim.step();
        log(&running)
    };
    let first = run();
    assert_eq!(first, run(), "the same place draws the same numbers");
    let text = first.join("\n");
    assert!(text.contains("round\t3\t-3\t0"), "{text}");
    assert!(text.contains("order\ttrue\ttrue\ttrue"), "{text}");
    assert!(text.contains("os.time is not available in behaviours: use self:Now()"), "{text}");
    assert!(text.contains("math.random is not available in behaviours: use self:Random()"), "{text}");
    assert!(text.contains("now\t0"), "{text}");
    let draws: Vec<&str> =
        first.iter().filter(|l| l.contains("draws")).map(|l| l.split(": ").nth(1).unwrap()).collect();
    assert_eq!(draws.len(), 2);
    assert_ne!(draws[0], draws[1], "each instance has its own generator");
}

const SHOP_V1: &str = r#"
return {
	host = "Part",
	fields = { Stock = { type = "int", min = 0, max = 50 } },
	events = { Buy = {}, Sale = {} },
	memory = { sold = 0, restocks = 0, luck = 0 },
	auto = "Open",
	states = { Open = { enter = function(self) print("v1 open") end } },
	timers = { Restock = { every = 1, run = function(self)
		self.fields.Stock = 50
		self.memory.restocks = self.memory.restocks + 1
		self:StartTimer("Sale", 2)
	end } },
	on = {
		Buy = function(self)
			if self.fields.Stock > 0 then
				self.fields.Stock = self.fields.Stock - 1
				self.memory.sold = self.memory.sold + 1
			end
			self.memory.luck = self:Random(1, 100)
		end,
		Sale = function(self) print("v1 sale", self.memory.sold) end,
	},
	ready = function(self) self.fields.Stock = 10 print("v1 ready") end,
}
"#;

fn shop_place(source: &str) -> Place {
    let (mut place, hosts) = hosts_place("Shop", source, 2);
    for h in &hosts {
        place.arena.set_attribute(*h, "Stock", Some(AttributeValue::Number(0.0))).unwrap();
    }
    let ws = place.workspace();
    place.script("Buyer", ws, "function Update() for _, h in workspace:GetChildren() do if h.Name == 'H0' or h.Name == 'H1' then game.Behaviors.Send(h, 'Buy') end end end");
    place
}

/// (world hash, behaviour hash) after each of `ticks` ticks.
fn hashes(running: &mut Running, ticks: usize) -> Vec<(u64, u64)> {
    (0..ticks)
        .map(|_| {
            running.sim.step();
            hash(running)
        })
        .collect()
}

/// Runs `source` for `before` ticks and saves; returns the saved place text and state.
fn run_and_save(source: &str, before: u64) -> (Running, String, String) {
    // Start from a place file, as a server does.
    let text = arbor_core::save_json(&shop_place(source).arena);
    let mut running = Place { arena: arbor_core::load_json(&text).unwrap() }.start();
    running.sim.run(before);
    let last = running.sim.ticks() - 1;
    let state = running.host.borrow_mut().save_behaviors(&mut running.sim.arena, last).unwrap();
    let place = arbor_core::save_json(&running.sim.arena);
    (running, place, state)
}

fn resume(place_text: &str, state: &str, source: Option<&str>) -> Running {
    let mut arena = arbor_core::load_json(place_text).unwrap();
    if let Some(s) = source {
        arena.behaviors_mut().set("Shop", s).unwrap();
    }
    let mut running = Place { arena }.start();
    running.host.borrow_mut().resume_behaviors(&mut running.sim.arena, state).unwrap();
    running
}

#[test]
fn a_save_resumes_exactly_where_it_was() {
    let (mut uninterrupted, place_text, state) = run_and_save(SHOP_V1, 150);
    let expected = hashes(&mut uninterrupted, 200);
    let mut resumed = resume(&place_text, &state, None);
    let got = hashes(&mut resumed, 200);
    let first_difference = got.iter().zip(&expected).position(|(a, b)| a != b);
    assert_eq!(first_difference, None, "the resumed world goes on exactly as the uninterrupted one");
    // Neither `ready` nor `enter` ran again.
    assert!(
        !log(&resumed).iter().any(|l| l.contains("v1 ready") || l.contains("v1 open")),
        "{:?}",
        log(&resumed)
    );
    assert!(log(&resumed).iter().any(|l| l.contains("v1 sale")));
}

#[test]
fn a_changed_definition_migrates_through_migrate() {
    let (_, place_text, state) = run_and_save(SHOP_V1, 150);
    let v2 = SHOP_V1
        .replace("memory = { sold = 0, restocks = 0, luck = 0 }", "memory = { total = 0, restocks = 0, luck = 0 }")
        .replace("self.memory.sold", "self.memory.total")
        .replace("v1", "v2")
        .replace("ready = function", "Migrate = function(old) return { total = old.memory.sold * 10, restocks = old.memory.restocks } end,\n\tready = function");
    let mut resumed = resume(&place_text, &state, Some(&v2));
    let stats = resumed.host.borrow().behavior_stats();
    assert_eq!((stats.running, stats.rolled_back), (2, 0), "{:?}", log(&resumed));
    resumed.sim.run(200);
    let text = log(&resumed).join("\n");
    assert!(!text.contains("v2 ready"), "a migration is not a start: {text}");
    let sale = text.lines().find(|l| l.contains("v2 sale")).unwrap_or_else(|| panic!("{text}"));
    let total: u64 = sale.rsplit('\t').next().unwrap().parse().unwrap();
    let saved: serde_json::Value = serde_json::from_str(&state).unwrap();
    let sold = saved["bindings"][0]["memory"]["sold"]["int"].as_u64().unwrap();
    assert!(
        sold > 50 && total >= 10 * sold && total < 10 * sold + 200,
        "memory came through Migrate: {sale}, sold {sold}"
    );
}

#[test]
fn an_error_during_a_migration_cancels_it_and_does_not_close_the_binding() {
    let (_, place_text, state) = run_and_save(SHOP_V1, 150);
    let broken = SHOP_V1.replace("v1", "v3").replace(
        "ready = function",
        "Migrate = function(old) error('cannot migrate') end,\n\tready = function",
    );
    let mut resumed = resume(&place_text, &state, Some(&broken));
    let reports = resumed.host.borrow_mut().take_behavior_reports();
    assert_eq!(reports.len(), 2, "{reports:?}");
    assert!(reports.iter().all(|r| r.entry == "migration" && r.message.contains("cannot migrate")));
    resumed.sim.run(200);
    let stats = resumed.host.borrow().behavior_stats();
    assert_eq!((stats.running, stats.closed), (2, 0));
    let text = log(&resumed).join("\n");
    assert!(
        text.contains("v1 sale") && !text.contains("v3 sale"),
        "it goes on with the saved definition: {text}"
    );
}

#[test]
fn a_closed_binding_starts_again_as_a_new_instance_after_a_migration() {
    let failing = SHOP_V1.replace(
        "Sale = function(self) print(\"v1 sale\", self.memory.sold) end",
        "Sale = function(self) error('sale broke') end",
    );
    let mut running = shop_place(&failing).start();
    running.sim.run(60 * 4);
    assert_eq!(running.host.borrow().behavior_stats().closed, 2);
    {
        let Running { sim, host } = &mut running;
        host.borrow_mut().reload_behavior(&mut sim.arena, "Shop", SHOP_V1).unwrap();
    }
    let stats = running.host.borrow().behavior_stats();
    assert_eq!((stats.running, stats.closed), (2, 0));
    assert!(log(&running).iter().filter(|l| l.contains("v1 ready")).count() >= 2, "{:?}", log(&running));
    running.sim.run(60 * 4);
    assert!(log(&running).iter().any(|l| l.contains("v1 sale")));
}

// ---------------------------------------------------------------------------------------
// Issue 31: checked arithmetic, full call stacks, budget lines, checked saves, one error at
// the moment's limit.

/// The 1-based line of `src` holding `needle`.
fn line_of(src: &str, needle: &str) -> u32 {
    src.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("{needle} in {src}")) as u32 + 1
}

/// A behaviour whose `ready` runs `body` (one statement per line) with a memory slot `n`
/// and a `number` slot `r`.
fn ready_source(body: &str) -> String {
    format!(
        "return {{\n\thost = 'Part',\n\tmemory = {{ n = 0, r = {{ type = 'number', value = 0 }} }},\n\tready = function(self)\n{body}\n\tend,\n}}\n"
    )
}

#[test]
fn a_division_by_zero_or_a_nan_is_an_error_where_it_happens() {
    let cases = [
        ("\t\tlocal x = 10 / 0", "'/' gave infinity (a division by zero or an overflow made it)"),
        ("\t\tlocal x = 7 // 0", "'//' gave infinity (a division by zero"),
        ("\t\tlocal x = 7 % 0", "'%' gave NaN"),
        ("\t\tlocal x = 0 / 0", "'/' gave NaN (not a number"),
        ("\t\tlocal z = 0\n\t\tlocal x = 1 / (5 / z)", "'/' gave infinity"),
        ("\t\tif 1 / 0 > 5 then print('big') end", "'/' gave infinity"),
        ("\t\tlocal big = 1e308\n\t\tlocal x = big * 10", "'*' gave infinity (an overflow made it)"),
        ("\t\tlocal x = 10\n\t\tx /= 0", "'/' gave infinity"),
        ("\t\tself.memory.r = 1\n\t\tself.memory.r /= 0", "'/' gave infinity"),
        ("\t\tlocal v = Vector3.new(1, 2, 3) / 0", "'/' gave infinity"),
        ("\t\tlocal x = math.sqrt(-1)", "math.sqrt gave NaN"),
        ("\t\tlocal x = tonumber('1e999')", "tonumber gave infinity"),
    ];
    for (body, expected) in cases {
        let src = ready_source(body);
        let r = ready_reports(&src);
        assert_eq!(r.len(), 1, "{body}: {r:?}");
        assert!(r[0].message.contains(expected), "{body}: {}", r[0]);
        let last = body.lines().last().unwrap().trim();
        assert_eq!(r[0].line, Some(line_of(&src, last)), "{body}: {}", r[0]);
        assert_eq!(r[0].stack.first().map(|s| s.ends_with("in ready")), Some(true), "{}", r[0]);
    }
    // Finite arithmetic is untouched: its results, metamethods, string coercion and Luau's
    // own errors (at their own line) are as before.
    let fine = ready_source(
        "\t\tlocal t = setmetatable({}, { __div = function() return 'meta' end })\n\
         \t\tlocal s = 0\n\t\tfor i = 1, 10 do s += i end\n\
         \t\tself.memory.n = 7 // 2 + 5 % 3 + 2 ^ 3 + s - '1' * 2\n\
         \t\tself.memory.n += 1\n\t\tself.memory.r = -1 / 4\n\
         \t\tprint(t / 2, self.memory.n, self.memory.r, math.sqrt(16), math.huge > 1)",
    );
    let (place, _) = hosts_place("Limit", &fine, 1);
    let mut running = place.start();
    running.sim.step();
    assert!(running.host.borrow_mut().take_behavior_reports().is_empty(), "{:?}", log(&running));
    assert!(log(&running).iter().any(|l| l.ends_with("meta\t67\t-0.25\t4\ttrue")), "{:?}", log(&running));
    let nil_add = ready_source("\t\tlocal x = nil\n\t\tlocal y = x + 1");
    let r = ready_reports(&nil_add);
    assert!(r[0].message.contains("attempt to perform arithmetic (add) on nil and number"), "{}", r[0]);
    assert_eq!(r[0].line, Some(line_of(&nil_add, "x + 1")));
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
fn an_error_in_small_local_helpers_keeps_every_frame_in_the_stack() {
    let src = "local function c(x)\n\terror('deep ' .. x)\nend\nlocal function b(x)\n\tc(x)\nend\n\
               local function a(x)\n\tb(x)\nend\nreturn { host = 'Part', ready = function(self)\n\ta(1)\nend }\n";
    let r = ready_reports(src);
    assert_eq!(r.len(), 1, "{r:?}");
    let expected: Vec<String> = [("error('deep", "c"), ("\tc(x)", "b"), ("\tb(x)", "a"), ("\ta(1)", "ready")]
        .iter()
        .map(|(needle, f)| format!("Limit:{} in {f}", line_of(src, needle)))
        .collect();
    assert_eq!(r[0].stack, expected, "{}", r[0]);
    assert_eq!(r[0].line, Some(line_of(src, "error('deep")));
}

#[test]
fn a_memory_overrun_is_reported_at_the_line_that_allocated() {
    // A library call that allocates, and an instruction that does (a concatenation), each
    // followed by lines without a call, a return or a loop (where the budget is checked).
    for (body, over) in [
        ("\t\tlocal s = string.rep('x', 1100000)", "string.rep"),
        ("\t\tlocal s = string.rep('x', 400000)\n\t\tlocal t = s .. s", "s .. s"),
    ] {
        let src = ready_source(&format!(
            "{body}\n\t\tlocal a = 1\n\t\tlocal b = 2\n\t\tlocal c = 3\n\t\tlocal d = 4\n\t\tprint(a, b, c, d)"
        ));
        let (mut place, _) = hosts_place("Limit", &src, 1);
        place.arena.behaviors_mut().settings.units_per_transaction = 10_000_000;
        let mut running = place.start();
        running.sim.step();
        let r = running.host.borrow_mut().take_behavior_reports();
        assert_eq!(r.len(), 1, "{r:?}");
        assert!(r[0].message.contains("the transaction exceeded its memory budget"), "{}", r[0]);
        assert_eq!(r[0].line, Some(line_of(&src, over)), "{}", r[0]);
        assert_eq!(r[0].stack.first(), Some(&format!("Limit:{} in ready", line_of(&src, over))), "{}", r[0]);
    }
}

#[test]
fn the_moment_limit_counts_as_one_error() {
    let (mut place, _) = hosts_place("Pinger", PING_PONG, 2);
    place.arena.behaviors_mut().settings.transactions_per_moment = 10;
    let mut running = place.start();
    running.sim.step();
    assert_eq!(running.host.borrow_mut().take_behavior_reports().len(), 1);
    assert_eq!(running.host.borrow().error_count(), 1, "{:?}", log(&running));
    assert!(log(&running).iter().any(|l| l.contains("still queued at the moment's limit")));
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

/// A save of `SHOP_V1` after 150 ticks, changed by `edit`, resumed: the error, and the world
/// and behaviours after the failed resume.
fn resume_edited(edit: impl Fn(&mut serde_json::Value)) -> (String, Running) {
    let (_, place_text, state) = run_and_save(SHOP_V1, 150);
    let mut doc: serde_json::Value = serde_json::from_str(&state).unwrap();
    edit(&mut doc);
    resume_text(&place_text, &doc.to_string())
}

fn resume_text(place_text: &str, state: &str) -> (String, Running) {
    let arena = arbor_core::load_json(place_text).unwrap();
    let mut running = Place { arena }.start();
    let before = running.sim.arena.world_hash();
    let e = {
        let Running { sim, host } = &mut running;
        host.borrow_mut().resume_behaviors(&mut sim.arena, state).unwrap_err().to_string()
    };
    // Nothing was restored: no binding, the world as it was.
    assert_eq!(running.host.borrow().behavior_stats(), arbor_script::BehaviorStats::default(), "{e}");
    assert_eq!(running.sim.arena.world_hash(), before, "{e}");
    (e, running)
}

/// A change to a save document.
type SaveEdit = Box<dyn Fn(&mut serde_json::Value)>;

#[test]
fn a_resumed_save_is_checked_like_a_place_file() {
    let cases: Vec<(SaveEdit, &str)> = vec![
        (
            Box::new(|d| d["bindings"][1]["state"] = "Nowhere".into()),
            "bindings[1].state: 'Nowhere' is not one of the states of 'Shop'",
        ),
        (
            Box::new(|d| {
                d["bindings"][1]["timers"] = serde_json::json!([{ "name": "Tick", "due": 5, "seq": 0 }])
            }),
            "bindings[1].timers[0].name: 'Tick' is not a declared event of 'Shop'",
        ),
        (
            Box::new(|d| {
                let timer = serde_json::json!({ "name": "Sale", "due": 5, "seq": 0 });
                d["bindings"][0]["timers"] = serde_json::Value::Array(vec![timer; 1_000_000]);
            }),
            "bindings[0].timers: 1000000 started timers, more than the 16 one instance may have",
        ),
        (
            Box::new(|d| d["bindings"][1]["key"] = d["bindings"][0]["key"].clone()),
            "is also the key of bindings[0]",
        ),
        (
            Box::new(|d| d["bindings"][1]["memory"]["sold"] = serde_json::json!({ "string": "many" })),
            "bindings[1].memory.sold: memory 'sold' is int, not string",
        ),
        (
            Box::new(|d| d["bindings"][1]["memory"]["stolen"] = serde_json::json!({ "int": 1 })),
            "bindings[1].memory.stolen: 'stolen' is not declared in the memory of 'Shop'",
        ),
        (
            Box::new(
                |d| d["bindings"][0]["timers"] = serde_json::json!([{ "name": "Sale", "due": 5, "seq": 0 }, { "name": "Sale", "due": 6, "seq": 0 }]),
            ),
            "bindings[0].timers[1].seq: 0 is also the seq of timers[0]",
        ),
        (
            Box::new(|d| d["tick"] = u64::MAX.into()),
            "tick: 18446744073709551615 is more than the largest count",
        ),
    ];
    for (edit, expected) in cases {
        let (e, mut running) = resume_edited(edit);
        assert!(e.contains(expected), "{expected}\n{e}");
        // The world goes on as if no save had been given: its instances start as new ones.
        running.sim.step();
        assert_eq!(running.host.borrow().behavior_stats().running, 2, "{e}");
    }
    // A key repeated inside an object (JSON keeps the last one) is refused with its path.
    let (_, place_text, state) = run_and_save(SHOP_V1, 150);
    let repeated = state.replacen("\"memory\": {", "\"memory\": {\n        \"sold\": { \"int\": 99 },", 1);
    assert_ne!(repeated, state);
    let (e, _) = resume_text(&place_text, &repeated);
    assert!(e.contains("bindings[0].memory: duplicate key 'sold'"), "{e}");
}

#[test]
fn the_example_behaviours_run_with_checked_arithmetic() {
    let text = include_str!("../../places/behaviors.place.json");
    let run = |text: &str| {
        let mut running = Place { arena: arbor_core::load_json(text).unwrap() }.start();
        running.sim.run(700);
        let reports = running.host.borrow_mut().take_behavior_reports();
        (log(&running), reports)
    };
    let (lines, reports) = run(text);
    assert!(reports.is_empty(), "{reports:?}");
    assert!(
        lines.iter().any(|l| l == "Workspace.Door.DoorBehavior: door opened, time\t1\tat minute\t4"),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l == "Workspace.Shop.ShopBehavior: sold out; sold\t5"), "{lines:?}");
    // The documented report: Luau's own arithmetic error, at its line and column.
    let broken = text
        .replace("self.memory.opens = self.memory.opens + 1", "self.memory.opens = self.memory.opens + nil");
    assert_ne!(broken, text);
    let (_, reports) = run(&broken);
    assert_eq!(reports[0].location(), "Door:21:5", "{}", reports[0]);
    assert!(
        reports[0].message.starts_with("attempt to perform arithmetic (add) on number and nil"),
        "{}",
        reports[0]
    );
}

#[test]
fn a_refused_save_undoes_what_compiling_its_saved_sources_did() {
    // The saved source's chunk writes to the world each time it runs; the place's source is
    // another one, so resuming compiles (runs) the saved one before it finds the bad state.
    let counting = SHOP_V1.replacen(
        "return {",
        "pcall(function() local h = workspace:FindFirstChild('H0') h:SetAttribute('Loads', (h:GetAttribute('Loads') or 0) + 1) end)\nreturn {",
        1,
    );
    let (_, place_text, state) = run_and_save(&counting, 150);
    let changed = place_text.replace("v1 open", "v9 open");
    assert_ne!(changed, place_text);
    let mut doc: serde_json::Value = serde_json::from_str(&state).unwrap();
    doc["bindings"][1]["state"] = "Nowhere".into();
    // `resume_text` checks that the world is as it was.
    let (e, _) = resume_text(&changed, &doc.to_string());
    assert!(e.contains("bindings[1].state: 'Nowhere' is not one of the states of 'Shop'"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Issue 33 §4: the tick's behaviour share, and the host's caps on the place's settings.

/// A handler of about 85,000 units that checks its events arrive in order (`i` counts up
/// from 0) and writes how many it has seen to its host's `Count`.
const BURNER: &str = r#"
return {
	host = "Part",
	fields = { Count = { type = "int" } },
	events = { Tick = { i = "int" } },
	memory = { next = 0 },
	on = { Tick = function(self, e)
		if e.i ~= self.memory.next then error("out of order: " .. e.i) end
		self.memory.next = self.memory.next + 1
		self.fields.Count = self.memory.next
		local x = 0
		for k = 1, 17000 do x += k end
	end },
}
"#;

/// A `BURNER` host sent 200 `Tick`s in one tick, run from that tick for `ticks` ticks under
/// `config` with `per_moment` transactions a moment: the host's `Count` after each tick.
fn burn(config: arbor_script::HostConfig, per_moment: u32, ticks: usize) -> (Running, Vec<f64>) {
    let (mut place, hosts) = hosts_place("Burner", BURNER, 1);
    place.arena.behaviors_mut().settings.transactions_per_moment = per_moment;
    place.arena.set_attribute(hosts[0], "Count", Some(AttributeValue::Number(0.0))).unwrap();
    let ws = place.workspace();
    place.script(
        "Sender",
        ws,
        "local n = 0\nfunction Update()\n\tn += 1\n\tif n ~= 2 then return end\n\tfor i = 0, 199 do game.Behaviors.Send(workspace.H0, 'Tick', { i = i }) end\nend\n",
    );
    let mut running = place.start_with(config);
    // The first tick binds the behaviour; the Script sends in the second.
    running.sim.step();
    let mut counts = Vec::new();
    for _ in 0..ticks {
        running.sim.step();
        match attr(&running, hosts[0], "Count") {
            Some(AttributeValue::Number(n)) => counts.push(n),
            other => panic!("Count is {other:?}"),
        }
    }
    (running, counts)
}

fn unwalled() -> arbor_script::HostConfig {
    arbor_script::HostConfig { wall_bound: None, ..Default::default() }
}

#[test]
fn deliveries_past_the_ticks_share_wait_for_the_next_tick_in_order() {
    // Before: 200 (or 4,999) such deliveries ran in one tick, 85,000 units each, whatever
    // the tick's length.
    let (running, counts) = burn(unwalled(), 5_000, 4);
    let first = counts[0] as u64;
    assert!(
        first > 0 && first < 200,
        "the share stops the first moment part way: {counts:?} {:?}",
        log(&running)
    );
    // 8,000,000 units a tick of about 85,200 a delivery.
    assert!((80..=100).contains(&first), "{counts:?}");
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    assert_eq!(counts[3], 200.0, "all delivered over the following ticks: {counts:?}");
    let stats = running.host.borrow().behavior_stats();
    assert_eq!((stats.committed, stats.rolled_back, stats.closed), (201, 0, 0), "in order, none lost");
    assert_eq!((stats.deferred, stats.waiting, stats.dropped_waiting), (200 - first, 0, 0));
    let text = log(&running).join("\n");
    let report = format!(
        "behaviours used their share of the tick (8000000 units); {} transactions waited for a \
         later tick since the last report, {} waiting now",
        200 - first,
        200 - first
    );
    assert!(text.contains(&report), "{text}");
    assert_eq!(text.matches("behaviours used their share").count(), 1, "at most once a second: {text}");
    // Units, not time: the same place splits the same way again.
    assert_eq!(burn(unwalled(), 5_000, 4).1, counts);
}

#[test]
fn more_deliveries_waiting_than_a_moment_may_run_are_dropped_newest_first_and_reported() {
    let config = arbor_script::HostConfig { behavior_tick_units: 1_000_000, ..unwalled() };
    let (running, counts) = burn(config, 50, 12);
    let first = counts[0] as u64;
    assert!(first > 0 && first < 20, "{counts:?}");
    // 200 sent, `first` delivered, 50 kept waiting (the moment's limit), the rest dropped.
    let dropped = 200 - first - 50;
    let stats = running.host.borrow().behavior_stats();
    assert_eq!(stats.dropped_waiting, dropped);
    assert_eq!(counts[11], (first + 50) as f64, "the 50 kept are delivered, in order: {counts:?}");
    assert_eq!((stats.rolled_back, stats.closed, stats.waiting), (0, 0, 0));
    let text = log(&running).join("\n");
    assert!(
        text.contains(&format!(
            "; {dropped} deliveries were dropped, more than 50 waiting: event Tick ×{dropped}"
        )),
        "{text}"
    );
}

#[test]
fn a_host_cap_lower_than_the_places_behaviour_setting_wins() {
    // 40,000 iterations: about 200,000 units.
    let src =
        "return { host = 'Part', ready = function(self) local x = 0 for i = 1, 40000 do x += i end end }";
    let run = |caps: arbor_core::BehaviorCaps| {
        let (mut place, _) = hosts_place("Loop", src, 1);
        place.arena.behaviors_mut().settings.units_per_transaction = 5_000_000;
        let mut running = place.start_with(arbor_script::HostConfig { behavior_caps: caps, ..unwalled() });
        running.sim.step();
        let reports = running.host.borrow_mut().take_behavior_reports();
        (reports, log(&running))
    };
    // Under the default caps the place's 5,000,000 units hold.
    let (reports, lines) = run(arbor_core::BehaviorCaps::default());
    assert!(reports.is_empty(), "{reports:?}");
    assert!(!lines.iter().any(|l| l.contains("the cap applies")), "{lines:?}");
    // A host capping transactions at 50,000 units stops the loop, and says so at load.
    let (reports, lines) =
        run(arbor_core::BehaviorCaps { units_per_transaction: 50_000, ..Default::default() });
    assert!(reports[0].message.contains("script exceeded its instruction budget"), "{reports:?}");
    let warning = "behaviours: settings.behaviors.unitsPerTransaction: the place asks for 5000000, more \
                   than this host's cap of 50000; the cap applies";
    assert!(lines.iter().any(|l| l == warning), "{lines:?}");
    // A place setting set in code past the hard ceiling is never unlimited either.
    let (mut place, _) =
        hosts_place("Spin", "return { host = 'Part', ready = function(self) while true do end end }", 1);
    place.arena.behaviors_mut().settings.units_per_transaction = u64::MAX;
    let mut running = place.start_with(unwalled());
    running.sim.step();
    let reports = running.host.borrow_mut().take_behavior_reports();
    assert!(reports[0].message.contains("script exceeded its instruction budget"), "{reports:?}");
}
