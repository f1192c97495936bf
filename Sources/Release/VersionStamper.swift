import Basics
import Foundation
import PBXProj

/// Writes a version where a project keeps it: a VERSION file, a constant in a source file found
/// by a regular expression, or Info.plist keys. Each edit changes only the version's characters.
public struct VersionStamper: Sendable {
    /// One place to write.
    public enum Target: Sendable, Hashable {
        /// The whole file is the version and a newline.
        case versionFile(path: String)
        /// The first capture group of `pattern`'s first match is replaced by the version.
        case pattern(path: String, pattern: String)
        /// `CFBundleShortVersionString` (and `CFBundleVersion` when a build number is given).
        case infoPlist(path: String)
        /// `MARKETING_VERSION` (and `CURRENT_PROJECT_VERSION` with a build number) in the build
        /// configurations of the named targets (nil: all) of an Xcode project, as minimal edits.
        case xcodeproj(path: String, targets: [String]?)
    }

    let fileSystem: any FileSystem

    /// A stamper writing through `fileSystem`.
    public init(fileSystem: any FileSystem) {
        self.fileSystem = fileSystem
    }

    /// The new contents of each target's file (nothing is written): validates everything first,
    /// so that a problem in the third file leaves the first two untouched.
    public func edits(_ targets: [Target], version: String, buildNumber: String?) throws -> [(path: String, text: String)] {
        var edits: [(String, String)] = []
        for target in targets {
            switch target {
            case .versionFile(let path):
                edits.append((path, version + "\n"))
            case .pattern(let path, let pattern):
                edits.append((path, try replacingPattern(pattern, in: try fileSystem.readText(path), path: path, with: version)))
            case .infoPlist(let path):
                var text = try fileSystem.readText(path)
                text = try Self.setPlistString("CFBundleShortVersionString", to: version, in: text, path: path)
                if let buildNumber { text = try Self.setPlistString("CFBundleVersion", to: buildNumber, in: text, path: path) }
                edits.append((path, text))
            case .xcodeproj(let path, let targets):
                edits.append(try xcodeprojEdit(path: path, targets: targets, version: version, buildNumber: buildNumber))
            }
        }
        return edits
    }

    /// The project's new text with the version settings changed in every configuration that
    /// defines them; a selected target that defines MARKETING_VERSION nowhere is an error
    /// naming it (agvtool would silently skip it).
    func xcodeprojEdit(path: String, targets: [String]?, version: String, buildNumber: String?) throws -> (String, String) {
        let file = ProjectFile(path: path)
        var project = try PBXProject(bytes: try fileSystem.read(file.pbxprojPath), projectName: file.projectName)
        var settings = [("MARKETING_VERSION", version)]
        if let buildNumber { settings.append(("CURRENT_PROJECT_VERSION", buildNumber)) }
        for (key, value) in settings {
            let lacking = try project.targetsLacking(buildSetting: key, targets: targets)
            if !lacking.isEmpty { throw ReleaseError.settingMissing(file: file.pbxprojPath, setting: key, targets: lacking) }
            try project.setBuildSetting(key, to: value, targets: targets)
        }
        return (file.pbxprojPath, String(decoding: try project.serialized(), as: UTF8.self))
    }

    /// Writes the edits, each atomically.
    public func apply(_ edits: [(path: String, text: String)]) throws {
        for edit in edits { try fileSystem.writeAtomically(edit.text, to: edit.path) }
    }

    /// Works out the edits and writes them, holding the lock of every Xcode project among
    /// `targets` from before it is read until it is written, so that a sync or another
    /// command editing the same project cannot interleave. Returns the edits written.
    /// - Throws: `LockError.busy` (nothing written) when another process works on one of the
    ///   projects; what `edits(_:version:buildNumber:)` and `apply(_:)` throw.
    public func stamp(_ targets: [Target], version: String, buildNumber: String?) throws -> [(path: String, text: String)] {
        var locks: [ExclusiveLock] = []
        defer { for lock in locks { lock.release() } }
        var projects: [String] = []
        for case .xcodeproj(let path, _) in targets {
            let pbxproj = ProjectFile(path: path).pbxprojPath
            guard !projects.contains(pbxproj) else { continue }
            projects.append(pbxproj)
            if let lock = try ExclusiveLock.acquireProject(pbxproj: pbxproj) { locks.append(lock) }
        }
        let edits = try edits(targets, version: version, buildNumber: buildNumber)
        try apply(edits)
        return edits
    }

    func replacingPattern(_ pattern: String, in text: String, path: String, with version: String) throws -> String {
        let expression: NSRegularExpression
        do {
            expression = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        } catch {
            throw ReleaseError.invalidPattern(pattern, reason: error.localizedDescription)
        }
        guard expression.numberOfCaptureGroups >= 1 else {
            throw ReleaseError.invalidPattern(pattern, reason: "it needs a capture group around the version, e.g. let version = \"(.*)\"")
        }
        let range = NSRange(text.startIndex..., in: text)
        guard let match = expression.firstMatch(in: text, range: range), let group = Range(match.range(at: 1), in: text) else {
            throw ReleaseError.patternNotFound(file: path, pattern: pattern)
        }
        return text.replacingCharacters(in: group, with: version)
    }

    /// Replaces the `<string>` value that follows `<key>KEY</key>` in an XML property list,
    /// keeping all other bytes. A value that refers to a build setting (`$(MARKETING_VERSION)`)
    /// is left alone: the project file holds the real value.
    static func setPlistString(_ key: String, to value: String, in text: String, path: String) throws -> String {
        guard let keyRange = text.range(of: "<key>\(key)</key>") else { throw ReleaseError.plistKeyMissing(file: path, key: key) }
        let rest = text[keyRange.upperBound...]
        guard let open = rest.range(of: "<string>"), rest[rest.startIndex..<open.lowerBound].allSatisfy(\.isWhitespace),
              let close = rest.range(of: "</string>", range: open.upperBound..<rest.endIndex)
        else { throw ReleaseError.plistKeyMissing(file: path, key: key) }
        if rest[open.upperBound..<close.lowerBound].hasPrefix("$(") { return text }
        let escaped = value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return text.replacingCharacters(in: open.upperBound..<close.lowerBound, with: escaped)
    }
}
