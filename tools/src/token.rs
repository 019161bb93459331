//! `arbor token --user ID`: issue a netcode connect token for a user, signed with the
//! server's key file, as a matchmaker or login service would. A user id outside
//! `game.Session`'s range, or an expiry the token cannot hold, is refused with the reason
//! (exit status 1), never turned into a token the server would refuse.

use arbor_net::{ServerKey, issue_token, token_to_hex};
use arbor_sim::players::MAX_USER_ID;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Options of `arbor token`.
#[derive(clap::Args, Debug)]
pub struct TokenArgs {
    /// The user id the token grants (netcode's client id), from 1 to 2^53 − 1.
    #[arg(long)]
    pub user: u64,
    /// The server's key file (as `arbor serve --key`).
    #[arg(long, default_value = "arbor.key")]
    pub key: PathBuf,
    /// The server address the client should connect to (repeat for fallbacks).
    #[arg(long = "server", default_value = "127.0.0.1:53640")]
    pub servers: Vec<SocketAddr>,
    /// Seconds the token stays valid (a token holds its expiry as seconds since 1970 in 64
    /// bits: a longer one is refused).
    #[arg(long, default_value_t = 300)]
    pub expire: u64,
}

/// Runs `arbor token`: prints the token as hex.
pub fn run(args: TokenArgs) -> Result<(), String> {
    if args.user == 0 || args.user >= MAX_USER_ID {
        return Err(format!(
            "--user {} is not a user id: ids are from 1 to {} (game.Session refuses others)",
            args.user,
            MAX_USER_ID - 1
        ));
    }
    let text = std::fs::read_to_string(&args.key).map_err(|e| {
        format!(
            "reading the key file {}: {e} (start `arbor serve --listen` once to create it)",
            args.key.display()
        )
    })?;
    let key = ServerKey::from_hex(text.trim()).map_err(|e| format!("{}: {e}", args.key.display()))?;
    let token = issue_token(&key, args.user, args.servers, args.expire, 10).map_err(|e| e.to_string())?;
    println!("{}", token_to_hex(&token));
    Ok(())
}
