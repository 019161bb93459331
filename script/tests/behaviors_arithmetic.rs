//! Behaviour determinism rules and checked arithmetic (`docs/behaviours.md`, "Determinism
//! rules", "Transactions and errors") end to end: seeded draws, rounding and string order,
//! no clock or global random; a division by zero or a NaN is an error at its line, finite
//! arithmetic is Luau's own; every frame of small local helpers stays in the stack; the
//! example place's behaviours run with checked arithmetic.

mod behaviors_common;
mod common;

use behaviors_common::{hosts_place, line_of, log, ready_reports, ready_source};
use common::Place;

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
fn the_example_behaviours_run_with_checked_arithmetic() {
    let text = include_str!("../../places/behaviors.place.json");
    let run = |text: &str| {
        let mut running = Place { arena: arbor_place::load_json(text).unwrap() }.start();
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
