//! `arbor stress`: build a synthetic place of N instances, run it as fast as possible, and
//! print the per-phase table, ticks per second and memory.
//!
//! The place: an anchored baseplate, then parts arranged by `--shape` (models of `--fanout`
//! parts, a flat folder, or chains 25 deep). A `--dynamic` fraction of parts is unanchored
//! and falls onto the baseplate; each tick a `--moved` fraction of anchored parts is moved
//! by a hook in the `Update` phase (a deterministic generator picks them).
//!
//! `arbor serve --stress N` serves the same place (models of 10 parts) with a player
//! spawner added unless `--no-spawner`: a `Walker` character prefab in a top-level `Prefabs`
//! folder and a Luau `Script`, `Workspace.PlayerSpawner` ([`SPAWNER_SOURCE`]), whose
//! `PlayerJoined` handler spawns a `Walker` for every client that joins, at points spread
//! on a spiral around the centre of the place, and binds it to the user (their inputs walk it
//! and their streaming range follows it). The spawner's instances count toward the N.

use crate::TraceArg;
use crate::report;
use arbor_core::{Arena, Class, Id, NodeFlags, Vec3, raw::SplitMix64};
use arbor_sim::{SimConfig, Simulation, TickContext, TickHooks};
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressStyle};
use std::time::Instant;

/// Tree shapes for the synthetic place.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum Shape {
    /// Models of `--fanout` parts under the Workspace.
    Models,
    /// Every part directly in one folder.
    Flat,
    /// Chains of 25 nested parts.
    Deep,
}

/// Options of `arbor stress`.
#[derive(clap::Args, Debug)]
pub struct StressArgs {
    /// Instances to build.
    #[arg(long, default_value_t = 100_000, value_parser = crate::args::instance_count)]
    pub count: usize,
    /// Tree shape.
    #[arg(long, value_enum, default_value_t = Shape::Models)]
    pub shape: Shape,
    /// Parts per model (`--shape models`).
    #[arg(long, default_value_t = 10)]
    pub fanout: usize,
    /// Fraction of parts that are unanchored (simulated).
    #[arg(long, default_value_t = 0.01, value_parser = crate::args::fraction)]
    pub dynamic: f64,
    /// Fraction of anchored parts moved by a script-like hook every tick.
    #[arg(long, default_value_t = 0.01, value_parser = crate::args::fraction)]
    pub moved: f64,
    /// Ticks to run.
    #[arg(long, default_value_t = 600)]
    pub ticks: u64,
    #[command(flatten)]
    trace: TraceArg,
}

/// Builds the synthetic place; returns the arena and the anchored parts a mover may move.
pub fn build(args: &StressArgs, progress: &ProgressBar) -> Result<(Arena, Vec<Id>), String> {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let e = |e: arbor_core::ArenaError| e.to_string();
    let base = arena.create(Class::Part, "Baseplate", Some(ws)).map_err(e)?;
    arena.set_size(base, Vec3::new(4096.0, 20.0, 4096.0)).map_err(e)?;
    arena.set_position(base, Vec3::new(0.0, -10.0, 0.0)).map_err(e)?;
    arena.set_flag(base, NodeFlags::ANCHORED, true).map_err(e)?;
    let mut rng = SplitMix64(0xA7B0);
    let mut anchored = Vec::new();
    let mut parent = ws;
    let mut made = 3usize;
    let side = (args.count as f64).sqrt().ceil().max(1.0) as usize;
    let mut index = 0usize;
    if args.shape == Shape::Flat {
        parent = arena.create(Class::Folder, "Parts", Some(ws)).map_err(e)?;
        made += 1;
    }
    while made < args.count {
        let holder = match args.shape {
            Shape::Models if index.is_multiple_of(args.fanout.max(1)) => {
                parent = arena.create(Class::Model, "Model", Some(ws)).map_err(e)?;
                made += 1;
                parent
            }
            Shape::Deep if index.is_multiple_of(25) => ws,
            Shape::Deep => parent,
            _ => parent,
        };
        let part = arena.create(Class::Part, "Part", Some(holder)).map_err(e)?;
        made += 1;
        let dynamic = (rng.unit() as f64) < args.dynamic;
        let (x, z) = (
            (index % side) as f32 * 6.0 - side as f32 * 3.0,
            (index / side) as f32 * 6.0 - side as f32 * 3.0,
        );
        let local = if args.shape == Shape::Deep && holder != ws {
            Vec3::new(0.0, 1.5, 0.0)
        } else {
            Vec3::new(x, 5.0, z)
        };
        arena.set_position(part, local).map_err(e)?;
        if dynamic && args.shape != Shape::Deep {
            arena.set_position(part, Vec3::new(x, 20.0 + rng.unit() * 40.0, z)).map_err(e)?;
        } else {
            arena.set_flag(part, NodeFlags::ANCHORED, true).map_err(e)?;
            anchored.push(part);
        }
        if args.shape == Shape::Deep {
            parent = part;
        }
        index += 1;
        if made.is_multiple_of(4096) {
            progress.set_position(made as u64);
            arena.drain_events();
        }
    }
    arena.drain_events();
    arena.drain_events();
    progress.set_position(made as u64);
    Ok((arena, anchored))
}

/// The Luau source of the stress place's `Workspace.PlayerSpawner`: every user who joins
/// gets a `Walker` bound to them, the n-th at `spacing` × √n studs from the centre of the
/// place on a golden-angle spiral (neighbours about 1.8 × `spacing` apart: 1,000 players
/// fit within 200 studs), 3 studs up so it drops onto the baseplate under the parts.
pub const SPAWNER_SOURCE: &str = r#"-- The stress place's spawner: every player who joins gets a Walker, bound to them
-- (their inputs walk it, and their streaming range follows it). Spawn points spread out on
-- a sunflower spiral around the centre of the place, so a crowd joining at once does not
-- land in one heap.
local spacing = script:GetAttribute("spacing") or 6
local golden = math.pi * (3 - math.sqrt(5))
local spawned = 0

game.Session.PlayerJoined:Connect(function(userId)
	if game.Session.CharacterOf(userId) ~= nil then
		return
	end
	local character = game.Prefabs.Spawn("Walker")
	if character == nil then
		warn("no Walker prefab")
		return
	end
	local radius = spacing * math.sqrt(spawned)
	local angle = spawned * golden
	spawned += 1
	character.Position = Vector3.new(math.cos(angle) * radius, 3, math.sin(angle) * radius)
	game.Session.BindCharacter(userId, character)
end)
"#;

/// Instances the spawner adds: the `Prefabs` folder, the `Walker` and its root part, and
/// the Script.
const SPAWNER_INSTANCES: usize = 4;

/// Adds the player spawner to `arena`: the `Walker` prefab (a `Character` whose
/// `HumanoidRootPart` is a 2 × 2 × 1 part) in a top-level `Prefabs` folder, and
/// `Workspace.PlayerSpawner` running [`SPAWNER_SOURCE`].
pub fn add_spawner(arena: &mut Arena) -> Result<(), String> {
    let e = |e: arbor_core::ArenaError| format!("adding the player spawner: {e}");
    let prefabs = arena.create(Class::Folder, "Prefabs", Some(arena.root())).map_err(e)?;
    let walker = arena.create(Class::Character, "Walker", Some(prefabs)).map_err(e)?;
    let root = arena.create(Class::Part, arbor_sim::players::HUMANOID_ROOT_PART, Some(walker)).map_err(e)?;
    arena.set_size(root, Vec3::new(2.0, 2.0, 1.0)).map_err(e)?;
    let script = arena.create(Class::Script, "PlayerSpawner", Some(arena.workspace())).map_err(e)?;
    arena.set_script_source(script, SPAWNER_SOURCE).map_err(e)?;
    arena.set_attribute(script, "spacing", Some(arbor_core::AttributeValue::Number(6.0))).map_err(e)?;
    arena.drain_events();
    arena.drain_events();
    Ok(())
}

/// The stress place of `count` instances (models of 10 parts, 1% dynamic; with the player
/// spawner when `spawner`) and the hook that moves a `moved` fraction of its anchored parts
/// every tick: what `arbor serve --stress N` serves.
pub fn synthetic(
    count: usize,
    moved: f64,
    spawner: bool,
) -> Result<(Arena, impl TickHooks + 'static), String> {
    let args = StressArgs {
        count: if spawner { count.saturating_sub(SPAWNER_INSTANCES).max(1) } else { count },
        shape: Shape::Models,
        fanout: 10,
        dynamic: 0.01,
        moved,
        ticks: 0,
        trace: TraceArg { trace: None },
    };
    let (mut arena, anchored) = build(&args, &ProgressBar::hidden())?;
    if spawner {
        add_spawner(&mut arena)?;
    }
    let per_tick = ((anchored.len() as f64) * moved).round() as usize;
    Ok((arena, Mover { parts: anchored, per_tick, rng: SplitMix64(7) }))
}

/// Moves a fraction of anchored parts every tick.
struct Mover {
    parts: Vec<Id>,
    per_tick: usize,
    rng: SplitMix64,
}

impl TickHooks for Mover {
    fn update(&mut self, ctx: &mut TickContext<'_>, _dt: f64) {
        if self.parts.is_empty() {
            return;
        }
        for _ in 0..self.per_tick {
            let id = self.parts[(self.rng.next() % self.parts.len() as u64) as usize];
            if let Some(p) = ctx.arena.get(id).map(|n| n.position()) {
                let _ = ctx.arena.set_position(id, p + Vec3::new(0.0, 0.0, self.rng.unit() - 0.5));
            }
        }
    }
}

/// Runs `arbor stress`.
pub fn run(args: StressArgs) -> Result<(), String> {
    crate::args::check_trace_path(args.trace.trace.as_deref())?;
    if args.fanout == 0 {
        return Err("--fanout must be at least 1".to_owned());
    }
    let progress = ProgressBar::new(args.count as u64);
    progress.set_style(
        ProgressStyle::with_template("building {bar:40} {pos}/{len} instances ({per_sec}, eta {eta})")
            .map_err(|e| e.to_string())?,
    );
    let t0 = Instant::now();
    let (arena, anchored) = build(&args, &progress)?;
    progress.finish_and_clear();
    let built = t0.elapsed();
    let per_tick = ((anchored.len() as f64) * args.moved).round() as usize;
    let t1 = Instant::now();
    let mut sim = Simulation::new(arena, SimConfig::default()).map_err(|e| e.to_string())?;
    let setup = t1.elapsed();
    println!(
        "built {} instances ({:?} shape, {:.1}% dynamic, {} moved per tick) in {:.2} s; first transform pass and physics setup {:.2} s",
        sim.arena.len(),
        args.shape,
        args.dynamic * 100.0,
        per_tick,
        built.as_secs_f64(),
        setup.as_secs_f64()
    );
    sim.add_hooks(Mover { parts: anchored, per_tick, rng: SplitMix64(7) });
    if args.trace.trace.is_some() {
        sim.profiler_mut().enable_trace();
    }
    let t2 = Instant::now();
    sim.run(args.ticks);
    let wall = t2.elapsed();
    println!("{}", sim.profiler().table());
    let totals = sim.profiler().totals();
    println!(
        "{} ticks in {:.2} s: {:.0} ticks/s ({:.2} ms per tick; budget 16.67 ms); {} transforms recomputed, {} awake bodies at the end ({} suspended in crowded cells, {} of {} bodies dormant anchored parts), {} destroyed, {} events",
        args.ticks,
        wall.as_secs_f64(),
        args.ticks as f64 / wall.as_secs_f64().max(1e-9),
        wall.as_secs_f64() * 1e3 / args.ticks.max(1) as f64,
        totals.transforms_recomputed,
        totals.awake_bodies,
        totals.suspended_bodies,
        sim.physics.dormant_parts(),
        sim.physics.body_count(),
        totals.destroyed,
        totals.events
    );
    print!("{}", report::memory(&sim));
    report::write_trace(&sim, args.trace.trace.as_deref())
}
