//! Collider geometry from a part's shape and size.
//!
//! `Block` → cuboid with half-extents `size / 2`; `Ball` → ball of radius `size.x / 2`;
//! `Cylinder` → cylinder along the part's X axis, length `size.x`, radius `size.y / 2`. rapier's
//! cylinder runs along its local Y axis, so that collider sits in the body turned by −90°
//! about Z (local Y onto X). Sizes are sanitised first: each extent is clamped to
//! [`MIN_EXTENT`](super::MIN_EXTENT)..=[`MAX_EXTENT`](super::MAX_EXTENT), and a non-finite
//! extent becomes the minimum (parry's contact solvers panic on extents near 1e19).

use super::{MAX_EXTENT, MIN_EXTENT};
use arbor_core::{Shape, Vec3};
use rapier3d::parry::query::RayCast;
use rapier3d::parry::shape::{Ball, Cuboid, Cylinder, Shape as _};
use rapier3d::prelude::{Aabb, Pose, Ray, RayIntersection, SharedShape};

/// `size` with every extent finite and within [`MIN_EXTENT`]..=[`MAX_EXTENT`].
#[inline]
pub(super) fn sanitize(size: Vec3) -> Vec3 {
    let fix = |v: f32| if v.is_finite() { v.clamp(MIN_EXTENT, MAX_EXTENT) } else { MIN_EXTENT };
    Vec3::new(fix(size.x), fix(size.y), fix(size.z))
}

/// The collider shape of a part and its pose relative to the part's body.
pub(super) fn geometry(shape: Shape, size: Vec3) -> (SharedShape, Pose) {
    let half = sanitize(size) * 0.5;
    match shape {
        Shape::Block => (SharedShape::cuboid(half.x, half.y, half.z), Pose::IDENTITY),
        Shape::Ball => (SharedShape::ball(half.x), Pose::IDENTITY),
        Shape::Cylinder => (SharedShape::cylinder(half.x, half.y), cylinder_offset()),
    }
}

/// The collider's AABB for a body at `body_pose`, as rapier computes it from
/// [`geometry`], without building the collider (for dormant parts, which have none).
pub(super) fn aabb(shape: Shape, size: Vec3, body_pose: &Pose) -> Aabb {
    let half = sanitize(size) * 0.5;
    match shape {
        Shape::Block => Cuboid::new(half).compute_aabb(body_pose),
        Shape::Ball => Ball::new(half.x).compute_aabb(body_pose),
        Shape::Cylinder => Cylinder::new(half.x, half.y).compute_aabb(&(body_pose * cylinder_offset())),
    }
}

/// The ray's hit on the collider of a body at `body_pose`, as [`aabb`] without building it.
pub(super) fn cast_ray(
    shape: Shape,
    size: Vec3,
    body_pose: &Pose,
    ray: &Ray,
    max: f32,
) -> Option<RayIntersection> {
    let half = sanitize(size) * 0.5;
    match shape {
        Shape::Block => Cuboid::new(half).cast_ray_and_get_normal(body_pose, ray, max, true),
        Shape::Ball => Ball::new(half.x).cast_ray_and_get_normal(body_pose, ray, max, true),
        Shape::Cylinder => Cylinder::new(half.x, half.y).cast_ray_and_get_normal(
            &(body_pose * cylinder_offset()),
            ray,
            max,
            true,
        ),
    }
}

fn cylinder_offset() -> Pose {
    Pose::from_rotation(glam::Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cylinder_runs_along_x() {
        let (shape, offset) = geometry(Shape::Cylinder, Vec3::new(6.0, 2.0, 2.0));
        let aabb = shape.compute_aabb(&offset);
        let extents = aabb.maxs - aabb.mins;
        assert!((extents.x - 6.0).abs() < 1e-4, "{extents:?}");
        assert!((extents.y - 2.0).abs() < 1e-4, "{extents:?}");
        assert!((extents.z - 2.0).abs() < 1e-4, "{extents:?}");
    }

    #[test]
    fn bounds_and_rays_without_a_collider_match_the_collider() {
        let pose = Pose::new(glam::Vec3::new(3.0, -2.0, 7.0), glam::Vec3::new(0.3, 1.1, -0.4));
        let ray = Ray::new(glam::Vec3::new(3.0, 40.0, 7.0), glam::Vec3::NEG_Y);
        for shape in [Shape::Block, Shape::Ball, Shape::Cylinder] {
            let size = Vec3::new(6.0, 2.0, 3.0);
            let (geometry, offset) = geometry(shape, size);
            let expected = geometry.compute_aabb(&(pose * offset));
            assert_eq!(aabb(shape, size, &pose), expected, "{shape:?}");
            let hit = geometry.cast_ray_and_get_normal(&(pose * offset), &ray, 100.0, true);
            let ours = cast_ray(shape, size, &pose, &ray, 100.0).map(|h| (h.time_of_impact, h.normal));
            assert_eq!(ours, hit.map(|h| (h.time_of_impact, h.normal)), "{shape:?}");
            assert!(ours.is_some(), "{shape:?}");
        }
    }

    #[test]
    fn bad_sizes_are_clamped() {
        let s = sanitize(Vec3::new(-1.0, f32::NAN, 0.0));
        assert_eq!(s, Vec3::splat(MIN_EXTENT));
        assert_eq!(sanitize(Vec3::new(4.0, 1.0, 2.0)), Vec3::new(4.0, 1.0, 2.0));
        assert_eq!(sanitize(Vec3::new(1e20, 2.0, f32::MAX)), Vec3::new(MAX_EXTENT, 2.0, MAX_EXTENT));
    }
}
