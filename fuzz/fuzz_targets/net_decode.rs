//! Any bytes given to the wire decoders (snapshot, input, character state, control) and to a replica: a
//! message or a clear error, never a panic; an accepted snapshot applies to a replica
//! without panicking, and an accepted input survives an encode and decode unchanged.
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
    if arbor_net::wire::SnapshotMessage::decode(data).is_ok() {
        let mut replica = arbor_net::replication::Replica::new();
        let _ = replica.apply(data);
        let _ = replica.world_hash();
    }
});
