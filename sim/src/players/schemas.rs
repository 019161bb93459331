//! The components of a character, registered by [`CharacterSchemas::register`]:
//!
//! | component | fields | who writes it |
//! |---|---|---|
//! | `MoveIntent` | `Direction` (Vector3, ground plane, length ≤ 1), `Jump` (Bool) | the owner's inputs each physics step, or scripts (NPCs) |
//! | `HumanoidState` | `State` (`Running`, `Jumping`, `Freefall`, `Dead`), `WalkSpeed`, `JumpPower` (F64, studs/s) | the controller; speeds by scripts |
//! | `FloorInfo` | `Floor` (instance), `Grounded` (Bool) | the controller |
//! | `Identity` | `UserId` (I64), `DisplayName` (String) | `BindCharacter` |
//!
//! `Health` is the game's own component (see `death`); only its name is fixed here.
//!
//! A character's *root part* is its child Part named `HumanoidRootPart`, else its first Part
//! child: the one dynamic body the controller drives.

use arbor_core::{
    Arena, Class, Id,
    components::{ComponentId, FieldDef, FieldHandle, FieldType, Schema, SchemaError},
};

/// `Health`.
pub const HEALTH: &str = "Health";
/// `MoveIntent`.
pub const MOVE_INTENT: &str = "MoveIntent";
/// `HumanoidState`.
pub const HUMANOID_STATE: &str = "HumanoidState";
/// `FloorInfo`.
pub const FLOOR_INFO: &str = "FloorInfo";
/// `Identity`.
pub const IDENTITY: &str = "Identity";
/// The name of the part a character moves by.
pub const HUMANOID_ROOT_PART: &str = "HumanoidRootPart";
/// Default walk speed, studs/s (Roblox's).
pub const DEFAULT_WALK_SPEED: f64 = 16.0;
/// Default jump speed, studs/s (Roblox's `JumpPower`: about 6.4 studs high at 196.2 gravity).
pub const DEFAULT_JUMP_POWER: f64 = 50.0;

/// The registered character components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharacterSchemas {
    /// `MoveIntent`.
    pub move_intent: ComponentId,
    /// `HumanoidState`.
    pub humanoid_state: ComponentId,
    /// `FloorInfo`.
    pub floor_info: ComponentId,
    /// `Identity`.
    pub identity: ComponentId,
    /// The fields the engine reads and writes every step, resolved once.
    pub fields: CharacterFields,
}

/// Handles of the character fields the engine reads and writes every step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharacterFields {
    /// `MoveIntent.Direction`.
    pub direction: FieldHandle,
    /// `MoveIntent.Jump`.
    pub jump: FieldHandle,
    /// `HumanoidState.State`.
    pub state: FieldHandle,
    /// `HumanoidState.WalkSpeed`.
    pub walk_speed: FieldHandle,
    /// `HumanoidState.JumpPower`.
    pub jump_power: FieldHandle,
    /// `FloorInfo.Floor`.
    pub floor: FieldHandle,
    /// `FloorInfo.Grounded`.
    pub grounded: FieldHandle,
}

impl CharacterSchemas {
    /// Registers the engine's character components on `arena` (or finds them, when a place file declared the
    /// same schemas).
    pub fn register(arena: &mut Arena) -> Result<Self, SchemaError> {
        let f = FieldDef::new;
        let move_intent = arena.register_component(Schema::new(
            MOVE_INTENT,
            vec![f("Direction", FieldType::Vector3), f("Jump", FieldType::Bool)],
        ))?;
        let humanoid_state = arena.register_component(Schema::new(
            HUMANOID_STATE,
            vec![
                f("State", FieldType::String),
                f("WalkSpeed", FieldType::F64),
                f("JumpPower", FieldType::F64),
            ],
        ))?;
        let floor_info = arena.register_component(Schema::new(
            FLOOR_INFO,
            vec![f("Floor", FieldType::InstanceRef), f("Grounded", FieldType::Bool)],
        ))?;
        let identity = arena.register_component(Schema::new(
            IDENTITY,
            vec![f("UserId", FieldType::I64), f("DisplayName", FieldType::String)],
        ))?;
        let registry = arena.components().registry();
        let fields = CharacterFields {
            direction: registry.field_handle(move_intent, "Direction")?,
            jump: registry.field_handle(move_intent, "Jump")?,
            state: registry.field_handle(humanoid_state, "State")?,
            walk_speed: registry.field_handle(humanoid_state, "WalkSpeed")?,
            jump_power: registry.field_handle(humanoid_state, "JumpPower")?,
            floor: registry.field_handle(floor_info, "Floor")?,
            grounded: registry.field_handle(floor_info, "Grounded")?,
        };
        Ok(Self { move_intent, humanoid_state, floor_info, identity, fields })
    }
}

/// The part `character` moves by: its child `HumanoidRootPart`, else its first Part child.
pub fn root_part(arena: &Arena, character: Id) -> Option<Id> {
    arena.get(character)?;
    let parts =
        || arena.children(character).filter(|&c| arena.get(c).is_some_and(|n| n.class() == Class::Part));
    parts().find(|&c| arena.name_of(c) == Some(HUMANOID_ROOT_PART)).or_else(|| parts().next())
}
