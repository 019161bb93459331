//! Behaviour saves (`docs/behaviours.md`, "Saves") end to end: a save resumes exactly where
//! it was, a changed definition migrates through `Migrate` (an error cancels the migration
//! and keeps the saved definition), a closed binding starts again after a reload, and a
//! resumed save is checked like a place file (a refused one restores nothing and undoes
//! what compiling its saved sources did).

mod behaviors_common;
mod common;

use arbor_core::AttributeValue;
use behaviors_common::{hash, hosts_place, log};
use common::{Place, Running};

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
    let text = arbor_place::save_json(&shop_place(source).arena);
    let mut running = Place { arena: arbor_place::load_json(&text).unwrap() }.start();
    running.sim.run(before);
    let last = running.sim.ticks() - 1;
    let state = running.host.borrow_mut().save_behaviors(&mut running.sim.arena, last).unwrap();
    let place = arbor_place::save_json(&running.sim.arena);
    (running, place, state)
}

fn resume(place_text: &str, state: &str, source: Option<&str>) -> Running {
    let mut arena = arbor_place::load_json(place_text).unwrap();
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

/// A save of `SHOP_V1` after 150 ticks, changed by `edit`, resumed: the error, and the world
/// and behaviours after the failed resume.
fn resume_edited(edit: impl Fn(&mut serde_json::Value)) -> (String, Running) {
    let (_, place_text, state) = run_and_save(SHOP_V1, 150);
    let mut doc: serde_json::Value = serde_json::from_str(&state).unwrap();
    edit(&mut doc);
    resume_text(&place_text, &doc.to_string())
}

fn resume_text(place_text: &str, state: &str) -> (String, Running) {
    let arena = arbor_place::load_json(place_text).unwrap();
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
