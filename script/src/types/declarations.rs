//! The script API as Luau types: one line per name the engine exposes, kept beside the
//! engine's own tables so they cannot drift apart.
//!
//! Invariants: [`member`] matches on every [`Member`] (a new Instance member does not
//! compile without its type); every path of [`SERVICES`] and [`GLOBALS`] exists in a fresh
//! script environment, and every table the environment holds is declared here (both checked
//! by `types::tests`).

use crate::instances::props::Member;

/// Where a name may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// On the server and in client scripts.
    Both,
    /// On the server only; a client script's call raises.
    Server,
    /// Meaningful on a client only (nil or empty on the server).
    Client,
}

/// The Luau declaration of an Instance member (a class member line of a definition file).
pub(crate) fn member(m: Member) -> &'static str {
    match m {
        Member::Name => "Name: string",
        Member::ClassName => "ClassName: string -- read-only",
        Member::Parent => "Parent: Instance?",
        Member::Position => "Position: Vector3",
        Member::Rotation => "Rotation: Vector3 -- XYZ Euler degrees",
        Member::Size => "Size: Vector3",
        Member::Anchored => "Anchored: boolean",
        Member::CanCollide => "CanCollide: boolean",
        Member::Archivable => "Archivable: boolean",
        Member::Transparency => "Transparency: number",
        Member::Shape => "Shape: \"Block\" | \"Ball\" | \"Cylinder\"",
        Member::Material => "Material: string",
        Member::Color => "Color: Vector3 -- red, green, blue from 0 to 1",
        Member::FindFirstChild => {
            "function FindFirstChild(self, name: string, recursive: boolean?): Instance?"
        }
        Member::GetChildren => "function GetChildren(self): { Instance }",
        Member::Clone => "function Clone(self): Instance",
        Member::Destroy => "function Destroy(self): () -- server only",
        Member::GetAttribute => "function GetAttribute(self, name: string): AttributeValue?",
        Member::SetAttribute => "function SetAttribute(self, name: string, value: AttributeValue?): ()",
        Member::IsA => "function IsA(self, class: string): boolean",
        Member::GetFullName => "function GetFullName(self): string",
        Member::GetSignal => "function GetSignal(self, name: string): Signal",
        Member::AddComponent => {
            "function AddComponent(self, name: string, values: { [string]: any }?): Component"
        }
        Member::GetComponent => "function GetComponent(self, name: string): Component?",
        Member::HasComponent => "function HasComponent(self, name: string): boolean",
        Member::RemoveComponent => "function RemoveComponent(self, name: string): boolean",
    }
}

/// Type aliases and the classes of values scripts hold (besides Instance).
pub(crate) const PRELUDE: &str = r#"type AttributeValue = boolean | number | string | Vector3 | Instance
type StoreKey = number | string
type StoreValue = boolean | number | string | Vector3 | { [any]: any }
type Component = { [string]: any }
type SystemQuery = { with: { string }, without: { string }?, under: Instance? }

declare class Vector3
    X: number
    Y: number
    Z: number
    x: number
    y: number
    z: number
    Magnitude: number
    Unit: Vector3
    function Dot(self, other: Vector3): number
    function Cross(self, other: Vector3): Vector3
    function __add(self, other: Vector3): Vector3
    function __sub(self, other: Vector3): Vector3
    function __mul(self, other: Vector3 | number): Vector3
    function __div(self, other: Vector3 | number): Vector3
    function __unm(self): Vector3
end

declare class Signal
    function Connect(self, handler: (...any) -> ()): ()
    function Emit(self, ...: any): ()
end

declare class Store
    function get(self, key: StoreKey): { [any]: any }?
    function put(self, key: StoreKey, value: { [any]: any }): ()
end

declare class CloudStore
    function fetch(self, key: StoreKey, callback: (data: StoreValue?, version: number?, err: string?) -> ()): ()
    function put(self, key: StoreKey, value: StoreValue, callback: ((version: number?, err: string?) -> ())?): ()
    function update(self, key: StoreKey, transform: (old: StoreValue?) -> StoreValue?, callback: ((data: StoreValue?, version: number?, err: string?) -> ())?): ()
end
"#;

/// Names in the services under `game` (and `Physics`, which is also a global), as dotted
/// paths with their types.
pub(crate) const SERVICES: &[(&str, &str, Side)] = &[
    ("game.Workspace", "Instance", Side::Both),
    ("game.Prefabs.Spawn", "(name: string) -> Instance?", Side::Both),
    (
        "game.Components.Define",
        "(name: string, fields: { [string]: any }, options: { requires: { string }?, storage: (\"table\" | \"sparse\")? }?) -> string",
        Side::Both,
    ),
    (
        "game.Systems.Register",
        "(name: string, query: SystemQuery, system: (dt: number, entities: { Instance }) -> ()) -> ()",
        Side::Server,
    ),
    ("game.Store.open", "(name: string) -> Store", Side::Server),
    ("game.CloudStore.open", "(name: string) -> CloudStore", Side::Server),
    ("game.Behaviors.Send", "(host: Instance, event: string, payload: any?) -> ()", Side::Server),
    ("game.Session.PlayerJoined", "Signal -- handler(userId: number)", Side::Server),
    ("game.Session.PlayerLeft", "Signal -- handler(character: Instance?, userId: number)", Side::Server),
    (
        "game.Session.CharacterDied",
        "Signal -- handler(character: Instance, userId: number?, attacker: Instance?)",
        Side::Server,
    ),
    ("game.Session.BindCharacter", "(userId: number, character: Instance) -> ()", Side::Server),
    ("game.Session.CharacterOf", "(userId: number) -> Instance?", Side::Server),
    (
        "game.Session.Damage",
        "(target: Instance, amount: number, attacker: Instance?) -> number",
        Side::Server,
    ),
    ("game.Session.Kick", "(userId: number, reason: string?) -> boolean", Side::Server),
    ("game.Session.GetPlayers", "() -> { number }", Side::Server),
    ("game.Session.LocalCharacter", "() -> Instance?", Side::Client),
    ("game.Physics.FallenPartsDestroyHeight", "number", Side::Both),
];

/// Globals besides Luau's own safe libraries (which luau-lsp already knows).
pub(crate) const GLOBALS: &[(&str, &str)] = &[
    ("print", "declare function print(...: any): ()"),
    ("warn", "declare function warn(...: any): ()"),
    ("workspace", "declare workspace: Instance"),
    ("handles", "declare handles: { [string]: Instance } -- instances registered by handle name"),
    ("Physics", "declare Physics: { FallenPartsDestroyHeight: number } -- the same service as game.Physics"),
    (
        "Vector3",
        "declare Vector3: { new: (x: number, y: number, z: number) -> Vector3, zero: Vector3, one: Vector3, xAxis: Vector3, yAxis: Vector3, zAxis: Vector3 }",
    ),
    ("self", "declare self: Instance -- the instance the script is attached to (its parent)"),
    ("script", "declare script: Instance -- the Script itself"),
];
