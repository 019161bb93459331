//! The class registry: which classes exist, which component family each belongs to, which
//! reference properties it has, and what it may be parented under (containment).
//!
//! Classes are a closed set known to the engine; game-defined data goes in attributes and
//! components, not new classes. The registry is static data, so every query here is a
//! `match` the compiler turns into a table lookup.

use std::fmt;

/// A built-in class.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Class {
    /// The root of a place; no parent.
    DataModel,
    /// The simulated world; only under `DataModel`.
    Workspace,
    /// A plain container.
    Folder,
    /// A group of parts.
    Model,
    /// A physical part.
    Part,
    /// A server script.
    Script,
    /// A point light.
    PointLight,
    /// A spot light.
    SpotLight,
    /// A sound emitter.
    Sound,
    /// A camera.
    Camera,
    /// A GUI layer root.
    ScreenGui,
    /// A GUI frame; only under `ScreenGui` or another GUI element.
    Frame,
    /// A GUI text label; only under `ScreenGui` or another GUI element.
    TextLabel,
    /// A value object holding one instance reference (`Value`).
    ObjectValue,
    /// A rigid joint between two parts (`Part0`, `Part1`).
    Weld,
    /// Authored animation data.
    Animation,
    /// A player character model.
    Character,
    /// A behaviour binding (`docs/behaviours.md`, "Storing and binding behaviours"): names a
    /// behaviour of the place and gives its property values as attributes; binds it to its
    /// parent, the host.
    Behavior,
}

/// Every class, in declaration order.
pub const ALL_CLASSES: [Class; 18] = [
    Class::DataModel,
    Class::Workspace,
    Class::Folder,
    Class::Model,
    Class::Part,
    Class::Script,
    Class::PointLight,
    Class::SpotLight,
    Class::Sound,
    Class::Camera,
    Class::ScreenGui,
    Class::Frame,
    Class::TextLabel,
    Class::ObjectValue,
    Class::Weld,
    Class::Animation,
    Class::Character,
    Class::Behavior,
];

/// Component families with their own revision counter and cached member list.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Family {
    /// Parts.
    Parts,
    /// Lights.
    Lights,
    /// Sounds.
    Sounds,
    /// Cameras.
    Cameras,
    /// GUI objects.
    Gui,
}

/// Every family, in index order.
pub const ALL_FAMILIES: [Family; 5] =
    [Family::Parts, Family::Lights, Family::Sounds, Family::Cameras, Family::Gui];

impl Family {
    /// Every family, in index order.
    pub const ALL: [Family; 5] = ALL_FAMILIES;

    /// Dense index of the family, `0..ALL_FAMILIES.len()`.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl Class {
    /// Every class, in declaration order.
    pub const ALL: [Class; 18] = ALL_CLASSES;

    /// The class's name as scripts and place files spell it.
    pub fn name(self) -> &'static str {
        match self {
            Class::DataModel => "DataModel",
            Class::Workspace => "Workspace",
            Class::Folder => "Folder",
            Class::Model => "Model",
            Class::Part => "Part",
            Class::Script => "Script",
            Class::PointLight => "PointLight",
            Class::SpotLight => "SpotLight",
            Class::Sound => "Sound",
            Class::Camera => "Camera",
            Class::ScreenGui => "ScreenGui",
            Class::Frame => "Frame",
            Class::TextLabel => "TextLabel",
            Class::ObjectValue => "ObjectValue",
            Class::Weld => "Weld",
            Class::Animation => "Animation",
            Class::Character => "Character",
            Class::Behavior => "Behavior",
        }
    }

    /// The class named `name`, if any.
    pub fn from_name(name: &str) -> Option<Class> {
        ALL_CLASSES.into_iter().find(|c| c.name() == name)
    }

    /// The component family this class belongs to, if any.
    #[inline]
    pub fn family(self) -> Option<Family> {
        match self {
            Class::Part => Some(Family::Parts),
            Class::PointLight | Class::SpotLight => Some(Family::Lights),
            Class::Sound => Some(Family::Sounds),
            Class::Camera => Some(Family::Cameras),
            Class::ScreenGui | Class::Frame | Class::TextLabel => Some(Family::Gui),
            _ => None,
        }
    }

    /// Whether writes to this class's state feed the animation revision.
    #[inline]
    pub fn is_animation(self) -> bool {
        matches!(self, Class::Animation)
    }

    /// Whether this class is a GUI element that must live under a GUI layer.
    #[inline]
    fn is_gui_element(self) -> bool {
        matches!(self, Class::Frame | Class::TextLabel)
    }

    /// The names of this class's instance-reference properties, in slot order.
    pub fn reference_properties(self) -> &'static [&'static str] {
        match self {
            Class::ObjectValue => &["Value"],
            Class::Weld => &["Part0", "Part1"],
            _ => &[],
        }
    }

    /// Whether an instance of this class may be created by users (not the place root).
    pub fn is_creatable(self) -> bool {
        !matches!(self, Class::DataModel | Class::Workspace)
    }

    /// Containment: whether an instance of this class may be a child of `parent`.
    pub fn may_be_child_of(self, parent: Class) -> bool {
        if matches!(parent, Class::Script | Class::ObjectValue | Class::Weld | Class::Sound | Class::Behavior)
        {
            // Leaf classes hold no children.
            return false;
        }
        match self {
            Class::DataModel => false,
            Class::Workspace => parent == Class::DataModel,
            c if c.is_gui_element() => matches!(parent, Class::ScreenGui) || parent.is_gui_element(),
            _ => true,
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for c in ALL_CLASSES {
            assert_eq!(Class::from_name(c.name()), Some(c));
        }
        assert_eq!(Class::from_name("Nope"), None);
    }

    #[test]
    fn containment_rules() {
        assert!(Class::Part.may_be_child_of(Class::Model));
        assert!(!Class::Part.may_be_child_of(Class::Script));
        assert!(!Class::Frame.may_be_child_of(Class::Folder));
        assert!(Class::Frame.may_be_child_of(Class::ScreenGui));
        assert!(Class::TextLabel.may_be_child_of(Class::Frame));
        assert!(Class::Workspace.may_be_child_of(Class::DataModel));
        assert!(!Class::Workspace.may_be_child_of(Class::Folder));
        assert!(!Class::DataModel.may_be_child_of(Class::Folder));
    }

    #[test]
    fn families() {
        assert_eq!(Class::Part.family(), Some(Family::Parts));
        assert_eq!(Class::SpotLight.family(), Some(Family::Lights));
        assert_eq!(Class::Folder.family(), None);
        assert_eq!(Class::Weld.reference_properties(), &["Part0", "Part1"]);
    }
}
