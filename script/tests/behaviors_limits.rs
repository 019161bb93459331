//! Behaviour budgets and limits (`docs/behaviours.md`, "Budgets", "The tick's share",
//! "Host caps") end to end: the field, timer, unit, log, memory and moment limits, each
//! holding at its limit and failing (or cutting) one past it, deliveries past the tick's
//! share waiting in order for a later tick, and host caps below the place's settings.

mod behaviors_common;
mod common;

use arbor_core::AttributeValue;
use behaviors_common::{attr, hosts_place, line_of, log, ready_reports, ready_source};
use common::Running;

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

fn counted(limit_src: &str, n: usize) -> String {
    limit_src.replace("N_", &n.to_string())
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
fn the_moment_limit_counts_as_one_error() {
    let (mut place, _) = hosts_place("Pinger", PING_PONG, 2);
    place.arena.behaviors_mut().settings.transactions_per_moment = 10;
    let mut running = place.start();
    running.sim.step();
    assert_eq!(running.host.borrow_mut().take_behavior_reports().len(), 1);
    assert_eq!(running.host.borrow().error_count(), 1, "{:?}", log(&running));
    assert!(log(&running).iter().any(|l| l.contains("still queued at the moment's limit")));
}

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
