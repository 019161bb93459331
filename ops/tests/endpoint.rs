//! The operator endpoint over real HTTP on 127.0.0.1: metrics text, health, readiness, the
//! dashboard page and its data, from a simulation with scripts.

use arbor_core::{Arena, Class};
use arbor_ops::Ops;
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation};
use std::cell::RefCell;
use std::rc::Rc;

fn get(ops: &Ops, path: &str) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(std::time::Duration::from_secs(5)))
        .build()
        .into();
    let mut response =
        agent.get(format!("http://{}{path}", ops.local_addr())).call().expect("the endpoint answers");
    let status = response.status().as_u16();
    (status, response.body_mut().read_to_string().expect("a text body"))
}

fn place() -> (Simulation, Rc<RefCell<ScriptHost>>) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let script = arena.create(Class::Script, "Spinner", Some(ws)).unwrap();
    let source = "local t = {}\nfunction Update(dt) for i = 1, 50 do t[i] = i * dt end end";
    arena.set_script_source(script, source).unwrap();
    let host = Rc::new(RefCell::new(ScriptHost::new(&arena, HostConfig::default()).unwrap()));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(host.clone());
    (sim, host)
}

/// The value of the sample line that starts with `prefix` (name and labels).
fn value(text: &str, prefix: &str) -> f64 {
    let line =
        text.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("no {prefix} in\n{text}"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

#[test]
fn metrics_health_readiness_and_the_dashboard_answer_over_http() {
    let (mut sim, host) = place();
    let mut ops = Ops::serve("127.0.0.1:0".parse().unwrap()).expect("binds a free port");
    let (status, line) = get(&ops, "/healthz");
    assert_eq!((status, line.as_str()), (503, "starting: no tick has run yet\n"));
    assert_eq!(get(&ops, "/readyz").0, 503, "not ready until told");
    ops.set_ready(true);
    assert_eq!(get(&ops, "/readyz"), (200, "ready\n".to_owned()));

    for _ in 0..3 {
        for _ in 0..20 {
            let report = sim.step();
            ops.observe(&sim, &report, None, &host.borrow());
        }
        ops.publish(&sim, None, &host.borrow());
    }
    let (status, text) = get(&ops, "/metrics");
    assert_eq!(status, 200);
    assert_eq!(value(&text, "arbor_tick_duration_seconds_count"), 60.0);
    assert_eq!(value(&text, "arbor_ticks_total"), 60.0);
    assert_eq!(value(&text, "arbor_phase_duration_seconds_count{phase=\"Update\"}"), 60.0);
    assert_eq!(
        value(&text, "arbor_phase_duration_seconds_count{phase=\"Snapshot\"}"),
        30.0,
        "network ticks only"
    );
    assert_eq!(value(&text, "arbor_instances"), sim.arena.len() as f64);
    assert_eq!(
        value(&text, "arbor_script_entries_total{script=\"Workspace.Spinner\"}"),
        61.0,
        "the chunk and 60 Updates"
    );
    assert!(value(&text, "arbor_script_units_total{script=\"Workspace.Spinner\"}") > 60.0 * 50.0);
    assert!(value(&text, "arbor_script_memory_bytes{script=\"Workspace.Spinner\"}") > 0.0);
    assert!(value(&text, "process_resident_memory_bytes") > 1e6);
    assert!(text.contains("arbor_ticks_per_second{window=\"5s\"}"), "{text}");
    for name in
        ["arbor_players 0", "arbor_clients 0", "arbor_store_pending_puts 0", "arbor_cloud_store_queued 0"]
    {
        assert!(text.lines().any(|l| l == name), "{name} in\n{text}");
    }

    let (status, line) = get(&ops, "/healthz");
    assert_eq!(status, 200, "{line}");
    let (status, page) = get(&ops, "/");
    assert_eq!(status, 200);
    assert!(page.contains("<canvas") && page.contains("/api/stats"), "the dashboard polls its data");
    let (status, stats) = get(&ops, "/api/stats");
    assert_eq!(status, 200);
    let stats: serde_json::Value = serde_json::from_str(&stats).unwrap();
    let points = stats["points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    assert_eq!(points.iter().map(|p| p["ticks"].as_u64().unwrap()).collect::<Vec<_>>(), [20, 20, 20]);
    assert!(points[2]["tick_ms"]["p90"].as_f64().unwrap() > 0.0);
    assert!(points[2]["phases"].as_array().unwrap().iter().any(|p| p[0] == "Update"));
    assert_eq!(get(&ops, "/nothing").0, 404);
}

#[test]
fn a_stalled_tick_fails_the_health_check() {
    let (mut sim, host) = place();
    let mut ops = Ops::serve("127.0.0.1:0".parse().unwrap()).unwrap();
    let report = sim.step();
    ops.observe(&sim, &report, None, &host.borrow());
    assert_eq!(get(&ops, "/healthz").0, 200);
    std::thread::sleep(arbor_ops::STALLED_AFTER + std::time::Duration::from_millis(300));
    let (status, line) = get(&ops, "/healthz");
    assert_eq!(status, 503);
    assert!(line.starts_with("stalled: no tick for 2."), "{line}");
}
