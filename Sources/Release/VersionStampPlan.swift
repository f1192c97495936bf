/// One value a version stamp writes: which file (and line), which key, from what, to what.
public struct VersionChange: Sendable, Hashable, CustomStringConvertible {
    /// The file as shown to users: relative to the stamp's root folder when inside it.
    public let file: String
    /// The 1-based line, for xcconfig and pbxproj values and pattern matches.
    public let line: Int?
    /// The key written (`MARKETING_VERSION`, `CFBundleVersion`, ...); nil for a VERSION file or
    /// a pattern.
    public let key: String?
    /// The value there now.
    public let old: String
    /// The value written.
    public let new: String
    /// Why this place is written when another file asked for it, e.g. "for App/Info.plist
    /// CFBundleVersion = $(CURRENT_PROJECT_VERSION)".
    public let reason: String?
    /// Whether the value is the version or the build number, whatever the key is called where it
    /// is written (`APP_SHORT_VERSION` for `MARKETING_VERSION = ${APP_SHORT_VERSION}`).
    public let role: Role
    /// The targets of an Xcode project whose value this is (several when they share the place,
    /// an `.xcconfig` line or an Info.plist); empty outside a project.
    public var targets: [String]

    /// What a written value is.
    public enum Role: Sendable, Hashable {
        case version, buildNumber
    }

    /// Creates a change.
    public init(file: String, line: Int? = nil, key: String? = nil, old: String, new: String, reason: String? = nil,
                role: Role = .version, targets: [String] = []) {
        self.file = file
        self.line = line
        self.key = key
        self.old = old
        self.new = new
        self.reason = reason
        self.role = role
        self.targets = targets
    }

    /// `Config/Version.xcconfig:3 MARKETING_VERSION`: where the value is, without the values.
    public var place: String {
        (line.map { "\(file):\($0)" } ?? file) + (key.map { " " + $0 } ?? "")
    }

    /// The role of the value `key` holds: the build number for `CURRENT_PROJECT_VERSION` and
    /// `CFBundleVersion`, the version otherwise.
    public static func role(of key: String) -> Role {
        key == "CURRENT_PROJECT_VERSION" || key == "CFBundleVersion" ? .buildNumber : .version
    }

    /// `Config/Version.xcconfig:3 MARKETING_VERSION 1.2.0 -> 1.3.0`.
    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        let shownOld = old.isEmpty ? "(empty)" : old
        return "\(place)\(key.map { " \($0)" } ?? "") \(shownOld) -> \(new)\(reason.map { " (\($0))" } ?? "")"
    }
}

/// What a version stamp will do: every value it writes, and each file's new text.
public struct VersionStampPlan: Sendable {
    /// Every value written, in the order the step's options list the files.
    public var changes: [VersionChange] = []
    /// Each file's new contents (absolute paths, links resolved), one entry per file.
    public var edits: [(path: String, text: String)] = []
    /// What the reader should know (an optional `#include?` skipped, an include found by
    /// ignoring case), each naming its file:line.
    public var notes: [String] = []

    /// An empty plan.
    public init() {}

    /// The files that change, as shown in `changes` (relative to the root), in order.
    public var files: [String] {
        var seen: Set<String> = []
        return changes.filter { $0.old != $0.new }.map(\.file).filter { seen.insert($0).inserted }
    }
}
