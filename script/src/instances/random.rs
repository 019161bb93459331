//! Scripts' `math.random` and `math.randomseed`: one generator per script instance, so what
//! one script draws or seeds never changes what another draws.
//!
//! Luau keeps one generator in the VM; scripts sharing it would let `math.randomseed` in one
//! script fix another's numbers, and would make any script's draws depend on how many every
//! other script drew before it. Each instance's environment instead gets its own `math`
//! table: a frozen copy of the library with `random` and `randomseed` bound to that
//! instance's [`Pcg32`]. The generator is Luau's own (PCG32 with Luau's constants, its
//! seeding, and its three call forms and errors), started from the host's seed and the
//! Script's id ([`instance_seed`]), so a replay with the host's seed draws the same numbers
//! and a reload starts the Script's sequence again.

use crate::luau::convert::{Status, fail, ok};
use arbor_core::Id;
use arbor_core::raw::SplitMix64;
use mlua::{Function, Lua, MultiValue, Result, Table, Value};
use std::cell::Cell;
use std::rc::Rc;

/// Registry key of the Luau function that wraps an instance's two primitives with `check`,
/// so their errors are raised at the caller's line.
const FACTORY_KEY: &str = "arbor.random_factory";

/// Luau's generator: PCG32 (XSH RR) with Luau's multiplier and increment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pcg32(u64);

impl Pcg32 {
    /// A generator seeded as Luau's `math.randomseed(seed)` seeds it.
    pub fn seeded(seed: u64) -> Self {
        let mut g = Pcg32(0);
        g.next_u32();
        g.0 = g.0.wrapping_add(seed);
        g.next_u32();
        g
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.0;
        self.0 = old.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(105 | 1);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// A number in [0, 1), from 64 random bits (`math.random()`).
    pub fn unit(&mut self) -> f64 {
        let lo = u64::from(self.next_u32());
        let hi = u64::from(self.next_u32());
        (lo | (hi << 32)) as f64 * (-64f64).exp2()
    }

    /// An integer in [`lo`, `hi`] (`math.random(lo, hi)`); the caller checked `lo <= hi` and
    /// that the interval is not the whole 32-bit range.
    pub fn between(&mut self, lo: i32, hi: i32) -> i32 {
        let span = (hi as u32).wrapping_sub(lo as u32).wrapping_add(1);
        let x = u64::from(span) * u64::from(self.next_u32());
        lo.wrapping_add((x >> 32) as i32)
    }
}

/// The seed of the generator of the instance of `script` in a host seeded with `host_seed`.
pub fn instance_seed(host_seed: i32, script: Id) -> u64 {
    SplitMix64((u64::from(host_seed as u32) << 32) ^ script.0.rotate_left(17)).next()
}

/// Builds the wrapping factory once per VM.
pub(crate) fn install(lua: &Lua, check: Function) -> Result<()> {
    let factory: Function = lua
        .load(
            "local check = ...\n\
             return function(draw, seed)\n\
               return function(...) return check(draw(...)) end, \
                      function(...) return check(seed(...)) end\n\
             end",
        )
        .set_name("=arbor-random")
        .call(check)?;
    lua.set_named_registry_value(FACTORY_KEY, factory)
}

/// A frozen `math` table for one script instance: `library`'s functions and constants, with
/// `random` and `randomseed` drawing from a generator of its own seeded with `seed`.
pub(crate) fn math_table(lua: &Lua, library: &Table, seed: u64) -> Result<Table> {
    let generator = Rc::new(Cell::new(Pcg32::seeded(seed)));
    let g = Rc::clone(&generator);
    let draw = lua.create_function(move |lua, args: MultiValue| -> Result<Status> {
        let mut rng = g.get();
        let drawn = random(lua, &mut rng, &args);
        g.set(rng);
        match drawn? {
            Ok(v) => ok(lua, v),
            Err(m) => fail(lua, m),
        }
    })?;
    let reseed = lua.create_function(move |lua, args: MultiValue| -> Result<Status> {
        match integer_arg(lua, &args, 1, "randomseed")? {
            Ok(seed) => {
                generator.set(Pcg32::seeded(i64::from(seed) as u64));
                ok(lua, Value::Nil)
            }
            Err(m) => fail(lua, m),
        }
    })?;
    let factory: Function = lua.named_registry_value(FACTORY_KEY)?;
    let (random_fn, seed_fn): (Function, Function) = factory.call((draw, reseed))?;
    let math = lua.create_table()?;
    for pair in library.pairs::<Value, Value>() {
        let (k, v) = pair?;
        math.raw_set(k, v)?;
    }
    math.raw_set("random", random_fn)?;
    math.raw_set("randomseed", seed_fn)?;
    math.set_readonly(true);
    Ok(math)
}

/// `math.random(...)` on `rng`, with Luau's argument rules and messages.
fn random(lua: &Lua, rng: &mut Pcg32, args: &MultiValue) -> Result<std::result::Result<Value, String>> {
    Ok(Ok(match args.len() {
        0 => Value::Number(rng.unit()),
        1 => {
            let hi = match integer_arg(lua, args, 1, "random")? {
                Ok(v) => v,
                Err(m) => return Ok(Err(m)),
            };
            if hi < 1 {
                return Ok(Err(argument_error(1, "random", "interval is empty")));
            }
            Value::Number(f64::from(rng.between(1, hi)))
        }
        2 => {
            let lo = match integer_arg(lua, args, 1, "random")? {
                Ok(v) => v,
                Err(m) => return Ok(Err(m)),
            };
            let hi = match integer_arg(lua, args, 2, "random")? {
                Ok(v) => v,
                Err(m) => return Ok(Err(m)),
            };
            if lo > hi {
                return Ok(Err(argument_error(2, "random", "interval is empty")));
            }
            if (hi as u32).wrapping_sub(lo as u32) == u32::MAX {
                return Ok(Err(argument_error(2, "random", "interval is too large")));
            }
            Value::Number(f64::from(rng.between(lo, hi)))
        }
        _ => return Ok(Err("wrong number of arguments".to_owned())),
    }))
}

/// Argument `n` (1-based) as Luau's `luaL_checkinteger` reads it: a number (or a numeric
/// string), truncated towards zero to 32 bits (saturating where Luau's cast is undefined).
fn integer_arg(
    lua: &Lua,
    args: &MultiValue,
    n: usize,
    function: &str,
) -> Result<std::result::Result<i32, String>> {
    let v = args.get(n - 1).cloned().unwrap_or(Value::Nil);
    let number = match &v {
        Value::Integer(i) => Some(*i as f64),
        Value::Number(x) => Some(*x),
        Value::String(_) => lua.coerce_number(v.clone())?,
        _ => None,
    };
    Ok(match number {
        Some(x) => Ok(x as i32),
        None => Err(argument_error(n, function, &format!("number expected, got {}", v.type_name()))),
    })
}

/// Luau's `luaL_argerror` text.
fn argument_error(n: usize, function: &str, what: &str) -> String {
    format!("invalid argument #{n} to '{function}' ({what})")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Draws from Luau's own generator after `math.randomseed(seed)`.
    fn luau_draws(seed: i32, calls: &str) -> Vec<f64> {
        let lua = Lua::new();
        lua.load(format!("math.randomseed({seed}) return {{ {calls} }}")).eval::<Vec<f64>>().unwrap()
    }

    #[test]
    fn the_generator_is_luaus_own() {
        let calls = "math.random(), math.random(6), math.random(-5, 5), math.random(1, 1000000), \
                     math.random(-2147483647, 2147483647)";
        for seed in [0, 1, 42, -7, i32::MAX, i32::MIN] {
            let mut g = Pcg32::seeded(i64::from(seed) as u64);
            let ours = vec![
                g.unit(),
                f64::from(g.between(1, 6)),
                f64::from(g.between(-5, 5)),
                f64::from(g.between(1, 1_000_000)),
                f64::from(g.between(-2_147_483_647, 2_147_483_647)),
            ];
            assert_eq!(ours, luau_draws(seed, calls), "seed {seed}");
        }
    }

    #[test]
    fn instances_of_different_scripts_start_apart() {
        let (a, b) = (instance_seed(42, Id(5)), instance_seed(42, Id(6)));
        assert_ne!(Pcg32::seeded(a).next_u32(), Pcg32::seeded(b).next_u32());
        assert_eq!(a, instance_seed(42, Id(5)), "the same host seed and script, the same start");
    }
}
