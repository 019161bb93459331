//! The `arbor` command: run places and stress tests on the Arbor tick.
//!
//! - `arbor stress` builds a synthetic place of N instances and runs it as fast as it can,
//!   printing a per-phase table, ticks per second and memory;
//! - `arbor serve [PLACE]` runs a place (the embedded example place by default) with its
//!   scripts at 60 Hz in real time, reporting overruns and a periodic phase summary
//!   (`--watch` hot-reloads scripts whose `sourceFile` is saved);
//! - `arbor run [PLACE] --ticks N` runs a place headless with its scripts and prints the
//!   script log, exiting with status 1 when any script failed;
//! - `arbor serve --listen ADDR` also accepts replica clients (netcode tokens from
//!   `arbor token`, or `--insecure`); `arbor bots N --connect ADDR` drives N of them, and
//!   `arbor client --connect ADDR` is one client that runs the place's client scripts;
//! - `arbor serve` under Agones (`AGONES_SDK_HTTP_PORT` set, or `--agones`) reports its
//!   lifecycle to the SDK sidecar: Ready, Health, the players list, Shutdown (`agones`);
//! - `arbor serve --record LOG` records a session; `arbor replay PLACE LOG` replays it and
//!   checks the world hash of every tick against the recording;
//! - `arbor place convert IN OUT` converts between the JSON and binary place formats.
//!
//! `--trace FILE` on `stress` and `serve` writes a Chrome trace that Perfetto opens; the host
//! caps (`--max-instances`, `--max-transaction-units`, ..., `--host-config FILE`) on `serve`
//! and `run` bound what a place may ask for (`host_caps`).

mod agones;
mod args;
mod bots;
mod client;
mod drain;
mod host_caps;
mod pace;
mod place_io;
mod replay;
mod report;
mod run;
mod saves;
mod serve;
mod spikes;
mod stress;
mod token;
mod walk;
mod watch;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(name = "arbor", version, about = "Arbor game server: serve places, run stress tests")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once at start and moved into its command: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Build a synthetic place of many instances and run it as fast as possible.
    Stress(stress::StressArgs),
    /// Run a place with its scripts at 60 Hz in real time.
    Serve(serve::ServeArgs),
    /// Run a place headless with its scripts for a number of ticks, printing the script log.
    ///
    /// Exits with status 1 when any script failed during the run (a load, init or runtime
    /// error, or an error in a signal handler), so a game's CI can gate on it.
    Run(run::RunArgs),
    /// Issue a connect token for a user, signed with the server's key file.
    Token(token::TokenArgs),
    /// Connect N replica clients to a server and report bandwidth, RTT and hash checks.
    Bots(bots::BotsArgs),
    /// Join a server as one headless client that runs the place's client scripts, printing
    /// their log, and walks its character.
    Client(client::ClientArgs),
    /// Replay a session recorded with `arbor serve --record`, printing the world hash of every
    /// tick and naming the first tick (and phase) that differs from the recording.
    Replay(replay::ReplayArgs),
    /// Place file tools.
    #[command(subcommand)]
    Place(place_io::PlaceCommand),
    /// Print the Luau type definitions of the script API (for luau-lsp; the file shipped
    /// as `types/arbor.d.luau`), or write them to `--out FILE`.
    Types {
        /// Write to this file instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Stress(args) => stress::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Run(args) => run::run(args),
        Command::Token(args) => token::run(args),
        Command::Bots(args) => bots::run(args),
        Command::Client(args) => client::run(args),
        Command::Replay(args) => replay::replay(args),
        Command::Place(cmd) => place_io::run(cmd),
        Command::Types { out: None } => {
            print!("{}", arbor_script::luau_definitions());
            Ok(())
        }
        Command::Types { out: Some(path) } => std::fs::write(&path, arbor_script::luau_definitions())
            .map_err(|e| format!("writing {}: {e}", path.display())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arbor: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A trace file option shared by the running commands.
#[derive(clap::Args, Debug, Clone)]
struct TraceArg {
    /// Write a Chrome trace (one span per phase per tick) to this file.
    #[arg(long, value_name = "FILE", value_parser = args::trace_path)]
    trace: Option<PathBuf>,
}
