//! The character controller's physics half: [`Physics::drive_character`] turns a movement
//! intent into the velocity of a character's root part and probes the floor under it.
//!
//! A character is a *dynamic* body with its rotations locked (it stays upright and is pushed
//! by, and pushes, the world): each physics step the controller sets its horizontal velocity
//! to the intent times the walk speed, keeps the vertical velocity gravity gave it, and on a
//! jump while standing sets the vertical velocity to the jump speed. The floor is found with
//! one ray cast straight down from the body's centre that skips the body itself; the body
//! stands when the ray hits within its half height plus [`FLOOR_PROBE_MARGIN`].
//!
//! Invariant: only the root part's own body is touched, and only its velocity and locked
//! axes; its pose stays rapier's, written back by `write_back` like any other body.

use super::{Physics, QUERY, RayHit};
use arbor_core::Id;
use glam::Vec3;
use rapier3d::prelude::{LockedAxes, QueryFilter};

/// Studs below a character's feet that still count as standing on the floor.
pub const FLOOR_PROBE_MARGIN: f32 = 0.6;

/// What a character wants this step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterDrive {
    /// Horizontal velocity wanted, studs/s (the `y` component is ignored).
    pub velocity: Vec3,
    /// Jump speed, studs/s, when a jump is asked for; applied only while standing.
    pub jump: Option<f32>,
}

/// What the controller found under a character and did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Footing {
    /// The part under the character's feet, if it stands on one.
    pub floor: Option<RayHit>,
    /// Whether a jump was applied this step.
    pub jumped: bool,
    /// The body's velocity after the drive.
    pub velocity: Vec3,
}

impl Physics {
    /// Drives the dynamic body of part `root` (a character's root part) for one step: locks
    /// its rotations, probes the floor, sets its velocity. `None` when the part has no
    /// dynamic body (anchored, not in the world, out of the simulated extent).
    pub fn drive_character(&mut self, root: Id, half_height: f32, drive: CharacterDrive) -> Option<Footing> {
        let handle = self.entry(root)?.body;
        let body = self.world.bodies.get(handle)?;
        if !body.is_dynamic() {
            return None;
        }
        let origin = body.translation();
        let current = body.linvel();
        let reach = half_height.max(0.0) + FLOOR_PROBE_MARGIN;
        let filter = QueryFilter::default().groups(QUERY).exclude_rigid_body(handle);
        let floor = self.cast_ray(origin, Vec3::NEG_Y, reach, filter);
        let wanted = if drive.velocity.is_finite() { drive.velocity } else { Vec3::ZERO };
        let mut velocity = Vec3::new(wanted.x, current.y, wanted.z);
        let jump = drive.jump.filter(|j| j.is_finite() && *j > 0.0);
        let jumped = floor.is_some() && jump.is_some() && current.y <= 1.0;
        if jumped {
            velocity.y = jump.unwrap_or(0.0);
        }
        let body = self.world.bodies.get_mut(handle)?;
        if body.locked_axes() != LockedAxes::ROTATION_LOCKED {
            body.set_locked_axes(LockedAxes::ROTATION_LOCKED, true);
        }
        if velocity != current {
            body.set_linvel(velocity, true);
        }
        Some(Footing { floor, jumped, velocity })
    }
}
