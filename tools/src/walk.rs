//! Walking a character from a replica: where the client's own character stands
//! ([`character_position`]) and the movement input that walks it toward a goal ([`steer`]).
//! Shared by `arbor bots` and `arbor client`.

use arbor_net::Client;
use glam::Vec3;

/// Where `client`'s character stands, from its replica: the root part (its child
/// `HumanoidRootPart`, else its first Part child) composed with the character's transform.
pub fn character_position(client: &Client) -> Option<Vec3> {
    use arbor_sim::players::HUMANOID_ROOT_PART;
    let replica = client.replica();
    let arena = replica.arena();
    let character = arena.get(replica.local(client.local_character()?))?;
    let parts = || {
        arena
            .children(character.id())
            .filter_map(|c| arena.get(c))
            .filter(|n| n.class() == arbor_core::Class::Part)
    };
    let root =
        parts().find(|n| arena.name_of(n.id()) == Some(HUMANOID_ROOT_PART)).or_else(|| parts().next())?;
    Some(character.position() + character.rotation() * root.position())
}

/// The movement input that walks a character at `at` toward `goal` on X and Z: full speed
/// from 4 studs out, slowing to a stop on it.
pub fn steer(at: Vec3, goal: Vec3) -> [i8; 2] {
    let d = Vec3::new(goal.x - at.x, 0.0, goal.z - at.z);
    let distance = d.length();
    if !distance.is_finite() || distance < 0.5 {
        return [0, 0];
    }
    let v = d / distance * (distance / 4.0).min(1.0) * 127.0;
    [v.x as i8, v.z as i8]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steering_walks_toward_the_goal_and_stops_on_it() {
        assert_eq!(steer(Vec3::ZERO, Vec3::new(100.0, 50.0, 0.0)), [127, 0]);
        assert_eq!(steer(Vec3::new(3.0, 1.0, 3.0), Vec3::new(3.0, 0.0, 3.2)), [0, 0]);
        let [x, z] = steer(Vec3::ZERO, Vec3::new(0.0, 0.0, -2.0));
        assert_eq!((x, z), (0, -63));
        assert_eq!(steer(Vec3::ZERO, Vec3::splat(f32::NAN)), [0, 0]);
    }
}
