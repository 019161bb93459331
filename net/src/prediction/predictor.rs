//! [`Predictor`]: client-side prediction of the client's own character, with reconciliation.
//!
//! Each client physics step (1/60 s) the runtime hands it the step's command
//! ([`step`](Predictor::step)): the command gets the next sequence number (the
//! [`InputHistory`] keeps it until the server acknowledges it) and, with prediction on and a
//! character known, the [`PredictionWorld`] steps the character with the server's controller
//! at once, so the player sees its own move this frame rather than a round trip later.
//!
//! Each [`CharacterState`] from the server ([`reconcile`](Predictor::reconcile)) says which
//! command the server applied last and where that left the character: the predictor drops
//! the acknowledged commands, rewinds its body to the server's position and velocity, and
//! replays the commands not yet acknowledged. The shift this causes in the newest predicted
//! position is not shown as a jump: [`Correction`] takes it up and decays it, at most
//! [`MAX_CORRECTION_STEP`](super::MAX_CORRECTION_STEP) studs a frame
//! ([`frame`](Predictor::frame)).
//!
//! Before rewinding it compares its own prediction for the acknowledged command with the
//! server's position: that distance is the prediction error ([`Predictor::errors`]).
//!
//! Invariants: states apply in epoch order (an older or repeated one is ignored); the
//! predicted position after a reconcile is the server's state replayed through exactly the
//! unacknowledged commands, in order; the trail of predicted positions holds exactly one
//! entry per unacknowledged command while a body exists.

use super::history::{Ack, InputHistory, MAX_UNACKED};
use super::smoothing::Correction;
use super::world::{PredictionWorld, snap_rotation, world_pose};
use crate::replication::Replica;
use crate::wire::{CharacterState, CommandWindow, InputCommand, WireValue};
use arbor_core::{Arena, Class, Id, Quat};
use arbor_sim::physics::CharacterDrive;
use arbor_sim::players::{
    DEFAULT_JUMP_POWER, DEFAULT_WALK_SPEED, HUMANOID_STATE, character_drive, ground_direction, root_part,
};
use glam::Vec3;
use std::collections::VecDeque;

/// Prediction error samples kept (the newest).
pub const MAX_ERROR_SAMPLES: usize = 16_384;

/// A movement axis as the server reads it: -127..=127 to -1..=1 (-128 reads as -1).
pub fn command_axis(v: i8) -> f32 {
    (f32::from(v) / 127.0).clamp(-1.0, 1.0)
}

/// The drive the server's controller gives a character for `command` with `WalkSpeed` =
/// `walk` and `JumpPower` = `power`: the same arithmetic as the tick (the input into
/// `MoveIntent`, then the controller's drive), so a prediction matches it bit for bit.
pub fn command_drive(command: InputCommand, walk: f64, power: f64) -> CharacterDrive {
    let [x, z] = command.movement.map(command_axis);
    let intent = ground_direction(Vec3::new(x, 0.0, z));
    character_drive(ground_direction(intent), command.buttons & 1 != 0, walk, power)
}

/// Counters of a predictor.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PredictionStats {
    /// Commands issued (client steps).
    pub steps: u64,
    /// Server states reconciled (rewind and replay).
    pub reconciles: u64,
    /// Commands replayed, over all reconciles.
    pub replayed: u64,
    /// Commands replayed by the newest reconcile.
    pub last_replayed: usize,
    /// States ignored as older than one already applied.
    pub stale_states: u64,
    /// States acknowledging a command never issued (ignored).
    pub bogus_acks: u64,
    /// States after which the server had not applied the commands one per step in sequence
    /// (its queue ran dry and it repeated one, or some were skipped or lost): not compared
    /// for the error, since the client could not predict that.
    pub irregular_states: u64,
    /// Prediction errors measured.
    pub compared: u64,
    /// The largest of them, studs.
    pub max_error: f32,
    /// Corrections dropped at once (past `SNAP_DISTANCE`).
    pub snaps: u64,
    /// The largest per-frame move of the shown position by a correction, studs.
    pub largest_correction_step: f32,
}

/// The owning client's prediction of its character.
pub struct Predictor {
    history: InputHistory,
    world: PredictionWorld,
    enabled: bool,
    /// The character (server id), as the server said.
    character: Option<Id>,
    /// The root part's size and rotation, from the replica.
    size: Vec3,
    rotation: Quat,
    walk: f64,
    power: f64,
    /// Position and velocity after the newest step.
    predicted: Option<(Vec3, Vec3)>,
    /// The predicted position after each unacknowledged command.
    trail: VecDeque<(u32, Vec3)>,
    correction: Correction,
    newest_epoch: Option<u32>,
    /// The server's running count of irregular steps, as of the newest state.
    irregular: Option<u8>,
    errors: VecDeque<f32>,
    stats: PredictionStats,
}

impl Default for Predictor {
    fn default() -> Self {
        Self::new()
    }
}

impl Predictor {
    /// Prediction off (commands are numbered and acknowledged all the same).
    pub fn new() -> Self {
        Self {
            history: InputHistory::new(),
            world: PredictionWorld::default(),
            enabled: false,
            character: None,
            size: Vec3::new(2.0, 2.0, 1.0),
            rotation: Quat::IDENTITY,
            walk: DEFAULT_WALK_SPEED,
            power: DEFAULT_JUMP_POWER,
            predicted: None,
            trail: VecDeque::new(),
            correction: Correction::default(),
            newest_epoch: None,
            irregular: None,
            errors: VecDeque::new(),
            stats: PredictionStats::default(),
        }
    }

    /// Turns prediction on or off (off: nothing is simulated, [`shown_position`] is `None`).
    ///
    /// [`shown_position`]: Self::shown_position
    pub fn set_enabled(&mut self, on: bool) {
        if !on {
            self.drop_body();
        }
        self.enabled = on;
    }

    /// Whether prediction is on.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// Uses `world` (for instance one built with the server's gravity) from now on.
    pub fn set_world(&mut self, world: PredictionWorld) {
        self.world = world;
        self.predicted = None;
        self.trail.clear();
    }

    fn drop_body(&mut self) {
        self.world.clear_body();
        self.predicted = None;
        self.trail.clear();
        self.correction.reset();
    }

    /// [`sync`](Self::sync) from a replica: the character's `HumanoidState` is read from
    /// its replicated components.
    pub fn sync_replica(&mut self, replica: &Replica, character: Option<Id>) {
        let humanoid = character.and_then(|c| replica.component(c, HUMANOID_STATE));
        self.sync(replica.arena(), character, humanoid);
    }

    /// Reads what prediction needs: the character the server says this client owns
    /// (`character`, an id in `arena`: the replica's arena), its root part's size, rotation
    /// and (before the first server state) position, its `WalkSpeed` and `JumpPower` (the
    /// `HumanoidState` fields `humanoid`, in schema order), and the static geometry and other
    /// characters around it. Call it every frame, after the frame's snapshots were applied and before
    /// [`reconcile`](Self::reconcile) and [`step`](Self::step).
    pub fn sync(&mut self, arena: &Arena, character: Option<Id>, humanoid: Option<&[WireValue]>) {
        if character != self.character {
            self.character = character;
            self.drop_body();
        }
        let Some(character) = character.filter(|_| self.enabled) else { return };
        if arena.get(character).is_none_or(|n| n.class() != Class::Character) {
            return; // not streamed in yet
        }
        if let Some(fields) = humanoid {
            let number = |i: usize, default: f64| match fields.get(i) {
                Some(WireValue::Number(v)) if v.is_finite() => *v,
                _ => default,
            };
            self.walk = number(1, DEFAULT_WALK_SPEED);
            self.power = number(2, DEFAULT_JUMP_POWER);
        }
        let Some(root) = root_part(arena, character) else { return };
        let (Some(node), Some(pose)) = (arena.get(root), world_pose(arena, root)) else { return };
        self.size = node.size();
        self.rotation = snap_rotation(pose.rotation);
        let around = self.predicted.map_or(pose.position, |p| p.0);
        self.world.set_own_character(Some(character));
        self.world.sync_geometry(arena, around);
        if self.predicted.is_none() {
            self.world.place_body(self.size, self.rotation, pose.position, Vec3::ZERO);
            self.predicted = self.world.body_state();
        }
    }

    /// Issues `command` for the next client physics step and, with a body, predicts it;
    /// returns its sequence number.
    pub fn step(&mut self, command: InputCommand) -> u32 {
        let seq = self.history.push(command);
        self.stats.steps += 1;
        if self.predicted.is_some()
            && let Some(state) = self.world.step(command_drive(command, self.walk, self.power))
        {
            self.predicted = Some(state);
            self.trail.push_back((seq, state.0));
            while self.trail.len() > MAX_UNACKED {
                self.trail.pop_front();
            }
        }
        seq
    }

    /// Applies a server state: drops the acknowledged commands and, with a body for the same
    /// character, measures the error, rewinds to the state and replays the rest. Returns
    /// whether it rewound.
    pub fn reconcile(&mut self, state: &CharacterState) -> bool {
        if self.newest_epoch.is_some_and(|e| state.epoch <= e) {
            self.stats.stale_states += 1;
            return false;
        }
        if self.history.ack(state.acked) == Ack::Bogus {
            self.stats.bogus_acks += 1;
            return false;
        }
        self.newest_epoch = Some(state.epoch);
        let regular = self.irregular.replace(state.irregular) == Some(state.irregular);
        let Some(body) = state.body.filter(|b| Some(b.character) == self.character) else { return false };
        let Some((old, _)) = self.predicted else { return false };
        if !regular {
            self.stats.irregular_states += 1;
        } else if let Some(&(_, mine)) = self.trail.iter().find(|&&(s, _)| s == state.acked) {
            self.record_error(mine.distance(body.position));
        }
        self.world.place_body(self.size, self.rotation, body.position, body.velocity);
        self.trail.clear();
        let mut predicted = (body.position, body.velocity);
        let mut replayed = 0;
        for (seq, command) in self.history.unacked() {
            let Some(s) = self.world.step(command_drive(command, self.walk, self.power)) else { break };
            predicted = s;
            self.trail.push_back((seq, s.0));
            replayed += 1;
        }
        self.predicted = Some(predicted);
        if self.correction.absorb(predicted.0 - old) {
            self.stats.snaps += 1;
        }
        self.stats.reconciles += 1;
        self.stats.replayed += replayed as u64;
        self.stats.last_replayed = replayed;
        true
    }

    fn record_error(&mut self, error: f32) {
        self.stats.compared += 1;
        self.stats.max_error = self.stats.max_error.max(error);
        self.errors.push_back(error);
        if self.errors.len() > MAX_ERROR_SAMPLES {
            self.errors.pop_front();
        }
    }

    /// One rendered frame: the correction decays (at most
    /// [`MAX_CORRECTION_STEP`](super::MAX_CORRECTION_STEP)); returns how far it moved the
    /// shown position.
    pub fn frame(&mut self) -> f32 {
        let step = self.correction.frame();
        self.stats.largest_correction_step = self.stats.largest_correction_step.max(step);
        step
    }

    /// The predicted position of the root part after the newest step.
    pub fn predicted_position(&self) -> Option<Vec3> {
        self.predicted.map(|p| p.0)
    }

    /// The predicted velocity after the newest step.
    pub fn predicted_velocity(&self) -> Option<Vec3> {
        self.predicted.map(|p| p.1)
    }

    /// Where to draw the root part: the prediction plus the decaying correction.
    pub fn shown_position(&self) -> Option<Vec3> {
        self.predicted.map(|p| p.0 + self.correction.offset())
    }

    /// The correction still to be decayed (shown − predicted).
    pub fn correction(&self) -> Vec3 {
        self.correction.offset()
    }

    /// The predicted position after command `seq`, while it is unacknowledged.
    pub fn predicted_at(&self, seq: u32) -> Option<Vec3> {
        self.trail.iter().find(|&&(s, _)| s == seq).map(|&(_, p)| p)
    }

    /// The commands for the next input message.
    pub fn window(&self) -> CommandWindow {
        self.history.window()
    }

    /// The numbered commands.
    pub fn history(&self) -> &InputHistory {
        &self.history
    }

    /// The prediction errors measured (the newest [`MAX_ERROR_SAMPLES`]), studs: for each
    /// server state, the distance between the position this client predicted after the
    /// acknowledged command and the server's position after it.
    pub fn errors(&self) -> impl ExactSizeIterator<Item = f32> + '_ {
        self.errors.iter().copied()
    }

    /// Counters.
    pub fn stats(&self) -> PredictionStats {
        let mut s = self.stats;
        s.snaps = s.snaps.max(self.correction.snaps());
        s
    }

    /// Static parts in the prediction world.
    pub fn geometry_len(&self) -> usize {
        self.world.geometry_len()
    }
}
