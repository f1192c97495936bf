import Basics
import Foundation

/// An installed Xcode found in an applications folder.
public struct InstalledXcode: Sendable, Hashable {
    /// The `.app` path.
    public var path: String
    public var version: XcodeVersion
    /// `ProductBuildVersion` ("16C5032a"), when the plist has it.
    public var build: String?
    /// What `DEVELOPER_DIR` should be to use this Xcode.
    public var developerDirectory: String { path + "/Contents/Developer" }
}

/// Chooses the Xcode the `xcode.*` steps run: `DEVELOPER_DIR` when the environment sets it,
/// otherwise the highest `Xcode*.app` in the applications folder that matches a constraint.
public struct XcodeSelection: Sendable {
    /// Where the choice came from.
    public enum Source: Sendable, Hashable { case environment, applicationsFolder }

    /// The value to give `DEVELOPER_DIR`.
    public var developerDirectory: String
    /// The chosen Xcode, when found by scanning (or when `DEVELOPER_DIR` points into one that reads).
    public var xcode: InstalledXcode?
    public var source: Source

    /// Chooses an Xcode. With `DEVELOPER_DIR` set that wins, whatever `constraint` says (the
    /// user's explicit choice); otherwise the highest Xcode that matches `constraint` (any, when nil).
    ///
    /// - Throws: `XcodeProjectError.invalidXcodeConstraint` for a constraint that does not parse,
    ///   `XcodeProjectError.noMatchingXcode` listing the Xcodes found.
    public static func choose(
        constraint: String?, environment: Environment, applicationsFolder: String = "/Applications", fileSystem: FileSystem
    ) throws -> XcodeSelection {
        let parsed = try constraint.map { try XcodeVersionConstraint($0) }
        if let developer = environment["DEVELOPER_DIR"], !developer.isEmpty {
            let app = developer.hasSuffix("/Contents/Developer") ? String(developer.dropLast("/Contents/Developer".count)) : nil
            return XcodeSelection(
                developerDirectory: developer, xcode: app.flatMap { read(app: $0, fileSystem: fileSystem) }, source: .environment)
        }
        let installed = installed(in: applicationsFolder, fileSystem: fileSystem)
        guard let best = installed.filter({ parsed?.matches($0.version) ?? true }).last else {
            throw XcodeProjectError.noMatchingXcode(
                constraint: constraint ?? "any", folder: applicationsFolder,
                found: installed.map { "\(($0.path as NSString).lastPathComponent) (\($0.version))" })
        }
        return XcodeSelection(developerDirectory: best.developerDirectory, xcode: best, source: .applicationsFolder)
    }

    /// The `Xcode*.app` bundles in `folder` whose version reads, lowest version first (ties by path).
    public static func installed(in folder: String, fileSystem: FileSystem) -> [InstalledXcode] {
        let names = (try? fileSystem.contents(ofDirectory: folder)) ?? []
        return names.filter { $0.hasPrefix("Xcode") && $0.hasSuffix(".app") }
            .compactMap { read(app: folder + "/" + $0, fileSystem: fileSystem) }
            .sorted { ($0.version, $0.path) < ($1.version, $1.path) }
    }

    /// Reads `Contents/version.plist`, else `Contents/Info.plist`; nil when neither gives a version.
    static func read(app: String, fileSystem: FileSystem) -> InstalledXcode? {
        for file in ["version.plist", "Info.plist"] {
            guard let plist = try? PropertyListFile.dictionary(at: app + "/Contents/" + file, fileSystem: fileSystem),
                  let text = plist["CFBundleShortVersionString"] as? String else { continue }
            // Betas read "16.3 beta 2" in some plists; the number is what constraints compare.
            let number = text.split(separator: " ").first.map(String.init) ?? text
            guard let version = XcodeVersion(number) else { continue }
            return InstalledXcode(path: app, version: version, build: plist["ProductBuildVersion"] as? String)
        }
        return nil
    }
}
