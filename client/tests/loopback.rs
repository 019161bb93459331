//! Client scripts over real sockets on 127.0.0.1: a server ships its client scripts' bytecode
//! and a [`ClientRuntime`] runs them on its replica (`docs/scripting.md`, "Where scripts run";
//! `docs/networking.md`, "Client scripts" and "Client-local ids").

mod common;

use arbor_core::{Arena, Class, Id, raw::CLIENT_ID_BASE};
use arbor_net::PacketDirection;
use common::{Log, Server, script};
use std::cell::RefCell;
use std::rc::Rc;

const HUD: &str = r#"
print('hud started')
local n = 0
function Update(dt)
    n += 1
    if n == 3 then print('hud update') end
end
"#;

#[test]
fn a_client_script_runs_on_the_client_and_not_on_the_server() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let hud = script(&mut arena, "Hud", ws, Some("Client"), HUD);
    script(&mut arena, "Both", ws, Some("Both"), "print('both started')");
    let secret =
        script(&mut arena, "Secret", ws, None, "local key = 'server-only-secret'\nprint('secret started')");
    let mut server = Server::start(arena);
    let mut client = server.connect(1);
    let mut log = Log::new();
    let ran = server.run_until(&mut [&mut client], |_, c| {
        log.has(c[0], "Workspace.Hud: hud update") && log.has(c[0], "Workspace.Both: both started")
    });
    assert!(ran, "the client's log: {:?}", log.0);
    let server_log = server.log();
    assert!(server_log.contains(&"Workspace.Both: both started".to_string()), "{server_log:?}");
    assert!(server_log.contains(&"Workspace.Secret: secret started".to_string()), "{server_log:?}");
    assert!(!server_log.iter().any(|l| l.contains("hud")), "the server ran a client script: {server_log:?}");
    assert!(!log.0.iter().any(|l| l.contains("secret")), "the client ran a server script: {:?}", log.0);
    // A server-only Script never reaches a client, not even as an instance; a client Script
    // does, holding a key to the bytecode it was shipped in place of a source.
    let replica = client.client().replica().arena();
    assert!(!replica.contains(secret) && replica.contains(hud));
    assert!(replica.script_source(hud).unwrap_or("").starts_with("--arbor:bytecode"));
    assert_eq!(server.net.borrow().shipping_stats().scripts, 2, "Hud and Both are shipped, Secret is not");
}

#[test]
fn server_only_calls_raise_in_a_client_script() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    arena.create(Class::Part, "Floor", Some(ws)).unwrap();
    let source = r#"
        local function try(what, f)
            local ok, e = pcall(f)
            print(what, ok, (string.gsub(tostring(e), '^[^:]+:%d+: ', '')))
        end
        try('store', function() game.Store.open('S') end)
        try('kick', function() game.Session.Kick(1) end)
        try('destroy', function() workspace.Floor:Destroy() end)
        print('floor still here', workspace:FindFirstChild('Floor') ~= nil)
    "#;
    script(&mut arena, "Rules", ws, Some("Client"), source);
    let mut server = Server::start(arena);
    let mut client = server.connect(1);
    let mut log = Log::new();
    let ran =
        server.run_until(&mut [&mut client], |_, c| log.has(c[0], "Workspace.Rules: floor still here true"));
    assert!(ran, "{:?}", log.0);
    assert_eq!(
        log.0,
        [
            "Workspace.Rules: store false game.Store is server-only",
            "Workspace.Rules: kick false game.Session.Kick is server-only",
            "Workspace.Rules: destroy false Destroy can only be called on the server",
            "Workspace.Rules: floor still here true",
        ]
    );
}

/// Every id a client-local object had, and every packet the client sent or received.
#[derive(Default)]
struct Packets {
    sent: Vec<Vec<u8>>,
    received: Vec<Vec<u8>>,
}

fn varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

fn holds(packet: &[u8], needle: &[u8]) -> bool {
    packet.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn client_debris_gets_a_local_id_never_leaves_the_client_and_goes_with_its_replicated_parent() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let holder = arena.create(Class::Model, "Holder", Some(ws)).unwrap();
    arena.create(Class::Part, "Crate", Some(holder)).unwrap();
    let source = r#"
        local made = 0
        function Update(dt)
            local holder = workspace:FindFirstChild('Holder')
            if holder and made < 3 then
                made += 1
                local debris = holder.Crate:Clone()
                debris.Name = 'Debris'
                debris.Parent = holder
                debris:SetAttribute('Piece', made)
                if made == 3 then
                    -- A client may destroy its own object (never a replicated one).
                    debris:Destroy()
                    print('debris made')
                end
            end
        end
    "#;
    script(&mut arena, "Sparks", ws, Some("Client"), source);
    let mut server = Server::start(arena);
    let packets = Rc::new(RefCell::new(Packets::default()));
    let tap = packets.clone();
    let mut client = server.connect_tapped(
        1,
        Box::new(move |direction, packet| {
            let mut p = tap.borrow_mut();
            match direction {
                PacketDirection::Sent => p.sent.push(packet.to_vec()),
                PacketDirection::Received => p.received.push(packet.to_vec()),
            }
        }),
    );
    let mut log = Log::new();
    assert!(
        server.run_until(&mut [&mut client], |_, c| log.has(c[0], "Workspace.Sparks: debris made")),
        "{:?}",
        log.0
    );

    let debris: Vec<Id> = {
        let replica = client.client().replica().arena();
        replica.children(holder).filter(|&c| replica.name_of(c) == Some("Debris")).collect()
    };
    assert_eq!(debris.len(), 2, "two pieces left, the third destroyed by its script");
    assert!(debris.iter().all(|d| d.0 >= CLIENT_ID_BASE), "{debris:?}");

    // A hundred frames with the debris in the replica: every one sends an input.
    let until = server.sim.ticks() + 100;
    server.run_until(&mut [&mut client], |s, _| s.sim.ticks() >= until);

    // The server keeps creating: its ids never meet the client's.
    let newcomer = server.sim.arena.create(Class::Part, "Newcomer", Some(ws)).unwrap();
    assert!(server.run_until(&mut [&mut client], |_, c| c[0].client().replica().arena().contains(newcomer)));
    assert!(newcomer.0 < CLIENT_ID_BASE);
    assert!(debris.iter().all(|&d| client.client().replica().arena().contains(d)));

    // The server deletes the replicated parent: the client's debris goes with it.
    server.sim.arena.destroy(holder).unwrap();
    let gone = server.run_until(&mut [&mut client], |_, c| {
        let replica = c[0].client().replica().arena();
        !replica.contains(holder) && debris.iter().all(|&d| !replica.contains(d))
    });
    assert!(gone, "the debris outlived its replicated parent");
    assert_eq!(client.client().replica().stats().apply_errors, 0);

    let packets = packets.borrow();
    let (sent, received) = (packets.sent.len(), packets.received.len());
    assert!(sent > 100 && received > 50, "the tap saw the traffic: {sent} sent, {received} received");
    for &d in &debris {
        for needle in [d.0.to_le_bytes().to_vec(), d.0.to_be_bytes().to_vec(), varint(d.0)] {
            assert!(!packets.sent.iter().any(|p| holds(p, &needle)), "a sent packet carries client id {d}");
            assert!(!packets.received.iter().any(|p| holds(p, &needle)), "a received packet carries {d}");
        }
    }
}

const WHO: &str = r#"
local told = nil
function Update(dt)
    local c = game.Session.LocalCharacter()
    local name = if c then c.Name else 'nil'
    if name ~= told then
        told = name
        print('local character ' .. name)
    end
end
"#;

#[test]
fn local_character_is_the_bound_character_on_its_owner_and_nil_elsewhere() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let hero = arena.create(Class::Character, "Hero", Some(ws)).unwrap();
    arena.create(Class::Part, "HumanoidRootPart", Some(hero)).unwrap();
    let binder = r#"
        game.Session.PlayerJoined:Connect(function(userId)
            if userId == 1 then game.Session.BindCharacter(userId, workspace.Hero) end
        end)
    "#;
    script(&mut arena, "Binder", ws, None, binder);
    script(&mut arena, "Who", ws, Some("Client"), WHO);
    let mut server = Server::start(arena);
    let mut owner = server.connect(1);
    let mut other = server.connect(2);
    let (mut owner_log, mut other_log) = (Log::new(), Log::new());
    let ran = server.run_until(&mut [&mut owner, &mut other], |_, c| {
        owner_log.has(c[0], "Workspace.Who: local character Hero")
            & other_log.has(c[1], "Workspace.Who: local character nil")
    });
    assert!(ran, "owner: {:?}, other: {:?}", owner_log.0, other_log.0);
    // A hundred more frames: the other client never sees a character of its own.
    let until = server.sim.ticks() + 100;
    server.run_until(&mut [&mut owner, &mut other], |s, _| s.sim.ticks() >= until);
    other_log.has(&mut other, "");
    assert_eq!(other_log.0, ["Workspace.Who: local character nil"]);
    assert_eq!(owner.client().local_character(), Some(hero));
}

#[test]
fn a_hot_reload_of_a_client_script_reaches_a_connected_client() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let v1 = "count = 0\nfunction Update(dt) count += 1 end\nprint('v1')";
    let hud = script(&mut arena, "Hud", ws, Some("Client"), v1);
    let mut server = Server::start(arena);
    let mut client = server.connect(1);
    let mut log = Log::new();
    assert!(server.run_until(&mut [&mut client], |_, c| log.has(c[0], "Workspace.Hud: v1")));
    let v2 = "count = 0\nfunction Migrate(old) count = old.count end\n\
              local said = false\n\
              function Update(dt) if not said then said = true print('v2 carried', count > 0) end end";
    let swapped = server.host.borrow_mut().reload(&mut server.sim.arena, hud, v2).unwrap();
    assert_eq!(swapped, 0, "a client-only script runs no instance on the server");
    let ran = server.run_until(&mut [&mut client], |_, c| log.has(c[0], "Workspace.Hud: v2 carried true"));
    assert!(ran, "the reload did not reach the client: {:?}", log.0);
    assert_eq!(server.net.borrow().shipping_stats().sent, 2, "v1 once, v2 once");
}

#[test]
fn a_client_script_streamed_out_retires_and_streamed_back_in_runs_again() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let beacon = arena.create(Class::Part, "Beacon", Some(ws)).unwrap();
    arena.set_flag(beacon, arbor_core::NodeFlags::ANCHORED, true).unwrap();
    let source = "print('lit')\nfunction Update(dt) end";
    let lamp = script(&mut arena, "Lamp", beacon, Some("Client"), source);
    let mut server = Server::start(arena);
    server.net.borrow_mut().set_radius(100.0);
    let mut client = server.connect(1);
    client.client_mut().set_focus(glam::Vec3::ZERO);
    let mut log = Log::new();
    assert!(server.run_until(&mut [&mut client], |_, c| log.has(c[0], "Workspace.Beacon.Lamp: lit")));
    assert_eq!(client.host().instance_count(), 1);
    // Far away: the beacon and its script stream out, and the script retires.
    client.client_mut().set_focus(glam::Vec3::new(5_000.0, 0.0, 0.0));
    let gone = server.run_until(&mut [&mut client], |_, c| {
        !c[0].client().replica().arena().contains(lamp) && c[0].host().instance_count() == 0
    });
    assert!(gone, "the script outlived its instance");
    // Back: the code the client kept is installed into the new instance, which starts again.
    client.client_mut().set_focus(glam::Vec3::ZERO);
    let back = server.run_until(&mut [&mut client], |_, c| {
        log.has(c[0], "");
        log.0.iter().filter(|l| *l == "Workspace.Beacon.Lamp: lit").count() == 2
    });
    assert!(back, "{:?}", log.0);
    assert_eq!(server.net.borrow().shipping_stats().sent, 1, "the code was sent once");
}

#[test]
fn handles_resolve_on_the_client_and_follow_the_server() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let pad = arena.create(Class::Part, "Pad", Some(ws)).unwrap();
    let other = arena.create(Class::Part, "Other", Some(ws)).unwrap();
    arena.set_handle(pad, Some("SpawnPad")).unwrap();
    let source = r#"
        local told = nil
        function Update(dt)
            local found = handles.SpawnPad
            local name = if found then found.Name else 'nil'
            if name ~= told then told = name print('SpawnPad is ' .. name) end
        end
    "#;
    script(&mut arena, "Finder", ws, Some("Client"), source);
    let mut server = Server::start(arena);
    let mut client = server.connect(1);
    let mut log = Log::new();
    assert!(server.run_until(&mut [&mut client], |_, c| log.has(c[0], "Workspace.Finder: SpawnPad is Pad")));
    // The server moves the handle to another part: the client follows.
    server.sim.arena.set_handle(pad, None).unwrap();
    server.sim.arena.set_handle(other, Some("SpawnPad")).unwrap();
    let moved =
        server.run_until(&mut [&mut client], |_, c| log.has(c[0], "Workspace.Finder: SpawnPad is Other"));
    assert!(moved, "{:?}", log.0);
    assert_eq!(client.client().replica().stats().apply_errors, 0);
    assert_eq!(client.client().replica().stats().message_mismatches, 0);
}

#[test]
fn prefabs_spawn_client_local_copies_on_the_client() {
    let mut arena = Arena::new();
    let root = arena.root();
    let ws = arena.workspace();
    let prefabs = arena.create(Class::Folder, "Prefabs", Some(root)).unwrap();
    let spark = arena.create(Class::Model, "Spark", Some(prefabs)).unwrap();
    arena.create(Class::Part, "Glow", Some(spark)).unwrap();
    // A client script in the template: it runs in each copy a client spawns.
    script(
        &mut arena,
        "Flicker",
        spark,
        Some("Client"),
        "print('flickering in ' .. script.Parent.Parent.Name)",
    );
    let source = r#"
        local made = false
        function Update(dt)
            if made then return end
            local copy = game.Prefabs.Spawn('Spark')
            if copy == nil then return end -- the templates have not arrived yet
            made = true
            copy.Parent = workspace
            print('spawned ' .. copy.Name .. ' with ' .. #copy:GetChildren() .. ' children')
        end
    "#;
    script(&mut arena, "Effects", ws, Some("Client"), source);
    let mut server = Server::start(arena);
    let mut client = server.connect(1);
    let mut log = Log::new();
    let ran = server.run_until(&mut [&mut client], |_, c| {
        log.has(c[0], "Workspace.Effects: spawned Spark with 2 children")
            && log.has(c[0], "Workspace.Spark.Flicker: flickering in Workspace")
    });
    assert!(ran, "{:?}", log.0);
    let replica = client.client().replica().arena();
    let copies: Vec<Id> =
        replica.children(replica.workspace()).filter(|&c| replica.name_of(c) == Some("Spark")).collect();
    assert_eq!(copies.len(), 1);
    assert!(copies[0].0 >= CLIENT_ID_BASE, "a spawned copy is client-local");
    assert!(replica.contains(spark), "the template itself is replicated, outside the world");
    assert!(!server.sim.arena.children(ws).any(|c| server.sim.arena.name_of(c) == Some("Spark")));
}
