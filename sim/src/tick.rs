//! The tick: [`Simulation`] runs one server tick as a fixed sequence of [`Phase`]s and
//! [`TickHooks`] let other crates (scripts, networking) plug into them.
//!
//! The order is fixed (`docs/architecture.md`, "What flows in one tick"): start pending
//! scripts → admit players (hooks `receive` the network, then `admit_players` fire joins and
//! leaves, then the characters of players who left are destroyed) → `Update(dt)` → default
//! and registered systems (the death pass first) → `PhysicsUpdate(1/60)` → physics step
//! (inputs become locomotion after the sync, before the step) → transform pass → on every
//! second tick, fallen parts, the kick queue and the delta snapshot → lifetimes (of the
//! instances in the world, counted down at the end of every tick) → event drain and slot
//! reclamation. Every phase is timed by the [`Profiler`]; after the drain, untimed, every
//! hook's [`TickHooks::end_tick`] runs (the stores' per-tick commit), then its `count`.
//!
//! Invariants: hooks run in registration order within a phase; a hook sees the world as the
//! previous phases left it; nothing is drained until the last phase, so tombstones of
//! instances destroyed during the tick stay readable to the hooks that receive the events.
//! The Workspace's settings (`MaxInstances`, `MaxCreationsPerTick`, `MaxTextBytes`) are read
//! once, when the simulation is built, under the host's [`SimCaps`]: out of range they are
//! refused, above a cap they are lowered to it.

use crate::fallen::FallenParts;
use crate::lifetime::Lifetimes;
use crate::phase::Phase;
use crate::physics::Physics;
use crate::players::Players;
use crate::profiler::{Profiler, TickCounters};
use crate::transform::{PassMode, WorldTransforms};
use arbor_core::settings::{MAX_CREATIONS_PER_TICK, MAX_INSTANCES, MAX_TEXT_BYTES, WorkspaceSetting};
use arbor_core::{Arena, Capped, InstanceEvent, SettingError, components::SchemaError};
use glam::Vec3;
use std::time::{Duration, Instant};

/// What a hook may touch during a phase.
pub struct TickContext<'a> {
    /// The place.
    pub arena: &'a mut Arena,
    /// World transforms as of the last transform pass.
    pub transforms: &'a WorldTransforms,
    /// Physics (raycasts, body counts).
    pub physics: &'a Physics,
    /// Player sessions.
    pub players: &'a mut Players,
    /// The tick number, from 0.
    pub tick: u64,
    /// Simulated seconds since the start.
    pub time: f64,
}

/// Callbacks a crate implements to run inside the tick's phases. Every method defaults to
/// doing nothing.
pub trait TickHooks {
    /// Start pending scripts.
    fn start_scripts(&mut self, _ctx: &mut TickContext<'_>) {}
    /// Read the network (first in AdmitPlayers, before any hook's `admit_players`):
    /// connections, disconnections and inputs go into `ctx.players`.
    fn receive(&mut self, _ctx: &mut TickContext<'_>) {}
    /// Admit connected players.
    fn admit_players(&mut self, _ctx: &mut TickContext<'_>) {}
    /// `Update(dt)`.
    fn update(&mut self, _ctx: &mut TickContext<'_>, _dt: f64) {}
    /// Registered systems.
    fn systems(&mut self, _ctx: &mut TickContext<'_>, _dt: f64) {}
    /// `PhysicsUpdate(dt)`, dt = 1/60.
    fn physics_update(&mut self, _ctx: &mut TickContext<'_>, _dt: f64) {}
    /// The delta snapshot (every second tick).
    fn snapshot(&mut self, _ctx: &mut TickContext<'_>) {}
    /// The events drained at the end of the tick (tombstones of this tick's destructions are
    /// still readable through `arena.lifecycle_view`).
    fn events(&mut self, _ctx: &mut TickContext<'_>, _events: &[InstanceEvent]) {}
    /// The end of the tick, after the event drain (group commits, per-tick bookkeeping).
    fn end_tick(&mut self, _ctx: &mut TickContext<'_>) {}
    /// After every phase that ran, outside its timing (a recorder's or replayer's per-phase
    /// world hash).
    fn phase_done(&mut self, _ctx: &mut TickContext<'_>, _phase: Phase) {}
    /// Adds this hook's counters for the tick that just ended (after `end_tick`).
    fn count(&mut self, _counters: &mut TickCounters) {}
}

/// Hooks shared with their owner: the simulation calls them while the owner keeps a handle
/// to inspect them between ticks (tests, tools). The hooks must not be borrowed while the
/// simulation ticks.
impl<T: TickHooks> TickHooks for std::rc::Rc<std::cell::RefCell<T>> {
    fn start_scripts(&mut self, ctx: &mut TickContext<'_>) {
        self.borrow_mut().start_scripts(ctx);
    }
    fn receive(&mut self, ctx: &mut TickContext<'_>) {
        self.borrow_mut().receive(ctx);
    }
    fn admit_players(&mut self, ctx: &mut TickContext<'_>) {
        self.borrow_mut().admit_players(ctx);
    }
    fn update(&mut self, ctx: &mut TickContext<'_>, dt: f64) {
        self.borrow_mut().update(ctx, dt);
    }
    fn systems(&mut self, ctx: &mut TickContext<'_>, dt: f64) {
        self.borrow_mut().systems(ctx, dt);
    }
    fn physics_update(&mut self, ctx: &mut TickContext<'_>, dt: f64) {
        self.borrow_mut().physics_update(ctx, dt);
    }
    fn snapshot(&mut self, ctx: &mut TickContext<'_>) {
        self.borrow_mut().snapshot(ctx);
    }
    fn events(&mut self, ctx: &mut TickContext<'_>, events: &[InstanceEvent]) {
        self.borrow_mut().events(ctx, events);
    }
    fn end_tick(&mut self, ctx: &mut TickContext<'_>) {
        self.borrow_mut().end_tick(ctx);
    }
    fn phase_done(&mut self, ctx: &mut TickContext<'_>, phase: Phase) {
        self.borrow_mut().phase_done(ctx, phase);
    }
    fn count(&mut self, counters: &mut TickCounters) {
        self.borrow_mut().count(counters);
    }
}

/// How the simulation runs.
#[derive(Clone, Copy, Debug)]
pub struct SimConfig {
    /// Seconds per tick (1/60).
    pub dt: f64,
    /// Fallen parts and the snapshot run every this many ticks (2).
    pub network_every: u64,
    /// Transform pass options.
    pub pass: PassMode,
    /// Gravity.
    pub gravity: Vec3,
}

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            dt: 1.0 / 60.0,
            network_every: 2,
            pass: PassMode::default(),
            gravity: crate::physics::DEFAULT_GRAVITY,
        }
    }
}

/// What one tick did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    /// The tick number.
    pub tick: u64,
    /// Wall time of the tick.
    pub duration: Duration,
    /// Counters.
    pub counters: TickCounters,
    /// Whether fallen parts and the snapshot ran.
    pub network_tick: bool,
}

/// A place and the machinery that advances it.
pub struct Simulation {
    /// The place.
    pub arena: Arena,
    /// World transforms.
    pub transforms: WorldTransforms,
    /// Physics.
    pub physics: Physics,
    /// Player sessions.
    pub players: Players,
    hooks: Vec<Box<dyn TickHooks>>,
    profiler: Profiler,
    config: SimConfig,
    lifetimes: Lifetimes,
    fallen: FallenParts,
    tick: u64,
    /// The host's caps.
    caps: SimCaps,
    /// Workspace settings lowered to the caps.
    lowered: Vec<Capped>,
}

/// The host's caps on the world a place may ask for. A place's Workspace settings
/// ([`MAX_INSTANCES`], [`MAX_CREATIONS_PER_TICK`], [`MAX_TEXT_BYTES`]) may lower them, never raise them: a value above a cap is lowered to it, with a
/// warning ([`Simulation::lowered_settings`]). A value out of range (not a whole number, below
/// the floor, above the hard ceiling) is refused at load, never read as "unlimited".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimCaps {
    /// Most instances (the cap on the Workspace's [`MAX_INSTANCES`]).
    pub instances: usize,
    /// Most instances created in one tick (the cap on [`MAX_CREATIONS_PER_TICK`]).
    pub creations_per_tick: usize,
    /// Most bytes of text (the cap on [`MAX_TEXT_BYTES`]).
    pub text_bytes: usize,
    /// Most physics bodies. Carried here, readable through [`Simulation::caps`], for the
    /// physics module (`physics`, its `PhysicsConfig::max_bodies`) to enforce.
    pub physics_bodies: usize,
}

impl SimCaps {
    /// The engine's hard ceilings: the most any host may allow (100,000,000 instances is
    /// about 18 GB of arena).
    pub const HARD: SimCaps = SimCaps {
        instances: MAX_INSTANCES.max as usize,
        creations_per_tick: MAX_CREATIONS_PER_TICK.max as usize,
        text_bytes: MAX_TEXT_BYTES.max as usize,
        physics_bodies: 100_000_000,
    };

    /// The least each cap (and each Workspace setting) may be.
    pub const FLOOR: SimCaps = SimCaps {
        instances: MAX_INSTANCES.min as usize,
        creations_per_tick: MAX_CREATIONS_PER_TICK.min as usize,
        text_bytes: MAX_TEXT_BYTES.min as usize,
        physics_bodies: 1,
    };

    /// Checks every cap: a whole number from [`FLOOR`](Self::FLOOR) to
    /// [`HARD`](Self::HARD).
    pub fn check(&self) -> Result<(), SettingError> {
        let (f, h) = (Self::FLOOR, Self::HARD);
        let caps = [
            ("instances", self.instances, f.instances, h.instances),
            ("creations per tick", self.creations_per_tick, f.creations_per_tick, h.creations_per_tick),
            ("text bytes", self.text_bytes, f.text_bytes, h.text_bytes),
            ("physics bodies", self.physics_bodies, f.physics_bodies, h.physics_bodies),
        ];
        for (name, v, min, max) in caps {
            if !(min..=max).contains(&v) {
                return Err(SettingError::whole(
                    format!("the host's cap on {name}"),
                    v,
                    min as u64,
                    max as u64,
                ));
            }
        }
        Ok(())
    }
}

impl Default for SimCaps {
    /// The caps of a host given none: the defaults of the Workspace settings, and the
    /// physics module's default body cap (1,000,000).
    fn default() -> Self {
        Self {
            instances: MAX_INSTANCES.default as usize,
            creations_per_tick: MAX_CREATIONS_PER_TICK.default as usize,
            text_bytes: MAX_TEXT_BYTES.default as usize,
            physics_bodies: 1_000_000,
        }
    }
}

/// Why a simulation could not be built.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A component the simulation registers clashes with the place's schemas.
    #[error(transparent)]
    Schema(#[from] SchemaError),
    /// A Workspace setting (or one of the host's caps) is out of range.
    #[error(transparent)]
    Setting(#[from] SettingError),
}

/// The Workspace `setting` under the host's `cap`: absent, its default (or the cap if lower);
/// given, the whole number it holds lowered to the cap (noted in `lowered`); refused out of
/// its range.
fn capped_setting(
    arena: &Arena,
    setting: &WorkspaceSetting,
    cap: usize,
    lowered: &mut Vec<Capped>,
) -> Result<usize, SettingError> {
    let Some(asked) = setting.read(arena)? else {
        return Ok((setting.default as usize).min(cap));
    };
    let asked = asked as usize;
    if asked > cap {
        let setting = format!("Workspace.{}", setting.name);
        lowered.push(Capped { setting, asked: asked as u64, cap: cap as u64 });
        return Ok(cap);
    }
    Ok(asked)
}

impl Simulation {
    /// A simulation of `arena` with `config`, under the default host caps
    /// ([`with_caps`](Self::with_caps)).
    pub fn new(arena: Arena, config: SimConfig) -> Result<Self, SimError> {
        Self::with_caps(arena, config, SimCaps::default())
    }

    /// A simulation of `arena` with `config` under the host's `caps`. Registers the
    /// `Lifetime` component; caps the place's instances ([`MAX_INSTANCES`],
    /// [`MAX_CREATIONS_PER_TICK`]) and text ([`MAX_TEXT_BYTES`]) by its Workspace settings
    /// under `caps`, refusing a setting out of range; computes the initial world transforms
    /// and physics bodies.
    pub fn with_caps(mut arena: Arena, config: SimConfig, caps: SimCaps) -> Result<Self, SimError> {
        caps.check()?;
        let mut lowered = Vec::new();
        let instances = capped_setting(&arena, &MAX_INSTANCES, caps.instances, &mut lowered)?;
        let text = capped_setting(&arena, &MAX_TEXT_BYTES, caps.text_bytes, &mut lowered)?;
        let per_tick =
            capped_setting(&arena, &MAX_CREATIONS_PER_TICK, caps.creations_per_tick, &mut lowered)?;
        let lifetimes = Lifetimes::new(&mut arena)?;
        let players = Players::new(&mut arena)?;
        arena.set_max_nodes(instances);
        arena.set_max_text_bytes(text);
        arena.set_max_creations_per_window(per_tick);
        let mut transforms = WorldTransforms::new();
        let dirty = arena.take_dirty_transforms();
        transforms.update(&arena, &dirty, config.pass);
        let mut physics = Physics::with_config(crate::physics::PhysicsConfig {
            gravity: config.gravity,
            max_bodies: caps.physics_bodies,
            ..Default::default()
        });
        physics.sync(&arena);
        Ok(Self {
            arena,
            transforms,
            physics,
            players,
            hooks: Vec::new(),
            profiler: Profiler::new(),
            config,
            lifetimes,
            fallen: FallenParts::default(),
            tick: 0,
            caps,
            lowered,
        })
    }

    /// The host's caps this simulation was built under.
    pub fn caps(&self) -> &SimCaps {
        &self.caps
    }

    /// The place's Workspace settings that were above the host's caps and were lowered to
    /// them (for the server to print as warnings at start).
    pub fn lowered_settings(&self) -> &[Capped] {
        &self.lowered
    }

    /// Adds hooks; they run after those added before them in every phase.
    pub fn add_hooks(&mut self, hooks: impl TickHooks + 'static) {
        self.hooks.push(Box::new(hooks));
    }

    /// The profiler.
    pub fn profiler(&self) -> &Profiler {
        &self.profiler
    }

    /// The profiler, to enable tracing or reset.
    pub fn profiler_mut(&mut self) -> &mut Profiler {
        &mut self.profiler
    }

    /// The configuration.
    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    /// Ticks run so far.
    pub fn ticks(&self) -> u64 {
        self.tick
    }

    /// The lifetime system (to give instances lifetimes).
    pub fn lifetimes(&self) -> &Lifetimes {
        &self.lifetimes
    }

    fn run_hooks(&mut self, f: impl Fn(&mut dyn TickHooks, &mut TickContext<'_>)) {
        if self.hooks.is_empty() {
            return;
        }
        let mut hooks = std::mem::take(&mut self.hooks);
        self.with_context(|ctx| {
            for h in &mut hooks {
                f(h.as_mut(), ctx);
            }
        });
        self.hooks = hooks;
    }

    /// Runs `f` with the context a phase hook gets at the current tick (for driving hooks by
    /// hand, as benchmarks and tools do).
    pub fn with_context<R>(&mut self, f: impl FnOnce(&mut TickContext<'_>) -> R) -> R {
        let mut ctx = TickContext {
            arena: &mut self.arena,
            transforms: &self.transforms,
            physics: &self.physics,
            players: &mut self.players,
            tick: self.tick,
            time: self.tick as f64 * self.config.dt,
        };
        f(&mut ctx)
    }

    fn timed<R>(&mut self, phase: Phase, f: impl FnOnce(&mut Self) -> R) -> R {
        let start = Instant::now();
        let r = f(self);
        self.profiler.record(phase, self.tick, start, start.elapsed());
        self.run_hooks(|h, c| h.phase_done(c, phase));
        r
    }

    /// Runs one tick: every phase in order ([`Phase`]), the hooks at each, and fallen parts
    /// and the snapshot every `network_every` ticks.
    ///
    /// ```
    /// use arbor_core::{Arena, Class, Vec3};
    /// use arbor_sim::{SimConfig, Simulation};
    ///
    /// let mut arena = Arena::new();
    /// let ws = arena.workspace();
    /// let ball = arena.create(Class::Part, "Ball", Some(ws)).unwrap();
    /// arena.set_position(ball, Vec3::new(0.0, 50.0, 0.0)).unwrap();
    /// let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    /// for _ in 0..30 {
    ///     sim.step();
    /// }
    /// let y = sim.transforms.get(&sim.arena, ball).unwrap().position.y;
    /// assert!(y < 50.0, "an unanchored part falls under gravity (y = {y})");
    /// assert_eq!(sim.step().tick, 30, "ticks count from 0");
    /// ```
    pub fn step(&mut self) -> TickReport {
        let start = Instant::now();
        let dt = self.config.dt;
        let mut counters = TickCounters::default();
        let network_tick = self.tick.is_multiple_of(self.config.network_every.max(1));
        self.arena.begin_creation_window();
        self.timed(Phase::StartScripts, |s| s.run_hooks(|h, c| h.start_scripts(c)));
        self.timed(Phase::AdmitPlayers, |s| {
            s.run_hooks(|h, c| h.receive(c));
            s.run_hooks(|h, c| h.admit_players(c));
            counters.destroyed += s.players.finish_leaves(&mut s.arena);
        });
        self.timed(Phase::Update, |s| s.run_hooks(|h, c| h.update(c, dt)));
        self.timed(Phase::Systems, |s| {
            s.players.check_deaths(&mut s.arena);
            s.run_hooks(|h, c| h.systems(c, dt));
        });
        self.timed(Phase::PhysicsUpdate, |s| s.run_hooks(|h, c| h.physics_update(c, dt)));
        counters.awake_bodies = self.timed(Phase::PhysicsStep, |s| {
            s.physics.sync(&s.arena);
            s.players.drive(&mut s.arena, &mut s.physics);
            s.physics.step(dt as f32);
            s.physics.write_back(&mut s.arena);
            s.physics.awake_bodies()
        });
        counters.suspended_bodies = self.physics.suspended_bodies();
        counters.transforms_recomputed = self.timed(Phase::Transforms, |s| {
            let dirty = s.arena.take_dirty_transforms();
            s.transforms.update(&s.arena, &dirty, s.config.pass).recomputed
        });
        if network_tick {
            counters.destroyed +=
                self.timed(Phase::FallenParts, |s| s.fallen.scan(&mut s.arena, &s.transforms));
            self.timed(Phase::Snapshot, |s| {
                s.players.process_kicks(&s.arena);
                s.run_hooks(|h, c| h.snapshot(c))
            });
        }
        counters.destroyed += self.timed(Phase::Lifetimes, |s| s.lifetimes.tick(&mut s.arena, dt));
        counters.events = self.timed(Phase::Drain, |s| {
            let events = s.arena.drain_events();
            if !events.is_empty() {
                s.run_hooks(|h, c| h.events(c, &events));
            }
            events.len()
        });
        self.run_hooks(|h, c| h.end_tick(c));
        for h in &mut self.hooks {
            h.count(&mut counters);
        }
        let duration = start.elapsed();
        self.profiler.record_tick(duration, counters);
        let report = TickReport { tick: self.tick, duration, counters, network_tick };
        self.tick += 1;
        report
    }

    /// Runs `ticks` ticks as fast as possible.
    pub fn run(&mut self, ticks: u64) {
        for _ in 0..ticks {
            self.step();
        }
    }
}
