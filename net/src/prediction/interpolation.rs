//! [`Interpolator`]: how other players' characters are shown. Each arrives as positions in
//! snapshots, dated on the server's timeline (a snapshot of epoch `e` is the server's state at
//! `e × network tick`); the interpolator keeps a few per character and shows each at
//! `server clock − INTERPOLATION_DELAY`, linearly between the two samples around that time,
//! so a lost or late snapshot is bridged rather than seen as a stop and a jump.
//!
//! The server clock is estimated from the newest snapshot time: it advances with the frame
//! time, never goes back, jumps forward to a newer snapshot time, and stays within
//! [`MAX_CLOCK_LEAD`] of the newest one (no runaway while nothing arrives).
//!
//! A character that stood still is absent from the snapshots (nothing changed): when it
//! moves again after more than [`STILL_AFTER_TICKS`] network ticks without a sample, a
//! "still here" sample one network tick before the new one is added, so its motion starts at
//! the right time instead of being spread over its rest. A shorter gap is taken for lost
//! snapshots (the character kept moving) and bridged linearly.
//!
//! Invariants: each buffer is in rising time order, holds at most [`MAX_SAMPLES`] samples;
//! a sample at or before a buffer's newest time is ignored; before the first sample's time
//! the first is shown, past the newest the newest (no extrapolation).

use arbor_core::Id;
use glam::Vec3;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// How far behind the estimated server clock others are shown: two network ticks at 30 Hz.
pub const INTERPOLATION_DELAY: f64 = 2.0 / 30.0;

/// Samples kept per character (half a second at 30 Hz).
pub const MAX_SAMPLES: usize = 16;

/// A gap of more network ticks than this between two samples of a character means it stood
/// still (a shorter one: snapshots were lost while it moved).
pub const STILL_AFTER_TICKS: f64 = 3.0;

/// How far the estimated server clock may run past the newest snapshot time, seconds.
pub const MAX_CLOCK_LEAD: f64 = 0.25;

/// Buffers of other characters' positions by server time.
#[derive(Clone, Debug)]
pub struct Interpolator {
    buffers: FxHashMap<Id, VecDeque<(f64, Vec3)>>,
    clock: f64,
    newest: f64,
    /// Seconds between network ticks.
    tick: f64,
    delay: f64,
}

impl Default for Interpolator {
    fn default() -> Self {
        Self::new(2.0 / 60.0)
    }
}

impl Interpolator {
    /// Empty, for snapshots every `tick` seconds, showing at [`INTERPOLATION_DELAY`].
    pub fn new(tick: f64) -> Self {
        Self {
            buffers: FxHashMap::default(),
            clock: 0.0,
            newest: 0.0,
            tick: if tick.is_finite() && tick > 0.0 { tick } else { 2.0 / 60.0 },
            delay: INTERPOLATION_DELAY,
        }
    }

    /// Sets the seconds between network ticks (the server's `network_every` / 60).
    pub fn set_tick(&mut self, tick: f64) {
        if tick.is_finite() && tick > 0.0 {
            self.tick = tick;
        }
    }

    /// Seconds between network ticks.
    pub fn tick(&self) -> f64 {
        self.tick
    }

    /// A snapshot of server time `time` arrived: the clock catches up with it.
    pub fn observe(&mut self, time: f64) {
        if time.is_finite() && time > self.newest {
            self.newest = time;
            self.clock = self.clock.max(time);
        }
    }

    /// `dt` seconds of frame time passed.
    pub fn advance(&mut self, dt: f64) {
        if dt.is_finite() && dt > 0.0 {
            self.clock = (self.clock + dt).min(self.newest + MAX_CLOCK_LEAD);
        }
    }

    /// The estimated server clock, seconds.
    pub fn clock(&self) -> f64 {
        self.clock
    }

    /// The server time others are shown at.
    pub fn render_time(&self) -> f64 {
        self.clock - self.delay
    }

    /// Records `position` of `id` at server time `time`.
    pub fn push(&mut self, id: Id, time: f64, position: Vec3) {
        if !(time.is_finite() && position.is_finite()) {
            return;
        }
        let buffer = self.buffers.entry(id).or_default();
        if let Some(&(last_time, last)) = buffer.back() {
            if time <= last_time {
                return;
            }
            if time - last_time > self.tick * (STILL_AFTER_TICKS + 0.5) {
                buffer.push_back((time - self.tick, last));
            }
        }
        buffer.push_back((time, position));
        while buffer.len() > MAX_SAMPLES {
            buffer.pop_front();
        }
    }

    /// Where `id` is shown now ([`render_time`](Self::render_time)).
    pub fn position(&self, id: Id) -> Option<Vec3> {
        self.position_at(id, self.render_time())
    }

    /// Where `id` is shown at server time `time`.
    pub fn position_at(&self, id: Id, time: f64) -> Option<Vec3> {
        let buffer = self.buffers.get(&id)?;
        let after = buffer.iter().position(|&(t, _)| t >= time);
        match after {
            None => buffer.back().map(|s| s.1),
            Some(0) => buffer.front().map(|s| s.1),
            Some(i) => {
                let (t0, p0) = buffer[i - 1];
                let (t1, p1) = buffer[i];
                let f = ((time - t0) / (t1 - t0)).clamp(0.0, 1.0) as f32;
                Some(p0.lerp(p1, f))
            }
        }
    }

    /// The characters with samples.
    pub fn ids(&self) -> impl Iterator<Item = Id> + '_ {
        self.buffers.keys().copied()
    }

    /// Keeps only the characters `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(Id) -> bool) {
        self.buffers.retain(|&id, _| keep(id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_interpolate_between_samples_at_the_delayed_clock() {
        let mut i = Interpolator::new(1.0 / 30.0);
        let id = Id(5);
        for k in 0..10 {
            let t = f64::from(k) / 30.0;
            i.push(id, t, Vec3::new(k as f32, 0.0, 0.0));
            i.observe(t);
        }
        // The clock is at the newest (0.3 s); shown two ticks behind: sample 7.
        assert!((i.position(id).unwrap().x - 7.0).abs() < 1e-4);
        i.advance(1.0 / 60.0);
        assert!((i.position(id).unwrap().x - 7.5).abs() < 1e-3);
        assert!((i.position_at(id, -1.0).unwrap().x).abs() < 1e-6);
        assert_eq!(i.position_at(id, 9.0), Some(Vec3::new(9.0, 0.0, 0.0)));
        // The clock does not run away while nothing arrives.
        for _ in 0..100 {
            i.advance(0.1);
        }
        assert!(i.clock() <= 0.3 + MAX_CLOCK_LEAD + 1e-9);
        assert_eq!(i.position(Id(6)), None);
    }

    #[test]
    fn a_character_that_stood_still_starts_moving_on_time_and_old_samples_are_ignored() {
        let mut i = Interpolator::new(0.1);
        let id = Id(9);
        i.push(id, 0.0, Vec3::ZERO);
        i.push(id, 1.0, Vec3::X);
        // Still at the origin until 0.9, then moving.
        assert_eq!(i.position_at(id, 0.5), Some(Vec3::ZERO));
        assert!((i.position_at(id, 0.95).unwrap().x - 0.5).abs() < 1e-4);
        // Two ticks without a sample: a lost snapshot, bridged linearly.
        i.push(id, 1.2, Vec3::new(3.0, 0.0, 0.0));
        assert!((i.position_at(id, 1.1).unwrap().x - 2.0).abs() < 1e-4);
        i.push(id, 0.5, Vec3::Y);
        assert_eq!(i.position_at(id, 0.5), Some(Vec3::ZERO));
        for k in 0..40 {
            i.push(id, 2.0 + f64::from(k), Vec3::ONE);
        }
        assert!(i.buffers[&id].len() <= MAX_SAMPLES);
        i.retain(|_| false);
        assert_eq!(i.ids().count(), 0);
    }
}
