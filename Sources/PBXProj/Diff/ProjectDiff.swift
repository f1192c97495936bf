/// The semantic difference between two projects: what changed in targets, build phases, the
/// group tree, build settings and Swift packages. Formatting, object order and comments are not
/// part of it. Every list is sorted, so the same two projects always give the same value.
public struct ProjectDiff: Hashable, Sendable, Codable {
    /// An element, target or group that changed its place or name: `from` → `to`.
    public struct Move: Hashable, Sendable, Codable, Comparable {
        /// The old tree path (or name).
        public let from: String
        /// The new tree path (or name).
        public let to: String

        /// Creates a move.
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }

        /// Ordered by the old path, then the new one.
        public static func < (lhs: Move, rhs: Move) -> Bool { (lhs.from, lhs.to) < (rhs.from, rhs.to) }
    }

    /// Targets added, removed or renamed (`name (product type)` for added and removed ones).
    public struct Targets: Hashable, Sendable, Codable {
        /// New targets.
        public var added: [String] = []
        /// Targets that are gone.
        public var removed: [String] = []
        /// The same target (same id) under a new name.
        public var renamed: [Move] = []
        /// Targets both projects have whose product, dependencies, package products,
        /// synchronized folders, phase order or build rules changed, in the new project's order.
        public var changed: [TargetChange] = []
    }

    /// Entries of a list that appear or go.
    public struct ListChange: Hashable, Sendable, Codable {
        /// New entries.
        public var added: [String] = []
        /// Entries that are gone.
        public var removed: [String] = []

        /// Creates a change.
        public init(added: [String] = [], removed: [String] = []) {
            self.added = added
            self.removed = removed
        }
    }

    /// What changed in a target both projects have, besides its phases' files and its settings.
    public struct TargetChange: Hashable, Sendable, Codable {
        /// The target's (new) name.
        public let target: String
        /// `productType` (or the isa of aggregate and legacy targets).
        public var productType: ValueChange?
        /// `productName` (`none` when absent).
        public var productName: ValueChange?
        /// The order of the build phases both sides have, labels `, `-separated.
        public var phaseOrder: ValueChange?
        /// `target NAME`, `target NAME in PROJECT` (another project) or `package product NAME`.
        public var dependencies = ListChange()
        /// Swift package products linked, as `Product (package location)`.
        public var packageProducts = ListChange()
        /// Synchronized folders (tree paths) whose files the target builds.
        public var synchronizedFolders = ListChange()
        /// Build rules, one line each.
        public var buildRules = ListChange()
    }

    /// Entries of one exception set of a synchronized folder that appear or go.
    public struct FolderExceptions: Hashable, Sendable, Codable {
        /// The synchronized folder (tree path).
        public let folder: String
        /// The target the exceptions are for.
        public let target: String
        /// The build phase, for a phase's membership exceptions.
        public let phase: String?
        /// Relative paths (and `key path: value` attributes) newly excepted.
        public var added: [String]
        /// Relative paths (and attributes) no longer excepted.
        public var removed: [String]
    }

    /// Files entering or leaving one build phase of a target both projects have.
    public struct PhaseChange: Hashable, Sendable, Codable {
        /// The target's (new) name.
        public let target: String
        /// The phase's label (`Sources`, `Frameworks`, a script's name, ...).
        public let phase: String
        /// `added` (a new phase), `removed` (a phase that is gone) or `changed`.
        public let change: String
        /// Files (tree paths) or package products newly in the phase.
        public var filesAdded: [String]
        /// Files or package products no longer in the phase.
        public var filesRemoved: [String]
        /// Attributes of a phase both projects have that changed (`dstPath`, `shellScript`, ...).
        public var details: [String: ValueChange] = [:]
    }

    /// Changes to group-tree members of one kind (groups, or files).
    public struct Elements: Hashable, Sendable, Codable {
        /// New members (tree paths).
        public var added: [String] = []
        /// Members that are gone.
        public var removed: [String] = []
        /// Members under the same parent with a new name or path.
        public var renamed: [Move] = []
        /// Members now under another parent (the same object, or the same file on disk).
        public var moved: [Move] = []
    }

    /// A setting whose value changed.
    public struct ValueChange: Hashable, Sendable, Codable {
        /// The value before.
        public let old: String
        /// The value after.
        public let new: String
    }

    /// Build-setting changes in one configuration of the project or of a target.
    public struct SettingsChange: Hashable, Sendable, Codable {
        /// The target's (new) name; nil for the project's own configurations.
        public let target: String?
        /// The configuration's name.
        public let configuration: String
        /// `added` (a new configuration), `removed` or `changed`.
        public let change: String
        /// Settings that appear, with their values.
        public var added: [String: String]
        /// Settings that are gone, with their old values.
        public var removed: [String: String]
        /// Settings whose value changed.
        public var changed: [String: ValueChange]
        /// The base `.xcconfig` (tree path, `none` when absent) when it changed.
        public var baseConfiguration: ValueChange?
    }

    /// A Swift package, by repository URL (or `local:` path).
    public struct Package: Hashable, Sendable, Codable {
        /// The repository URL or `local:` path.
        public let location: String
        /// The version requirement in words.
        public let requirement: String
    }

    /// Swift package changes.
    public struct Packages: Hashable, Sendable, Codable {
        /// New packages.
        public var added: [Package] = []
        /// Packages that are gone.
        public var removed: [Package] = []
        /// Packages whose requirement changed (`old` → `new`, keyed by location).
        public var changed: [String: ValueChange] = [:]
    }

    /// Target changes.
    public var targets = Targets()
    /// Build-phase changes of targets both projects have, in the new project's target order.
    public var buildPhases: [PhaseChange] = []
    /// Group changes (groups and synchronized folders).
    public var groups = Elements()
    /// File changes (file references, variant and version groups).
    public var files = Elements()
    /// Build-setting changes: the project's first, then targets' in the new project's order.
    public var buildSettings: [SettingsChange] = []
    /// Swift package changes.
    public var packages = Packages()
    /// Exception-set changes of synchronized folders, by folder, target and phase.
    public var synchronizedFolders: [FolderExceptions] = []

    /// Creates an empty difference.
    public init() {}

    /// Whether the two projects are semantically the same.
    public var isEmpty: Bool { self == ProjectDiff() }
}
