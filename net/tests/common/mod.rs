//! An in-memory server and replica joined by a lossy pipe: the replication logic end to end
//! without sockets. Every message the replica applies must pass its per-message hash check
//! (unless a test turns `check_messages` off to corrupt the replica on purpose).

#![allow(dead_code)]

pub mod place;

use arbor_core::{Arena, Class, Id};
use arbor_net::replication::{Applied, ClientView, Mirror, Replica};
use arbor_net::wire::{EntityState, MAX_MESSAGE_BYTES, SnapshotMessage};
use arbor_sim::{transform::PassMode, transform::WorldTransforms};
use glam::Vec3;

pub struct Pipe {
    pub arena: Arena,
    pub transforms: WorldTransforms,
    pub mirror: Mirror,
    pub view: ClientView,
    pub replica: Replica,
    /// Fraction of snapshot messages lost.
    pub loss: f64,
    /// Fraction of acks lost.
    pub ack_loss: f64,
    pub budget: usize,
    /// When set, acks are withheld (a client that stopped answering).
    pub silent: bool,
    /// When set (the default), a message whose entries hash the replica does not match
    /// fails the test at once.
    pub check_messages: bool,
    rng: u64,
    pub sent_bytes: usize,
    /// Fraction of snapshot messages held back and delivered after the next tick's (so
    /// they arrive out of order, older than what the replica applied).
    pub reorder: f64,
    held_back: Vec<Vec<u8>>,
    /// The most cells holding a top part the mirror had at any update (a refocus looks at
    /// no more than that).
    pub max_occupied: usize,
}

impl Pipe {
    pub fn new(arena: Arena, radius: f32) -> Pipe {
        Pipe {
            arena,
            transforms: WorldTransforms::new(),
            mirror: Mirror::new(),
            view: ClientView::new(Vec3::ZERO, radius),
            replica: Replica::new(),
            loss: 0.0,
            ack_loss: 0.0,
            budget: 4096,
            silent: false,
            check_messages: true,
            rng: 0x9e37_79b9_7f4a_7c15,
            sent_bytes: 0,
            reorder: 0.0,
            held_back: Vec::new(),
            max_occupied: 0,
        }
    }

    fn roll(&mut self) -> f64 {
        roll(&mut self.rng)
    }

    pub fn seed(&mut self, seed: u64) {
        self.rng = seed | 1;
    }

    /// One network tick: transforms, capture, view, messages through the pipe, ack back.
    pub fn step(&mut self) {
        self.step_with(&mut []);
    }

    /// [`step`](Self::step), with `others` served from the same capture before the arena's
    /// events drain (as the server's Snapshot phase serves every client).
    pub fn step_with(&mut self, others: &mut [OtherClient]) {
        let dirty = self.arena.take_dirty_transforms();
        self.transforms.update(&self.arena, &dirty, PassMode::default());
        let (arena, transforms) = (&self.arena, &self.transforms);
        let world = |id| transforms.get(arena, id).map_or(Vec3::ZERO, |t| t.position);
        self.mirror.capture(&self.arena, &world);
        self.max_occupied = self.max_occupied.max(self.mirror.occupied_cells());
        self.view.update(&self.arena, &self.mirror);
        let messages = self.view.build(&self.mirror, self.budget, 2);
        let mut late = Vec::new();
        for m in messages {
            assert!(m.len() <= MAX_MESSAGE_BYTES, "message of {} bytes", m.len());
            self.sent_bytes += m.len();
            if self.roll() < self.loss {
                continue;
            }
            if self.roll() < self.reorder {
                late.push(m);
                continue;
            }
            self.deliver(&m);
        }
        for m in std::mem::replace(&mut self.held_back, late) {
            self.deliver(&m);
        }
        if !self.silent && self.roll() >= self.ack_loss {
            let (ack, bits) = self.replica.ack();
            self.view.ack(&self.arena, &self.mirror, ack, bits).expect("a valid ack");
        }
        for other in others.iter_mut() {
            other.step(&self.arena, &self.mirror, self.budget);
        }
        self.arena.drain_events();
    }

    /// Applies one message to the replica; with `check_messages`, panics if it fails its
    /// entries check or names a position base the replica does not hold.
    fn deliver(&mut self, m: &[u8]) {
        let applied = self.replica.apply(m).expect("a server message decodes");
        if self.check_messages {
            check_applied(applied, m, &self.mirror, &self.replica);
        }
    }

    /// Steps without loss until the view is settled and the hashes agree; panics after
    /// `limit` steps.
    pub fn converge(&mut self, limit: usize) -> usize {
        let (loss, ack_loss, reorder) = (self.loss, self.ack_loss, self.reorder);
        self.loss = 0.0;
        self.ack_loss = 0.0;
        self.reorder = 0.0;
        for i in 0..limit {
            self.step();
            if self.view.is_settled() && self.replica.world_hash() == self.view.view_hash() {
                // One more tick delivers the settled hash itself.
                self.step();
                self.loss = loss;
                self.ack_loss = ack_loss;
                self.reorder = reorder;
                return i + 1;
            }
        }
        let extra: Vec<Id> = self.replica.ids().filter(|&id| !self.view.holds(id)).collect();
        let stale: Vec<String> = self
            .replica
            .ids()
            .filter(|&id| {
                self.arena.get(id).is_some_and(|n| {
                    EntityState::capture(&self.arena, &n) != *self.replica.state(id).unwrap()
                })
            })
            .map(|id| {
                let parent = self.arena.get(id).unwrap().parent().unwrap_or(Id::NONE);
                format!(
                    "{id:?}: server parent {parent:?} (held {}, unit {:?}, in mirror {}), replica parent {}, unit {:?}",
                    self.view.holds(parent),
                    self.mirror.get(parent).map(|e| e.unit),
                    self.mirror.get(parent).is_some(),
                    self.replica.state(id).unwrap().parent,
                    self.mirror.get(id).map(|e| e.unit),
                )
            })
            .collect();
        panic!(
            "no convergence in {limit} steps: settled {}, replica {} instances, view {}; extra {:?} (live on server: {:?}); stale {:?}; stats {:?}",
            self.view.is_settled(),
            self.replica.len(),
            self.view.len(),
            extra,
            extra.iter().map(|&id| self.arena.get(id).map(|n| (n.class(), n.parent()))).collect::<Vec<_>>(),
            stale,
            self.replica.stats(),
        );
    }

    /// The hash of what the view should hold, computed straight from the arena.
    pub fn truth_hash(&self) -> u64 {
        let mut h = 0;
        for id in replicated(&self.arena) {
            if self.view.holds(id) {
                h ^= EntityState::capture(&self.arena, &self.arena.get(id).unwrap()).hash(id);
            }
        }
        h
    }
}

/// Every instance that replicates: the Workspace subtree without Scripts and what is under
/// them.
pub fn replicated(arena: &Arena) -> Vec<Id> {
    let mut out = Vec::new();
    let mut stack = vec![arena.workspace()];
    while let Some(id) = stack.pop() {
        let node = arena.get(id).unwrap();
        if node.class() == Class::Script {
            continue;
        }
        out.push(id);
        stack.extend(node.children().iter());
    }
    out
}

/// Panics if `applied` (the result of applying message `m`) failed its entries check or
/// named a position base the replica does not hold.
pub fn check_applied(applied: Applied, m: &[u8], mirror: &Mirror, replica: &Replica) {
    let snap = || SnapshotMessage::decode(m).unwrap();
    match applied {
        Applied::Applied { entries_matched: Some(false), .. } => {
            let snap = snap();
            let wrong: Vec<Id> = snap
                .entries
                .iter()
                .map(|e| e.id)
                .filter(|&id| mirror.get(id).map(|e| e.hash) != replica.state(id).map(|s| s.hash(id)))
                .collect();
            panic!(
                "message {} (epoch {}) failed its entries check: replica states differ for {wrong:?}",
                snap.seq, snap.epoch
            );
        }
        Applied::Unresolved => panic!("message {} names a position base not held", snap().seq),
        _ => {}
    }
}

/// Another client of a [`Pipe`]'s server: its own view, replica, loss and reordering,
/// stepped against the pipe's mirror after the pipe's own client.
pub struct OtherClient {
    pub view: ClientView,
    pub replica: Replica,
    pub loss: f64,
    pub reorder: f64,
    rng: u64,
    held_back: Vec<Vec<u8>>,
}

impl OtherClient {
    pub fn new(focus: Vec3, radius: f32, loss: f64, reorder: f64, seed: u64) -> OtherClient {
        OtherClient {
            view: ClientView::new(focus, radius),
            replica: Replica::new(),
            loss,
            reorder,
            rng: seed | 1,
            held_back: Vec::new(),
        }
    }

    fn roll(&mut self) -> f64 {
        roll(&mut self.rng)
    }

    /// One network tick against the pipe's capture (from `Pipe::step_with`).
    fn step(&mut self, arena: &Arena, mirror: &Mirror, budget: usize) {
        self.view.update(arena, mirror);
        let mut late = Vec::new();
        for m in self.view.build(mirror, budget, 2) {
            if self.roll() < self.loss {
                continue;
            }
            if self.roll() < self.reorder {
                late.push(m);
                continue;
            }
            let applied = self.replica.apply(&m).expect("a server message decodes");
            check_applied(applied, &m, mirror, &self.replica);
        }
        for m in std::mem::replace(&mut self.held_back, late) {
            let applied = self.replica.apply(&m).expect("a server message decodes");
            check_applied(applied, &m, mirror, &self.replica);
        }
        if self.roll() >= self.loss / 2.0 {
            let (ack, bits) = self.replica.ack();
            self.view.ack(arena, mirror, ack, bits).expect("a valid ack");
        }
    }

    /// The hash of what this client's view should hold, straight from the arena.
    pub fn truth_hash(&self, arena: &Arena) -> u64 {
        let mut h = 0;
        for id in replicated(arena) {
            if self.view.holds(id) {
                h ^= EntityState::capture(arena, &arena.get(id).unwrap()).hash(id);
            }
        }
        h
    }
}

/// The next number in 0..1 of xorshift64* state `rng`.
fn roll(rng: &mut u64) -> f64 {
    *rng ^= *rng >> 12;
    *rng ^= *rng << 25;
    *rng ^= *rng >> 27;
    (rng.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
}
