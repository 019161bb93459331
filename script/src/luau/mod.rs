//! The bottom layer of the Luau C boundary: everything that reads or writes a Lua stack for
//! the Instance and Component handles, their metamethods and the method trampolines.
//!
//! - [`CallFrame`] (`frame`): the stack of one call the VM makes into one of our C functions.
//!   Its accessors check a value's type before reading it and its pushes go through Luau's, which grow the stack first,
//!   so they are safe; entering a frame and raising from one are the only unsafe steps, each
//!   with one stated reason.
//! - `userdata`: the blocks of the two handle types ([`Handle`], [`ComponentHandle`]), their
//!   tags, and handles as mlua values ([`instance_value`], [`instance_id`], ...).
//! - `install`: frozen metatables of C functions for a tag, the `useratom` callback, Luau's
//!   direct userdata access, and C closures around mlua functions.
//! - `values`: what a C call reads ([`Arg`], borrowed from the stack), what it pushes
//!   ([`Read`]) and what it raises ([`Fail`]).
//!
//! The layers above (`handle`, `component_handle`, `trampoline`) are safe Rust apart from
//! the one-line `CallFrame::enter` / `CallFrame::raise` at each C entry. `ordered_pairs` keeps its
//! own raw stack code: it sorts a table's keys in place on the stack and shares nothing with
//! the handles.

pub mod convert;
mod frame;
mod install;
pub mod prelude;
mod userdata;
mod values;

pub(super) use frame::{CallFrame, guarded};
pub(super) use install::{DirectAccess, Metamethod, closure, direct_access, install_atoms, metatable};
pub use userdata::{COMPONENT_TAG, INSTANCE_TAG};
pub(super) use userdata::{ComponentHandle, Handle, handle_at, handle_in_block};
pub use userdata::{component_value, instance_id, instance_list, instance_value};
pub use values::{Arg, Fail, Read};
