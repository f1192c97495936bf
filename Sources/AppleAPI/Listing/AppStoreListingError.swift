import Foundation

/// One text that App Store Connect would refuse: the file (relative to the metadata folder),
/// and what is wrong.
public struct ListingViolation: Sendable, Hashable, CustomStringConvertible {
    /// e.g. `en-US/name.txt`.
    public var file: String
    /// e.g. `name is 31 characters; App Store Connect accepts at most 30 (App Store Connect Help, App information)`.
    public var problem: String

    /// A violation.
    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problem)" }
}

/// Why an App Store listing could not be read, checked, pulled or pushed. Each message names the
/// folder, file or version and says what to do.
public enum AppStoreListingError: Error, LocalizedError, Sendable, Equatable {
    /// The metadata folder does not exist.
    case folderMissing(String)
    /// A folder in the metadata folder that is not an App Store locale.
    case unknownLocaleFolder(path: String, suggestions: [String])
    /// `--locales` names a locale App Store Connect does not accept.
    case unknownLocale(String, suggestions: [String])
    /// Texts over Apple's limits or URLs that are not http(s): every one found, nothing sent.
    case invalidTexts([ListingViolation])
    /// The app has no App Store version in an editable state on the platform.
    case noEditableVersion(app: String, platform: String, states: [String])
    /// The version asked for does not exist (and `create` was not asked).
    case versionNotFound(app: String, version: String, platform: String)
    /// The version asked for exists but can no longer be edited.
    case versionNotEditable(version: String, platform: String, state: String)
    /// `live` was asked and no version of the platform is on the App Store.
    case noLiveVersion(app: String, platform: String, states: [String])
    /// The push's target is the version on the App Store, and the folder changes more than its
    /// promotional text (the files named): nothing was sent.
    case liveVersionChanges(version: String, platform: String, state: String, changes: [String])
    /// The app has no app info that can be edited (name, subtitle and privacy URL are locked).
    case noEditableAppInfo(app: String, states: [String])
    /// A locale new on App Store Connect has no name.txt: Apple requires a name for it.
    case nameRequired(locale: String)
    /// A file of the metadata folder that Slipway will not read or write: a symbolic link, not a
    /// regular file, or (read) larger than `ListingFolder.maximumFileBytes`. The checkout may be
    /// a pull request's: a link must not make pull write, or push read, outside the folder.
    case unsafeFile(path: String, problem: String)

    public var errorDescription: String? {
        switch self {
        case let .folderMissing(path):
            return "the metadata folder '\(path)' does not exist. Give its path with --metadata-path (deliver's is fastlane/metadata), "
                + "or run 'slipway appstore metadata pull' to make it from App Store Connect."
        case let .unknownLocaleFolder(path, suggestions):
            return "the folder '\(path)' is not an App Store locale (codes are case-sensitive)\(Self.hint(suggestions)) "
                + "Rename it to an accepted code (listed in docs/appstore-metadata.md), or move it out of the metadata folder."
        case let .unknownLocale(code, suggestions):
            return "--locales names '\(code)', which is not a locale App Store Connect accepts (codes are case-sensitive)\(Self.hint(suggestions)) "
                + "The accepted codes are listed in docs/appstore-metadata.md."
        case let .invalidTexts(violations):
            return "\(violations.count) text\(violations.count == 1 ? "" : "s") would be refused by App Store Connect, so nothing was sent:\n"
                + violations.map { "  \($0)" }.joined(separator: "\n") + "\nShorten or correct them and run again."
        case let .noEditableVersion(app, platform, states):
            return "\(app) has no App Store version on \(platform) that can be edited (\(Self.versions(states))). "
                + "Create one with --version X.Y --create-version (or in App Store Connect), or pass --version of an editable one; "
                + "promotional text alone can change on the version on the App Store with --live."
        case let .noLiveVersion(app, platform, states):
            return "\(app) has no App Store version on \(platform) on the App Store (\(Self.versions(states))), so --live has no version to change. "
                + "Leave out --live to push to the editable version."
        case let .liveVersionChanges(version, platform, state, changes):
            return "App Store version \(version) (\(platform)) is \(state), on the App Store: only its promotional text can change without a new "
                + "version, and the folder also changes \(changes.joined(separator: ", ")). Nothing was sent. Put those changes in a new version "
                + "(--version X.Y --create-version), or make the folder match the live listing apart from promotional_text.txt (pull it with --live)."
        case let .versionNotFound(app, version, platform):
            return "\(app) has no App Store version \(version) on \(platform). Add --create-version to create it, or check --version and --platform."
        case let .versionNotEditable(version, platform, state):
            return "App Store version \(version) (\(platform)) is \(state), so its texts can no longer be changed. "
                + "Create a new version (--version X.Y --create-version) for the next release."
        case let .noEditableAppInfo(app, states):
            return "\(app) has no app info that can be edited (its app infos are " + (states.isEmpty ? "none" : states.joined(separator: ", "))
                + "), so name, subtitle and privacy URL cannot change now. Create a new App Store version first; App Store Connect then opens a new app info."
        case let .nameRequired(locale):
            return "'\(locale)' is new on App Store Connect and App Store Connect requires a name for a new locale: add \(locale)/name.txt (or default/name.txt)."
        case let .unsafeFile(path, problem):
            return "'\(path)' \(problem). Nothing was sent or written; replace it with a regular file (or a folder) of the metadata folder."
        }
    }

    /// How many versions to name before "and N older".
    static let versionsShown = 5

    /// The versions (newest first) an error names: all of a few, else the newest and a count.
    private static func versions(_ states: [String]) -> String {
        if states.isEmpty { return "it has none" }
        if states.count <= versionsShown { return "its versions are " + states.joined(separator: ", ") }
        return "its newest versions are " + states.prefix(versionsShown).joined(separator: ", ") + "; \(states.count) versions in all"
    }

    private static func hint(_ suggestions: [String]) -> String {
        suggestions.isEmpty ? "." : suggestions.count == 1 ? "; did you mean '\(suggestions[0])'?"
            : "; did you mean one of " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?"
    }
}
