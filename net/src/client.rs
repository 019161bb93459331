//! [`Client`]: the replica client. It connects with a [`ClientAuth`], applies the server's
//! snapshots to its [`Replica`] in order, acks them, and sends its focus and movement intent
//! every update.
//!
//! A test shim sits between the transport and the decoder: [`Client::set_snapshot_loss`]
//! drops that fraction of arriving snapshot messages (seeded), as a lossy network would.
//!
//! Invariants: a client never sends a client-local id; a message that does not decode
//! counts as an error and is dropped (the server is trusted, the network is not).

use crate::error::NetError;
use crate::message::{Control, Input};
use crate::quantize::quantize_position;
use crate::replica::{Applied, Replica};
use crate::transport::{self, CONTROL, ClientAuth, ClientTransport, INPUTS, SNAPSHOTS};
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
}

/// A replica client.
pub struct Client {
    renet: RenetClient,
    transport: Box<dyn ClientTransport>,
    replica: Replica,
    focus: Option<Vec3>,
    movement: [i8; 2],
    buttons: u8,
    user_id: Option<u64>,
    radius: Option<f32>,
    kicked: Option<String>,
    character: Option<arbor_core::Id>,
    loss: Option<(f64, u64)>,
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
            character: None,
            loss: None,
            stats: ClientStats::default(),
        }
    }

    /// Drops `fraction` of the snapshot messages that arrive, chosen by a generator seeded
    /// with `seed` (a test shim between transport and decoder).
    pub fn set_snapshot_loss(&mut self, fraction: f64, seed: u64) {
        self.loss = (fraction > 0.0).then_some((fraction, seed.max(1)));
    }

    /// Sets where the streaming range is centred (sent with every input).
    pub fn set_focus(&mut self, focus: Vec3) {
        self.focus = Some(focus);
    }

    /// Sets the movement intent (X and Z, -127..=127) and buttons (bit 0: jump).
    pub fn set_movement(&mut self, movement: [i8; 2], buttons: u8) {
        self.movement = movement;
        self.buttons = buttons;
    }

    /// Whether the connection is up.
    pub fn is_connected(&self) -> bool {
        self.renet.is_connected()
    }

    /// Whether the connection is closed.
    pub fn is_disconnected(&self) -> bool {
        self.renet.is_disconnected()
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

    /// The replica.
    pub fn replica(&self) -> &Replica {
        &self.replica
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
    }

    /// Receives and applies what arrived, then sends the ack and inputs. Call it every
    /// frame with the time since the last call.
    pub fn update(&mut self, dt: Duration) -> Result<(), NetError> {
        self.renet.update(dt);
        self.transport.receive(dt, &mut self.renet)?;
        if self.renet.is_connected() {
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
            while let Some(bytes) = self.renet.receive_message(SNAPSHOTS) {
                self.stats.snapshots += 1;
                self.stats.snapshot_bytes += bytes.len() as u64;
                if self.lose() {
                    self.stats.dropped += 1;
                    continue;
                }
                match self.replica.apply(&bytes) {
                    Ok(Applied::Applied { .. } | Applied::Stale) => {}
                    Err(_) => self.stats.malformed += 1,
                }
            }
            let (ack, ack_bits) = self.replica.ack();
            let input = Input {
                ack,
                ack_bits,
                focus: self.focus.map(quantize_position),
                movement: self.movement,
                buttons: self.buttons,
            };
            self.renet.send_message(INPUTS, input.encode());
        }
        if self.renet.is_disconnected() {
            let reason = self
                .kicked
                .clone()
                .or_else(|| self.renet.disconnect_reason().map(|r| r.to_string()))
                .unwrap_or_else(|| "disconnected".to_owned());
            return Err(NetError::Disconnected(reason));
        }
        self.transport.send(&mut self.renet)
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
