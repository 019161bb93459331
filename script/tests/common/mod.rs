//! Shared helpers for the script integration tests: build a place with scripts, run ticks,
//! read the log.

#![allow(dead_code)]

use arbor_core::{Arena, Class, Id};
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation};
use std::cell::RefCell;
use std::rc::Rc;

/// A client host over `arena` with every Script's code installed, as a client's runtime
/// installs what the server ships (compiled bytecode; a script that does not compile ships
/// nothing).
pub fn client_host(arena: &mut Arena, config: HostConfig) -> ScriptHost {
    let mut host = ScriptHost::new(arena, HostConfig { client: true, ..config }).unwrap();
    let scripts: Vec<Id> = arena.iter().filter(|n| n.class() == Class::Script).map(|n| n.id()).collect();
    for id in scripts {
        let source = arena.script_source(id).unwrap_or("").to_owned();
        if let Ok(code) = arbor_script::compile_bytecode(&source) {
            host.install_client_code(arena, id, id.0, code.into()).unwrap();
        }
    }
    host
}

/// A place under construction.
pub struct Place {
    pub arena: Arena,
}

impl Place {
    pub fn new() -> Self {
        Self { arena: Arena::new() }
    }

    pub fn workspace(&self) -> Id {
        self.arena.workspace()
    }

    pub fn part(&mut self, name: &str, parent: Id) -> Id {
        self.arena.create(Class::Part, name, Some(parent)).unwrap()
    }

    pub fn folder(&mut self, name: &str, parent: Id) -> Id {
        self.arena.create(Class::Folder, name, Some(parent)).unwrap()
    }

    pub fn script(&mut self, name: &str, parent: Id, source: &str) -> Id {
        let s = self.arena.create(Class::Script, name, Some(parent)).unwrap();
        self.arena.set_script_source(s, source).unwrap();
        s
    }

    /// Starts a simulation with a script host, without the wall-clock backstop: the tests
    /// count deterministic work, and a loaded test machine must not turn a budget abort into
    /// a wall abort (the backstop has tests of its own).
    pub fn start(self) -> Running {
        self.start_with(HostConfig { wall_bound: None, ..HostConfig::default() })
    }

    /// Starts a simulation with a script host set up by `config`.
    pub fn start_with(mut self, config: HostConfig) -> Running {
        if config.client {
            // A client host runs only client scripts: mark the place's unmarked Scripts so.
            let scripts: Vec<_> = self
                .arena
                .iter()
                .filter(|n| n.class() == arbor_core::Class::Script)
                .map(|n| n.id())
                .filter(|&id| self.arena.attribute(id, arbor_core::RUN_CONTEXT_ATTRIBUTE).is_none())
                .collect();
            for id in scripts {
                let client = arbor_core::AttributeValue::String("Client".into());
                self.arena.set_attribute(id, arbor_core::RUN_CONTEXT_ATTRIBUTE, Some(client)).unwrap();
            }
        }
        let host = if config.client {
            client_host(&mut self.arena, config)
        } else {
            ScriptHost::new(&self.arena, config).unwrap()
        };
        let host = Rc::new(RefCell::new(host));
        let mut sim = Simulation::new(self.arena, SimConfig::default()).unwrap();
        sim.add_hooks(host.clone());
        Running { sim, host }
    }
}

/// A running place; the host is shared with the simulation so tests can read its log and
/// reload scripts between ticks.
pub struct Running {
    pub sim: Simulation,
    pub host: Rc<RefCell<ScriptHost>>,
}

impl Running {
    /// Runs `ticks` ticks.
    pub fn tick(&mut self, ticks: u64) {
        self.sim.run(ticks);
    }

    /// The log lines' texts so far.
    pub fn log(&self) -> Vec<String> {
        self.host.borrow().log().into_iter().map(|l| l.text).collect()
    }

    /// Takes the log lines' texts.
    pub fn take_log(&self) -> Vec<String> {
        self.host.borrow_mut().take_log().into_iter().map(|l| l.text).collect()
    }

    /// Reloads `script` with `source`.
    pub fn reload(&mut self, script: Id, source: &str) -> Result<usize, arbor_script::ReloadError> {
        self.host.borrow_mut().reload(&mut self.sim.arena, script, source)
    }
}

/// Runs one script attached to a part under the Workspace for `ticks` ticks; returns the log.
pub fn run_one(source: &str, ticks: u64) -> Vec<String> {
    let mut place = Place::new();
    let ws = place.workspace();
    let part = place.part("Holder", ws);
    place.script("Main", part, source);
    let mut running = place.start();
    running.tick(ticks);
    running.log()
}

/// Builds a place with `setup`, adds a script `Main` under the Workspace, runs `ticks`
/// ticks and returns the log.
pub fn run_main(setup: impl FnOnce(&mut Place), source: &str, ticks: u64) -> Vec<String> {
    let mut place = Place::new();
    setup(&mut place);
    let ws = place.workspace();
    place.script("Main", ws, source);
    let mut running = place.start();
    running.tick(ticks);
    running.log()
}

/// A script that prints every tick, beside the hostile one.
pub const BYSTANDER: &str = "local t = 0 function Update() t += 1 print('tick', t) end";

/// Runs `op` in an endless loop in one `Update` after `setup` (Luau, run once first), and
/// returns how many times `op` completed before the budget stopped it. Asserts the abort is
/// the budget's, and that the bystander ran on every one of the 3 ticks.
pub fn completed_before_abort(build: impl FnOnce(&mut Place), setup: &str, op: &str) -> u64 {
    let source = format!(
        "local n, done = 0, false
         function Update()
             if done then print('completed', n) return end
             done = true
             {setup}
             while true do
                 {op}
                 n += 1
             end
         end"
    );
    let mut place = Place::new();
    build(&mut place);
    let ws = place.workspace();
    place.script("Hostile", ws, &source);
    place.script("Bystander", ws, BYSTANDER);
    let mut running = place.start();
    running.tick(3);
    let log = running.log();
    assert!(
        log.iter().any(|l| l.starts_with("Workspace.Hostile: error:")
            && l.ends_with("script exceeded its instruction budget")),
        "{op}: {log:?}"
    );
    for t in 1..=3 {
        assert!(log.contains(&format!("Workspace.Bystander: tick {t}")), "{op}: {log:?}");
    }
    let last = log.iter().rev().find(|l| l.starts_with("Workspace.Hostile: completed")).expect("the count");
    last.rsplit(' ').next().unwrap().parse().unwrap()
}

pub fn nothing(_: &mut Place) {}
