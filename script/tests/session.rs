//! `game.Session` end to end without sockets: joins fed straight into the simulation's
//! `Players`, the example place's PlayerSpawner, deaths, leaves and kicks.

mod common;

use arbor_core::Id;
use arbor_sim::players::{CHARACTER_DEAD, MAX_PENDING_JOINS, MAX_PENDING_KICKS};
use common::Place;

const SPAWNER: &str = r#"
game.Components.Define("Health", { Value = "number", Max = "number" })
local function spawnFor(userId)
	if game.Session.CharacterOf(userId) ~= nil then return end
	local c = game.Prefabs.Spawn("Cadet")
	c.Position = Vector3.new(0, 3, 0)
	c:AddComponent("Health", { Value = 100, Max = 100 })
	game.Session.BindCharacter(userId, c)
	print("bound", userId)
end
game.Session.PlayerJoined:Connect(spawnFor)
game.Session.CharacterDied:Connect(function(character, userId, attacker)
	print("died", userId, attacker and attacker.Name or "nil", character.Name)
end)
game.Session.PlayerLeft:Connect(function(character, userId)
	print("left", userId, character and character.Name or "nil", character and character.Parent ~= nil)
end)
"#;

fn place_with(source: &str) -> Place {
    let mut place = Place::new();
    let ws = place.workspace();
    let root = place.arena.root();
    let floor = place.part("Floor", ws);
    place.arena.set_size(floor, arbor_core::Vec3::new(200.0, 2.0, 200.0)).unwrap();
    place.arena.set_position(floor, arbor_core::Vec3::new(0.0, -1.0, 0.0)).unwrap();
    place.arena.set_flag(floor, arbor_core::NodeFlags::ANCHORED, true).unwrap();
    let prefabs = place.folder("Prefabs", root);
    let cadet = place.arena.create(arbor_core::Class::Character, "Cadet", Some(prefabs)).unwrap();
    let hrp = place.part("HumanoidRootPart", cadet);
    place.arena.set_size(hrp, arbor_core::Vec3::new(2.0, 2.0, 1.0)).unwrap();
    place.script("Spawner", ws, source);
    place
}

fn lines(running: &common::Running) -> Vec<String> {
    running.host.borrow().log().into_iter().map(|l| l.text).collect()
}

#[test]
fn joins_wait_for_a_handler_and_each_user_gets_one_character() {
    let place = place_with(SPAWNER);
    let mut running = place.start();
    // Users connect before any script ran: their joins wait.
    running.sim.players.connect(7, None).unwrap();
    running.sim.players.connect(8, None).unwrap();
    running.sim.step();
    let log = lines(&running);
    assert!(log.iter().any(|l| l.ends_with("bound 7")), "{log:?}");
    assert!(log.iter().any(|l| l.ends_with("bound 8")), "{log:?}");
    let a = running.sim.players.character_of(&running.sim.arena, 7).unwrap();
    let b = running.sim.players.character_of(&running.sim.arena, 8).unwrap();
    assert_ne!(a, b);
    assert!(running.sim.arena.get(a).unwrap().flags().contains(arbor_core::NodeFlags::TRANSIENT));
    // Binding a second character raises the seed's text.
    let err = running.sim.players.bind_character(&mut running.sim.arena, 7, b).unwrap_err();
    assert_eq!(err.to_string(), "user 7 already owns a character; destroy it before binding another");
}

#[test]
fn the_join_queue_holds_64_and_refuses_the_65th() {
    let place = place_with("-- no handler\n");
    let mut running = place.start();
    for u in 1..=MAX_PENDING_JOINS as u64 {
        running.sim.players.connect(u, None).unwrap();
    }
    assert!(running.sim.players.connect(1000, None).is_err());
    running.sim.run(3);
    assert_eq!(running.sim.players.pending_joins(), MAX_PENDING_JOINS);
}

#[test]
fn death_is_marked_then_announced_once_with_the_attacker() {
    let source = format!(
        "{SPAWNER}\nlocal t = 0\nfunction Update()\n t += 1\n if t == 3 then game.Session.Damage(game.Session.CharacterOf(7), 150, workspace.Floor) end\nend\n"
    );
    let place = place_with(&source);
    let mut running = place.start();
    running.sim.players.connect(7, None).unwrap();
    for _ in 0..3 {
        running.sim.step();
    }
    let c: Id = running.sim.players.character_of(&running.sim.arena, 7).unwrap();
    let dead = running.sim.arena.names().find(CHARACTER_DEAD).unwrap();
    assert!(running.sim.arena.get(c).unwrap().has_tag(dead), "marked in the tick the damage landed");
    assert!(!lines(&running).iter().any(|l| l.contains("died")));
    running.sim.run(5);
    let died: Vec<String> = lines(&running).into_iter().filter(|l| l.contains("died")).collect();
    assert_eq!(died.len(), 1, "{:?}", lines(&running));
    assert!(died[0].ends_with("died 7 Floor Cadet"), "{died:?}");
    let announced = running.sim.arena.names().find(arbor_sim::fallen::DIED_ANNOUNCED).unwrap();
    assert!(running.sim.arena.get(c).unwrap().has_tag(announced));
    assert!(running.sim.arena.contains(c), "the body stays");
}

#[test]
fn leaving_fires_player_left_with_the_character_intact_then_destroys_it() {
    let place = place_with(SPAWNER);
    let mut running = place.start();
    running.sim.players.connect(7, None).unwrap();
    running.sim.run(2);
    let c = running.sim.players.character_of(&running.sim.arena, 7).unwrap();
    let arena = &running.sim.arena;
    running.sim.players.disconnect(arena, 7, "bye");
    running.sim.step();
    assert!(lines(&running).iter().any(|l| l.ends_with("left 7 Cadet true")), "{:?}", lines(&running));
    assert!(!running.sim.arena.contains(c));
}

#[test]
fn kicks_queue_64_and_go_through_the_leave_path() {
    let source = format!(
        "{SPAWNER}\nlocal done = false\nfunction Update()\n if not done and game.Session.CharacterOf(7) then\n done = true\n print('kick', game.Session.Kick(7, 'cheating'), game.Session.Kick(0), game.Session.Kick(-3))\n end\nend\n"
    );
    let place = place_with(&source);
    let mut running = place.start();
    running.sim.players.connect(7, None).unwrap();
    running.sim.run(6);
    let log = lines(&running);
    assert!(log.iter().any(|l| l.ends_with("kick true false false")), "{log:?}");
    assert!(log.iter().any(|l| l.ends_with("left 7 Cadet true")), "{log:?}");
    assert_eq!(running.sim.players.take_kicked(), vec![(7, "cheating".to_owned())]);
    for _ in 0..MAX_PENDING_KICKS {
        assert!(running.sim.players.kick(9, None));
    }
    assert!(!running.sim.players.kick(9, None));
}

#[test]
fn characters_walk_on_their_inputs() {
    let place = place_with(SPAWNER);
    let mut running = place.start();
    running.sim.players.connect(7, None).unwrap();
    running.sim.run(30);
    let c = running.sim.players.character_of(&running.sim.arena, 7).unwrap();
    let root = running.sim.arena.children(c).next().unwrap();
    let start = running.sim.transforms.get(&running.sim.arena, root).unwrap().position;
    running.sim.players.set_input(7, arbor_sim::players::MoveInput { direction: [1.0, 0.0], jump: false });
    running.sim.run(60);
    let end = running.sim.transforms.get(&running.sim.arena, root).unwrap().position;
    assert!(end.x - start.x > 10.0, "walked from {start} to {end}");
    assert!(end.y > 0.0 && end.y < 3.0, "stands on the floor: {end}");
}
