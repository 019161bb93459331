//! [`FieldHandle`]: one field of one component resolved once by name, for engine code that
//! reads or writes the same fields every tick without looking their names up.
//!
//! Invariant: a handle is checked against the registry it is used with
//! ([`SchemaRegistry::check_handle`]): it must name a field of that index and type there, so a
//! handle from another arena's registry is refused, never read as another field.

use super::schema::{ComponentId, ComponentInfo, FieldType, SchemaError, SchemaRegistry};

/// One field of one component, resolved once by name
/// ([`SchemaRegistry::field_handle`]) for code that reads or writes it often
/// ([`Arena::field_at`](crate::Arena::field_at), [`Arena::set_field_at`](crate::Arena::set_field_at)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldHandle {
    /// The component.
    pub component: ComponentId,
    /// The field's index in the component's schema.
    pub field: u16,
    /// The field's type.
    pub ty: FieldType,
}

impl SchemaRegistry {
    /// The handle of field `name` of component `c`.
    pub fn field_handle(&self, c: ComponentId, name: &str) -> Result<FieldHandle, SchemaError> {
        let info = self.try_info(c).ok_or_else(|| SchemaError::UnknownComponent(format!("#{}", c.0)))?;
        let field = info.field(name).ok_or_else(|| SchemaError::UnknownField {
            component: info.schema.name.to_string(),
            field: name.to_owned(),
        })?;
        Ok(FieldHandle { component: c, field: field as u16, ty: info.schema.fields[field].ty })
    }

    /// The layout `handle`'s component has here, if the handle names a field of it with the
    /// handle's type (a handle from another registry may not).
    pub(crate) fn check_handle(&self, handle: FieldHandle) -> Result<&ComponentInfo, SchemaError> {
        let c = handle.component;
        let info = self.try_info(c).ok_or_else(|| SchemaError::UnknownComponent(format!("#{}", c.0)))?;
        match info.schema.fields.get(usize::from(handle.field)) {
            Some(def) if def.ty == handle.ty => Ok(info),
            _ => Err(SchemaError::UnknownField {
                component: info.schema.name.to_string(),
                field: format!("#{}", handle.field),
            }),
        }
    }
}
