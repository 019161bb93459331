//! The host in the tick: [`TickHooks`] for [`ScriptHost`], each phase running with the world
//! (and the sessions) moved into the VM for its duration.

use super::ScriptHost;
use crate::budget;
use crate::log::Level;
use crate::session::{self};
use arbor_core::{Id, InstanceEvent};
use arbor_sim::{TickContext, TickHooks};

impl TickHooks for ScriptHost {
    fn start_scripts(&mut self, ctx: &mut TickContext<'_>) {
        if let Some(line) = self.share.report() {
            self.push_log(Level::Warn, line);
        }
        self.share.begin_tick(ctx.tick);
        self.with_tick_in(ctx, |h| h.start_pending());
    }

    fn admit_players(&mut self, ctx: &mut TickContext<'_>) {
        if ctx.players.leaving().is_empty() && ctx.players.pending_joins() == 0 {
            return;
        }
        self.with_tick_in(ctx, |h| {
            let fired = session::fire_joins_and_leaves(&h.lua, h.root);
            h.log_failure("game.Session", fired);
        });
    }

    fn update(&mut self, ctx: &mut TickContext<'_>, dt: f64) {
        self.share.enter_phase(ctx.tick);
        let time = ctx.time;
        let users: Vec<u64> = ctx.players.user_ids().collect();
        let world_tick = ctx.tick + self.clock_offset;
        self.with_tick_in(ctx, |h| {
            crate::store::deliver(&h.lua, time, &users);
            h.run_callbacks(false, dt);
            h.run_moment(world_tick, dt);
        });
    }

    fn systems(&mut self, ctx: &mut TickContext<'_>, dt: f64) {
        self.share.enter_phase(ctx.tick);
        self.with_tick_in(ctx, |h| {
            let fired = session::fire_deaths(&h.lua, h.root);
            h.log_failure("game.Session.CharacterDied", fired);
            h.run_systems(dt)
        });
    }

    fn physics_update(&mut self, ctx: &mut TickContext<'_>, dt: f64) {
        self.share.enter_phase(ctx.tick);
        self.with_tick_in(ctx, |h| h.run_callbacks(true, dt));
    }

    fn end_tick(&mut self, _ctx: &mut TickContext<'_>) {
        crate::store::end_tick(&self.lua);
    }

    fn count(&mut self, counters: &mut arbor_sim::TickCounters) {
        counters.script_wall_aborts += budget::wall_aborts_since_last_count() as usize;
    }

    fn events(&mut self, _ctx: &mut TickContext<'_>, events: &[InstanceEvent]) {
        let destroyed: Vec<Id> = events
            .iter()
            .filter_map(|e| match e {
                InstanceEvent::Destroyed { subtree, .. } => Some(subtree.iter().copied()),
                _ => None,
            })
            .flatten()
            .collect();
        if !destroyed.is_empty() {
            self.retire(&destroyed);
        }
    }
}
