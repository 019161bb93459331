//! Component schemas across arenas for graft: refusing a graft whose schemas conflict with
//! this arena's, and mapping the source's component ids to this arena's (registering the
//! schemas it lacks, requirements first).

use super::Arena;
use crate::components::{ComponentId, ComponentStore, SchemaError};
use crate::error::ArenaError;

impl Arena {
    /// Maps a source component id to this arena's (graft): registers the schema if missing.
    /// Call [`check_graft_schemas`](Self::check_graft_schemas) first.
    pub(crate) fn adopt_schema(&mut self, source: &ComponentStore, c: ComponentId) -> ComponentId {
        let schema = source.registry().info(c).schema.clone();
        for r in &schema.requires {
            let rid = source.registry().id(r).expect("source requirement registered");
            self.adopt_schema(source, rid);
        }
        self.register_component(schema).expect("checked by check_graft_schemas")
    }

    /// Refuses a graft whose component schemas conflict with this arena's.
    pub(crate) fn check_graft_schemas(
        &self,
        source: &ComponentStore,
        used: &[ComponentId],
    ) -> Result<(), ArenaError> {
        for &c in used {
            let schema = &source.registry().info(c).schema;
            if let Some(mine) = self.components.registry.id(&schema.name)
                && self.components.registry.info(mine).schema != *schema
            {
                return Err(SchemaError::LayoutConflict(schema.name.to_string()).into());
            }
        }
        Ok(())
    }
}
