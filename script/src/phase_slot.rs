//! [`PhaseSlot`]: where a value the host owns lives while scripts run — moved into the VM at
//! the start of a phase and moved back at its end, borrowed by callbacks through a
//! `RefCell` in between. The world ([`WorldSlot`](crate::state::WorldSlot)) and the sessions
//! ([`PlayersSlot`](crate::session::PlayersSlot)) each have one.
//!
//! Invariant: the slot holds `Some` exactly during a phase; a borrow that finds it borrowed
//! already or empty fails with the value's own message ([`PhaseValue`]), never panics.

use std::cell::{RefCell, RefMut};

/// A value kept in a [`PhaseSlot`], with the messages a failed borrow gives.
pub trait PhaseValue {
    /// Why the value could not be borrowed: something holds it already.
    const BUSY: &'static str;
    /// Why the value could not be borrowed: it is not in the VM (outside a phase).
    const ABSENT: &'static str;
}

/// Where a `T` lives while scripts run: `Some` during a phase, `None` between phases.
pub struct PhaseSlot<T>(RefCell<Option<T>>);

impl<T> Default for PhaseSlot<T> {
    fn default() -> Self {
        Self(RefCell::new(None))
    }
}

impl<T: PhaseValue> PhaseSlot<T> {
    /// Borrows the value, or says why it cannot be borrowed.
    pub fn borrow(&self) -> Result<RefMut<'_, T>, &'static str> {
        let guard = self.0.try_borrow_mut().map_err(|_| T::BUSY)?;
        RefMut::filter_map(guard, Option::as_mut).map_err(|_| T::ABSENT)
    }

    /// Moves `value` in (start of a phase).
    pub fn put(&self, value: T) {
        *self.0.borrow_mut() = Some(value);
    }

    /// Moves the value out (end of a phase).
    pub fn take(&self) -> Option<T> {
        self.0.borrow_mut().take()
    }
}
