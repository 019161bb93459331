//! The live dashboard in a real browser: `arbor serve --metrics` with a bot connected, and
//! headless Chromium (installed by `.ci/run` from the distribution's packages) loading the
//! page; the test reads the DOM the page's script built and checks every chart drew data
//! and the latest values are the server's (one player, bytes flowing, healthy).

#[path = "support/arbor_process.rs"]
mod arbor_process;

use arbor_process::ArborProcess;
use std::process::Command;
use std::time::{Duration, Instant};

/// A headless Chromium on this machine, if any.
fn browser() -> Option<&'static str> {
    ["chromium-headless-shell", "chromium", "chromium-browser"]
        .into_iter()
        .find(|b| Command::new(b).arg("--version").output().is_ok_and(|o| o.status.success()))
}

/// The value of attribute `attr` on the element with id `id` in `dom`.
fn attribute(dom: &str, id: &str, attr: &str) -> Option<String> {
    let at = dom.find(&format!("id=\"{id}\""))?;
    let tag_start = dom[..at].rfind('<')?;
    let tag = &dom[tag_start..tag_start + dom[tag_start..].find('>')?];
    let value = &tag[tag.find(&format!("{attr}=\""))? + attr.len() + 2..];
    Some(value[..value.find('"')?].to_owned())
}

#[test]
fn the_dashboard_draws_live_data_in_a_headless_browser() {
    let Some(browser) = browser() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but no headless Chromium is installed (.ci/run installs chromium-headless-shell)"
        );
        eprintln!("skipped: install chromium-headless-shell to run the dashboard test");
        return;
    };
    let mut server = ArborProcess::start(&[
        "serve",
        "--stress",
        "2000",
        "--listen",
        "127.0.0.1:0",
        "--insecure",
        "--metrics",
        "127.0.0.1:0",
    ]);
    let addr = server.word_after("listening on ", Duration::from_secs(30));
    let metrics = server.word_after("metrics on ", Duration::from_secs(10));
    let base = metrics.trim_end_matches("/metrics").to_owned();
    let _bots = ArborProcess::start(&["bots", "1", "--connect", &addr, "--insecure", "--seconds", "30"]);

    // Wait until the server's own data shows the player, so the page has something to draw.
    let agent: ureq::Agent =
        ureq::Agent::config_builder().timeout_global(Some(Duration::from_secs(5))).build().into();
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let stats: serde_json::Value =
            agent.get(format!("{base}/api/stats")).call().unwrap().body_mut().read_json().unwrap();
        let points = stats["points"].as_array().unwrap();
        if points.len() >= 3 && points.last().unwrap()["players"] == 1 {
            break;
        }
        assert!(Instant::now() < until, "no player in the server's stats: {stats}");
        std::thread::sleep(Duration::from_millis(250));
    }

    let out = Command::new(browser)
        .args([
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=5000",
            "--dump-dom",
            &format!("{base}/"),
        ])
        .output()
        .expect("run the browser");
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && dom.contains("<canvas"),
        "browser said: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for chart in ["tick", "phases", "players", "bandwidth"] {
        let points: usize = attribute(&dom, chart, "data-points").and_then(|p| p.parse().ok()).unwrap_or(0);
        assert!(points >= 3, "chart {chart} drew {points} points:\n{dom}");
    }
    assert!(dom.contains("players 1</span>"), "the players legend shows the bot:\n{dom}");
    assert!(dom.contains("healthy") && dom.contains("ready"), "the status line:\n{dom}");
    let kbit: f64 = dom
        .split("kbit/s ")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .and_then(|v| v.parse().ok())
        .expect("the bandwidth legend has a value");
    assert!(kbit > 0.0, "bytes flow to the bot:\n{dom}");
    assert!(dom.contains(">Update "), "the phases legend names the Update phase:\n{dom}");
    server.terminate();
    assert!(server.finish(), "{}", server.log());
}
