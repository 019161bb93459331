//! The transport under renet: a small trait per side so another transport (renet2's
//! WebTransport for browsers) can be added beside netcode, the netcode.io implementation,
//! the server's private key file, connect tokens, and the channel layout.
//!
//! Channels: server → client `SNAPSHOTS` (unreliable) and `CONTROL` (reliable, ordered);
//! client → server `INPUTS` (unreliable, carries the ack) and `CONTROL` (reliable, ordered).
//!
//! Invariants: the private key never leaves the server (tokens carry only what netcode
//! encrypts with it); a key file is created with owner-only permissions and must hold
//! exactly 32 bytes of hex.

use crate::error::NetError;
use renet::{ChannelConfig, ConnectionConfig, RenetClient, RenetServer, SendType};
use renet_netcode::{
    ClientAuthentication, ConnectToken, NETCODE_KEY_BYTES, NetcodeClientTransport, NetcodeServerTransport,
};
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// netcode protocol id of this wire format: clients of another version cannot connect
/// (`…0004`: inputs carry numbered commands, the character state message, with the server's
/// queue depth, and the code channel exist).
pub(crate) const PROTOCOL_ID: u64 = 0x4152_424f_525f_0004;

/// Server → client: delta snapshots.
pub(crate) const SNAPSHOTS: u8 = 0;
/// Both ways: reliable, ordered control messages.
pub(crate) const CONTROL: u8 = 1;
/// Server → client: reliable, ordered client-script bytecode ([`crate::wire::ScriptCode`]).
pub(crate) const CODE: u8 = 2;
/// Client → server: inputs and acks.
pub(crate) const INPUTS: u8 = 0;

/// Bytes of unacknowledged code the server's code channel holds per client (the server
/// queues the rest for later network ticks).
pub(crate) const SERVER_CODE_BYTES: usize = 2 << 20;

/// Bytes of unacknowledged messages the server's control channel holds per client: when
/// its available memory is back to this, the client acknowledged every control message.
pub(crate) const SERVER_CONTROL_BYTES: usize = 64 << 10;

/// The renet connection layout both sides must share.
pub(crate) fn connection_config() -> ConnectionConfig {
    let reliable = SendType::ReliableOrdered { resend_time: Duration::from_millis(200) };
    ConnectionConfig {
        available_bytes_per_tick: 60_000,
        server_channels_config: vec![
            ChannelConfig {
                channel_id: SNAPSHOTS,
                max_memory_usage_bytes: 1 << 20,
                send_type: SendType::Unreliable,
            },
            ChannelConfig {
                channel_id: CONTROL,
                max_memory_usage_bytes: SERVER_CONTROL_BYTES,
                send_type: reliable.clone(),
            },
            ChannelConfig {
                channel_id: CODE,
                max_memory_usage_bytes: SERVER_CODE_BYTES,
                send_type: reliable.clone(),
            },
        ],
        client_channels_config: vec![
            ChannelConfig {
                channel_id: INPUTS,
                max_memory_usage_bytes: 16 << 10,
                send_type: SendType::Unreliable,
            },
            ChannelConfig { channel_id: CONTROL, max_memory_usage_bytes: 16 << 10, send_type: reliable },
        ],
    }
}

/// Seconds since the Unix epoch, as netcode wants them.
pub(crate) fn unix_now() -> Duration {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default()
}

/// Moves datagrams between a socket and a [`RenetServer`].
pub trait ServerTransport {
    /// Reads what arrived, advances timeouts, and reports (dis)connections to `server`.
    fn receive(&mut self, dt: Duration, server: &mut RenetServer) -> Result<(), NetError>;
    /// Sends what `server` queued.
    fn send(&mut self, server: &mut RenetServer);
    /// Disconnects every client.
    fn disconnect_all(&mut self, server: &mut RenetServer);
}

impl ServerTransport for NetcodeServerTransport {
    fn receive(&mut self, dt: Duration, server: &mut RenetServer) -> Result<(), NetError> {
        self.update(dt, server).map_err(NetError::from)
    }

    fn send(&mut self, server: &mut RenetServer) {
        self.send_packets(server);
    }

    fn disconnect_all(&mut self, server: &mut RenetServer) {
        NetcodeServerTransport::disconnect_all(self, server);
    }
}

/// Moves datagrams between a socket and a [`RenetClient`].
pub trait ClientTransport {
    /// Reads what arrived and advances timeouts.
    fn receive(&mut self, dt: Duration, client: &mut RenetClient) -> Result<(), NetError>;
    /// Sends what `client` queued.
    fn send(&mut self, client: &mut RenetClient) -> Result<(), NetError>;
    /// Says goodbye to the server.
    fn disconnect(&mut self);
    /// Why the transport's connection ended (the server dropped it, a timeout, a refused
    /// token...), once it has.
    fn disconnect_reason(&self) -> Option<String>;
}

impl ClientTransport for NetcodeClientTransport {
    fn receive(&mut self, dt: Duration, client: &mut RenetClient) -> Result<(), NetError> {
        self.update(dt, client).map_err(NetError::from)
    }

    fn send(&mut self, client: &mut RenetClient) -> Result<(), NetError> {
        self.send_packets(client).map_err(NetError::from)
    }

    fn disconnect(&mut self) {
        NetcodeClientTransport::disconnect(self);
    }

    fn disconnect_reason(&self) -> Option<String> {
        NetcodeClientTransport::disconnect_reason(self).map(|r| r.to_string())
    }
}

/// The server's private key: signs and encrypts connect tokens.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerKey(pub [u8; NETCODE_KEY_BYTES]);

impl std::fmt::Debug for ServerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerKey(..)")
    }
}

impl ServerKey {
    /// A fresh random key.
    pub fn generate() -> Self {
        Self(renet_netcode::generate_random_bytes())
    }

    /// Reads the key at `path` (64 hex digits), or creates one there (owner-only) if the file
    /// does not exist. Returns the key and whether it was created.
    pub fn load_or_create(path: &Path) -> Result<(ServerKey, bool), NetError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Ok((Self::from_hex(text.trim())?, false)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let key = Self::generate();
                write_private(path, &hex(&key.0))?;
                Ok((key, true))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Parses 64 hex digits.
    pub fn from_hex(text: &str) -> Result<ServerKey, NetError> {
        let bytes = unhex(text).ok_or_else(|| bad("key", "not hex"))?;
        let key: [u8; NETCODE_KEY_BYTES] = bytes.try_into().map_err(|_| bad("key", "not 32 bytes"))?;
        Ok(ServerKey(key))
    }
}

fn bad(what: &'static str, why: &str) -> NetError {
    NetError::BadCredential { what, why: why.to_owned() }
}

#[cfg(unix)]
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)?;
    f.write_all(text.as_bytes())?;
    f.write_all(b"\n")
}

#[cfg(not(unix))]
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, format!("{text}\n"))
}

/// Lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes of a hex string (`None` if it is not hex of whole bytes).
pub(crate) fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok()).collect()
}

/// Issues a connect token for `user_id` to the servers at `addresses`, valid for
/// `expire_seconds`; the client times out after `timeout_seconds` of silence. An expiry
/// the token cannot hold (now plus `expire_seconds` past 2^64 − 1 seconds since the Unix
/// epoch) is refused rather than wrapped into the past.
pub fn issue_token(
    key: &ServerKey,
    user_id: u64,
    addresses: Vec<SocketAddr>,
    expire_seconds: u64,
    timeout_seconds: i32,
) -> Result<ConnectToken, NetError> {
    let now = unix_now();
    if now.as_secs().checked_add(expire_seconds).is_none() {
        return Err(bad(
            "token",
            &format!(
                "an expiry of {expire_seconds} seconds is past what a token can hold (at most {} seconds from now: \
                 a token stores its expiry as seconds since 1970 in 64 bits)",
                u64::MAX - now.as_secs()
            ),
        ));
    }
    ConnectToken::generate(
        now,
        PROTOCOL_ID,
        expire_seconds,
        user_id,
        timeout_seconds,
        addresses,
        None,
        &key.0,
    )
    .map_err(|e| bad("token", &e.to_string()))
}

/// A token as text (hex of netcode's 2,048-byte form).
pub fn token_to_hex(token: &ConnectToken) -> String {
    let mut bytes = Vec::with_capacity(2048);
    token.write(&mut bytes).expect("writing to a Vec");
    hex(&bytes)
}

/// A token from its text form.
pub fn token_from_hex(text: &str) -> Result<ConnectToken, NetError> {
    let bytes = unhex(text.trim()).ok_or_else(|| bad("token", "not hex"))?;
    ConnectToken::read(&mut bytes.as_slice()).map_err(|e| bad("token", &e.to_string()))
}

/// How a client proves who it is.
#[derive(Clone, Debug)]
pub enum ClientAuth {
    /// A token issued with the server's key (the server runs secure).
    Token(Box<ConnectToken>),
    /// No proof: only a server started with `--insecure` accepts it.
    Insecure {
        /// The user id to claim.
        user_id: u64,
        /// The server.
        server: SocketAddr,
    },
}

impl ClientAuth {
    /// The netcode authentication.
    pub(crate) fn netcode(self) -> ClientAuthentication {
        match self {
            ClientAuth::Token(t) => ClientAuthentication::Secure { connect_token: *t },
            ClientAuth::Insecure { user_id, server } => ClientAuthentication::Unsecure {
                protocol_id: PROTOCOL_ID,
                client_id: user_id,
                server_addr: server,
                user_data: None,
            },
        }
    }

    /// The server address the client will contact first.
    pub fn server(&self) -> Option<SocketAddr> {
        match self {
            ClientAuth::Token(t) => t.server_addresses.iter().flatten().next().copied(),
            ClientAuth::Insecure { server, .. } => Some(*server),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_tokens_round_trip_as_text() {
        let dir = std::env::temp_dir().join(format!("arbor-key-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        let (key, created) = ServerKey::load_or_create(&dir).unwrap();
        assert!(created);
        let (again, created) = ServerKey::load_or_create(&dir).unwrap();
        assert!(!created);
        assert_eq!(key, again);
        std::fs::remove_file(&dir).unwrap();
        assert!(ServerKey::from_hex("abc").is_err());

        let token = issue_token(&key, 42, vec!["127.0.0.1:4000".parse().unwrap()], 60, 5).unwrap();
        let back = token_from_hex(&token_to_hex(&token)).unwrap();
        assert_eq!(back, token);
        assert_eq!(back.client_id, 42);
        assert!(token_from_hex("zz").is_err());
    }

    #[test]
    fn an_expiry_past_what_a_token_holds_is_refused_and_the_longest_one_is_in_the_future() {
        let key = ServerKey::generate();
        let addr = vec!["127.0.0.1:4000".parse().unwrap()];
        let err = issue_token(&key, 7, addr.clone(), u64::MAX, 5).unwrap_err().to_string();
        assert!(err.contains("past what a token can hold"), "{err}");
        let now = unix_now().as_secs();
        // The longest expiry that fits (with a minute's slack for the clock moving on).
        let longest = u64::MAX - now - 60;
        let token = issue_token(&key, 7, addr, longest, 5).unwrap();
        assert!(token.expire_timestamp > token.create_timestamp);
        assert!(token.expire_timestamp >= now + longest);
        let back = token_from_hex(&token_to_hex(&token)).unwrap();
        assert_eq!(back.expire_timestamp, token.expire_timestamp);
    }
}
