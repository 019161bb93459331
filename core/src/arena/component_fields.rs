//! Single component fields through the arena: reading and writing one field by name or by a
//! [`FieldHandle`] resolved once (engine code that writes the same fields every tick).
//!
//! Invariant: a write compares first (an equal value changes nothing, not even a revision),
//! checks everything before it journals or writes (a refused call changes nothing), and
//! stamps the holder with one new revision.

use super::Arena;
use super::undo::UndoEntry;
use crate::components::{ComponentId, FieldHandle, FieldValue, SchemaError};
use crate::error::ArenaError;
use crate::id::Id;

impl Arena {
    /// Sets field `field` of `id`'s component `c`, comparing first. Returns whether it changed.
    pub fn set_field(
        &mut self,
        id: Id,
        c: ComponentId,
        field: &str,
        value: FieldValue,
    ) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        let handle = self.components.registry.field_handle(c, field)?;
        self.set_field_in(slot, id, handle, value)
    }

    /// [`set_field`](Self::set_field) through a handle resolved once with
    /// [`SchemaRegistry::field_handle`](crate::components::SchemaRegistry::field_handle).
    /// A handle from another arena's registry is refused unless it names the same field of
    /// the same layout here.
    ///
    /// ```
    /// use arbor_core::{Arena, Class, components::{FieldDef, FieldType, FieldValue, Schema}};
    ///
    /// let mut arena = Arena::new();
    /// let heat = arena.register_component(Schema::new("Heat", vec![FieldDef::new("Value", FieldType::F32)])).unwrap();
    /// let value = arena.components().registry().field_handle(heat, "Value").unwrap();
    /// let part = arena.create(Class::Part, "P", Some(arena.workspace())).unwrap();
    /// arena.add_component(part, heat, None).unwrap();
    /// assert!(arena.set_field_at(part, value, FieldValue::F32(2.0)).unwrap());
    /// assert!(!arena.set_field_at(part, value, FieldValue::F32(2.0)).unwrap(), "unchanged");
    /// assert_eq!(arena.field_at(part, value), Some(FieldValue::F32(2.0)));
    /// assert!(arena.set_field_at(part, value, FieldValue::Bool(true)).is_err());
    /// ```
    pub fn set_field_at(
        &mut self,
        id: Id,
        handle: FieldHandle,
        value: FieldValue,
    ) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        self.set_field_in(slot, id, handle, value)
    }

    /// [`set_field_at`](Self::set_field_at) on live `id`, found in `slot`.
    fn set_field_in(
        &mut self,
        slot: crate::id::Slot,
        id: Id,
        handle: FieldHandle,
        value: FieldValue,
    ) -> Result<bool, ArenaError> {
        let (c, f) = (handle.component, usize::from(handle.field));
        let info = self.components.registry.check_handle(handle)?;
        if value.ty() != handle.ty {
            return Err(SchemaError::TypeMismatch {
                component: info.schema.name.to_string(),
                field: info.schema.fields[f].name.to_string(),
                expected: handle.ty,
                got: value.ty(),
            }
            .into());
        }
        let Some(current) = self.components.field(id, c, f) else {
            return Err(SchemaError::UnknownComponent(info.schema.name.to_string()).into());
        };
        if let FieldValue::Ref(Some(t)) = value {
            self.node(t)?;
        }
        if current == value {
            return Ok(false);
        }
        if let FieldValue::String(s) = &value {
            self.admit_text(s.len())?;
        }
        self.journal(move |_| UndoEntry::Field { id, component: c, field: f as u16, old: current });
        let rev = self.revisions.bump();
        self.write_field_unchecked(id, c, f, &value, rev);
        self.stamp(slot, rev);
        Ok(true)
    }

    /// Field `field` of `id`'s component `c`.
    pub fn field(&self, id: Id, c: ComponentId, field: &str) -> Option<FieldValue> {
        self.get(id)?;
        self.components.field_by_name(id, c, field)
    }

    /// The field `handle` names on live `id` (`None` if `id` lacks the component, or the
    /// handle does not fit this arena's registry).
    pub fn field_at(&self, id: Id, handle: FieldHandle) -> Option<FieldValue> {
        self.get(id)?;
        self.components.registry.check_handle(handle).ok()?;
        self.components.field(id, handle.component, usize::from(handle.field))
    }
}

#[cfg(test)]
mod tests {
    use crate::components::{FieldDef, FieldHandle, FieldType, FieldValue, Schema};
    use crate::{Arena, Class};

    #[test]
    fn field_handles_write_like_names_and_a_foreign_handle_is_refused() {
        let mut arena = Arena::new();
        let h = arena
            .register_component(Schema::new(
                "Health",
                vec![FieldDef::new("Value", FieldType::F32), FieldDef::new("Max", FieldType::F32)],
            ))
            .unwrap();
        let id = arena.create(Class::Part, "P", Some(arena.workspace())).unwrap();
        arena.add_component(id, h, None).unwrap();
        let hp = arena.components().registry().field_handle(h, "Value").unwrap();
        assert!(arena.set_field_at(id, hp, FieldValue::F32(7.0)).unwrap());
        assert_eq!(arena.field(id, h, "Value"), Some(FieldValue::F32(7.0)));
        assert_eq!(arena.field_at(id, hp), Some(FieldValue::F32(7.0)));
        assert!(arena.components().registry().field_handle(h, "nope").is_err());
        // A handle naming a field this registry's component lacks (or types otherwise).
        let foreign = FieldHandle { component: h, field: 9, ty: FieldType::F32 };
        assert!(arena.set_field_at(id, foreign, FieldValue::F32(1.0)).is_err());
        let retyped = FieldHandle { ty: FieldType::F64, ..hp };
        assert!(arena.set_field_at(id, retyped, FieldValue::F64(1.0)).is_err());
        assert_eq!(arena.field_at(id, retyped), None);
        assert_eq!(arena.field(id, h, "Value"), Some(FieldValue::F32(7.0)), "refusals changed nothing");
    }
}
