//! [`InputFeed`]: the replay's stand-in for the transport. In the AdmitPlayers phase, where
//! the network would be read, it makes the calls on the sessions that the log journaled for
//! that tick, in their order; at the end of each tick it drops the kicks the sessions
//! processed (the transport would have sent them; nobody is connected to a replay).

use super::log::TickLine;
use arbor_sim::{SessionInput, TickContext, TickHooks};
use std::rc::Rc;

/// Feeds a log's inputs to the sessions, tick by tick.
pub struct InputFeed {
    ticks: Rc<[TickLine]>,
}

impl InputFeed {
    /// A feed of `ticks`.
    pub fn new(ticks: Rc<[TickLine]>) -> InputFeed {
        InputFeed { ticks }
    }
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
    }
}
