//! The local store (`game.Store`) under `kill -9`: a writing server killed at random
//! moments loses no put it reported durable and leaves the file intact (the test binary runs
//! itself as the server: `kill_child`).

mod common;
mod local_common;

use arbor_script::{HostConfig, LOCAL_STORE_FILE};
use common::Place;
use local_common::{TempDir, config, start, stats};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Set in the child: the data directory to write to.
const CHILD_ENV: &str = "ARBOR_LOCAL_STORE_KILL_CHILD";

/// Keys the child cycles through.
const KILL_KEYS: u64 = 200;

/// The child's script: continues from the highest sequence in the store, then puts 40
/// values a tick, the n-th to key `(n - 1) % 200`, each carrying its sequence.
const KILL_SCRIPT: &str = "
local store = game.Store.open('Kill')
local base = 0
for k = 0, 199 do
    local v = store:get(k)
    if v ~= nil and v.seq > base then
        base = v.seq
    end
end
print('base ' .. base)
local seq = base
local pad = string.rep('p', 256)
function Update()
    for _ = 1, 40 do
        seq += 1
        store:put((seq - 1) % 200, { seq = seq, pad = pad })
    end
end
";

/// The server the kill test kills: runs only as the child (the environment variable names
/// its data directory). Prints `durable <n>` after every tick.
#[test]
fn kill_child() {
    let Ok(dir) = std::env::var(CHILD_ENV) else { return };
    let mut place = Place::new();
    let ws = place.workspace();
    place.script("Writer", ws, KILL_SCRIPT);
    let mut running = place.start_with(HostConfig { echo: true, ..config(Some(Path::new(&dir))) });
    let start = Instant::now();
    // Bounded in case the parent died without killing it.
    while start.elapsed() < Duration::from_secs(30) {
        running.sim.step();
        println!("durable {}", stats(&running).durable_puts);
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Kills the child when dropped (if the test fails half-way).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// What the parent learnt from the child's stdout.
#[derive(Default)]
struct Heard {
    base: Option<u64>,
    durable: u64,
}

/// The highest sequence stored under each key, read by a fresh host (as a restarted server
/// would), and `PRAGMA integrity_check` of the file.
fn read_back(dir: &Path) -> (String, Vec<u64>) {
    let db = rusqlite::Connection::open(dir.join(LOCAL_STORE_FILE)).unwrap();
    let check: String = db.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    drop(db);
    let mut reader = start(
        config(Some(dir)),
        "local s = game.Store.open('Kill') local out = {}
         for k = 0, 199 do local v = s:get(k) out[k + 1] = if v then tostring(v.seq) else '0' end
         print('seqs ' .. table.concat(out, ','))",
    );
    reader.tick(1);
    let log = reader.log();
    let line = log
        .iter()
        .find_map(|l| l.strip_prefix("Workspace.Main: seqs "))
        .unwrap_or_else(|| panic!("{log:#?}"));
    (check, line.split(',').map(|s| s.parse().unwrap()).collect())
}

#[test]
fn kill_9_at_random_moments_loses_no_durable_put() {
    const TRIALS: usize = 100;
    let dir = TempDir::new("kill");
    let exe = std::env::current_exe().unwrap();
    let mut rng: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    // The newest sequence each key must hold at least (from the puts reported durable).
    let mut floor = vec![0u64; KILL_KEYS as usize];
    let mut durable_trials = 0;
    let started = Instant::now();
    for trial in 0..TRIALS {
        let child = Command::new(&exe)
            .args(["--exact", "kill_child", "--nocapture", "--test-threads=1"])
            .env(CHILD_ENV, &dir.0)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut child = Killed(child);
        let stdout = child.0.stdout.take().unwrap();
        let heard = Arc::new(Mutex::new(Heard::default()));
        let (ready_tx, ready) = mpsc::channel();
        let reader = {
            let heard = Arc::clone(&heard);
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    let mut h = heard.lock().unwrap();
                    // The harness's `test kill_child ... ` may lead the first line.
                    if let Some((_, n)) = line.split_once("durable ") {
                        h.durable = h.durable.max(n.parse().unwrap());
                    } else if let Some((_, b)) = line.split_once("Workspace.Writer: base ") {
                        h.base = Some(b.parse().unwrap());
                        let _ = ready_tx.send(());
                    }
                }
            })
        };
        // One trial in eight is killed while it starts (opening and reading the store), the
        // others while writing, after a random 5–160 ms.
        if next() % 8 == 0 {
            std::thread::sleep(Duration::from_millis(next() % 40));
        } else {
            ready.recv_timeout(Duration::from_secs(20)).expect("the child started");
            std::thread::sleep(Duration::from_millis(5 + next() % 156));
        }
        child.0.kill().unwrap();
        child.0.wait().unwrap();
        reader.join().unwrap();
        let heard = std::mem::take(&mut *heard.lock().unwrap());
        if let Some(base) = heard.base {
            let last = base + heard.durable;
            for seq in (base + 1).max(last.saturating_sub(KILL_KEYS) + 1)..=last {
                floor[((seq - 1) % KILL_KEYS) as usize] = seq;
            }
            durable_trials += usize::from(heard.durable > 0);
        } else {
            assert_eq!(heard.durable, 0);
        }
        let (check, seqs) = read_back(&dir.0);
        assert_eq!(check, "ok", "trial {trial}: integrity_check");
        for (k, (&have, &need)) in seqs.iter().zip(&floor).enumerate() {
            assert!(have >= need, "trial {trial}: key {k} holds seq {have}, but {need} was reported durable");
        }
    }
    assert!(durable_trials >= TRIALS / 2, "only {durable_trials} trials saw a durable put");
    eprintln!(
        "{TRIALS} kill -9 trials in {:.1} s; {durable_trials} with durable puts; newest durable seq {}",
        started.elapsed().as_secs_f64(),
        floor.iter().max().unwrap()
    );
}
