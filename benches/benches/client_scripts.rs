//! What running the client scripts costs a client frame: a 2,000-part place whose 200 loose
//! parts the server moves every tick, served over the loopback interface to two clients at
//! once, a plain replica client (`Client::update`: receive, apply, ack, the baseline) and a
//! `ClientRuntime` with 10 client scripts (the same, plus code installation, retiring and the
//! scripts' `Update` and `PhysicsUpdate`). The server's tick runs outside the timing; each
//! benchmark times its own client's frame only. Figures: `docs/perf/networking.md`, "Client
//! scripts".

use arbor_client::ClientRuntime;
use arbor_core::{Arena, AttributeValue, Class, Id, NodeFlags, RUN_CONTEXT_ATTRIBUTE};
use arbor_net::{Client, ClientAuth, NetConfig, NetServer, Security};
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

const HUD: &str = r#"
local frames, seen = 0, 0
function Update(dt)
    frames += 1
    local me = game.Session.LocalCharacter()
    local moving = workspace:FindFirstChild('Moving')
    if moving and frames % 10 == 0 then seen = #moving:GetChildren() end
end
function PhysicsUpdate(dt) frames += 0 end
"#;

struct Bench {
    sim: Simulation,
    moving: Vec<Id>,
    plain: Client,
    runtime: ClientRuntime,
}

fn setup() -> Bench {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    for i in 0..1_800 {
        let p = arena.create(Class::Part, "Still", Some(ws)).unwrap();
        arena.set_flag(p, NodeFlags::ANCHORED, true).unwrap();
        arena.set_position(p, Vec3::new((i % 40) as f32 * 8.0, 0.0, (i / 40) as f32 * 8.0)).unwrap();
    }
    let folder = arena.create(Class::Folder, "Moving", Some(ws)).unwrap();
    let moving: Vec<Id> = (0..200)
        .map(|_| {
            let p = arena.create(Class::Part, "Mover", Some(folder)).unwrap();
            arena.set_flag(p, NodeFlags::ANCHORED, true).unwrap();
            p
        })
        .collect();
    for i in 0..10 {
        let s = arena.create(Class::Script, &format!("Hud{i}"), Some(ws)).unwrap();
        arena.set_script_source(s, HUD).unwrap();
        arena.set_attribute(s, RUN_CONTEXT_ATTRIBUTE, Some(AttributeValue::String("Client".into()))).unwrap();
    }
    let host = Rc::new(RefCell::new(ScriptHost::new(&arena, HostConfig::default()).unwrap()));
    let config =
        NetConfig { listen: "127.0.0.1:0".parse().unwrap(), max_clients: 4, security: Security::Insecure };
    let mut net = NetServer::bind(config).unwrap();
    net.set_script_compiler(Box::new(arbor_script::compile_bytecode));
    let address = net.local_addr();
    let net = Rc::new(RefCell::new(net));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(host);
    sim.add_hooks(net);
    let plain = Client::connect(ClientAuth::Insecure { user_id: 1, server: address }).unwrap();
    let scripted = Client::connect(ClientAuth::Insecure { user_id: 2, server: address }).unwrap();
    let runtime = ClientRuntime::new(scripted, HostConfig::default()).unwrap();
    let mut bench = Bench { sim, moving, plain, runtime };
    // Until both replicas hold the place and the runtime runs its ten scripts.
    for _ in 0..3_000 {
        bench.step(|_| ());
        if bench.runtime.host().instance_count() == 10 && bench.plain.replica().len() > 2_000 {
            return bench;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("the clients never caught up");
}

impl Bench {
    /// One server tick (the movers move), then one frame of each client; `timed` says which
    /// client's frame `time` measures.
    fn step(&mut self, mut time: impl FnMut(Duration)) -> Duration {
        let t = self.sim.ticks() as f32 / 60.0;
        for (k, &p) in self.moving.iter().enumerate() {
            let a = t + k as f32 * 0.1;
            let _ = self.sim.arena.set_position(p, Vec3::new(a.cos() * 50.0, 5.0, a.sin() * 50.0));
        }
        self.sim.step();
        let dt = Duration::from_secs_f64(1.0 / 60.0);
        let start = Instant::now();
        self.plain.update(dt).unwrap();
        let plain = start.elapsed();
        let start = Instant::now();
        self.runtime.frame(dt).unwrap();
        let scripted = start.elapsed();
        time(scripted);
        plain
    }
}

fn frame(c: &mut Criterion) {
    let mut bench = setup();
    let mut g = c.benchmark_group("client_scripts/frame_2000_parts_200_moving");
    g.bench_function("plain_client", |b| b.iter_custom(|n| (0..n).map(|_| bench.step(|_| ())).sum()));
    g.bench_function("runtime_10_scripts", |b| {
        b.iter_custom(|n| {
            let mut total = Duration::ZERO;
            for _ in 0..n {
                bench.step(|d| total += d);
            }
            total
        })
    });
    g.finish();
}

criterion_group!(benches, frame);
criterion_main!(benches);
