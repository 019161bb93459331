//! Any bytes given to the wire decoders (snapshot, input, character state, control, script
//! code) and to a replica: a message or a clear error, never a panic; an accepted snapshot
//! applies to a replica without panicking, and an accepted input, character state or script
//! code survives an encode and decode unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(input) = arbor_net::wire::Input::decode(data) {
        assert_eq!(arbor_net::wire::Input::decode(&input.encode()), Ok(input));
    }
    let _ = arbor_net::wire::Control::decode(data);
    if let Ok(state) = arbor_net::wire::CharacterState::decode(data) {
        assert_eq!(arbor_net::wire::CharacterState::decode(&state.encode()), Ok(state));
    }
    if let Ok(code) = arbor_net::wire::ScriptCode::decode(data) {
        assert_eq!(arbor_net::wire::ScriptCode::decode(&code.encode()), Ok(code));
    }
    if arbor_net::wire::SnapshotMessage::decode(data).is_ok() {
        let mut replica = arbor_net::replication::Replica::new();
        let _ = replica.apply(data);
        let _ = replica.world_hash();
    }
});
