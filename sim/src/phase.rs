//! [`Phase`]: the fixed phases of a tick, in execution order (see `tick` for what each does).

/// The phases of a tick, in execution order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// Pending scripts start (top-level chunks run).
    StartScripts,
    /// Connected players are admitted (`PlayerJoined`).
    AdmitPlayers,
    /// `Update(dt)` hooks.
    Update,
    /// Default and registered systems (death checks; script systems).
    Systems,
    /// `PhysicsUpdate(1/60)` hooks.
    PhysicsUpdate,
    /// Physics: sync changed parts into rapier, step, write awake bodies back.
    PhysicsStep,
    /// World-transform pass over dirty subtrees.
    Transforms,
    /// Network ticks only: fallen-parts cleanup.
    FallenParts,
    /// Network ticks only: the delta snapshot.
    Snapshot,
    /// Lifetimes of the instances in the world counted down (end of every tick).
    Lifetimes,
    /// Events drained, slots reclaimed.
    Drain,
}

/// Every phase, in order.
pub const PHASES: [Phase; 11] = [
    Phase::StartScripts,
    Phase::AdmitPlayers,
    Phase::Update,
    Phase::Systems,
    Phase::PhysicsUpdate,
    Phase::PhysicsStep,
    Phase::Transforms,
    Phase::FallenParts,
    Phase::Snapshot,
    Phase::Lifetimes,
    Phase::Drain,
];

impl Phase {
    /// The phase's display name.
    pub fn name(self) -> &'static str {
        match self {
            Phase::StartScripts => "StartScripts",
            Phase::AdmitPlayers => "AdmitPlayers",
            Phase::Update => "Update",
            Phase::Systems => "Systems",
            Phase::PhysicsUpdate => "PhysicsUpdate",
            Phase::PhysicsStep => "PhysicsStep",
            Phase::Transforms => "Transforms",
            Phase::FallenParts => "FallenParts",
            Phase::Snapshot => "Snapshot",
            Phase::Lifetimes => "Lifetimes",
            Phase::Drain => "Drain",
        }
    }
}
