//! The wire form of an instance's game-defined components ([`Groups::COMPONENTS`]): either
//! the whole list (names and fields), or a patch of the components that changed since the
//! client's confirmed state, each named by its index in the list.
//!
//! A patch is sent only while the list's names are the same as at the client's confirmed
//! epoch ([`ComponentSend::ChangedSince`] carries the epoch the names last changed); the
//! client then holds exactly the server's names in the same order, so an index names the
//! same component on both sides. Any change of the names (a component added or removed)
//! sends the whole list.
//!
//! Invariants: the whole form's names are sorted and unique; a decoded patch's indices are
//! strictly increasing and below [`MAX_COMPONENTS`]; decoding bounds every count before it
//! allocates.
//!
//! [`Groups::COMPONENTS`]: super::state::Groups::COMPONENTS

use super::codec::{DecodeError, Reader, Writer};
use super::value::{MAX_TEXT, WireValue};
use std::sync::Arc;

/// Most components replicated per instance, and fields per component.
pub(crate) const MAX_COMPONENTS: usize = 64;
/// Most fields per replicated component.
pub(crate) const MAX_FIELDS: usize = 256;

/// Which components an entry's components group carries.
#[derive(Clone, Copy, Debug)]
pub enum ComponentSend<'a> {
    /// The whole list (a create, or names changed since the client's confirmed state).
    All,
    /// Only the components whose epoch in `epochs` (one per component, in list order) is
    /// after `since`, the client's confirmed epoch.
    ChangedSince {
        /// The epoch each component last changed.
        epochs: &'a [u32],
        /// The client's confirmed epoch.
        since: u32,
    },
}

/// Components that changed, by index into the list the client holds, with all their fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ComponentPatch(pub Vec<(u16, Vec<WireValue>)>);

/// A decoded components group.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ComponentsWire {
    /// The whole list.
    All(Vec<(Arc<str>, Vec<WireValue>)>),
    /// The changed components only.
    Patch(ComponentPatch),
}

impl ComponentPatch {
    /// Applies the patch to `components`; false (and `components` unchanged) when an index
    /// is past the list or a field count differs from the held component's.
    pub fn apply(&self, components: &mut [(Arc<str>, Vec<WireValue>)]) -> bool {
        let fits = self
            .0
            .iter()
            .all(|(i, f)| components.get(usize::from(*i)).is_some_and(|(_, held)| held.len() == f.len()));
        if fits {
            for (i, fields) in &self.0 {
                components[usize::from(*i)].1 = fields.clone();
            }
        }
        fits
    }
}

fn encode_fields(fields: &[WireValue], w: &mut Writer) {
    w.varint(fields.len() as u64);
    for f in fields {
        f.encode(w);
    }
}

fn decode_fields(r: &mut Reader<'_>) -> Result<Vec<WireValue>, DecodeError> {
    let k = r.count("fields", MAX_FIELDS, 1)?;
    let mut fields = Vec::with_capacity(k);
    for _ in 0..k {
        fields.push(WireValue::decode(r)?);
    }
    Ok(fields)
}

/// Writes `components` as `send` says: a header `count << 1 | is_patch`, then for the whole
/// list each name and its fields, for a patch each index and its fields.
pub(crate) fn encode(components: &[(Arc<str>, Vec<WireValue>)], send: ComponentSend<'_>, w: &mut Writer) {
    match send {
        ComponentSend::ChangedSince { epochs, since } if epochs.len() == components.len() => {
            let changed = || epochs.iter().enumerate().filter(move |&(_, &at)| at > since).map(|(i, _)| i);
            w.varint(((changed().count() as u64) << 1) | 1);
            for i in changed() {
                w.varint(i as u64);
                encode_fields(&components[i].1, w);
            }
        }
        _ => {
            w.varint((components.len() as u64) << 1);
            for (name, fields) in components {
                w.str(name);
                encode_fields(fields, w);
            }
        }
    }
}

/// Reads a components group.
pub(crate) fn decode(r: &mut Reader<'_>) -> Result<ComponentsWire, DecodeError> {
    let header = r.varint()?;
    let n = usize::try_from(header >> 1).map_err(|_| DecodeError::VarintOverflow)?;
    let fits = r.remaining() / 2;
    if n > MAX_COMPONENTS.min(fits) {
        return Err(DecodeError::TooLong {
            what: "components",
            len: n as u64,
            max: MAX_COMPONENTS.min(fits) as u64,
        });
    }
    if header & 1 == 1 {
        let mut patch = Vec::with_capacity(n);
        for _ in 0..n {
            let i = r.varint()?;
            if i >= MAX_COMPONENTS as u64 || patch.last().is_some_and(|&(last, _)| u64::from(last) >= i) {
                return Err(DecodeError::BadValue("component index"));
            }
            patch.push((i as u16, decode_fields(r)?));
        }
        return Ok(ComponentsWire::Patch(ComponentPatch(patch)));
    }
    let mut components: Vec<(Arc<str>, Vec<WireValue>)> = Vec::with_capacity(n);
    for _ in 0..n {
        let name: Arc<str> = Arc::from(r.str("component name", MAX_TEXT)?);
        components.push((name, decode_fields(r)?));
    }
    if components.windows(2).any(|w| w[0].0 >= w[1].0) {
        return Err(DecodeError::BadValue("components out of order"));
    }
    Ok(ComponentsWire::All(components))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list() -> Vec<(Arc<str>, Vec<WireValue>)> {
        vec![
            (Arc::from("Health"), vec![WireValue::Number(100.0), WireValue::Number(100.0)]),
            (Arc::from("HumanoidState"), vec![WireValue::String(Arc::from("Running"))]),
            (Arc::from("Identity"), vec![WireValue::Int(7), WireValue::String(Arc::from("Player7"))]),
        ]
    }

    #[test]
    fn a_patch_carries_only_the_changed_components_and_applies_by_index() {
        let mut server = list();
        server[1].1 = vec![WireValue::String(Arc::from("Jumping"))];
        let mut w = Writer::default();
        encode(&server, ComponentSend::ChangedSince { epochs: &[3, 9, 2], since: 5 }, &mut w);
        let patch_bytes = w.as_slice().len();
        let mut all = Writer::default();
        encode(&server, ComponentSend::All, &mut all);
        assert!(patch_bytes * 3 < all.as_slice().len(), "{patch_bytes} vs {}", all.as_slice().len());
        let mut r = Reader::new(w.as_slice());
        let ComponentsWire::Patch(patch) = decode(&mut r).unwrap() else { panic!("a patch") };
        let mut client = list();
        assert!(patch.apply(&mut client));
        assert_eq!(client, server);
        let mut r = Reader::new(all.as_slice());
        assert_eq!(decode(&mut r).unwrap(), ComponentsWire::All(server));
    }

    #[test]
    fn a_patch_that_does_not_fit_the_held_list_changes_nothing() {
        let mut held = list();
        let before = held.clone();
        assert!(!ComponentPatch(vec![(5, vec![WireValue::Bool(true)])]).apply(&mut held));
        assert!(!ComponentPatch(vec![(0, vec![]), (1, vec![WireValue::Bool(true)])]).apply(&mut held));
        assert_eq!(held, before);
    }

    #[test]
    fn bad_headers_and_indices_are_refused() {
        for bytes in [
            &[0xff, 0xff, 0xff, 0x7f][..],
            &[0x05, 0x01, 0x00, 0x01, 0x00][..],
            &[0x05, 0x01, 0x00, 0x00, 0x00],
        ] {
            assert!(decode(&mut Reader::new(bytes)).is_err(), "{bytes:?}");
        }
        let mut w = Writer::default();
        w.varint((1 << 1) | 1);
        w.varint(MAX_COMPONENTS as u64);
        w.varint(0);
        assert!(decode(&mut Reader::new(w.as_slice())).is_err());
    }
}
