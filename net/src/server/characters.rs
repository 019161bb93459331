//! The server's half of prediction (`docs/networking.md`, "Prediction and reconciliation"):
//! each client's numbered commands go through its [`CommandQueue`], one per physics tick, into
//! the sessions' movement input; every network tick each client is sent a [`CharacterState`]
//! with the newest command applied, how many of its commands wait, and its character's root
//! part state after the step.
//!
//! Invariants: exactly one command (or the previous one, repeated) is applied per client per
//! tick; a client that sends no commands (a raw test, a minimal client) moves by the intent
//! fields of its newest input; the state message names the character the client was told it
//! owns.

use super::NetServer;
use crate::prediction::command_axis;
use crate::transport::SNAPSHOTS;
use crate::wire::{BodyState, CharacterState};
use arbor_core::Arena;
use arbor_sim::physics::Physics;
use arbor_sim::players::{MoveInput, Players, root_part};

impl NetServer {
    /// Hands each client's command for this tick to the sessions: the next from its queue, or
    /// the intent of its newest input if it never sent a command.
    pub(super) fn feed_inputs(&mut self, players: &mut Players) {
        for (&user, slot) in self.clients.iter_mut() {
            let i = slot.last_input;
            let (movement, buttons) =
                slot.commands.next_step().map_or((i.movement, i.buttons), |c| (c.movement, c.buttons));
            let direction = movement.map(command_axis);
            players.set_input(user, MoveInput { direction, jump: buttons & 1 != 0 });
        }
    }

    /// Notes each client's character's root part state after this tick's physics step.
    pub(super) fn note_character_bodies(&mut self, arena: &Arena, physics: &Physics) {
        for slot in self.clients.values_mut() {
            slot.body = slot.told_character.and_then(|character| {
                let body = physics.body(root_part(arena, character)?)?;
                let (position, velocity) = (body.translation(), body.linvel());
                (position.is_finite() && velocity.is_finite()).then_some(BodyState {
                    character,
                    position,
                    velocity,
                })
            });
        }
    }

    /// Queues every joined client's [`CharacterState`] for this network tick, after its
    /// snapshot messages (the same epoch): the clients that sent a command or own a
    /// character.
    pub(super) fn send_character_states(&mut self) {
        let epoch = self.mirror.epoch();
        for (&user, slot) in &mut self.clients {
            if !slot.view.is_joined() || (slot.commands.applied() == 0 && slot.body.is_none()) {
                continue;
            }
            let state = CharacterState {
                epoch,
                acked: slot.commands.applied(),
                irregular: slot.commands.irregular(),
                queued: slot.commands.len().min(usize::from(u8::MAX)) as u8,
                body: slot.body.take(),
            };
            self.renet.send_message(user, SNAPSHOTS, state.encode());
        }
    }
}
