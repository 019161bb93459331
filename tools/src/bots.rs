//! `arbor bots N --connect ADDR`: N replica clients in this process, each moving its
//! streaming focus on a circle, reporting per-client bytes/s, snapshots/s, round-trip time
//! and world-hash checks, with a progress display while they join. A bot whose connection
//! the server ends (a kick, a drop, a timeout) is reported at once with the reason and no
//! longer counted as connected. User ids outside `game.Session`'s range (or past 2^64) are
//! refused up front. Exits with status 1 if any replica's hash ever differed from the
//! server's.

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
    /// Radius of each bot's circle, in studs (0: stand still).
    #[arg(long, default_value_t = 300.0)]
    pub wander: f32,
}

struct Bot {
    user: u64,
    client: Client,
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
        bots.push(Bot {
            user,
            client,
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
    while start.elapsed().as_secs_f64() < args.seconds {
        let t = start.elapsed().as_secs_f32();
        for bot in bots.iter_mut().filter(|b| b.error.is_none()) {
            let a = bot.phase + t * 0.2;
            bot.client.set_focus(bot.centre + Vec3::new(a.cos(), 0.0, a.sin()) * args.wander);
            // A bot walks its circle (its character follows) and jumps for a moment every
            // two seconds.
            let jump = u8::from((t + bot.phase).rem_euclid(2.0) < 0.1);
            bot.client.set_movement([((a.cos()) * 100.0) as i8, ((a.sin()) * 100.0) as i8], jump);
            if let Err(e) = bot.client.update(dt) {
                // The connection is over (the client reports its end once and for good).
                joining.suspend(|| println!("bot {}: {e}", bot.user));
                bot.error = Some(e.to_string());
            }
            if bot.owned_after.is_none() && bot.client.local_character().is_some() {
                bot.owned_after = Some(start.elapsed().as_secs_f64());
            }
        }
        let settled = bots.iter().filter(|b| b.client.replica().stats().hash_checks > 0).count();
        if !joining.is_finished() {
            joining.set_position(settled as u64);
            if settled == bots.len() {
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
    let mismatches: u64 = bots.iter().map(|b| b.client.replica().stats().hash_mismatches).sum();
    for b in &mut bots {
        b.client.disconnect();
    }
    let failed: Vec<&str> = bots.iter().filter_map(|b| b.error.as_deref()).collect();
    if let Some(first) = failed.first() {
        println!("{} bots lost their connection (first: {first})", failed.len());
    }
    if mismatches > 0 {
        return Err(format!("{mismatches} world-hash mismatches"));
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

/// One line per figure over every bot since the last summary.
fn summary(bots: &mut [Bot], secs: f64, total: f64) -> String {
    let mut rates = Vec::new();
    let mut snaps = 0u64;
    let (mut checks, mut mismatches, mut held) = (0u64, 0u64, 0usize);
    let mut rtt = 0.0;
    let connected = bots.iter().filter(|b| b.error.is_none() && b.client.is_connected()).count();
    for b in bots.iter_mut() {
        let s = b.client.stats();
        rates.push((s.snapshot_bytes - b.last_bytes) as f64 / secs);
        snaps += s.snapshots - b.last_snapshots;
        b.last_bytes = s.snapshot_bytes;
        b.last_snapshots = s.snapshots;
        let r = b.client.replica().stats();
        checks += r.hash_checks;
        mismatches += r.hash_mismatches;
        held += b.client.replica().len();
        rtt += b.client.rtt();
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
    format!(
        "t={total:.0} s: {connected}/{} connected; snapshot payload per client {:.1} kbit/s mean, {:.1} max; {:.1} snapshots/s per client; RTT {:.1} ms mean; {:.0} instances held per client; {join}; world-hash checks {checks}, mismatches {mismatches}",
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
}
