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
//! Prediction (`docs/networking.md`, "Prediction and reconciliation"): every 1/60 s of the
//! time given to [`Client::update`] is one input step: the movement intent becomes a numbered
//! [`InputCommand`] in the [`Predictor`] (every input message carries the newest few), and,
//! with [`Client::set_prediction`] on, the predictor steps the client's character with the
//! server's controller at once and reconciles it on each [`CharacterState`] the server sends.
//! Other characters are interpolated ([`Client::interpolated_position`]).
//!
//! Invariants: a client never sends a client-local id; a message that does not decode
//! counts as an error and is dropped (the server is trusted, the network is not).

use crate::error::NetError;
use crate::prediction::{InputPacer, Interpolator, Predictor, world_pose};
use crate::replication::{Applied, Replica};
use crate::transport::{self, CODE, CONTROL, ClientAuth, ClientTransport, INPUTS, SNAPSHOTS};
use crate::wire::{
    CharacterState, Control, Input, InputCommand, ScriptCode, SnapshotMessage, quantize_position,
};
use arbor_core::Class;
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
    /// Character state messages received (the server's state of this client's character).
    pub states: u64,
}

/// Input steps taken at most per [`Client::update`]: time past them (a stalled frame) is
/// dropped, not caught up.
pub const MAX_STEPS_PER_UPDATE: u32 = 8;

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
    predictor: Predictor,
    interpolator: Interpolator,
    /// Seconds of update time (paced) not yet turned into input steps.
    step_clock: f64,
    /// The command clock's rate, from the server's queue depth.
    pacer: InputPacer,
    /// Whether the pacer's rate is used (else the command clock runs at real time).
    pacing: bool,
    /// The newest character state not yet reconciled.
    pending_state: Option<CharacterState>,
    /// The newest character state received.
    last_state: Option<CharacterState>,
    /// Ticks between snapshots (the welcome's).
    network_every: u8,
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
            predictor: Predictor::new(),
            interpolator: Interpolator::default(),
            step_clock: 0.0,
            pacer: InputPacer::new(),
            pacing: true,
            pending_state: None,
            last_state: None,
            network_every: 2,
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

    /// Turns prediction of this client's character on or off (off by default: the
    /// commands are numbered and sent either way).
    pub fn set_prediction(&mut self, on: bool) {
        self.predictor.set_enabled(on);
    }

    /// The predictor (the shown and predicted positions of this client's character, the
    /// prediction errors and counters).
    pub fn predictor(&self) -> &Predictor {
        &self.predictor
    }

    /// The predictor, to configure (`Predictor::set_world` for another gravity).
    pub fn predictor_mut(&mut self) -> &mut Predictor {
        &mut self.predictor
    }

    /// The pacing of this client's command clock (the server's smoothed queue depth and the
    /// rate it sets).
    pub fn pacer(&self) -> &InputPacer {
        &self.pacer
    }

    /// Turns pacing of the command clock on (the default) or off (one command per 1/60 s of
    /// update time whatever the server's queue holds; for comparison and diagnosis).
    pub fn set_pacing(&mut self, on: bool) {
        self.pacing = on;
    }

    /// The interpolation of other characters.
    pub fn interpolator(&self) -> &Interpolator {
        &self.interpolator
    }

    /// Where another player's character `id` is shown now (interpolated between snapshots,
    /// [`INTERPOLATION_DELAY`](crate::prediction::INTERPOLATION_DELAY) behind the server).
    pub fn interpolated_position(&self, id: arbor_core::Id) -> Option<Vec3> {
        self.interpolator.position(id)
    }

    /// Where to draw character `id`'s root part: this client's own character as predicted
    /// (when prediction is on), others interpolated, else the replica's position.
    pub fn shown_position(&self, id: arbor_core::Id) -> Option<Vec3> {
        let predicted = (Some(id) == self.character).then(|| self.predictor.shown_position()).flatten();
        predicted.or_else(|| self.interpolator.position(id)).or_else(|| {
            let root = arbor_sim::players::root_part(self.replica.arena(), id)?;
            world_pose(self.replica.arena(), root).map(|w| w.position)
        })
    }

    /// The newest character state the server sent (its acknowledged command and its state
    /// of this client's character).
    pub fn last_state(&self) -> Option<CharacterState> {
        self.last_state
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
            self.predict(dt);
            let (ack, ack_bits) = self.replica.ack();
            let input = Input {
                ack,
                ack_bits,
                focus: self.focus,
                movement: self.movement,
                buttons: self.buttons,
                commands: self.predictor.window(),
            };
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

    /// The frame's prediction: sync with the replica, reconcile the newest server state, one
    /// input step per 1/60 s of `dt` as the pacer's rate runs it (at most
    /// [`MAX_STEPS_PER_UPDATE`]), one frame of correction decay and of the interpolation clock.
    fn predict(&mut self, dt: Duration) {
        self.predictor.sync_replica(&self.replica, self.character);
        if let Some(state) = self.pending_state.take() {
            self.predictor.reconcile(&state);
        }
        let rate = if self.pacing { self.pacer.rate() } else { 1.0 };
        self.step_clock += dt.as_secs_f64() * rate;
        let due = (self.step_clock * 60.0 + 1.0e-6).floor();
        self.step_clock = (self.step_clock - due / 60.0).max(0.0);
        let command = InputCommand { movement: self.movement, buttons: self.buttons };
        for _ in 0..(due as u32).min(MAX_STEPS_PER_UPDATE) {
            self.predictor.step(command);
        }
        self.predictor.frame();
        self.interpolator.advance(dt.as_secs_f64());
        let arena = self.replica.arena();
        self.interpolator.retain(|id| arena.contains(id));
    }

    /// Server time of replication epoch `epoch`, seconds.
    fn epoch_time(&self, epoch: u32) -> f64 {
        f64::from(epoch) * f64::from(self.network_every.max(1)) / 60.0
    }

    /// Records, for interpolation, the positions of other characters' root parts that the
    /// snapshot of `epoch` carried (`ids`: its entries).
    fn sample_others(&mut self, epoch: u32, ids: &[arbor_core::Id]) {
        let time = self.epoch_time(epoch);
        self.interpolator.observe(time);
        let arena = self.replica.arena();
        for &id in ids {
            let Some(character) = arena.get(id).and_then(|n| n.parent()) else { continue };
            if Some(character) == self.character
                || arena.get(character).is_none_or(|n| n.class() != Class::Character)
                || arbor_sim::players::root_part(arena, character) != Some(id)
            {
                continue;
            }
            if let Some(world) = world_pose(arena, id) {
                self.interpolator.push(character, time, world.position);
            }
        }
    }

    /// Reads the control and snapshot messages that arrived.
    fn read_messages(&mut self) {
        while let Some(bytes) = self.renet.receive_message(CONTROL) {
            match Control::decode(&bytes) {
                Ok(Control::Welcome { user_id, radius, network_every }) => {
                    self.user_id = Some(user_id);
                    self.radius = Some(radius);
                    self.network_every = network_every.max(1);
                    self.interpolator.set_tick(f64::from(self.network_every) / 60.0);
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
            if bytes.first() == Some(&crate::wire::CHARACTER_STATE) {
                match CharacterState::decode(&bytes) {
                    Ok(state) => {
                        self.stats.states += 1;
                        self.interpolator.observe(self.epoch_time(state.epoch));
                        if self.last_state.is_none_or(|s| state.epoch > s.epoch) {
                            if state.acked != 0 {
                                self.pacer.observe(state.queued);
                            }
                            self.last_state = Some(state);
                            self.pending_state = Some(state);
                        }
                    }
                    Err(_) => self.stats.malformed += 1,
                }
                continue;
            }
            let snap = match SnapshotMessage::decode(&bytes) {
                Ok(snap) => snap,
                Err(_) => {
                    self.stats.malformed += 1;
                    continue;
                }
            };
            let (epoch, ids): (u32, Vec<arbor_core::Id>) =
                (snap.epoch, snap.entries.iter().map(|e| e.id).collect());
            match self.replica.apply_snapshot(snap) {
                Applied::Applied { .. } => self.sample_others(epoch, &ids),
                Applied::Stale | Applied::Unresolved => {}
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
