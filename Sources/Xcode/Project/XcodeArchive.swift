import Basics
import Foundation

/// What an `.xcarchive`'s `Info.plist` says of the app inside it.
public struct XcodeArchive: Sendable, Hashable {
    /// The `.xcarchive` path.
    public var path: String
    /// `Name`.
    public var name: String?
    /// `SchemeName`.
    public var schemeName: String?
    /// `CreationDate`.
    public var creationDate: Date?
    /// `ApplicationProperties.CFBundleIdentifier`.
    public var bundleIdentifier: String
    /// `ApplicationProperties.CFBundleShortVersionString`.
    public var version: String
    /// `ApplicationProperties.CFBundleVersion`.
    public var buildNumber: String
    /// `ApplicationProperties.ApplicationPath`, relative to `Products/` ("Applications/App.app").
    public var applicationPath: String
    /// `ApplicationProperties.SigningIdentity`.
    public var signingIdentity: String?
    /// `ApplicationProperties.Team`.
    public var team: String?

    /// The app's full path inside the archive.
    public var applicationFullPath: String { path + "/Products/" + applicationPath }

    /// Reads `path/Info.plist`.
    ///
    /// - Throws: `FileSystemError.notFound` naming the Info.plist when it is missing,
    ///   `XcodeProjectError.malformedPropertyList` when it does not parse, and
    ///   `XcodeProjectError.invalidArchive` naming the archive and the missing key (an archive of
    ///   a library or a command-line tool has no `ApplicationProperties`).
    public static func read(path: String, fileSystem: FileSystem) throws -> XcodeArchive {
        let plist = try PropertyListFile.dictionary(at: path + "/Info.plist", fileSystem: fileSystem)
        guard let app = plist["ApplicationProperties"] as? [String: Any] else {
            throw XcodeProjectError.invalidArchive(
                path: path, problem: "Info.plist has no ApplicationProperties (is it an app's archive? set SKIP_INSTALL=YES on the libraries it embeds)")
        }
        func required(_ key: String) throws -> String {
            guard let value = app[key] as? String, !value.isEmpty else {
                throw XcodeProjectError.invalidArchive(path: path, problem: "Info.plist has no ApplicationProperties.\(key)")
            }
            return value
        }
        return XcodeArchive(
            path: path, name: plist["Name"] as? String, schemeName: plist["SchemeName"] as? String,
            creationDate: plist["CreationDate"] as? Date, bundleIdentifier: try required("CFBundleIdentifier"),
            version: try required("CFBundleShortVersionString"), buildNumber: try required("CFBundleVersion"),
            applicationPath: try required("ApplicationPath"), signingIdentity: app["SigningIdentity"] as? String,
            team: app["Team"] as? String)
    }
}
