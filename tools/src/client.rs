//! `arbor client --connect ADDR`: one headless client that joins, runs the place's client
//! scripts (printing their log as it happens), walks its character on a `--walk` pattern
//! and, at the end, prints a summary of the connection and of the scripts' cost. The token
//! comes from `arbor token` (`--token HEX`), or the server runs `--insecure` and the client
//! names its user (`--user`). Exits with status 1 when the connection ends early or the
//! replica's hash ever differed from the server's.

use crate::walk::{character_position, steer};
use arbor_client::ClientRuntime;
use arbor_net::{Client, ClientAuth, NetError, token_from_hex};
use arbor_script::HostConfig;
use glam::Vec3;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Options of `arbor client`.
#[derive(clap::Args, Debug)]
pub struct ClientArgs {
    /// The server.
    #[arg(long)]
    pub connect: SocketAddr,
    /// A connect token, as `arbor token` prints it.
    #[arg(long, value_name = "HEX", conflicts_with = "insecure")]
    pub token: Option<String>,
    /// Connect without a token (the server must run with `--insecure`).
    #[arg(long)]
    pub insecure: bool,
    /// The user id to claim with `--insecure`.
    #[arg(long, default_value_t = 1, requires = "insecure")]
    pub user: u64,
    /// Seconds to stay connected.
    #[arg(long, default_value_t = 30.0, value_parser = crate::args::seconds)]
    pub seconds: f64,
    /// How the client walks its character.
    #[arg(long, value_enum, default_value_t = Walk::Circle)]
    pub walk: Walk,
    /// The radius of the walk, in studs.
    #[arg(long, default_value_t = 20.0)]
    pub radius: f32,
    /// Show the server's position of the character instead of predicting it.
    #[arg(long)]
    pub no_prediction: bool,
    /// Send one command per 1/60 s whatever the server's queue of them holds, instead of
    /// pacing the command clock by it.
    #[arg(long)]
    pub no_pacing: bool,
}

/// How `arbor client` walks its character, around where it first stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Walk {
    /// A circle of `--radius`, a lap every 10 s.
    Circle,
    /// Out and back along X, `--radius` each way, with a stop at each end.
    Line,
    /// Stand still.
    Still,
}

impl Walk {
    /// Where the character heads `t` seconds into its walk, relative to where it started.
    fn target(self, radius: f32, t: f32) -> Vec3 {
        match self {
            Walk::Circle => {
                let a = t * std::f32::consts::TAU / 10.0;
                Vec3::new(a.cos() - 1.0, 0.0, a.sin()) * radius
            }
            Walk::Line => {
                // 8 s a cycle: 3 s out, 1 s still, 3 s back, 1 s still.
                let phase = t.rem_euclid(8.0);
                let x = match phase {
                    p if p < 3.0 => p / 3.0,
                    p if p < 4.0 => 1.0,
                    p if p < 7.0 => 1.0 - (p - 4.0) / 3.0,
                    _ => 0.0,
                };
                Vec3::new(x * radius, 0.0, 0.0)
            }
            Walk::Still => Vec3::ZERO,
        }
    }
}

/// Runs `arbor client`.
pub fn run(args: ClientArgs) -> Result<(), String> {
    let auth = match (&args.token, args.insecure) {
        (Some(hex), _) => ClientAuth::Token(Box::new(token_from_hex(hex.trim()).map_err(|e| e.to_string())?)),
        (None, true) => ClientAuth::Insecure { user_id: args.user, server: args.connect },
        (None, false) => {
            return Err("give a connect token (--token, from `arbor token`) or --insecure".to_owned());
        }
    };
    if !(args.radius.is_finite() && args.radius >= 0.0) {
        return Err("--radius must be a finite number of studs".to_owned());
    }
    let client = Client::connect(auth).map_err(|e| e.to_string())?;
    let config = HostConfig { echo: true, ..HostConfig::default() };
    let mut runtime = ClientRuntime::new(client, config).map_err(|e| e.to_string())?;
    runtime.client_mut().set_prediction(!args.no_prediction);
    runtime.client_mut().set_pacing(!args.no_pacing);
    let dt = Duration::from_secs_f64(1.0 / 60.0);
    let start = Instant::now();
    let mut pacer = crate::pace::Pacer::new(dt);
    let mut welcomed = false;
    let mut walk_from: Option<(Vec3, f32)> = None;
    let mut ended = None;
    while start.elapsed().as_secs_f64() < args.seconds {
        let t = start.elapsed().as_secs_f32();
        // Steered from where the client shows its character: predicted, unless turned off.
        let shown = runtime.client().local_character().and_then(|c| runtime.client().shown_position(c));
        if let Some(at) = shown.or_else(|| character_position(runtime.client())) {
            let (origin, since) = *walk_from.get_or_insert_with(|| {
                println!(
                    "walking character {} from {:.1}",
                    runtime.client().local_character().unwrap_or_default(),
                    at
                );
                (at, t)
            });
            let goal = origin + args.walk.target(args.radius, t - since);
            runtime.client_mut().set_movement(steer(at, goal), 0);
        }
        match runtime.frame(dt) {
            Ok(()) => {}
            Err(e) => {
                ended = Some(e);
                break;
            }
        }
        runtime.take_log(); // echoed as they happened
        if !welcomed && let Some(user) = runtime.client().user_id() {
            welcomed = true;
            println!("connected to {} as user {user}", args.connect);
        }
        pacer.wait();
    }
    println!("{}", summary(&runtime, start.elapsed().as_secs_f64()));
    let replica = runtime.client().replica().stats();
    runtime.client_mut().disconnect();
    if let Some(e) = ended {
        return Err(match e {
            NetError::Kicked { reason } => format!("the server kicked this client: {reason}"),
            other => format!("the connection ended: {other}"),
        });
    }
    let mismatches = replica.hash_mismatches + replica.message_mismatches;
    if mismatches > 0 {
        return Err(format!("{mismatches} hash mismatches (settled or per message)"));
    }
    Ok(())
}

/// The run in one line: the connection, the replica's checks, the scripts' cost and the
/// prediction's error.
fn summary(runtime: &ClientRuntime, seconds: f64) -> String {
    let client = runtime.client();
    let stats = runtime.stats();
    let replica = client.replica().stats();
    let frames = stats.frames.max(1) as f64;
    let prediction = prediction_line(client.predictor());
    let pacing = client.pacer().depth().map_or(String::new(), |depth| {
        format!("; server queue {depth:.1} commands, command clock rate {:.3}", client.pacer().rate())
    });
    format!(
        "{:.0} s, {} frames: {:.1} kbit/s of snapshots, RTT {:.1} ms, {} instances held; hash checks {} settled + {} under motion, mismatches {}; client scripts: {} running, {} errors, {:.1} µs/frame in scripts, {:.1} µs/frame in network and replica, {} bytes of code{pacing}{prediction}",
        seconds,
        stats.frames,
        client.stats().snapshot_bytes as f64 * 8.0 / 1000.0 / seconds.max(1e-3),
        client.rtt() * 1000.0,
        client.replica().len(),
        replica.hash_checks,
        replica.message_checks,
        replica.hash_mismatches + replica.message_mismatches,
        runtime.host().instance_count(),
        runtime.host().error_count(),
        stats.script_seconds / frames * 1e6,
        stats.network_seconds / frames * 1e6,
        runtime.code_bytes(),
    )
}

/// The prediction's counters and error after reconciliation, or nothing when it is off.
fn prediction_line(predictor: &arbor_net::prediction::Predictor) -> String {
    if !predictor.is_enabled() {
        return String::new();
    }
    let p = predictor.stats();
    let mut errors: Vec<f32> = predictor.errors().collect();
    errors.sort_by(f32::total_cmp);
    let mean = errors.iter().sum::<f32>() / errors.len().max(1) as f32;
    let p99 = errors.get(errors.len() * 99 / 100).copied().unwrap_or(0.0);
    format!(
        "; prediction: {} steps, {} reconciles ({:.1} commands replayed each), error {mean:.4} mean / {p99:.4} p99 / {:.4} max studs over {} states ({} irregular), {} snaps, largest correction step {:.3} studs",
        p.steps,
        p.reconciles,
        p.replayed as f64 / p.reconciles.max(1) as f64,
        p.max_error,
        p.compared,
        p.irregular_states,
        p.snaps,
        p.largest_correction_step,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_start_where_the_character_stands_and_stay_within_their_radius() {
        for walk in [Walk::Circle, Walk::Line, Walk::Still] {
            assert!(walk.target(20.0, 0.0).length() < 1e-4, "{walk:?}");
            for k in 0..200 {
                let p = walk.target(20.0, k as f32 * 0.1);
                assert!(p.length() <= 40.0 + 1e-3 && p.y == 0.0, "{walk:?} {p}");
            }
        }
        assert!((Walk::Line.target(20.0, 3.5).x - 20.0).abs() < 1e-4);
    }
}
