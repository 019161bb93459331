//! [`InputFeed`]: the replay's stand-in for the transport. In the AdmitPlayers phase, where
//! the network would be read, it makes the calls on the sessions that the log journaled for
//! that tick, in their order; at the end of each tick it drops the kicks the sessions
//! processed (the transport would have sent them; nobody is connected to a replay), and
//! hands the script meter the wall-clock aborts journaled for the next tick (for the first
//! tick, when it is made), so the same entries stop at the same points.

use super::log::TickLine;
use arbor_sim::{TickContext, TickHooks, players::SessionInput};
use std::rc::Rc;

/// Feeds a log's inputs to the sessions, tick by tick.
pub struct InputFeed {
    ticks: Rc<[TickLine]>,
}

impl InputFeed {
    /// A feed of `ticks`.
    pub fn new(ticks: Rc<[TickLine]>) -> InputFeed {
        expect_aborts_of(&ticks, 0);
        InputFeed { ticks }
    }
}

/// Hands the meter the wall-clock aborts journaled for tick `tick` (none past the log).
fn expect_aborts_of(ticks: &[TickLine], tick: u64) {
    let line = usize::try_from(tick).ok().and_then(|t| ticks.get(t));
    let aborts = line.map(|l| l.wall_aborts.iter().map(|&a| a.into()).collect()).unwrap_or_default();
    arbor_script::budget::expect_wall_aborts(aborts);
}

impl TickHooks for InputFeed {
    fn receive(&mut self, ctx: &mut TickContext<'_>) {
        let Some(line) = usize::try_from(ctx.tick).ok().and_then(|t| self.ticks.get(t)) else { return };
        for input in &line.inputs {
            ctx.players.apply(ctx.arena, &SessionInput::from(input));
        }
    }

    fn end_tick(&mut self, ctx: &mut TickContext<'_>) {
        ctx.players.take_kicked();
        expect_aborts_of(&self.ticks, ctx.tick + 1);
    }
}
