//! The runtime half of checked arithmetic (`rewrite` is the other): `__arbor_checks`, one C
//! function per arithmetic operator. `__arbor_add(v)` returns `v` when it is a finite number
//! or a vector with finite components (and any other value unchanged: a metamethod's
//! result), and otherwise raises, at the line of the behaviour code that called it:
//!
//! ```text
//! Door:12: '/' gave infinity (a division by zero or an overflow made it)
//! ```
//!
//! A check is one call of a C function (no Luau frame): the instructions that load, call it
//! and keep its result are metered like any others, so its cost is logical and the same on
//! every machine. (A table whose `__index` checks, indexed instead of called, was slower:
//! `docs/perf/behaviours.md`, "Checked arithmetic: a call, not an `__index`".)

use mlua::ffi;
use std::ffi::{CStr, c_int};

/// What a non-finite result of an operator says, by operator (`rewrite::CHECKED_OPS`
/// order): (the infinity message, the NaN message).
const MESSAGES: [(&CStr, &CStr); 7] = [
    (
        c"'+' gave infinity (an overflow made it)",
        c"'+' gave NaN (not a number; an invalid operation made it)",
    ),
    (
        c"'-' gave infinity (an overflow made it)",
        c"'-' gave NaN (not a number; an invalid operation made it)",
    ),
    (
        c"'*' gave infinity (an overflow made it)",
        c"'*' gave NaN (not a number; an invalid operation made it)",
    ),
    (
        c"'/' gave infinity (a division by zero or an overflow made it)",
        c"'/' gave NaN (not a number; 0/0, a division by zero or an invalid operation made it)",
    ),
    (
        c"'//' gave infinity (a division by zero or an overflow made it)",
        c"'//' gave NaN (not a number; a division by zero or an invalid operation made it)",
    ),
    (
        c"'%' gave infinity (a division by zero or an overflow made it)",
        c"'%' gave NaN (not a number; a division by zero or an invalid operation made it)",
    ),
    (
        c"'^' gave infinity (a division by zero or an overflow made it)",
        c"'^' gave NaN (not a number; an invalid operation made it)",
    ),
];

/// Raises `message` at the line of the Luau function that called the running C function.
///
/// # Safety
/// `state` is the thread running a C function called from Luau, with room for the two
/// values pushed here (the VM gives C functions `LUA_MINSTACK` slots). `lua_error` raises
/// and never returns; this frame holds nothing that needs dropping.
unsafe fn raise_at_caller(state: *mut ffi::lua_State, message: &CStr) -> ! {
    // SAFETY: per the contract.
    unsafe {
        ffi::luaL_where(state, 1);
        ffi::lua_pushstring(state, message.as_ptr());
        ffi::lua_concat(state, 2);
        ffi::lua_error(state)
    }
}

/// `__arbor_checks.<op>(v)`: `v` if it is finite; else an error (see the module docs).
///
/// # Safety
/// Called by the Luau VM as a C function, with its running thread.
unsafe extern "C-unwind" fn check<const OP: usize>(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM calls C functions with a valid thread whose arguments are on its stack;
    // index 1 is read only when there is one.
    unsafe {
        let top = ffi::lua_gettop(state);
        if top < 1 {
            return 0;
        }
        if top > 1 {
            ffi::lua_settop(state, 1);
        }
        let bad = match ffi::lua_type(state, 1) {
            ffi::LUA_TNUMBER => {
                let n = ffi::lua_tonumberx(state, 1, std::ptr::null_mut());
                (!n.is_finite()).then_some(n.is_nan())
            }
            ffi::LUA_TVECTOR => {
                let v = ffi::lua_tovector(state, 1);
                if v.is_null() {
                    None
                } else {
                    let parts = std::slice::from_raw_parts(v, 3);
                    if parts.iter().any(|c| c.is_nan()) {
                        Some(true)
                    } else {
                        parts.iter().any(|c| c.is_infinite()).then_some(false)
                    }
                }
            }
            _ => None,
        };
        match bad {
            None => 1,
            Some(nan) => {
                let (inf, nan_message) = MESSAGES[OP];
                raise_at_caller(state, if nan { nan_message } else { inf })
            }
        }
    }
}

/// The `__arbor_checks` table: one check per operator, by `rewrite::CHECKED_OPS` name.
pub fn checks_table(lua: &mlua::Lua) -> mlua::Result<mlua::Table> {
    let fns: [ffi::lua_CFunction; 7] =
        [check::<0>, check::<1>, check::<2>, check::<3>, check::<4>, check::<5>, check::<6>];
    let table = lua.create_table()?;
    for ((name, _), f) in super::rewrite::CHECKED_OPS.iter().zip(fns) {
        // SAFETY: `check` is a C function that only reads its argument and raises through
        // `lua_error` (see its contract).
        let f = unsafe { lua.create_c_function(f)? };
        table.raw_set(*name, f)?;
    }
    table.set_readonly(true);
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_pass_finite_values_and_name_the_line_of_a_bad_one() {
        let lua = mlua::Lua::new();
        lua.globals().set("__arbor_checks", checks_table(&lua).unwrap()).unwrap();
        let run = |src: &str| lua.load(src).set_name("=T").exec().map_err(|e| e.to_string());
        assert_eq!(run("local d = __arbor_checks.div\nassert(d(1 / 2) == 0.5)"), Ok(()));
        assert_eq!(
            run("local d = __arbor_checks.div\nassert(d('x') == 'x' and d(vector.create(1, 2, 3)))"),
            Ok(())
        );
        assert_eq!(run("local d = __arbor_checks.div\nassert(d() == nil and d(1, 2) == 1)"), Ok(()));
        let e = run("local d = __arbor_checks.div\n\nlocal x = d(10 / 0)").unwrap_err();
        assert!(e.contains("T:3: '/' gave infinity (a division by zero"), "{e}");
        let e = run("local m = __arbor_checks.mod\nlocal x = m(7 % 0)").unwrap_err();
        assert!(e.contains("T:2: '%' gave NaN"), "{e}");
        let e = run("local m = __arbor_checks.mul\nlocal x = m(vector.create(1, 2, 3) * 1e39)").unwrap_err();
        assert!(e.contains("T:2: '*' gave infinity"), "{e}");
    }
}
