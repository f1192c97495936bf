import Basics

/// How `xcodebuild -exportArchive` signs and packages an archive, by the names of Xcode 15.3 and
/// later. The older names are accepted as aliases (fastlane still writes them).
public enum ExportMethod: String, Sendable, Hashable, CaseIterable {
    case appStoreConnect = "app-store-connect"
    case releaseTesting = "release-testing"
    case debugging
    case enterprise
    case developerID = "developer-id"
    case macApplication = "mac-application"
    case validation

    /// The deprecated names and what Xcode 15.3+ calls them.
    public static let aliases: [String: ExportMethod] = [
        "app-store": .appStoreConnect, "ad-hoc": .releaseTesting, "development": .debugging,
    ]

    /// Every name accepted: the current ones, then the deprecated ones.
    public static var allNames: [String] { allCases.map(\.rawValue) + aliases.keys.sorted() }

    /// The method for a current or deprecated name.
    ///
    /// - Throws: `XcodeProjectError.unknownExportMethod` listing the valid names and the nearest one.
    public init(parsing name: String) throws {
        if let method = ExportMethod(rawValue: name) ?? Self.aliases[name] {
            self = method
        } else {
            throw XcodeProjectError.unknownExportMethod(name: name)
        }
    }

    /// A note to show the user when `name` is a deprecated alias; nil for a current name.
    public static func deprecationNote(for name: String) -> String? {
        guard let method = aliases[name] else { return nil }
        return "Export method '\(name)' is deprecated since Xcode 15.3; Slipway writes '\(method.rawValue)'. "
            + "Write 'method: \(method.rawValue)' to silence this note."
    }
}
