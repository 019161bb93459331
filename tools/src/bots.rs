//! `arbor bots N --connect ADDR`: N replica clients in this process, each walking the
//! character the server binds to it (movement input; the server moves the character and
//! centres the bot's streaming range on it) on a `--pattern` that mixes a crowd (bots
//! within 40 studs of each other around the first character's spawn point) and spread bots
//! (each at its own point of a disc `--wander` studs in radius around it), jumping now and
//! then; a bot without a character moves its streaming focus on a circle instead. It reports
//! per-client bytes/s, snapshots/s, round-trip time and world-hash checks, with a progress
//! display while they join. A bot whose connection
//! the server ends (a kick, a drop, a timeout) is reported at once with the reason and no
//! longer counted as connected. With `--client-scripts` every bot also runs the place's
//! client scripts, and the summary adds their cost per bot and frame. User ids outside `game.Session`'s range (or past 2^64) are
//! refused up front. Exits with status 1 if any replica's hash ever differed from the
//! server's.

use crate::walk::{character_position, steer};
use arbor_client::ClientRuntime;
use arbor_net::{Client, ClientAuth, ServerKey, issue_token};
use arbor_sim::players::MAX_USER_ID;
use glam::Vec3;
use indicatif::{ProgressBar, ProgressStyle};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Options of `arbor bots`.
#[derive(clap::Args, Debug)]
pub struct BotsArgs {
    /// How many clients.
    pub count: usize,
    /// The server.
    #[arg(long)]
    pub connect: SocketAddr,
    /// The server's key file: each bot issues itself a token (as a matchmaker would).
    #[arg(long, default_value = "arbor.key", conflicts_with = "insecure")]
    pub key: PathBuf,
    /// Connect without tokens (the server must run with `--insecure`).
    #[arg(long)]
    pub insecure: bool,
    /// Seconds to run after starting.
    #[arg(long, default_value_t = 20.0, value_parser = crate::args::seconds)]
    pub seconds: f64,
    /// The first bot's user id (the others follow); every id must be from 1 to 2^53 − 1.
    #[arg(long, default_value_t = 1_000_000)]
    pub first_user: u64,
    /// How far the bots roam, in studs: the radius of the disc the spread bots' points fill
    /// (for a bot without a character, of its focus circle); 0: stand still.
    #[arg(long, default_value_t = 200.0)]
    pub wander: f32,
    /// How the bots walk their characters: a third in a crowd and the rest spread out
    /// (`mixed`), all in one crowd, or all spread out.
    #[arg(long, value_enum, default_value_t = Pattern::Mixed)]
    pub pattern: Pattern,
    /// Each bot also runs the place's client scripts (a client's whole frame: replica,
    /// scripts), and the summary reports their cost per bot.
    #[arg(long)]
    pub client_scripts: bool,
}

/// How the bots walk their characters. The crowd gathers around the crowd's point (where
/// the first bot's character stood when it was first seen), its bots at most
/// 2 × [`CROWD_RADIUS`] studs from each other; a spread bot walks to its own point of a
/// disc `--wander` studs in radius around the same point, the points spread evenly over the
/// disc (a sunflower spiral), and circles there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Pattern {
    /// Every third bot in the crowd, the others spread out.
    Mixed,
    /// Every bot in the crowd.
    Crowd,
    /// Every bot spread out.
    Spread,
}

/// Radius of the crowd's disc, in studs.
const CROWD_RADIUS: f32 = 20.0;

/// The golden angle in radians: successive points of a sunflower spiral.
const GOLDEN_ANGLE: f32 = 2.399_963;

/// Point `k` of `n` spread evenly over a disc of `radius` around the origin (on X and Z).
fn sunflower(k: usize, n: usize, radius: f32) -> Vec3 {
    let r = radius * ((k as f32 + 0.5) / n.max(1) as f32).sqrt();
    let a = k as f32 * GOLDEN_ANGLE;
    Vec3::new(a.cos() * r, 0.0, a.sin() * r)
}

impl Pattern {
    /// Where bot `i` of `n` heads `t` seconds into the run, relative to the crowd's point,
    /// with `wander` the spread disc's radius. A crowd bot holds its place in the crowd's
    /// disc as the disc turns (at most 6 studs/s at its edge); a spread bot circles its point
    /// 8 studs out at 4 studs/s. Characters walk at 16 studs/s, so each catches its target.
    fn target(self, i: usize, n: usize, wander: f32, t: f32) -> Vec3 {
        let crowds = match self {
            Pattern::Mixed => n.div_ceil(3),
            Pattern::Crowd => n,
            Pattern::Spread => 0,
        };
        let in_crowd = match self {
            Pattern::Mixed => i.is_multiple_of(3),
            Pattern::Crowd => true,
            Pattern::Spread => false,
        };
        if in_crowd {
            let k = if self == Pattern::Mixed { i / 3 } else { i };
            let slot = sunflower(k, crowds, CROWD_RADIUS);
            let (s, c) = (t * 0.3).sin_cos();
            Vec3::new(slot.x * c - slot.z * s, 0.0, slot.x * s + slot.z * c)
        } else {
            // The spread bots before `i`: every bot before it less the crowd bots among them.
            let j = if self == Pattern::Mixed { i - (i / 3 + 1) } else { i };
            let a = j as f32 * GOLDEN_ANGLE + t * 0.5;
            sunflower(j, n - crowds, wander) + Vec3::new(a.cos(), 0.0, a.sin()) * 8.0
        }
    }
}

/// A bot's connection: a bare replica client, or one that runs the client scripts too.
enum Link {
    Replica(Box<Client>),
    Scripted(Box<ClientRuntime>),
}

impl Link {
    fn client(&self) -> &Client {
        match self {
            Link::Replica(c) => c,
            Link::Scripted(r) => r.client(),
        }
    }

    fn client_mut(&mut self) -> &mut Client {
        match self {
            Link::Replica(c) => c,
            Link::Scripted(r) => r.client_mut(),
        }
    }

    /// One frame: the network, and the client scripts if it runs them.
    fn update(&mut self, dt: Duration) -> Result<(), arbor_net::NetError> {
        match self {
            Link::Replica(c) => c.update(dt),
            Link::Scripted(r) => {
                let result = r.frame(dt);
                r.take_log(); // counted by the host; a hundred bots' lines are not printed
                result
            }
        }
    }
}

struct Bot {
    user: u64,
    link: Link,
    centre: Vec3,
    phase: f32,
    last_snapshots: u64,
    last_bytes: u64,
    error: Option<String>,
    /// Seconds from the start until the server bound a character to this bot.
    owned_after: Option<f64>,
}

/// Runs `arbor bots`.
pub fn run(args: BotsArgs) -> Result<(), String> {
    if args.count == 0 || args.count > 1024 {
        return Err("the bot count must be from 1 to 1024 (netcode's client limit)".to_owned());
    }
    let users = user_ids(args.first_user, args.count)?;
    let key = if args.insecure {
        None
    } else {
        let text =
            std::fs::read_to_string(&args.key).map_err(|e| format!("reading {}: {e}", args.key.display()))?;
        Some(ServerKey::from_hex(text.trim()).map_err(|e| e.to_string())?)
    };
    let mut bots = Vec::with_capacity(args.count);
    for (i, user) in users.enumerate() {
        let auth = match &key {
            Some(k) => ClientAuth::Token(Box::new(
                issue_token(k, user, vec![args.connect], 120, 10).map_err(|e| e.to_string())?,
            )),
            None => ClientAuth::Insecure { user_id: user, server: args.connect },
        };
        let angle = i as f32 * 2.399; // golden angle: bots spread over the place
        let centre = Vec3::new(angle.cos(), 0.0, angle.sin()) * (i as f32).sqrt() * 60.0;
        let client = Client::connect(auth).map_err(|e| e.to_string())?;
        let link = if args.client_scripts {
            let config = arbor_script::HostConfig::default();
            Link::Scripted(Box::new(ClientRuntime::new(client, config).map_err(|e| e.to_string())?))
        } else {
            Link::Replica(Box::new(client))
        };
        bots.push(Bot {
            user,
            link,
            centre,
            phase: angle,
            last_snapshots: 0,
            last_bytes: 0,
            error: None,
            owned_after: None,
        });
    }
    let joining = ProgressBar::new(args.count as u64);
    joining.set_style(
        ProgressStyle::with_template("joining {bar:40} {pos}/{len} bots in step with the server ({elapsed})")
            .map_err(|e| e.to_string())?,
    );
    let dt = Duration::from_secs_f64(1.0 / 60.0);
    let start = Instant::now();
    let mut last_report = start;
    let mut pacer = crate::pace::Pacer::new(dt);
    // The crowd's point: where the first character a bot saw stood (on X and Z).
    let mut crowd_at: Option<Vec3> = None;
    while start.elapsed().as_secs_f64() < args.seconds {
        let t = start.elapsed().as_secs_f32();
        for (i, bot) in bots.iter_mut().enumerate().filter(|(_, b)| b.error.is_none()) {
            let a = bot.phase + t * 0.2;
            // A walking bot jumps for a moment every two seconds.
            let jump = u8::from((t + bot.phase).rem_euclid(2.0) < 0.1);
            match character_position(bot.link.client()) {
                // It walks its character toward its place in the pattern; the server moves
                // the character and centres the bot's streaming range on it.
                Some(at) if args.wander > 0.0 => {
                    let crowd = *crowd_at.get_or_insert(Vec3::new(at.x, 0.0, at.z));
                    let goal = crowd + args.pattern.target(i, args.count, args.wander, t);
                    bot.link.client_mut().set_movement(steer(at, goal), jump);
                }
                Some(_) => bot.link.client_mut().set_movement([0, 0], 0),
                // Without a character (yet, or in a place without a spawner) its focus walks a
                // circle, as its movement input does.
                None => {
                    bot.link
                        .client_mut()
                        .set_focus(bot.centre + Vec3::new(a.cos(), 0.0, a.sin()) * args.wander);
                    bot.link
                        .client_mut()
                        .set_movement([((a.cos()) * 100.0) as i8, ((a.sin()) * 100.0) as i8], jump);
                }
            }
            if let Err(e) = bot.link.update(dt) {
                // The connection is over (the client reports its end once and for good).
                joining.suspend(|| println!("bot {}: {e}", bot.user));
                bot.error = Some(e.to_string());
            }
            if bot.owned_after.is_none() && bot.link.client().local_character().is_some() {
                bot.owned_after = Some(start.elapsed().as_secs_f64());
            }
        }
        // A bot is in step once its replica passed a check of either kind.
        let checked = bots
            .iter()
            .filter(|b| {
                let r = b.link.client().replica().stats();
                r.hash_checks + r.message_checks > 0
            })
            .count();
        if !joining.is_finished() {
            joining.set_position(checked as u64);
            if checked == bots.len() {
                joining.finish_with_message("joined");
            }
        }
        if last_report.elapsed() >= Duration::from_secs(5) {
            let secs = last_report.elapsed().as_secs_f64();
            joining.suspend(|| println!("{}", summary(&mut bots, secs, start.elapsed().as_secs_f64())));
            last_report = Instant::now();
        }
        pacer.wait();
    }
    joining.finish_and_clear();
    let secs = last_report.elapsed().as_secs_f64();
    println!("{}", summary(&mut bots, secs, start.elapsed().as_secs_f64()));
    let mismatches: u64 = bots
        .iter()
        .map(|b| {
            let r = b.link.client().replica().stats();
            r.hash_mismatches + r.message_mismatches
        })
        .sum();
    for b in &mut bots {
        b.link.client_mut().disconnect();
    }
    let failed: Vec<&str> = bots.iter().filter_map(|b| b.error.as_deref()).collect();
    if let Some(first) = failed.first() {
        println!("{} bots lost their connection (first: {first})", failed.len());
    }
    if mismatches > 0 {
        return Err(format!("{mismatches} hash mismatches (settled or per message)"));
    }
    Ok(())
}

/// The user ids of `count` bots from `first`, or why they are not valid ids.
fn user_ids(first: u64, count: usize) -> Result<std::ops::RangeInclusive<u64>, String> {
    let last = (count as u64).checked_sub(1).and_then(|n| first.checked_add(n));
    match last {
        Some(last) if first >= 1 && last < MAX_USER_ID => Ok(first..=last),
        _ => {
            let ids = match last {
                Some(last) if last == first => format!("user id {first}"),
                Some(last) => format!("user ids {first} to {last}"),
                None => format!("user ids from {first} past the largest 64-bit number"),
            };
            Err(format!(
                "--first-user {first} with {count} bot{} gives {ids}: ids are from 1 to {} (game.Session refuses others)",
                if count == 1 { "" } else { "s" },
                MAX_USER_ID - 1
            ))
        }
    }
}

/// The client scripts' cost per bot and frame, if the bots run them (empty otherwise).
fn script_cost(bots: &[Bot]) -> String {
    let runtimes: Vec<&ClientRuntime> = bots
        .iter()
        .filter_map(|b| match &b.link {
            Link::Scripted(r) => Some(&**r),
            Link::Replica(_) => None,
        })
        .collect();
    if runtimes.is_empty() {
        return String::new();
    }
    let frames: u64 = runtimes.iter().map(|r| r.stats().frames).sum::<u64>().max(1);
    let scripts: f64 = runtimes.iter().map(|r| r.stats().script_seconds).sum();
    let network: f64 = runtimes.iter().map(|r| r.stats().network_seconds).sum();
    let running: usize = runtimes.iter().map(|r| r.host().instance_count()).sum();
    let errors: u64 = runtimes.iter().map(|r| r.host().error_count()).sum();
    let n = runtimes.len() as f64;
    format!(
        "; client scripts: {:.1} running per bot, {:.1} µs/frame per bot in scripts, {:.1} µs/frame in network and replica, {errors} errors",
        running as f64 / n,
        scripts / frames as f64 * 1e6,
        network / frames as f64 * 1e6,
    )
}

/// One line per figure over every bot since the last summary.
fn summary(bots: &mut [Bot], secs: f64, total: f64) -> String {
    let mut rates = Vec::new();
    let mut snaps = 0u64;
    let (mut settled, mut message, mut mismatches, mut held) = (0u64, 0u64, 0u64, 0usize);
    let mut rtt = 0.0;
    let connected = bots.iter().filter(|b| b.error.is_none() && b.link.client().is_connected()).count();
    for b in bots.iter_mut() {
        let s = b.link.client().stats();
        rates.push((s.snapshot_bytes - b.last_bytes) as f64 / secs);
        snaps += s.snapshots - b.last_snapshots;
        b.last_bytes = s.snapshot_bytes;
        b.last_snapshots = s.snapshots;
        let r = b.link.client().replica().stats();
        settled += r.hash_checks;
        message += r.message_checks;
        mismatches += r.hash_mismatches + r.message_mismatches;
        held += b.link.client().replica().len();
        rtt += b.link.client().rtt();
    }
    rates.sort_by(f64::total_cmp);
    let n = bots.len().max(1) as f64;
    let mean = rates.iter().sum::<f64>() / n;
    let owned: Vec<f64> = bots.iter().filter_map(|b| b.owned_after).collect();
    let join = if owned.is_empty() {
        "no characters bound".to_owned()
    } else {
        format!(
            "{} with characters, join-to-character {:.2} s mean, {:.2} s max",
            owned.len(),
            owned.iter().sum::<f64>() / owned.len() as f64,
            owned.iter().copied().fold(0.0, f64::max)
        )
    };
    let max = rates.last().copied().unwrap_or(0.0);
    let scripts = script_cost(bots);
    format!(
        "t={total:.0} s: {connected}/{} connected; snapshot payload per client {:.1} kbit/s mean, {:.1} max; {:.1} snapshots/s per client; RTT {:.1} ms mean; {:.0} instances held per client; {join}; hash checks {settled} settled + {message} under motion, mismatches {mismatches}{scripts}",
        bots.len(),
        mean * 8.0 / 1000.0,
        max * 8.0 / 1000.0,
        snaps as f64 / secs / n,
        rtt / n * 1000.0,
        held as f64 / n,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_ids_past_the_sessions_range_or_wrapping_are_refused() {
        assert_eq!(user_ids(1_000_000, 3), Ok(1_000_000..=1_000_002));
        assert_eq!(user_ids(MAX_USER_ID - 2, 2), Ok(MAX_USER_ID - 2..=MAX_USER_ID - 1));
        for (first, count) in [(0, 1), (u64::MAX, 1), (u64::MAX - 1, 3), (MAX_USER_ID - 1, 2)] {
            let e = user_ids(first, count).unwrap_err();
            assert!(e.contains(&format!("--first-user {first}")) && e.contains("ids are from 1 to"), "{e}");
        }
        assert!(user_ids(u64::MAX - 1, 3).unwrap_err().contains("past the largest 64-bit number"));
    }

    /// The largest and smallest distance between two of `points`.
    fn spans(points: &[Vec3]) -> (f32, f32) {
        let mut far: f32 = 0.0;
        let mut near = f32::INFINITY;
        for (i, a) in points.iter().enumerate() {
            for b in &points[i + 1..] {
                far = far.max(a.distance(*b));
                near = near.min(a.distance(*b));
            }
        }
        (far, near)
    }

    #[test]
    fn the_crowd_stays_within_40_studs_and_spread_bots_keep_far_apart() {
        for t in [0.0, 7.3, 250.0] {
            for n in [1, 3, 20, 300] {
                let mixed: Vec<Vec3> = (0..n).map(|i| Pattern::Mixed.target(i, n, 400.0, t)).collect();
                let (crowd, spread): (Vec<_>, Vec<_>) =
                    mixed.iter().enumerate().partition(|(i, _)| i % 3 == 0);
                let crowd: Vec<Vec3> = crowd.into_iter().map(|(_, p)| *p).collect();
                let spread: Vec<Vec3> = spread.into_iter().map(|(_, p)| *p).collect();
                assert!(spans(&crowd).0 <= 2.0 * CROWD_RADIUS + 1e-3, "n {n} t {t}: {crowd:?}");
                assert!(spread.iter().all(|p| p.length() <= 408.1 && p.y == 0.0), "{spread:?}");
                if (2..=20).contains(&n) {
                    assert!(spans(&spread).1 > 80.0, "n {n} t {t}: {spread:?}");
                }
                let all: Vec<Vec3> = (0..n).map(|i| Pattern::Crowd.target(i, n, 400.0, t)).collect();
                assert!(spans(&all).0 <= 2.0 * CROWD_RADIUS + 1e-3, "n {n} t {t}");
                let apart: Vec<Vec3> = (0..n).map(|i| Pattern::Spread.target(i, n, 400.0, t)).collect();
                if n <= 20 {
                    assert!(spans(&apart).1 > 70.0, "n {n} t {t}: {apart:?}");
                }
            }
        }
    }
}
