//! [`NetServer`]: the networking half of a tick. It implements [`TickHooks`]: in the
//! AdmitPlayers phase (`receive`) it reads the sockets, turns connections and disconnections
//! into [`NetEvent`]s and [`Players`] sessions, and takes each client's ack, focus and
//! movement commands (`characters`); in the Snapshot phase (every network tick) it carries out
//! the sessions' kicks, tells each client which character it owns, centres its streaming range
//! on that character, captures the [`Mirror`], brings every [`ClientView`] up to date and sends
//! each client its messages under its byte budget, then its character's state and the code of
//! the client scripts its view holds (`script_shipping`).
//!
//! A connection enters the sessions' join queue while it has room; the others wait in a lobby
//! (they already receive snapshots) and one that waited [`JOIN_WAIT`] is refused with
//! `JOIN_QUEUE_FULL` as its reason, so a crowd connecting at once is admitted over a few
//! ticks instead of refused, and a place with no `PlayerJoined` handler says why it is full.
//!
//! A kick ([`NetServer::kick`]) sends the reason as a reliable control message and keeps the
//! connection only until the client acknowledges it (or [`KICK_GRACE`] passes), so the
//! reason reaches the client before the transport drops it; meanwhile the client is not
//! served (no snapshots, its inputs dropped unread).
//!
//! Invariants: one client's bad input (a message that does not decode, an ack of a snapshot
//! never sent, a flood) disconnects that client alone and never touches another's view; at
//! most [`MAX_INPUTS_PER_TICK`] inputs are read per client per tick; a client's focus is
//! clamped to the world ([`ClientView::set_focus`]), so no input makes a refocus walk more
//! cells than the mirror holds.

mod characters;
mod reports;
mod script_shipping;

pub use reports::ClientReport;
pub use script_shipping::{ScriptCompiler, ShippingStats};

use crate::error::NetError;
use crate::replication::{ClientView, Mirror};
use crate::transport::{
    self, CONTROL, INPUTS, PROTOCOL_ID, SERVER_CONTROL_BYTES, SNAPSHOTS, ServerKey, ServerTransport,
};
use crate::wire::{Control, Input, MAX_MESSAGE_BYTES};
use arbor_core::Arena;
use arbor_core::settings::{REPLICATION_BUDGET, STREAMING_RADIUS};
use arbor_sim::players::{JOIN_QUEUE_FULL, MAX_PENDING_JOINS};
use arbor_sim::{TickContext, TickHooks, players::Players};
use glam::Vec3;
use rayon::prelude::*;
use renet::{RenetServer, ServerEvent};
use renet_netcode::{NetcodeServerTransport, ServerAuthentication, ServerConfig};
use std::collections::{BTreeMap, VecDeque};
use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

/// Joins started per network tick: a join records the structure and the parts in range for that
/// client, so a crowd connecting at once is admitted a few per tick instead of stalling one tick.
const JOINS_PER_NETWORK_TICK: usize = 4;

/// How long a connection may wait for a place in the sessions' join queue (full while no
/// `PlayerJoined` handler takes joins) before it is refused with
/// [`JOIN_QUEUE_FULL`](arbor_sim::players::JOIN_QUEUE_FULL) as its reason.
pub const JOIN_WAIT: Duration = Duration::from_secs(10);

/// Inputs read per client per tick; the rest of a flood is dropped unread.
const MAX_INPUTS_PER_TICK: usize = 8;

/// How long a kicked client has to acknowledge the kick's reason before it is dropped
/// anyway (the reliable channel resends every 200 ms).
pub const KICK_GRACE: Duration = Duration::from_secs(1);

/// The reason a client hears when the server shuts down.
pub const SHUTDOWN_REASON: &str = "the server is shutting down";

/// Who may connect.
#[derive(Clone, Debug)]
pub enum Security {
    /// Connect tokens signed with this key.
    Secure(ServerKey),
    /// Anyone who knows the address (local development only).
    Insecure,
}

/// How a server listens.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// Address to bind.
    pub listen: SocketAddr,
    /// Most clients at once (netcode's limit is 1,024).
    pub max_clients: usize,
    /// Who may connect.
    pub security: Security,
}

/// A connection change, for player sessions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetEvent {
    /// A client connected with the user id of its token.
    Connected {
        /// The user id.
        user_id: u64,
    },
    /// A client is gone.
    Disconnected {
        /// The user id.
        user_id: u64,
        /// Why.
        reason: String,
    },
}

/// Counters and timings of the server.
#[derive(Clone, Copy, Debug, Default)]
pub struct NetStats {
    /// Time spent in the Snapshot phase (capture, views, encoding, sending), summed.
    pub replication: Duration,
    /// Network ticks run.
    pub network_ticks: u64,
    /// Clients disconnected for bad input.
    pub malformed_disconnects: u64,
}

struct Slot {
    view: ClientView,
    last_input: Input,
    /// Its numbered commands waiting for their tick, and its character's state (`characters`).
    commands: crate::prediction::CommandQueue,
    body: Option<crate::wire::BodyState>,
    connected_at: Instant,
    /// The character this client was last told it owns.
    told_character: Option<arbor_core::Id>,
}

/// A kicked client whose connection stays until it acknowledges the reason.
struct Kicked {
    /// When it is dropped even without the acknowledgement.
    deadline: Instant,
    /// Whether the transport was asked to drop it.
    dropped: bool,
    /// Whether it was turned away while draining (never a player).
    turned_away: bool,
}

/// The networking half of the tick.
pub struct NetServer {
    renet: RenetServer,
    transport: Box<dyn ServerTransport>,
    mirror: Mirror,
    clients: BTreeMap<u64, Slot>,
    kicked: BTreeMap<u64, Kicked>,
    /// While draining, the reason every client is kicked with and new ones are turned away
    /// with; `None` while serving.
    draining: Option<String>,
    /// Connections not yet handed to the sessions (their join queue was full), oldest
    /// first, with when they connected.
    lobby: VecDeque<(u64, Instant)>,
    join_wait: Duration,
    events: VecDeque<NetEvent>,
    stats: NetStats,
    local_addr: SocketAddr,
    last_poll: Instant,
    network_every: u8,
    radius_override: Option<f32>,
    budget_override: Option<usize>,
    scripts: script_shipping::ScriptShipping,
}

impl NetServer {
    /// Binds `config.listen` and starts accepting connections (tokens name that address).
    pub fn bind(config: NetConfig) -> Result<NetServer, NetError> {
        Self::bind_public(config, &[])
    }

    /// [`bind`](Self::bind) for a server clients reach at other addresses than the one it is
    /// bound to (a pod bound to `0.0.0.0:7777` behind a node's `IP:port`): a connect token
    /// must name one of `public` (secure servers only); empty: the bound address.
    pub fn bind_public(config: NetConfig, public: &[SocketAddr]) -> Result<NetServer, NetError> {
        let socket = UdpSocket::bind(config.listen)?;
        let local_addr = socket.local_addr()?;
        let authentication = match &config.security {
            Security::Secure(key) => ServerAuthentication::Secure { private_key: key.0 },
            Security::Insecure => ServerAuthentication::Unsecure,
        };
        let server_config = ServerConfig {
            current_time: transport::unix_now(),
            max_clients: config.max_clients.clamp(1, 1024),
            protocol_id: PROTOCOL_ID,
            public_addresses: if public.is_empty() { vec![local_addr] } else { public.to_vec() },
            authentication,
        };
        let transport = NetcodeServerTransport::new(server_config, socket)?;
        Ok(Self::with_transport(Box::new(transport), local_addr))
    }

    /// A server over any transport.
    pub fn with_transport(transport: Box<dyn ServerTransport>, local_addr: SocketAddr) -> NetServer {
        NetServer {
            renet: RenetServer::new(transport::connection_config()),
            transport,
            mirror: Mirror::new(),
            clients: BTreeMap::new(),
            kicked: BTreeMap::new(),
            draining: None,
            lobby: VecDeque::new(),
            join_wait: JOIN_WAIT,
            events: VecDeque::new(),
            stats: NetStats::default(),
            local_addr,
            last_poll: Instant::now(),
            network_every: 2,
            radius_override: None,
            budget_override: None,
            scripts: Default::default(),
        }
    }

    /// The bound address.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Overrides the place's streaming radius.
    pub fn set_radius(&mut self, radius: f32) {
        self.radius_override = Some(radius);
    }

    /// Overrides the place's per-client budget (bytes per network tick).
    pub fn set_client_budget(&mut self, bytes: usize) {
        self.budget_override = Some(bytes.max(MAX_MESSAGE_BYTES));
    }

    /// Sets how long a connection waits for room in the join queue before it is refused
    /// (default [`JOIN_WAIT`]).
    pub fn set_join_wait(&mut self, wait: Duration) {
        self.join_wait = wait;
    }

    /// Connections waiting for room in the sessions' join queue.
    pub fn waiting_to_join(&self) -> usize {
        self.lobby.len()
    }

    /// Takes the connection events queued so far.
    pub fn take_events(&mut self) -> Vec<NetEvent> {
        self.events.drain(..).collect()
    }

    /// Clients connected.
    pub fn client_count(&self) -> usize {
        self.clients.len()
    }

    /// The user ids connected.
    pub fn user_ids(&self) -> impl Iterator<Item = u64> + '_ {
        self.clients.keys().copied()
    }

    /// The view of `user_id`.
    pub fn view(&self, user_id: u64) -> Option<&ClientView> {
        self.clients.get(&user_id).map(|s| &s.view)
    }

    /// The shared mirror.
    pub fn mirror(&self) -> &Mirror {
        &self.mirror
    }

    /// Counters and timings.
    pub fn stats(&self) -> NetStats {
        self.stats
    }

    /// Disconnects `user_id`, telling it `reason`: the client stops being served at once
    /// (a [`NetEvent::Disconnected`] with reason `kicked: {reason}` is queued), is sent the
    /// reason on the reliable control channel, and is dropped once it acknowledges it or
    /// after [`KICK_GRACE`]. Kicking a client already kicked does nothing.
    pub fn kick(&mut self, user_id: u64, reason: &str) {
        if !self.renet.is_connected(user_id) || self.kicked.contains_key(&user_id) {
            return;
        }
        self.clients.remove(&user_id);
        self.renet.send_message(user_id, CONTROL, Control::Kick { reason: reason.to_owned() }.encode());
        self.transport.send(&mut self.renet);
        self.kicked.insert(
            user_id,
            Kicked { deadline: Instant::now() + KICK_GRACE, dropped: false, turned_away: false },
        );
        self.events.push_back(NetEvent::Disconnected { user_id, reason: format!("kicked: {reason}") });
    }

    /// Starts draining the server: a client that connects from now on is told `reason` and
    /// dropped without becoming a player, and so is every client still waiting in the lobby.
    /// The players themselves are kicked through the sessions (`Players::kick`), so their
    /// `PlayerLeft` runs before the transport tells them. For a server shutting down
    /// gracefully; there is no way back.
    pub fn drain(&mut self, reason: &str) {
        self.draining = Some(reason.to_owned());
        let waiting: Vec<u64> = self.lobby.drain(..).map(|(id, _)| id).collect();
        for id in waiting {
            self.kick(id, reason);
        }
    }

    /// Whether [`drain`](Self::drain) was called.
    pub fn draining(&self) -> bool {
        self.draining.is_some()
    }

    /// Kicked players whose kick is still in flight: told the reason, not yet acknowledged
    /// nor past [`KICK_GRACE`] (clients turned away while draining are not counted).
    pub fn kicks_in_flight(&self) -> usize {
        self.kicked.values().filter(|k| !k.dropped && !k.turned_away).count()
    }

    /// Kicked clients still connected (waiting to acknowledge their kick).
    pub fn kicked_count(&self) -> usize {
        self.kicked.len()
    }

    /// Drops the kicked clients that acknowledged their kick (every reliable control message
    /// acked) or whose grace ran out; drains what they sent, unread.
    fn drop_kicked(&mut self) {
        let now = Instant::now();
        for (&id, k) in self.kicked.iter_mut() {
            while self.renet.receive_message(id, INPUTS).is_some() {}
            while self.renet.receive_message(id, CONTROL).is_some() {}
            let acked = self.renet.channel_available_memory(id, CONTROL) == SERVER_CONTROL_BYTES;
            if !k.dropped && (acked || now >= k.deadline) {
                k.dropped = true;
                self.renet.disconnect(id);
            }
        }
    }

    /// Disconnects everyone (on shutdown), telling each client [`SHUTDOWN_REASON`] first.
    pub fn shutdown(&mut self) {
        let ids: Vec<u64> = self.renet.clients_id();
        for id in ids {
            if !self.kicked.contains_key(&id) {
                self.renet.send_message(
                    id,
                    CONTROL,
                    Control::Kick { reason: SHUTDOWN_REASON.to_owned() }.encode(),
                );
            }
        }
        self.transport.send(&mut self.renet);
        self.transport.disconnect_all(&mut self.renet);
    }

    /// Reads the sockets and the clients' inputs (the AdmitPlayers phase).
    pub fn poll(&mut self, arena: &Arena) {
        let now = Instant::now();
        let dt = now - self.last_poll;
        self.last_poll = now;
        self.renet.update(dt);
        if let Err(e) = self.transport.receive(dt, &mut self.renet) {
            eprintln!("net: receive failed: {e}");
        }
        while let Some(event) = self.renet.get_event() {
            match event {
                ServerEvent::ClientConnected { client_id } if self.draining.is_some() => {
                    let reason = self.draining.clone().unwrap_or_default();
                    self.renet.send_message(client_id, CONTROL, Control::Kick { reason }.encode());
                    self.kicked.insert(
                        client_id,
                        Kicked { deadline: now + KICK_GRACE, dropped: false, turned_away: true },
                    );
                }
                ServerEvent::ClientConnected { client_id } => {
                    let radius = self.radius_override.unwrap_or_else(|| streaming_radius(arena));
                    self.clients.insert(
                        client_id,
                        Slot {
                            view: ClientView::new(Vec3::ZERO, radius),
                            last_input: Input::default(),
                            commands: Default::default(),
                            body: None,
                            connected_at: Instant::now(),
                            told_character: None,
                        },
                    );
                    let welcome =
                        Control::Welcome { user_id: client_id, radius, network_every: self.network_every };
                    self.renet.send_message(client_id, CONTROL, welcome.encode());
                    self.events.push_back(NetEvent::Connected { user_id: client_id });
                }
                ServerEvent::ClientDisconnected { client_id, reason } => {
                    // A kicked client's event was queued by the kick.
                    if self.kicked.remove(&client_id).is_none() {
                        self.clients.remove(&client_id);
                        self.events.push_back(NetEvent::Disconnected {
                            user_id: client_id,
                            reason: reason.to_string(),
                        });
                    }
                }
            }
        }
        self.drop_kicked();
        let ids: Vec<u64> = self.clients.keys().copied().collect();
        for id in ids {
            if let Err(e) = self.read_inputs(arena, id) {
                self.stats.malformed_disconnects += 1;
                eprintln!("net: disconnecting user {id}: {e}");
                self.kick(id, &format!("malformed input: {e}"));
            }
            // Control messages from clients carry nothing yet; they are drained, bounded.
            for _ in 0..MAX_INPUTS_PER_TICK {
                if self.renet.receive_message(id, CONTROL).is_none() {
                    break;
                }
            }
        }
    }

    fn read_inputs(&mut self, arena: &Arena, id: u64) -> Result<(), NetError> {
        let mut newest: Option<Input> = None;
        for _ in 0..MAX_INPUTS_PER_TICK {
            let Some(bytes) = self.renet.receive_message(id, INPUTS) else { break };
            let input = Input::decode(&bytes)?;
            let slot = self.clients.get_mut(&id).expect("connected");
            slot.view
                .ack(arena, &self.mirror, input.ack, input.ack_bits)
                .map_err(|e| NetError::Disconnected(e.to_string()))?;
            slot.commands.receive(&input.commands);
            if newest.is_none_or(|n| input.ack >= n.ack) {
                newest = Some(input);
            }
        }
        // Whatever is left of a flood is dropped unread.
        while self.renet.receive_message(id, INPUTS).is_some() {}
        if let Some(input) = newest {
            let slot = self.clients.get_mut(&id).expect("connected");
            if let Some(focus) = input.focus_position() {
                slot.view.set_focus(focus);
            }
            slot.last_input = input;
        }
        Ok(())
    }

    /// The last input of `user_id` (movement intent, for characters).
    pub fn last_input(&self, user_id: u64) -> Option<Input> {
        self.clients.get(&user_id).map(|s| s.last_input)
    }

    /// Captures the place and sends every client its snapshot (the Snapshot phase).
    /// `world` gives an instance's world position. The clients' views are brought up to
    /// date and their messages built in parallel (each view is its own; the mirror and the
    /// arena are only read), then sent in user-id order.
    pub fn replicate(&mut self, arena: &Arena, world: &(dyn Fn(arbor_core::Id) -> Vec3 + Sync)) {
        let start = Instant::now();
        self.mirror.capture(arena, world);
        let budget = self.budget_override.unwrap_or_else(|| client_budget(arena));
        let tick = 1.0 / 60.0 * f64::from(self.network_every);
        let mut joins = 0;
        let mut work: Vec<(u64, u32, &mut ClientView)> = Vec::with_capacity(self.clients.len());
        for (&id, slot) in self.clients.iter_mut() {
            if !slot.view.is_joined() {
                if joins == JOINS_PER_NETWORK_TICK {
                    continue; // admitted at a later network tick
                }
                joins += 1;
            }
            let rtt = self.renet.rtt(id);
            let resend_after = ((rtt / tick).ceil() as u32).saturating_add(1).clamp(2, 30);
            work.push((id, resend_after, &mut slot.view));
        }
        let mirror = &self.mirror;
        let built: Vec<(u64, Vec<Vec<u8>>)> = work
            .into_par_iter()
            .map(|(id, resend_after, view)| {
                view.update(arena, mirror);
                (id, view.build(mirror, budget, resend_after))
            })
            .collect();
        for (id, messages) in built {
            for msg in messages {
                self.renet.send_message(id, SNAPSHOTS, msg);
            }
        }
        self.send_character_states();
        self.ship_scripts(arena);
        self.transport.send(&mut self.renet);
        self.stats.replication += start.elapsed();
        self.stats.network_ticks += 1;
    }
}

/// The Workspace's [`STREAMING_RADIUS`] in studs.
fn streaming_radius(arena: &Arena) -> f32 {
    STREAMING_RADIUS.value(arena) as f32
}
/// The Workspace's [`REPLICATION_BUDGET`] in bytes, at least one whole message.
fn client_budget(arena: &Arena) -> usize {
    (REPLICATION_BUDGET.value(arena) as usize).max(MAX_MESSAGE_BYTES)
}

impl NetServer {
    /// Hands the connection events and inputs of this poll to the sessions. Connections
    /// enter the sessions' join queue while it has room ([`MAX_PENDING_JOINS`]), oldest
    /// first; the others wait in the lobby, and one that waited [`JOIN_WAIT`] is refused
    /// with [`JOIN_QUEUE_FULL`]. A connection the sessions refuse (bad user id) is kicked
    /// with the reason.
    fn feed_players(&mut self, arena: &Arena, players: &mut Players, first_new: usize) {
        let new: Vec<NetEvent> = self.events.iter().skip(first_new).cloned().collect();
        for event in new {
            match event {
                NetEvent::Connected { user_id } => self.lobby.push_back((user_id, Instant::now())),
                NetEvent::Disconnected { user_id, reason } => {
                    self.lobby.retain(|&(u, _)| u != user_id);
                    players.disconnect(arena, user_id, &reason);
                }
            }
        }
        while players.pending_joins() < MAX_PENDING_JOINS {
            let Some((user_id, _)) = self.lobby.pop_front() else { break };
            if let Err(e) = players.connect(user_id, None) {
                self.kick(user_id, &e.to_string());
            }
        }
        while let Some(&(user_id, since)) = self.lobby.front() {
            if since.elapsed() < self.join_wait {
                break;
            }
            self.lobby.pop_front();
            eprintln!("net: refusing user {user_id}: {JOIN_QUEUE_FULL}");
            self.kick(user_id, JOIN_QUEUE_FULL);
        }
        self.feed_inputs(players);
    }

    /// Kicks the users the sessions kicked, tells each client which character it owns when
    /// that changed, and centres each client's streaming range on its character.
    fn serve_players(
        &mut self,
        arena: &Arena,
        players: &mut Players,
        world: &dyn Fn(arbor_core::Id) -> Vec3,
    ) {
        for (user, reason) in players.take_kicked() {
            self.kick(user, &reason);
        }
        for (&user, slot) in self.clients.iter_mut() {
            let character = players.character_of(arena, user);
            if character != slot.told_character {
                slot.told_character = character;
                self.renet.send_message(user, CONTROL, Control::Character { id: character }.encode());
            }
            if let Some(focus) = players.focus_of(arena, user, |id| Some(world(id))) {
                slot.view.set_focus(focus);
            }
        }
    }
}

impl TickHooks for NetServer {
    fn receive(&mut self, ctx: &mut TickContext<'_>) {
        let first_new = self.events.len();
        self.poll(ctx.arena);
        self.feed_players(ctx.arena, ctx.players, first_new);
    }

    fn snapshot(&mut self, ctx: &mut TickContext<'_>) {
        let (arena, transforms) = (&*ctx.arena, ctx.transforms);
        let world = |id| transforms.get(arena, id).map_or(Vec3::ZERO, |t| t.position);
        self.serve_players(arena, ctx.players, &world);
        self.note_character_bodies(arena, ctx.physics);
        self.replicate(arena, &world);
    }
}
