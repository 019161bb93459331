//! A fuzzed JSON place (scripts included) runs for a few ticks: the simulation and the script
//! host never panic, whatever the place holds.
#![no_main]

use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation};
use libfuzzer_sys::fuzz_target;
use std::cell::RefCell;
use std::rc::Rc;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(arena) = arbor_place::load_json(text) else { return };
    let config = HostConfig { memory_limit: 64 << 20, script_memory_share: 16 << 20, ..Default::default() };
    let Ok(host) = ScriptHost::new(&arena, config) else { return };
    let host = Rc::new(RefCell::new(host));
    let Ok(mut sim) = Simulation::new(arena, SimConfig::default()) else { return };
    sim.add_hooks(host.clone());
    sim.run(5);
});
