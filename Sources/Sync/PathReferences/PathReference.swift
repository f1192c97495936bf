import Basics

/// A place in the repository that names a path a sync would move (or a folder whose contents
/// a move changes): a line of an `.xcconfig`, a build setting or script phase of the pbxproj,
/// `Package.swift`, a tool's configuration, a script, a CI file, a scheme, a `.gitignore`.
public struct PathReference: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// What kind of place names the path.
    public enum Kind: String, Hashable, Sendable, Codable {
        case xcconfigSetting = "xcconfig setting"
        case xcconfigInclude = "xcconfig #include"
        case buildSetting = "build setting"
        case scriptPhase = "script phase"
        case scriptPhasePath = "script phase input/output"
        case packageManifest = "Package.swift"
        case swiftLint = "SwiftLint configuration"
        case swiftGen = "SwiftGen configuration"
        case podfile = "Podfile"
        case cartfile = "Cartfile"
        case xcodeGen = "XcodeGen project.yml"
        case makefile = "Makefile"
        case shellScript = "shell script"
        case continuousIntegration = "CI configuration"
        case fastlane = "fastlane file"
        case scheme = "scheme"
        case testPlan = "test plan"
        case gitPattern = "git pattern"
        /// The moving file is itself found by a tool at its place (a `.swiftlint.yml`, a
        /// `swiftgen.yml`, a workflow, a Makefile, a `.gitignore`).
        case foundByPlace = "found by its place"
    }

    /// The file, relative to the folder scanned (the git working tree, or the project folder).
    public let file: String
    /// 1-based line (the object's line for the pbxproj).
    public let line: Int
    /// 1-based column (in characters).
    public let column: Int
    /// What names the path.
    public let kind: Kind
    /// More about the place (the setting's name, the phase's name, the pattern), if any.
    public let detail: String?
    /// The text as written.
    public let text: String
    /// The moving path, relative to the project folder (as in the plan's moves).
    public let movingPath: String
    /// Where it would go (relative to the project folder; "deleted by --prune" for a prune).
    public let destination: String
    /// True when the text names a folder and the move takes something out of it (or into it).
    public let folderContents: Bool
    /// True when the sync rewrites the place itself (an `.xcconfig`), so nothing breaks.
    public let rewritten: Bool

    /// Creates a reference.
    public init(file: String, line: Int, column: Int, kind: Kind, detail: String? = nil, text: String, movingPath: String,
                destination: String, folderContents: Bool = false, rewritten: Bool = false) {
        self.file = file
        self.line = line
        self.column = column
        self.kind = kind
        self.detail = detail
        self.text = text
        self.movingPath = movingPath
        self.destination = destination
        self.folderContents = folderContents
        self.rewritten = rewritten
    }

    /// `file:line: kind: 'text' names 'moving' which would move to 'destination'`.
    public var description: String {
        let what = kind.rawValue + (detail.map { " \($0)" } ?? "")
        let names = folderContents
            ? "names a folder from which '\(movingPath)' would move to '\(destination)'"
            : "names '\(movingPath)' which would move to '\(destination)'"
        if kind == .foundByPlace { return "\(file):\(line): \(what): '\(text)' would move to '\(destination)'" }
        return "\(file):\(line): \(what): '\(text)' \(names)"
    }

    public static func < (lhs: PathReference, rhs: PathReference) -> Bool {
        if (lhs.file, lhs.line, lhs.column) != (rhs.file, rhs.line, rhs.column) {
            return (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
        }
        return (lhs.kind.rawValue, lhs.detail ?? "", lhs.text, lhs.movingPath) < (rhs.kind.rawValue, rhs.detail ?? "", rhs.text, rhs.movingPath)
    }
}

/// A file that may name a moving path but was not read (too large, not text, a link leading
/// out): named so that the user knows it was not checked.
public struct UnreadReferenceFile: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The file, relative to the folder scanned.
    public let file: String
    /// Why it was not read.
    public let reason: String

    /// Creates an entry.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): not read: \(reason)" }

    public static func < (lhs: UnreadReferenceFile, rhs: UnreadReferenceFile) -> Bool { lhs.file < rhs.file }
}

/// A file the sync rewrites so that its paths follow the moves (an `.xcconfig`), as part of
/// the transaction: the original is saved in the journal's folder before anything moves.
public struct PathReferenceEdit: Hashable, Sendable, Codable {
    /// The file's path before the sync, relative to the project folder.
    public let path: String
    /// Its path after the moves (where the new text is written), relative to the project folder.
    public let finalPath: String
    /// SHA-256 of the original bytes.
    public let originalSHA256: String
    /// The new text.
    public let newText: String
    /// The lines that change, for the report (`line: old → new`).
    public let changes: [String]

    /// Creates an edit.
    public init(path: String, finalPath: String, originalSHA256: String, newText: String, changes: [String]) {
        self.path = path
        self.finalPath = finalPath
        self.originalSHA256 = originalSHA256
        self.newText = newText
        self.changes = changes
    }
}

/// What a scan for path references found.
public struct PathReferenceScan: Sendable, Codable {
    /// The folder scanned (absolute): the git working tree, or the project folder.
    public var root: String
    /// Every reference, sorted; `rewritten` ones are fixed by the sync itself.
    public var references: [PathReference] = []
    /// Files that could not be read.
    public var unread: [UnreadReferenceFile] = []
    /// Set when the scan stopped at its bound (what was not looked at).
    public var limitReached: String?
    /// Files the sync rewrites (xcconfigs).
    public var edits: [PathReferenceEdit] = []

    /// Creates an empty scan of `root`.
    public init(root: String) { self.root = root }

    /// References the sync does not fix.
    public var unresolved: [PathReference] { references.filter { !$0.rewritten } }
    /// True when nothing would break (or all of it is rewritten) and everything was read.
    public var isClear: Bool { unresolved.isEmpty && unread.isEmpty && limitReached == nil }

    /// The files not read and the bound reached, one line each.
    public var unreadLines: [String] {
        unread.map(\.description) + (limitReached.map { ["the scan for path references stopped: \($0)"] } ?? [])
    }
}
