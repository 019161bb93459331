//! `pairs` that iterates Instance-keyed tables in the same order on every run.
//!
//! Luau places a userdata key in a table's hash part by its address, so `pairs` over a table
//! keyed by Instances would visit them in an order that changes from one process to the next
//! (address-space randomisation), and whatever a script does in that order (spawn, write,
//! send) would make a replay diverge. The base environment's `pairs` is replaced by
//! [`deterministic_pairs`]: a table without Instance keys gets Luau's own `next` (so the VM's
//! fast `pairs` loop is kept and nothing changes); a table with one has its keys sorted here
//! (numbers, strings by bytes, `false` before `true`, Instances by id; other reference keys,
//! tables and functions, last in Luau's order and not covered) and is walked by the iterator
//! of `ordered_pairs.luau`.
//!
//! Invariants: for tables without Instance keys this `pairs` returns exactly what Luau's does
//! (`next, t, nil`); anything but a table goes to Luau's `pairs` for its error. Every call
//! charges the running entry one instance visit per key of the table, in both paths (a count
//! that does not depend on addresses, so budgets stop scripts at the same point in a replay).

use crate::luau::handle_at;
use mlua::{Function, Lua, Result, Table, ffi};
use std::cmp::Ordering;
use std::ffi::c_int;

const ORDERED: &str = include_str!("ordered_pairs.luau");

/// Replaces `base.pairs` (Luau's) with [`deterministic_pairs`].
pub fn install(lua: &Lua, base: &Table) -> Result<()> {
    let native_pairs: Function = base.raw_get("pairs")?;
    let native_next: Function = base.raw_get("next")?;
    let ordered: Function = lua.load(ORDERED).set_name("=arbor-pairs").call(())?;
    // SAFETY: `exec_raw` runs the closure protected on a valid state with room to push; the
    // three upvalues are pushed, then captured by the closure, which is the only value left.
    let pairs: Function = unsafe {
        lua.exec_raw((native_next, ordered, native_pairs), |state| {
            ffi::lua_pushcclosurek(state, deterministic_pairs, c"pairs".as_ptr(), 3, None);
        })
    }?;
    base.raw_set("pairs", pairs)
}

/// `pairs(t)`: upvalues 1 = Luau's `next`, 2 = the ordered iterator factory, 3 = Luau's
/// `pairs`.
///
/// # Safety
/// Only the VM calls this, as the `pairs` closure made by [`install`] (upvalues 1–3 as above),
/// with the call's arguments and LUA_MINSTACK free slots. It may raise a Lua error; its
/// frames own nothing.
unsafe extern "C-unwind" fn deterministic_pairs(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by the VM with its arguments on the stack; `luaL_checkstack` makes room
    // for the pushes below (at most six at once), each balanced by a pop or returned.
    unsafe {
        ffi::luaL_checkstack(state, 6, c"pairs".as_ptr());
        if ffi::lua_type(state, 1) != ffi::LUA_TTABLE {
            let args = ffi::lua_gettop(state);
            ffi::lua_pushvalue(state, ffi::lua_upvalueindex(3));
            ffi::lua_insert(state, 1);
            ffi::lua_call(state, args, 3);
            return 3;
        }
        ffi::lua_settop(state, 1);
        if let Some(keys) = keys_without_instances(state) {
            // An exhausted entry raises at its next interrupt, so the result can be ignored.
            let _ = crate::budget::charge_instances(keys);
            ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
            ffi::lua_pushvalue(state, 1);
            ffi::lua_pushnil(state);
            return 3;
        }
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(2));
        ffi::lua_pushvalue(state, 1);
        let n = push_sorted_keys(state);
        let _ = crate::budget::charge_instances(n);
        ffi::lua_pushinteger(state, n as _);
        ffi::lua_call(state, 3, 3);
        3
    }
}

/// The number of keys of the table at index 1, or None if one of them is an Instance (a scan
/// with `lua_rawiter`, which walks slots by index, unlike `lua_next`, which looks its key up
/// again at every step).
///
/// # Safety
/// `state` is a live thread with a table at index 1 and two free stack slots.
unsafe fn keys_without_instances(state: *mut ffi::lua_State) -> Option<usize> {
    let mut keys = 0;
    // SAFETY: per the contract; each step pushes a key and a value, both popped before the
    // next.
    unsafe {
        let mut iter = 0;
        loop {
            iter = ffi::lua_rawiter(state, 1, iter);
            if iter < 0 {
                return Some(keys);
            }
            let instance = ffi::lua_type(state, -2) == ffi::LUA_TUSERDATA && handle_at(state, -2).is_some();
            ffi::lua_pop(state, 2);
            if instance {
                return None;
            }
            keys += 1;
        }
    }
}

/// A key's place in the order; keys of rank `Other` compare equal (a stable sort keeps them
/// in Luau's order).
#[derive(Debug, PartialEq)]
enum SortKey {
    Number(f64),
    String(Vec<u8>),
    Boolean(bool),
    Instance(u64),
    Other,
}

impl SortKey {
    fn rank(&self) -> u8 {
        match self {
            SortKey::Number(_) => 0,
            SortKey::String(_) => 1,
            SortKey::Boolean(_) => 2,
            SortKey::Instance(_) => 3,
            SortKey::Other => 4,
        }
    }

    fn order(&self, other: &SortKey) -> Ordering {
        match (self, other) {
            (SortKey::Number(a), SortKey::Number(b)) => a.total_cmp(b),
            (SortKey::String(a), SortKey::String(b)) => a.cmp(b),
            (SortKey::Boolean(a), SortKey::Boolean(b)) => a.cmp(b),
            (SortKey::Instance(a), SortKey::Instance(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }

    /// The sort key of the value at `idx`.
    ///
    /// # Safety
    /// `state` is a live thread and `idx` an acceptable index of its stack.
    unsafe fn at(state: *mut ffi::lua_State, idx: c_int) -> SortKey {
        // SAFETY: per the contract; `lua_tolstring` is only called on a string, so it does
        // not convert the value in place.
        unsafe {
            match ffi::lua_type(state, idx) {
                ffi::LUA_TNUMBER => SortKey::Number(ffi::lua_tonumber(state, idx)),
                ffi::LUA_TSTRING => {
                    let mut len = 0;
                    let p = ffi::lua_tolstring(state, idx, &mut len);
                    SortKey::String(std::slice::from_raw_parts(p.cast::<u8>(), len).to_vec())
                }
                ffi::LUA_TBOOLEAN => SortKey::Boolean(ffi::lua_toboolean(state, idx) != 0),
                _ => handle_at(state, idx).map_or(SortKey::Other, |h| SortKey::Instance(h.instance().0)),
            }
        }
    }
}

/// Pushes an array of the keys of the table at index 1, sorted; returns how many.
///
/// # Safety
/// `state` is a live thread with a table at index 1 and four free stack slots.
unsafe fn push_sorted_keys(state: *mut ffi::lua_State) -> usize {
    // SAFETY: per the contract. The scratch array of keys in Luau's order sits at `scratch`
    // while the walk pushes a key and a value on top (the value popped, the key moved into
    // the array); the sorted array is built above it, then the scratch array is removed.
    unsafe {
        ffi::lua_createtable(state, 0, 0);
        let scratch = ffi::lua_gettop(state);
        let mut keys: Vec<(SortKey, c_int)> = Vec::new();
        let mut iter = 0;
        loop {
            iter = ffi::lua_rawiter(state, 1, iter);
            if iter < 0 {
                break;
            }
            ffi::lua_pop(state, 1);
            let slot = keys.len() as c_int + 1;
            keys.push((SortKey::at(state, -1), slot));
            ffi::lua_rawseti(state, scratch, slot as _);
        }
        keys.sort_by(|a, b| a.0.order(&b.0));
        ffi::lua_createtable(state, keys.len() as c_int, 0);
        for (j, (_, slot)) in keys.iter().enumerate() {
            ffi::lua_rawgeti(state, scratch, *slot as _);
            ffi::lua_rawseti(state, -2, (j + 1) as _);
        }
        ffi::lua_remove(state, scratch);
        keys.len()
    }
}

#[cfg(test)]
mod tests {
    use super::SortKey;

    #[test]
    fn keys_order_by_rank_then_value() {
        let mut keys = vec![
            SortKey::Other,
            SortKey::Instance(9),
            SortKey::Boolean(true),
            SortKey::String(b"b".to_vec()),
            SortKey::Number(2.5),
            SortKey::Instance(3),
            SortKey::Boolean(false),
            SortKey::String(b"a".to_vec()),
            SortKey::Number(-1.0),
        ];
        keys.sort_by(|a, b| a.order(b));
        assert_eq!(
            keys,
            vec![
                SortKey::Number(-1.0),
                SortKey::Number(2.5),
                SortKey::String(b"a".to_vec()),
                SortKey::String(b"b".to_vec()),
                SortKey::Boolean(false),
                SortKey::Boolean(true),
                SortKey::Instance(3),
                SortKey::Instance(9),
                SortKey::Other,
            ]
        );
    }
}
