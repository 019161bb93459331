//! Behaviour transactions (`docs/behaviours.md`, "Transactions and errors") end to end:
//! every kind of error undoes the whole transaction (world, events raised, timers started),
//! a committed one keeps its writes and publishes after the commit, and error reports give
//! the failing line, the line that last wrote a failed field, and the call stack.

mod behaviors_common;
mod common;

use arbor_core::{AttributeValue, Class, Id};
use behaviors_common::{hash, log};
use common::{Place, Running};

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
