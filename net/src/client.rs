//! [`Client`]: the replica client. It connects with a [`ClientAuth`], applies the server's
//! snapshots to its [`Replica`] in order, acks them, and sends its focus and movement intent
//! every update. Client-script code arrives on its own reliable channel and waits for the
//! client's runtime ([`Client::take_script_code`]).
//!
//! A test shim sits between the transport and the decoder: [`Client::set_snapshot_loss`]
//! drops that fraction of arriving snapshot messages (seeded), as a lossy network would.
//!
//! When the connection ends, [`Client::update`] says why once and for good: a kick as
//! [`NetError::Kicked`] with the server's reason (the kick message arrives before the
//! transport's disconnection, and is read even when both come in one update), anything
//! else as [`NetError::Disconnected`]; [`Client::disconnect_reason`] keeps the text and
//! [`Client::is_connected`] is false from then on.
//!
//! The replica checks itself against the server's hashes as it applies messages: once per
//! message that carries an entry, and whenever the server's view of it is settled; the
//! counts are in [`Replica::stats`] (`message_checks`, `hash_checks` and their mismatches),
//! through [`Client::replica`].
//!
//! Invariants: a client never sends a client-local id; a message that does not decode
//! counts as an error and is dropped (the server is trusted, the network is not).

use crate::error::NetError;
use crate::replication::{Applied, Replica};
use crate::transport::{self, CODE, CONTROL, ClientAuth, ClientTransport, INPUTS, SNAPSHOTS};
use crate::wire::{Control, Input, ScriptCode, quantize_position};
use glam::Vec3;
use renet::RenetClient;
use renet_netcode::NetcodeClientTransport;
use std::net::{SocketAddr, UdpSocket};
use std::time::Duration;

/// Counters of a client.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientStats {
    /// Snapshot messages received (before the loss shim).
    pub snapshots: u64,
    /// Their bytes.
    pub snapshot_bytes: u64,
    /// Dropped by the loss shim.
    pub dropped: u64,
    /// Messages that did not decode.
    pub malformed: u64,
    /// Client-script code messages received.
    pub script_code: u64,
}

/// How a connection ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ended {
    /// The server kicked this client with this reason.
    Kicked(String),
    /// The connection ended for this reason (a drop, a timeout, a refused token, a goodbye).
    Disconnected(String),
}

impl Ended {
    fn error(&self) -> NetError {
        match self {
            Ended::Kicked(reason) => NetError::Kicked { reason: reason.clone() },
            Ended::Disconnected(reason) => NetError::Disconnected(reason.clone()),
        }
    }

    fn reason(&self) -> &str {
        match self {
            Ended::Kicked(r) | Ended::Disconnected(r) => r,
        }
    }
}

/// A replica client.
pub struct Client {
    renet: RenetClient,
    transport: Box<dyn ClientTransport>,
    replica: Replica,
    /// The focus as sent: wire grid units.
    focus: Option<[i32; 3]>,
    movement: [i8; 2],
    buttons: u8,
    user_id: Option<u64>,
    radius: Option<f32>,
    kicked: Option<String>,
    ended: Option<Ended>,
    character: Option<arbor_core::Id>,
    loss: Option<(f64, u64)>,
    /// Client-script code received and not yet taken.
    script_code: Vec<ScriptCode>,
    stats: ClientStats,
}

impl Client {
    /// Connects to the server named by `auth` from an ephemeral local port.
    pub fn connect(auth: ClientAuth) -> Result<Client, NetError> {
        let server = auth.server().ok_or_else(|| NetError::BadCredential {
            what: "token",
            why: "it names no server address".to_owned(),
        })?;
        let bind: SocketAddr = if server.ip().is_loopback() {
            (std::net::Ipv4Addr::LOCALHOST, 0).into()
        } else {
            (std::net::Ipv4Addr::UNSPECIFIED, 0).into()
        };
        let socket = UdpSocket::bind(bind)?;
        let transport = NetcodeClientTransport::new(transport::unix_now(), auth.netcode(), socket)?;
        Ok(Self::with_transport(Box::new(transport)))
    }

    /// A client over any transport.
    pub fn with_transport(transport: Box<dyn ClientTransport>) -> Client {
        Client {
            renet: RenetClient::new(transport::connection_config()),
            transport,
            replica: Replica::new(),
            focus: None,
            movement: [0, 0],
            buttons: 0,
            user_id: None,
            radius: None,
            kicked: None,
            ended: None,
            character: None,
            loss: None,
            script_code: Vec::new(),
            stats: ClientStats::default(),
        }
    }

    /// Drops `fraction` of the snapshot messages that arrive, chosen by a generator seeded
    /// with `seed` (a test shim between transport and decoder).
    pub fn set_snapshot_loss(&mut self, fraction: f64, seed: u64) {
        self.loss = (fraction > 0.0).then_some((fraction, seed.max(1)));
    }

    /// Sets where the streaming range is centred (sent with every input, quantised, so
    /// within ±[`WORLD_EXTENT`](arbor_sim::physics::WORLD_EXTENT)).
    pub fn set_focus(&mut self, focus: Vec3) {
        self.focus = Some(quantize_position(focus));
    }

    /// Sets the focus as raw wire grid units, unclamped: anything a modified client could
    /// send (for tests of the server's input handling).
    pub fn set_focus_grid(&mut self, grid: [i32; 3]) {
        self.focus = Some(grid);
    }

    /// Sets the movement intent (X and Z, -127..=127) and buttons (bit 0: jump).
    pub fn set_movement(&mut self, movement: [i8; 2], buttons: u8) {
        self.movement = movement;
        self.buttons = buttons;
    }

    /// Whether the connection is up (false once [`update`](Self::update) reported its end).
    pub fn is_connected(&self) -> bool {
        self.ended.is_none() && self.renet.is_connected()
    }

    /// Whether the connection is closed.
    pub fn is_disconnected(&self) -> bool {
        self.ended.is_some() || self.renet.is_disconnected()
    }

    /// Why the connection ended, once [`update`](Self::update) reported it: the server's
    /// reason for a kick, else the transport's (`connection terminated by server`, a
    /// timeout, an expired token...).
    pub fn disconnect_reason(&self) -> Option<&str> {
        self.ended.as_ref().map(Ended::reason)
    }

    /// The user id the server welcomed this client as.
    pub fn user_id(&self) -> Option<u64> {
        self.user_id
    }

    /// The streaming radius the server uses for this client.
    pub fn radius(&self) -> Option<f32> {
        self.radius
    }

    /// The character the server bound to this client's user, as it last said
    /// (`game.Session.LocalCharacter()` on a client).
    pub fn local_character(&self) -> Option<arbor_core::Id> {
        self.character
    }

    /// Why the server kicked this client, if it did.
    pub fn kick_reason(&self) -> Option<&str> {
        self.kicked.as_deref()
    }

    /// The replica (its [`stats`](Replica::stats) count the hash checks and mismatches).
    pub fn replica(&self) -> &Replica {
        &self.replica
    }

    /// The replica, for the client's own objects and scripts (client-local ids from 2^52:
    /// they never leave this process).
    pub fn replica_mut(&mut self) -> &mut Replica {
        &mut self.replica
    }

    /// Takes the client-script code that arrived since the last call, in arrival order (a
    /// script's newer code comes after its older).
    pub fn take_script_code(&mut self) -> Vec<ScriptCode> {
        std::mem::take(&mut self.script_code)
    }

    /// The replica's world hash.
    pub fn world_hash(&self) -> u64 {
        self.replica.world_hash()
    }

    /// renet's round-trip time, seconds.
    pub fn rtt(&self) -> f64 {
        self.renet.rtt()
    }

    /// Counters.
    pub fn stats(&self) -> ClientStats {
        self.stats
    }

    /// Queues raw bytes on the input channel, as a hostile or broken client would (for tests
    /// of the server's input handling).
    pub fn send_raw_input(&mut self, bytes: Vec<u8>) {
        self.renet.send_message(INPUTS, bytes);
    }

    /// Says goodbye.
    pub fn disconnect(&mut self) {
        self.renet.disconnect();
        let _ = self.transport.send(&mut self.renet);
        self.transport.disconnect();
        self.ended.get_or_insert_with(|| Ended::Disconnected("disconnected by this client".to_owned()));
    }

    /// Receives and applies what arrived, then sends the ack and inputs. Call it every
    /// frame with the time since the last call. Once the connection ended it returns why,
    /// every call: [`NetError::Kicked`] with the server's reason, or
    /// [`NetError::Disconnected`].
    pub fn update(&mut self, dt: Duration) -> Result<(), NetError> {
        if let Some(ended) = &self.ended {
            return Err(ended.error());
        }
        self.renet.update(dt);
        let received = self.transport.receive(dt, &mut self.renet);
        // What arrived before a disconnection is read first: a kick's reason comes just
        // before the server drops the connection, often in the same update.
        if self.renet.is_connected() {
            self.read_messages();
        }
        if let Some(reason) = self.transport.disconnect_reason() {
            self.renet.disconnect_due_to_transport();
            return Err(self.end(reason));
        }
        if let Some(reason) = self.renet.disconnect_reason() {
            self.transport.disconnect();
            return Err(self.end(reason.to_string()));
        }
        received?;
        if self.renet.is_connected() {
            let (ack, ack_bits) = self.replica.ack();
            let input =
                Input { ack, ack_bits, focus: self.focus, movement: self.movement, buttons: self.buttons };
            self.renet.send_message(INPUTS, input.encode());
        }
        let sent = self.transport.send(&mut self.renet);
        if self.kicked.is_some() {
            // The acknowledgement of the kick went out with this send: leave.
            self.transport.disconnect();
            return Err(self.end("kicked".to_owned()));
        }
        sent
    }

    /// Reads the control and snapshot messages that arrived.
    fn read_messages(&mut self) {
        while let Some(bytes) = self.renet.receive_message(CONTROL) {
            match Control::decode(&bytes) {
                Ok(Control::Welcome { user_id, radius, .. }) => {
                    self.user_id = Some(user_id);
                    self.radius = Some(radius);
                }
                Ok(Control::Kick { reason }) => self.kicked = Some(reason),
                Ok(Control::Character { id }) => self.character = id,
                Err(_) => self.stats.malformed += 1,
            }
        }
        while let Some(bytes) = self.renet.receive_message(CODE) {
            match ScriptCode::decode(&bytes) {
                Ok(code) => {
                    self.stats.script_code += 1;
                    self.script_code.push(code);
                }
                Err(_) => self.stats.malformed += 1,
            }
        }
        while let Some(bytes) = self.renet.receive_message(SNAPSHOTS) {
            self.stats.snapshots += 1;
            self.stats.snapshot_bytes += bytes.len() as u64;
            if self.lose() {
                self.stats.dropped += 1;
                continue;
            }
            match self.replica.apply(&bytes) {
                Ok(Applied::Applied { .. } | Applied::Stale | Applied::Unresolved) => {}
                Err(_) => self.stats.malformed += 1,
            }
        }
    }

    /// Records the end of the connection (a kick's reason wins over the transport's) and
    /// returns the error [`update`](Self::update) reports.
    fn end(&mut self, transport_reason: String) -> NetError {
        let ended = match &self.kicked {
            Some(reason) => Ended::Kicked(reason.clone()),
            None => Ended::Disconnected(transport_reason),
        };
        self.ended.insert(ended).error()
    }

    fn lose(&mut self) -> bool {
        let Some((fraction, state)) = self.loss.as_mut() else { return false };
        // xorshift64*: a fixed sequence per seed.
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        let r = state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11;
        (r as f64 / (1u64 << 53) as f64) < *fraction
    }
}
