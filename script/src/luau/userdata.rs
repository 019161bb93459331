//! The userdata blocks of Instance and Component handles, their tags, and handles as mlua
//! values.
//!
//! A handle is a tagged userdata holding the instance id (and, for a component handle, the
//! component id) and the address of its VM's [`WorldSlot`]. Blocks of [`INSTANCE_TAG`] and
//! [`COMPONENT_TAG`] are written only here (`push_handle`, `push_component`), whole and once,
//! so a block of either tag always holds a valid value of its type.
//!
//! Invariant: the world slot a handle names is kept alive by the `Rc` in its VM's app data,
//! which mlua drops only after `lua_close`. A [`Handle`] or [`ComponentHandle`] can only be
//! read from a VM's stack (its fields are private), and it borrows the frame it was read
//! from (`'f`), so it cannot outlive the call; [`Handle::slot`] is therefore always valid.
//! A [`WorldRef`] names a world slot only as one of those handles gave it, so a handle
//! pushed from one can only name its own VM's slot.

use crate::world_slot::{WorldSlot, world_slot};
use arbor_core::{Id, components::ComponentId};
use mlua::{Lua, Table, Value, ffi};
use std::ffi::c_int;
use std::marker::PhantomData;

/// Luau userdata tag of Instance handles. mlua marks destructed userdata with tag 1 and
/// allocates its own userdata untagged, so any tag from 2 to 127 is free.
pub const INSTANCE_TAG: c_int = 64;

/// Luau userdata tag of component handles.
pub const COMPONENT_TAG: c_int = 65;

/// The contents of an Instance handle's block.
#[repr(C)]
#[derive(Clone, Copy)]
struct HandleBlock {
    /// The instance id.
    id: u64,
    /// The world slot of the VM that created the handle (see the module docs).
    world: *const WorldSlot,
}

/// The contents of a component handle's block.
#[repr(C)]
#[derive(Clone, Copy)]
struct ComponentBlock {
    /// The instance id.
    id: u64,
    /// The world slot of the VM that made the handle (see the module docs).
    world: *const WorldSlot,
    /// The component id.
    component: u32,
}

/// The world slot a handle read from a VM names (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct WorldRef<'f> {
    slot: *const WorldSlot,
    _frame: PhantomData<&'f WorldSlot>,
}

/// An Instance handle read from a VM's stack, valid for the call that read it.
#[derive(Clone, Copy)]
pub(crate) struct Handle<'f> {
    id: u64,
    world: WorldRef<'f>,
}

/// A component handle read from a VM's stack, valid for the call that read it: the
/// instance's [`Handle`] (its id and world, through `Deref`) and the component.
#[derive(Clone, Copy)]
pub(crate) struct ComponentHandle<'f> {
    of: Handle<'f>,
    component: u32,
}

impl<'f> std::ops::Deref for ComponentHandle<'f> {
    type Target = Handle<'f>;

    #[inline]
    fn deref(&self) -> &Handle<'f> {
        &self.of
    }
}

impl<'f> WorldRef<'f> {
    #[inline]
    fn new(slot: *const WorldSlot) -> Self {
        WorldRef { slot, _frame: PhantomData }
    }

    /// The slot.
    #[inline]
    pub fn slot(self) -> &'f WorldSlot {
        // SAFETY: a `WorldRef` is made only from a handle block read from a live VM, whose
        // slot outlives every call into that VM (module invariant).
        unsafe { &*self.slot }
    }
}

impl<'f> Handle<'f> {
    /// The instance.
    #[inline]
    pub fn instance(&self) -> Id {
        Id(self.id)
    }

    /// The world slot of the handle's VM.
    #[inline]
    pub fn slot(&self) -> &'f WorldSlot {
        self.world.slot()
    }

    /// The world slot of the handle's VM, for pushing handles into the same VM.
    #[inline]
    pub fn world(&self) -> WorldRef<'f> {
        self.world
    }
}

impl<'f> ComponentHandle<'f> {
    /// The component.
    #[inline]
    pub fn component(&self) -> ComponentId {
        ComponentId(self.component as u16)
    }

    /// Whether both name the same component of the same instance.
    #[inline]
    pub fn same(&self, other: &ComponentHandle<'_>) -> bool {
        self.of.id == other.of.id && self.component == other.component
    }
}

/// The handle at stack index `idx`, if that value is an Instance handle.
///
/// # Safety
/// `state` is a live Lua thread and `idx` an acceptable index of its stack.
#[inline]
/// The handle lives no longer than `'f`, which the caller ties to the call.
pub(crate) unsafe fn handle_at<'f>(state: *mut ffi::lua_State, idx: c_int) -> Option<Handle<'f>> {
    // SAFETY: per the caller's contract; null unless the value is a userdata with our tag.
    let p = unsafe { ffi::lua_touserdatatagged(state, idx, INSTANCE_TAG) }.cast::<HandleBlock>();
    // SAFETY: blocks of INSTANCE_TAG hold a whole `HandleBlock` (module docs); Luau aligns
    // userdata blocks for any scalar.
    (!p.is_null()).then(|| unsafe { p.read() }).map(|b| Handle { id: b.id, world: WorldRef::new(b.world) })
}

/// The component handle at stack index `idx`, if that value is one.
///
/// # Safety
/// As [`handle_at`].
#[inline]
pub(super) unsafe fn component_at<'f>(state: *mut ffi::lua_State, idx: c_int) -> Option<ComponentHandle<'f>> {
    // SAFETY: per the caller's contract; null unless the value is userdata with our tag.
    let p = unsafe { ffi::lua_touserdatatagged(state, idx, COMPONENT_TAG) }.cast::<ComponentBlock>();
    // SAFETY: blocks of COMPONENT_TAG hold a whole `ComponentBlock` (module docs).
    (!p.is_null()).then(|| unsafe { p.read() }).map(|b| ComponentHandle {
        of: Handle { id: b.id, world: WorldRef::new(b.world) },
        component: b.component,
    })
}

/// The handle in the block of a userdata of [`INSTANCE_TAG`] (Luau's direct access hands
/// over the block, not the value).
///
/// # Safety
/// `block` is the block of a live userdata of [`INSTANCE_TAG`], and the handle lives no
/// longer than `'f`, which the caller ties to the call.
#[inline]
pub(crate) unsafe fn handle_in_block<'f>(block: *mut std::ffi::c_void) -> Handle<'f> {
    // SAFETY: per the caller's contract, the block holds a whole `HandleBlock` (module docs).
    let b = unsafe { block.cast::<HandleBlock>().read() };
    Handle { id: b.id, world: WorldRef::new(b.world) }
}

/// Pushes a handle to `id` in the VM whose world slot is `world`.
///
/// # Safety
/// `state` is a live thread of a VM where the Instance metatable is installed (`handle::install`),
/// with a free stack slot, and `world` is that VM's slot.
#[inline]
pub(super) unsafe fn push_handle(state: *mut ffi::lua_State, id: Id, world: *const WorldSlot) {
    // SAFETY: per the caller's contract. The new block gets the tag's metatable and is
    // `size_of::<HandleBlock>()` bytes, suitably aligned.
    unsafe {
        let p = ffi::lua_newuserdatataggedwithmetatable(state, size_of::<HandleBlock>(), INSTANCE_TAG);
        p.cast::<HandleBlock>().write(HandleBlock { id: id.0, world });
    }
}

/// The raw slot of a [`WorldRef`], for the pushes of this layer.
#[inline]
pub(super) fn raw_slot(world: WorldRef<'_>) -> *const WorldSlot {
    world.slot
}

/// Pushes a handle to `(id, component)` in the VM whose world slot is `world`.
///
/// # Safety
/// As [`push_handle`], with the Component metatable installed.
#[inline]
pub(super) unsafe fn push_component(
    state: *mut ffi::lua_State,
    id: Id,
    component: ComponentId,
    world: *const WorldSlot,
) {
    // SAFETY: as in `push_handle`, for a `ComponentBlock` (the Component metatable is
    // installed by `component_handle::install`).
    unsafe {
        let p = ffi::lua_newuserdatataggedwithmetatable(state, size_of::<ComponentBlock>(), COMPONENT_TAG);
        p.cast::<ComponentBlock>().write(ComponentBlock {
            id: id.0,
            world,
            component: u32::from(component.0),
        });
    }
}

/// A handle to `id` (or nil) as an mlua value.
pub fn instance_value(lua: &Lua, id: Option<Id>) -> mlua::Result<Value> {
    let Some(id) = id else { return Ok(Value::Nil) };
    let world = std::rc::Rc::as_ptr(&world_slot(lua)?);
    // SAFETY: `exec_raw` gives a valid state of this VM with stack room checked; `world` is
    // this VM's slot.
    unsafe { lua.exec_raw::<Value>((), |state| push_handle(state, id, world)) }
}

/// A table of handles to `ids` (a sequence).
pub fn instance_list(lua: &Lua, ids: &[Id]) -> mlua::Result<Table> {
    let world = std::rc::Rc::as_ptr(&world_slot(lua)?);
    let n = c_int::try_from(ids.len()).map_err(|_| mlua::Error::runtime("too many instances"))?;
    // SAFETY: as in `instance_value`; the table stays at the top while each handle is
    // pushed and popped into it (one extra slot).
    unsafe {
        lua.exec_raw::<Table>((), |state| {
            ffi::lua_createtable(state, n, 0);
            for (i, &id) in ids.iter().enumerate() {
                push_handle(state, id, world);
                ffi::lua_rawseti(state, -2, i as ffi::lua_Integer + 1);
            }
        })
    }
}

/// The instance id of `v`, if it is an Instance handle.
pub fn instance_id(lua: &Lua, v: &Value) -> Option<Id> {
    let Value::UserData(ud) = v else { return None };
    // SAFETY: `exec_raw` pushes `ud` on a valid state; we read it, pop it and push a number
    // or nil in its place (the only result).
    let id = unsafe {
        lua.exec_raw::<Option<f64>>(ud, |state| {
            let handle = handle_at(state, -1);
            ffi::lua_pop(state, 1);
            match handle {
                Some(h) => ffi::lua_pushnumber(state, h.instance().0 as f64),
                None => ffi::lua_pushnil(state),
            }
        })
    };
    // Ids are below 2^53, so the round trip through f64 is exact.
    id.ok().flatten().map(|n| Id(n as u64))
}

/// A component handle for `(id, component)` as a Lua value.
pub fn component_value(lua: &Lua, id: Id, component: ComponentId) -> mlua::Result<Value> {
    let world = std::rc::Rc::as_ptr(&world_slot(lua)?);
    // SAFETY: `exec_raw` gives a valid state of this VM with stack room for the one value
    // pushed; `world` is this VM's slot.
    unsafe { lua.exec_raw::<Value>((), |state| push_component(state, id, component, world)) }
}
