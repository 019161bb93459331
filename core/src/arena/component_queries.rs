//! Queries through the arena: chunk passes that stamp a new revision
//! ([`Arena::for_each_chunk_mut`], [`Arena::par_for_each_chunk_mut`], and
//! [`Arena::for_each_chunk_mut_with_nodes`] for passes that also read the nodes their rows
//! belong to) and ancestry-filtered queries ([`AncestryQuery`], [`Arena::query_under`]).
//!
//! In an undo scope a chunk pass first journals the rows of every instance its query matches
//! (see `undo`).
//!
//! Invariant: an [`AncestryQuery`]'s matches are those of the (topology, membership)
//! revisions it records in `checked`; `query_under` recomputes them whenever either moved.

use super::Arena;
use crate::components::{ChunkLanes, Lane, Query};
use crate::id::Id;
use crate::nodes::page::NodeRef;
use crate::nodes::store::NodeStore;
use crate::value::NodeFlags;

/// Read access to the live nodes during a chunk pass that writes component lanes (see
/// [`Arena::for_each_chunk_mut_with_nodes`]): the pass writes only component lanes, so
/// the nodes cannot change under it.
#[derive(Clone, Copy)]
pub struct LiveNodes<'a> {
    store: &'a NodeStore,
}

impl<'a> LiveNodes<'a> {
    /// Live node `id`, if any (as [`Arena::get`]).
    #[inline]
    pub fn get(&self, id: Id) -> Option<NodeRef<'a>> {
        self.store.live(id)
    }
}

/// A cached, ancestry-filtered view of a query: the matching instances under one ancestor,
/// recomputed only when the topology or the component membership has moved since.
#[derive(Clone, Debug)]
pub struct AncestryQuery {
    /// The component filter.
    pub query: Query,
    ancestor: Id,
    checked: Option<(u64, u64)>,
    matches: Vec<Id>,
}

impl AncestryQuery {
    /// Instances matching `query` that are descendants of `ancestor`.
    pub fn new(query: Query, ancestor: Id) -> Self {
        Self { query, ancestor, checked: None, matches: Vec::new() }
    }

    /// The (topology, membership) revisions the matches were last computed at; unchanged
    /// between two [`Arena::query_under`] calls exactly when the second reused the matches.
    pub fn computed_at(&self) -> Option<(u64, u64)> {
        self.checked
    }
}

impl Arena {
    /// Runs `f` on each chunk matching `query`, with `reads` lanes readable and `writes`
    /// lanes writable. Written chunks are stamped with one new revision (copied first if a
    /// snapshot shares them). Tables that cannot lend every lane are skipped: string lanes,
    /// and reference lanes asked for writing (use [`set_field`](Self::set_field)).
    /// Inside an undo scope the pass first journals the rows of every instance the query
    /// matches (cost linear in them), so a rollback restores what it wrote.
    pub fn for_each_chunk_mut(
        &mut self,
        query: &mut Query,
        reads: &[Lane],
        writes: &[Lane],
        mut f: impl FnMut(ChunkLanes<'_>),
    ) {
        self.for_each_chunk_mut_with_nodes(query, reads, writes, |chunk, _| f(chunk));
    }

    /// [`for_each_chunk_mut`](Self::for_each_chunk_mut) for a pass that also reads the nodes
    /// its rows belong to (their flags, transforms…): `f` gets each chunk and read access
    /// to the live nodes.
    ///
    /// ```
    /// use arbor_core::{Arena, Class, NodeFlags, components::{FieldDef, FieldType, FieldValue, Query, Schema}};
    ///
    /// let mut arena = Arena::new();
    /// let heat = arena.register_component(Schema::new("Heat", vec![FieldDef::new("Value", FieldType::F32)])).unwrap();
    /// let inside = arena.create(Class::Part, "Inside", Some(arena.workspace())).unwrap();
    /// let stored = arena.create(Class::Part, "Stored", None).unwrap();
    /// for id in [inside, stored] {
    ///     arena.add_component(id, heat, None).unwrap();
    /// }
    /// let lane = arena.components().lane(heat, "Value").unwrap();
    /// // Warm up only what is in the world.
    /// arena.for_each_chunk_mut_with_nodes(&mut Query::new(&[heat]), &[], &[lane], |mut chunk, nodes| {
    ///     let ids = chunk.ids();
    ///     for (value, id) in chunk.write::<f32>(0).iter_mut().zip(ids) {
    ///         if nodes.get(*id).is_some_and(|n| n.flags().contains(NodeFlags::IN_WORLD)) {
    ///             *value += 1.0;
    ///         }
    ///     }
    /// });
    /// assert_eq!(arena.field(inside, heat, "Value"), Some(FieldValue::F32(1.0)));
    /// assert_eq!(arena.field(stored, heat, "Value"), Some(FieldValue::F32(0.0)));
    /// ```
    pub fn for_each_chunk_mut_with_nodes(
        &mut self,
        query: &mut Query,
        reads: &[Lane],
        writes: &[Lane],
        mut f: impl FnMut(ChunkLanes<'_>, LiveNodes<'_>),
    ) {
        if self.undo.is_some() {
            self.journal_pass(query);
        }
        let rev = self.revisions.bump();
        let nodes = LiveNodes { store: &self.store };
        self.components.for_each_chunk_mut(query, reads, writes, rev, |chunk| f(chunk, nodes));
    }

    /// [`for_each_chunk_mut`](Self::for_each_chunk_mut) with chunks spread over rayon's pool;
    /// a chunk of 128 rows or more is split into row ranges (multiples of eight rows) while
    /// rayon has idle threads, so `f` may be called on a piece of a chunk.
    pub fn par_for_each_chunk_mut(
        &mut self,
        query: &mut Query,
        reads: &[Lane],
        writes: &[Lane],
        f: impl Fn(ChunkLanes<'_>) + Sync + Send,
    ) {
        if self.undo.is_some() {
            self.journal_pass(query);
        }
        let rev = self.revisions.bump();
        self.components.par_for_each_chunk_mut(query, reads, writes, rev, f);
    }

    /// Journals the rows of every instance `query` matches (before a chunk pass in an undo
    /// scope: the pass may write any of them).
    #[cold]
    #[inline(never)]
    fn journal_pass(&mut self, query: &mut Query) {
        for id in self.components.ids(query) {
            self.journal_rows(id);
        }
    }

    /// The (topology, component membership) revisions the matches of every
    /// [`AncestryQuery`] depend on: a query whose [`AncestryQuery::computed_at`] equals them
    /// is current without being looked at.
    pub fn ancestry_revisions(&self) -> (u64, u64) {
        (self.revisions.topology, self.components.membership)
    }

    /// The instances matching `q.query` under `q`'s ancestor, recomputed only if the topology
    /// or component membership moved since the last call. Under the Workspace they come
    /// table by table; under another ancestor, in table order when the matches are fewer
    /// than the ancestor's descendants, else in the subtree's pre-order.
    pub fn query_under<'q>(&self, q: &'q mut AncestryQuery) -> &'q [Id] {
        let key = self.ancestry_revisions();
        if q.checked != Some(key) {
            let ancestor = q.ancestor;
            q.matches = if ancestor == self.workspace {
                let ids = self.components.ids(&mut q.query);
                ids.into_iter()
                    .filter(|&id| {
                        self.get(id)
                            .is_some_and(|n| n.flags().contains(NodeFlags::IN_WORLD) && id != ancestor)
                    })
                    .collect()
            } else {
                // Walk whichever side is smaller: the ancestor's subtree, checking each node's
                // component set, or the matches, walking up from each.
                let count = self.components.count(&mut q.query);
                match self.descendants_within(ancestor, count) {
                    Some(nodes) => {
                        nodes.into_iter().filter(|&id| self.components.matches(&q.query, id)).collect()
                    }
                    None => {
                        let ids = self.components.ids(&mut q.query);
                        ids.into_iter().filter(|&id| self.is_ancestor_of(ancestor, id)).collect()
                    }
                }
            };
            q.checked = Some(key);
        }
        &q.matches
    }
}
