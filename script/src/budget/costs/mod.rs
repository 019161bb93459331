//! The cost of every library function a script can reach, as a function of what it will
//! touch, charged before it runs (`work`). One table, [`LIBRARY`], for Scripts and
//! behaviours alike (their rates come from the installed [`CostTable`](super::CostTable)).
//!
//! A cost is in bytes at the byte rate: a string byte read, compared, copied or made counts
//! one, a table element or a value pushed counts [`VALUE_BYTES`]. What a function allocates
//! is charged again by the allocation hook; what the VM does inside one operation (hashing a
//! new string, comparing strings, skipping empty slots, the matcher's steps) is charged by
//! the VM's own work hook. So a cost here only has to cover the work the function does
//! beyond those: its scans, copies, shifts and results.
//!
//! Engine functions (the global C functions the API installs) are listed in [`ENGINE`] with
//! what they charge; they charge it themselves in Rust.
//!
//! Invariant: every C function reachable from a script's globals and from the string
//! metatable has an entry here (`every_reachable_function_has_a_cost`); a library function
//! without one would run uncharged beyond its call.

mod args;

pub(super) use args::{Args, VALUE_BYTES};
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// What a call will touch, in bytes at the byte rate, from its arguments.
pub(super) type Cost = fn(&Args) -> usize;

/// Constant work: covered by the call itself.
fn flat(_: &Args) -> usize {
    0
}

/// The bytes of argument `I` (a string or buffer), or the border of table argument `I`.
fn bytes<const I: i32>(a: &Args) -> usize {
    a.len(I)
}

/// One element per slot of table argument `I` (a full traversal).
fn slots<const I: i32>(a: &Args) -> usize {
    a.slots(I).saturating_mul(VALUE_BYTES)
}

/// One element per element of table argument `I` up to its border.
fn elements<const I: i32>(a: &Args) -> usize {
    a.len(I).saturating_mul(VALUE_BYTES)
}

/// One value per argument (varargs copied or folded).
fn per_argument(a: &Args) -> usize {
    a.count().saturating_mul(VALUE_BYTES)
}

/// The bytes of every string argument (formatting, packing).
fn all_bytes(a: &Args) -> usize {
    a.all_bytes()
}

/// Luau's `posrelat`: a negative position counts from the end.
fn relative(pos: i64, len: usize) -> i64 {
    if pos >= 0 { pos } else { (len as i64) + pos + 1 }
}

/// Values in `[i, j]` of a sequence of `len` (clamped as `string.byte`, `utf8.codepoint`).
fn range_values(a: &Args, default_j_is_i: bool) -> usize {
    let len = a.len(1);
    let i = relative(a.int(2).unwrap_or(1), len).max(1);
    let j = relative(a.int(3).unwrap_or(if default_j_is_i { i } else { len as i64 }), len).min(len as i64);
    usize::try_from(j - i + 1).unwrap_or(0).saturating_mul(VALUE_BYTES)
}

fn string_byte(a: &Args) -> usize {
    range_values(a, true)
}

fn utf8_codepoint(a: &Args) -> usize {
    a.len(1).saturating_add(range_values(a, true))
}

/// `string.split(s, sep)`: the subject once (the compares are the matcher's steps).
fn subject(a: &Args) -> usize {
    a.len(1)
}

/// `string.unpack(fmt, s, pos)`: the format and the data it reads.
fn string_unpack(a: &Args) -> usize {
    a.len(1).saturating_add(a.len(2))
}

/// `table.unpack(t, i, j)` / `unpack`: `j - i + 1` values, at most the stack's limit (Luau
/// refuses more before it pushes any).
fn table_unpack(a: &Args) -> usize {
    let i = a.int(2).unwrap_or(1);
    let j = if a.is_none_or_nil(3) { a.len(1) as i64 } else { a.int(3).unwrap_or(0) };
    let n = usize::try_from(j.saturating_sub(i).saturating_add(1)).unwrap_or(0);
    n.min(LUAI_MAXCSTACK).saturating_mul(VALUE_BYTES)
}

/// Luau's limit on values one C call may push (`LUAI_MAXCSTACK`).
const LUAI_MAXCSTACK: usize = 8000;

/// `table.concat(t, sep, i, j)`: the elements in range (it stops at the first non-string),
/// and the separators.
fn table_concat(a: &Args) -> usize {
    let border = a.len(1) as i64;
    let i = a.int(3).unwrap_or(1);
    let j = if a.is_none_or_nil(4) { border } else { a.int(4).unwrap_or(0) };
    // Past the border the first missing element raises; Luau walks no further.
    let n = usize::try_from(j.min(border.saturating_add(1)).saturating_sub(i).saturating_add(1)).unwrap_or(0);
    n.saturating_mul(VALUE_BYTES.saturating_add(a.len(2)))
}

/// `table.insert(t, pos, v)` shifts the elements after `pos`; `table.insert(t, v)` appends.
fn table_insert(a: &Args) -> usize {
    if a.count() >= 3 { elements::<1>(a) } else { 0 }
}

/// `table.remove(t, pos)` shifts the elements after `pos`; `table.remove(t)` pops.
fn table_remove(a: &Args) -> usize {
    if a.count() >= 2 { elements::<1>(a) } else { 0 }
}

/// `table.move(a1, f, e, t, a2)`: `e - f + 1` elements, exactly as far as Luau's own checks
/// let the call go (a call they refuse costs nothing but the call).
fn table_move(a: &Args) -> usize {
    let (Some(f), Some(e), Some(t)) = (a.int(2), a.int(3), a.int(4)) else {
        return 0;
    };
    let int_max = i64::from(i32::MAX);
    if e < f || !(f > 0 || e < int_max + f) {
        return 0;
    }
    let n = e - f;
    if t > int_max - n {
        return 0;
    }
    usize::try_from(n + 1).unwrap_or(0).saturating_mul(VALUE_BYTES)
}

/// `table.sort(t)`: n·log₂n comparisons of elements (string comparisons also pay their
/// bytes through the VM's hook).
fn table_sort(a: &Args) -> usize {
    let n = a.len(1);
    let log = (usize::BITS - n.leading_zeros()) as usize;
    n.saturating_mul(log).saturating_mul(VALUE_BYTES)
}

/// `buffer.fill(b, offset, value, count?)`: `count`, or the rest of the buffer.
fn buffer_fill(a: &Args) -> usize {
    counted_or_rest(a, 4, 1, 2)
}

/// `buffer.copy(target, offset, source, sourceOffset?, count?)`.
fn buffer_copy(a: &Args) -> usize {
    counted_or_rest(a, 5, 3, 4)
}

/// `buffer.writestring(b, offset, s, count?)`.
fn buffer_writestring(a: &Args) -> usize {
    a.int(4).and_then(|n| usize::try_from(n).ok()).unwrap_or_else(|| a.len(3))
}

/// `buffer.readstring(b, offset, count)`.
fn buffer_readstring(a: &Args) -> usize {
    a.int(3).and_then(|n| usize::try_from(n).ok()).unwrap_or(0)
}

/// Argument `count` if given, else the length of argument `of` past offset argument `from`.
fn counted_or_rest(a: &Args, count: i32, of: i32, from: i32) -> usize {
    match a.int(count) {
        Some(n) => usize::try_from(n).unwrap_or(0),
        None => a.len(of).saturating_sub(a.int(from).and_then(|n| usize::try_from(n).ok()).unwrap_or(0)),
    }
}

/// `debug.traceback`: formats the whole call stack, at most Luau's frame limit.
fn traceback(a: &Args) -> usize {
    TRACEBACK_FRAMES.saturating_mul(VALUE_BYTES).saturating_add(a.len(1))
}

/// Frames `debug.traceback` formats at most (Luau elides the middle of deeper stacks).
const TRACEBACK_FRAMES: usize = 22;

/// Every library function a script can reach: library (`""` for the base library), name and
/// cost. Functions a generic `for` or a library call hands back (`gmatch`'s and
/// `utf8.codes`'s iterators, `coroutine.wrap`'s function) do constant work a call.
pub(super) const LIBRARY: &[(&str, &str, Cost)] = &[
    // base
    ("", "assert", flat),
    ("", "error", flat),
    ("", "gcinfo", flat),
    ("", "getfenv", flat),
    ("", "getmetatable", flat),
    ("", "ipairs", flat),
    ("", "newproxy", flat),
    ("", "next", flat), // the empty slots it skips: the VM's hook
    ("", "pcall", flat),
    ("", "rawequal", flat),
    ("", "rawget", flat),
    ("", "rawlen", flat),
    ("", "rawset", flat),
    ("", "select", per_argument),
    ("", "setfenv", flat),
    ("", "setmetatable", flat),
    ("", "tonumber", bytes::<1>),
    ("", "tostring", flat),
    ("", "type", flat),
    ("", "typeof", flat),
    ("", "unpack", table_unpack),
    ("", "xpcall", flat),
    ("", "collectgarbage", flat),
    // string
    ("string", "byte", string_byte),
    ("string", "char", per_argument),
    ("string", "find", subject), // pattern steps: the matcher reports them
    ("string", "format", all_bytes),
    ("string", "gmatch", subject),
    ("string", "gsub", subject),
    ("string", "len", flat),
    ("string", "lower", bytes::<1>),
    ("string", "match", subject),
    ("string", "rep", flat), // the result: the allocation hook
    ("string", "reverse", bytes::<1>),
    ("string", "sub", flat), // hashing the result: the VM's hook
    ("string", "upper", bytes::<1>),
    ("string", "split", subject),
    ("string", "pack", all_bytes),
    ("string", "packsize", bytes::<1>),
    ("string", "unpack", string_unpack),
    // table
    ("table", "concat", table_concat),
    ("table", "foreach", slots::<1>),
    ("table", "foreachi", elements::<1>),
    ("table", "getn", flat),
    ("table", "maxn", slots::<1>),
    ("table", "insert", table_insert),
    ("table", "remove", table_remove),
    ("table", "sort", table_sort),
    ("table", "pack", per_argument),
    ("table", "unpack", table_unpack),
    ("table", "move", table_move),
    ("table", "create", flat), // the array: the allocation hook
    ("table", "find", elements::<1>),
    ("table", "clear", slots::<1>),
    ("table", "freeze", flat),
    ("table", "isfrozen", flat),
    ("table", "clone", slots::<1>),
    // math
    ("math", "abs", flat),
    ("math", "acos", flat),
    ("math", "asin", flat),
    ("math", "atan2", flat),
    ("math", "atan", flat),
    ("math", "ceil", flat),
    ("math", "cosh", flat),
    ("math", "cos", flat),
    ("math", "deg", flat),
    ("math", "exp", flat),
    ("math", "floor", flat),
    ("math", "fmod", flat),
    ("math", "frexp", flat),
    ("math", "ldexp", flat),
    ("math", "log10", flat),
    ("math", "log", flat),
    ("math", "max", per_argument),
    ("math", "min", per_argument),
    ("math", "modf", flat),
    ("math", "pow", flat),
    ("math", "rad", flat),
    ("math", "random", flat),
    ("math", "randomseed", flat),
    ("math", "sinh", flat),
    ("math", "sin", flat),
    ("math", "sqrt", flat),
    ("math", "tanh", flat),
    ("math", "tan", flat),
    ("math", "noise", flat),
    ("math", "clamp", flat),
    ("math", "sign", flat),
    ("math", "round", flat),
    ("math", "map", flat),
    ("math", "lerp", flat),
    ("math", "isnan", flat),
    ("math", "isinf", flat),
    ("math", "isfinite", flat),
    // bit32
    ("bit32", "arshift", flat),
    ("bit32", "band", per_argument),
    ("bit32", "bnot", flat),
    ("bit32", "bor", per_argument),
    ("bit32", "bxor", per_argument),
    ("bit32", "btest", per_argument),
    ("bit32", "extract", flat),
    ("bit32", "lrotate", flat),
    ("bit32", "lshift", flat),
    ("bit32", "replace", flat),
    ("bit32", "rrotate", flat),
    ("bit32", "rshift", flat),
    ("bit32", "countlz", flat),
    ("bit32", "countrz", flat),
    ("bit32", "byteswap", flat),
    // utf8
    ("utf8", "offset", bytes::<1>),
    ("utf8", "codepoint", utf8_codepoint),
    ("utf8", "char", per_argument),
    ("utf8", "len", bytes::<1>),
    ("utf8", "codes", flat),
    // os
    ("os", "clock", flat),
    ("os", "date", bytes::<1>),
    ("os", "difftime", flat),
    ("os", "time", flat),
    // coroutine
    ("coroutine", "create", flat),
    ("coroutine", "running", flat),
    ("coroutine", "status", flat),
    ("coroutine", "wrap", flat),
    ("coroutine", "yield", flat),
    ("coroutine", "isyieldable", flat),
    ("coroutine", "close", flat),
    ("coroutine", "resume", flat),
    // buffer
    ("buffer", "create", flat), // the bytes: the allocation hook
    ("buffer", "fromstring", bytes::<1>),
    ("buffer", "tostring", bytes::<1>),
    ("buffer", "readi8", flat),
    ("buffer", "readu8", flat),
    ("buffer", "readi16", flat),
    ("buffer", "readu16", flat),
    ("buffer", "readi32", flat),
    ("buffer", "readu32", flat),
    ("buffer", "readf32", flat),
    ("buffer", "readf64", flat),
    ("buffer", "writei8", flat),
    ("buffer", "writeu8", flat),
    ("buffer", "writei16", flat),
    ("buffer", "writeu16", flat),
    ("buffer", "writei32", flat),
    ("buffer", "writeu32", flat),
    ("buffer", "writef32", flat),
    ("buffer", "writef64", flat),
    ("buffer", "readstring", buffer_readstring),
    ("buffer", "writestring", buffer_writestring),
    ("buffer", "len", flat),
    ("buffer", "copy", buffer_copy),
    ("buffer", "fill", buffer_fill),
    ("buffer", "readbits", flat),
    ("buffer", "writebits", flat),
    // debug
    ("debug", "info", flat),
    ("debug", "traceback", traceback),
    // vector
    ("vector", "create", flat),
    ("vector", "magnitude", flat),
    ("vector", "normalize", flat),
    ("vector", "cross", flat),
    ("vector", "dot", flat),
    ("vector", "angle", flat),
    ("vector", "floor", flat),
    ("vector", "ceil", flat),
    ("vector", "abs", flat),
    ("vector", "sign", flat),
    ("vector", "clamp", flat),
    ("vector", "max", per_argument),
    ("vector", "min", per_argument),
    ("vector", "lerp", flat),
];

/// The engine's global C functions (mlua callbacks and `pairs`) and what each charges, in
/// Rust, before it does the work: the completeness test holds every reachable one to an
/// entry. (Engine functions behind Luau wrappers, `game.*`, and Instance methods charge
/// themselves the same way; see `docs/scripting.md`.)
pub const ENGINE: &[(&str, &str)] = &[
    ("pairs", "one instance visit per key of the table (its scan for Instance keys)"),
    ("print", "the bytes it formats (at most 64 KiB a line) and one element per argument"),
    ("warn", "the bytes it formats (at most 64 KiB a line) and one element per argument"),
];

/// The cost of each library C function, by address.
static BY_ADDRESS: OnceLock<FxHashMap<usize, Cost>> = OnceLock::new();

/// The cost of the C function at `address`, if it is a library function.
pub(super) fn cost_of(address: usize) -> Option<Cost> {
    BY_ADDRESS.get()?.get(&address).copied()
}

/// Resolves [`LIBRARY`] to function addresses in `lua`'s globals (once per process: library
/// functions are the same C functions in every VM). A library function this build of Luau
/// lacks is skipped (the completeness test catches the reverse).
pub(super) fn resolve(lua: &mlua::Lua) -> mlua::Result<()> {
    if BY_ADDRESS.get().is_some() {
        return Ok(());
    }
    let globals = lua.globals();
    let mut map = FxHashMap::default();
    // `get`, not `raw_get`: a sandboxed VM's globals reach the libraries through `__index`.
    for &(library, name, cost) in LIBRARY {
        let value: mlua::Value = if library.is_empty() {
            globals.get(name)?
        } else {
            match globals.get::<mlua::Value>(library)? {
                mlua::Value::Table(t) => t.raw_get(name)?,
                _ => mlua::Value::Nil,
            }
        };
        if let Some(address) = c_function_address(lua, value)? {
            map.insert(address, cost);
        }
    }
    let _ = BY_ADDRESS.set(map);
    Ok(())
}

/// The address of a C function value (`None` for Luau functions and other values).
pub(super) fn c_function_address(lua: &mlua::Lua, value: mlua::Value) -> mlua::Result<Option<usize>> {
    if !matches!(value, mlua::Value::Function(_)) {
        return Ok(None);
    }
    let mut address = None;
    // SAFETY: `exec_raw` pushes `value` on a valid state; `lua_tocfunction` only reads it.
    unsafe {
        lua.exec_raw::<()>(value, |state| {
            address = mlua::ffi::lua_tocfunction(state, -1).map(|f| f as usize);
        })?;
    }
    Ok(address)
}

#[cfg(test)]
mod tests;
