import PBXProj

/// One rename on disk. Paths are relative to the folder that holds the `.xcodeproj`.
public struct SyncMove: Hashable, Sendable, Codable {
    /// Why the entry moves.
    public enum Reason: String, Hashable, Sendable, Codable {
        /// A file, folder reference, bundle, variant or synchronized folder going to its group's
        /// folder.
        case reference
        /// A file nothing refers to, going along with its group's folder.
        case carried
        /// A file `--prune` deletes: moved aside first, deleted once the sync is complete.
        case pruned
    }

    /// Where the entry is.
    public let source: String
    /// Where it goes (for `pruned`: its place in the journal's trash folder).
    public let destination: String
    /// Why.
    public let reason: Reason

    /// Creates a move.
    public init(source: String, destination: String, reason: Reason) {
        self.source = source
        self.destination = destination
        self.reason = reason
    }
}

/// One change to `project.pbxproj`.
public struct PBXProjEdit: Hashable, Sendable, Codable {
    /// What changes.
    public enum Key: String, Hashable, Sendable, Codable {
        /// A file reference's or group's `path`.
        case path
        /// Its `name` (removed when it equals the new path).
        case name
        /// Its `sourceTree` (a file referenced from several groups becomes `SOURCE_ROOT`).
        case sourceTree
        /// A group's `children` order (sorting by name).
        case children
        /// A build setting naming a moved file (`INFOPLIST_FILE`, ...).
        case buildSetting
    }

    /// The object's id.
    public let object: String
    /// What Xcode shows for the object (a file or group name, or `Debug` of target `App`).
    public let subject: String
    /// What changes.
    public let key: Key
    /// The build setting's name, for `buildSetting`.
    public let setting: String?
    /// The value before (nil: absent).
    public let oldValue: String?
    /// The value after (nil: removed). For `children`, the new order's display names.
    public let newValue: String?
    /// For `children`: the new order of ids.
    public let children: [String]?

    /// Creates an edit.
    public init(object: String, subject: String, key: Key, setting: String? = nil, oldValue: String?, newValue: String?, children: [String]? = nil) {
        self.object = object
        self.subject = subject
        self.key = key
        self.setting = setting
        self.oldValue = oldValue
        self.newValue = newValue
        self.children = children
    }

    /// One line for people: `path of 'Foo.swift': 'Old/Foo.swift' → 'Foo.swift'`.
    public var summary: String {
        let what = key == .buildSetting ? "\(setting ?? "setting") of \(subject)" : "\(key.rawValue) of '\(subject)'"
        if key == .children { return "sort the children of '\(subject)' by name" }
        let from = oldValue.map { "'\($0)'" } ?? "(none)"
        let to = newValue.map { "'\($0)'" } ?? "(removed)"
        return "\(what): \(from) → \(to)"
    }
}

/// Why the project cannot be synced as it is; every conflict is reported before anything moves.
public struct SyncConflict: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind of conflict.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Two references (or a reference and a carried file) want the same path.
        case sameTarget
        /// Two paths differ only in case on a case-insensitive file system.
        case caseOnlyClash
        /// A group's name has a `/`, so it cannot be a folder name.
        case groupNameWithSlash
        /// A group's name is empty, `.` or `..`.
        case invalidGroupName
        /// The target path is taken by a file or folder nothing refers to.
        case targetOccupied
        /// A folder the sync must create is a file.
        case folderIsFile
        /// A symbolic link with a relative destination would point elsewhere after the move.
        case symbolicLinkWouldBreak
        /// Moves that would have to happen before each other.
        case moveCycle
    }

    /// The kind.
    public let kind: Kind
    /// The path (or group path) concerned.
    public let path: String
    /// What to do about it, with the details.
    public let message: String

    /// Creates a conflict.
    public init(kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `'path': message`.
    public var description: String { "'\(path)': \(message)" }
}

/// A file referenced from more than one group.
public struct MultiReference: Hashable, Sendable, Codable {
    /// The file's path after the sync.
    public let path: String
    /// The groups listing it, first (the one that decides where it goes) first.
    public let groups: [String]
    /// True when it became `SOURCE_ROOT`-relative so that it resolves from every group.
    public let madeProjectRelative: Bool

    /// Creates a report entry.
    public init(path: String, groups: [String], madeProjectRelative: Bool) {
        self.path = path
        self.groups = groups
        self.madeProjectRelative = madeProjectRelative
    }
}

/// A reference the sync leaves where it is, and why.
public struct UnmovedReference: Hashable, Sendable, Codable {
    /// Why.
    public enum Reason: String, Hashable, Sendable, Codable {
        /// It does not exist on disk.
        case missing
        /// It is outside the folder that holds the `.xcodeproj`.
        case outsideProject
        /// It is inside another project, a Swift package or another reference that moves whole.
        case insideAnotherItem
        /// It is reached through a symbolic link (`link`) to a folder inside the project; links
        /// are never followed.
        case behindSymbolicLink
        /// It is reached through a symbolic link (`link`) that leads outside the project folder.
        case behindLinkOutsideProject
        /// A tool finds it by its place (`Package.swift`, a `Podfile`, a podspec, a lockfile):
        /// moving it would break that tool (`ToolManifests`).
        case toolManifest
        /// It is (or would go into) a dotfile or dot-folder at the top of the project folder
        /// (`.github`, `.gitignore`, `.swiftlint.yml`), `fastlane/`, or a README, LICENSE or
        /// CHANGELOG there (`area`): git, CI and people find them at the top.
        case repositoryFile
        /// A README, LICENSE or CHANGELOG elsewhere: it never moves on its own (it goes along
        /// when its whole folder is carried).
        case documentation
        /// It sits at the top of the project folder, or in a top-level folder that holds no
        /// group's folder after the sync (`scripts/`), and no target builds it (`Makefile`, `swiftgen.yml`): tools
        /// and scripts find it where it is.
        case notBuiltAtTop
        /// It is in (or would go into) a folder that holds a `Package.swift` (`area`): the
        /// package finds its files by their place.
        case insideSwiftPackage
        /// It is in (or would go into) a git submodule or nested repository (`area`).
        case insideSubmodule
        /// A folder reference (`lastKnownFileType = folder` or `folder.*`): it stays.
        case folderReference
        /// An Xcode 16 synchronized folder: it is already a folder, and stays.
        case synchronizedFolder
        /// It is listed by Xcode's "Recovered References" group, which gets no folder.
        case recoveredReferences
    }

    /// The path as the project resolves it.
    public let path: String
    /// Why it stays.
    public let reason: Reason
    /// For `behindSymbolicLink` and `behindLinkOutsideProject`: the link on the way, relative to
    /// the project folder.
    public let link: String?
    /// For a link: where it points, as stored in the link.
    public let linkDestination: String?
    /// For `repositoryFile`, `insideSwiftPackage` and `insideSubmodule`: the place that never
    /// moves (the package's folder, the submodule, `.github`), relative to the project folder.
    public let area: String?

    /// Creates a report entry.
    public init(path: String, reason: Reason, link: String? = nil, linkDestination: String? = nil, area: String? = nil) {
        self.path = path
        self.reason = reason
        self.link = link
        self.linkDestination = linkDestination
        self.area = area
    }
}

/// What a sync does: a pure function of the project, the directory listing and the options.
public struct SyncPlan: Sendable, Codable {
    /// Renames in the order they run (prunes first, then anything that frees a path before what
    /// takes it).
    public var moves: [SyncMove] = []
    /// Changes to the pbxproj, in object order.
    public var edits: [PBXProjEdit] = []
    /// Files referenced from several groups.
    public var multiReferenced: [MultiReference] = []
    /// References left where they are (missing, outside the project folder, ...).
    public var unmoved: [UnmovedReference] = []
    /// Conflicts; a plan with conflicts is never applied.
    public var conflicts: [SyncConflict] = []

    /// Creates an empty plan.
    public init() {}

    /// Moves of referenced items.
    public var referenceMoves: [SyncMove] { moves.filter { $0.reason == .reference } }
    /// Unreferenced entries carried along with their group's folder.
    public var carried: [SyncMove] { moves.filter { $0.reason == .carried } }
    /// Files `--prune` deletes.
    public var pruned: [String] { moves.filter { $0.reason == .pruned }.map(\.source) }

    /// True when the disk and the project already match (nothing to move, edit or prune).
    public var isEmpty: Bool { moves.isEmpty && edits.isEmpty }
}
