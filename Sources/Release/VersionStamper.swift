import Basics
import Foundation
import PBXProj

/// Writes a version where a project keeps it: a VERSION file, a constant in a source file found
/// by a regular expression, Info.plist keys, or an Xcode project's build settings wherever they
/// are defined (pbxproj or `.xcconfig`). Each edit changes only the version's characters.
public struct VersionStamper: Sendable {
    /// One place to write.
    public enum Target: Sendable, Hashable {
        /// The whole file is the version and a newline.
        case versionFile(path: String)
        /// The first capture group of `pattern`'s first match is replaced by the version.
        case pattern(path: String, pattern: String)
        /// `CFBundleShortVersionString` (and `CFBundleVersion` when a build number is given); a
        /// value `$(SETTING)` writes SETTING where the project defines it (needs `.xcodeproj`).
        case infoPlist(path: String)
        /// `MARKETING_VERSION` (and `CURRENT_PROJECT_VERSION` with a build number) in the build
        /// configurations of the named targets (nil: all) of an Xcode project, written where each
        /// configuration gets it (pbxproj or `.xcconfig`), as minimal edits.
        case xcodeproj(path: String, targets: [String]?)
    }

    let fileSystem: any FileSystem
    /// The folder that xcconfig files (and their includes) must stay inside, links followed;
    /// nil: the folder holding the Xcode project.
    let root: String?

    /// A stamper writing through `fileSystem`; `root` bounds which xcconfig files a project may
    /// make it read and write (the checkout is untrusted).
    public init(fileSystem: any FileSystem, root: String? = nil, includesIgnoreCase: Bool = false) {
        self.fileSystem = fileSystem
        self.root = root
        self.includesIgnoreCase = includesIgnoreCase
    }

    /// Resolve an `#include` by ignoring case when its exact name is missing, as Xcode does on
    /// macOS's case-insensitive disk (a lane planned for macOS); a note says so.
    public var includesIgnoreCase: Bool

    /// Every value the stamp writes and each file's new text (nothing is written). For an Xcode
    /// project, MARKETING_VERSION and CURRENT_PROJECT_VERSION are written where each selected
    /// target configuration really gets them: its own settings, its base `.xcconfig` (through
    /// `#include`s), or the project's; an Info.plist value `$(SETTING)` writes SETTING there.
    /// Everything is checked before any text is built, so that a problem in the third file
    /// leaves the first two untouched.
    /// - Throws: `ReleaseError.versionLocations` listing every value that cannot be written
    ///   (file:line and what to do); `.plistKeyMissing`, `.patternNotFound`, `.invalidPattern`;
    ///   read and parse errors.
    public func plan(_ targets: [Target], version: String, buildNumber: String?) throws -> VersionStampPlan {
        try planWithProject(targets, version: version, buildNumber: buildNumber).plan
    }

    /// `plan(_:version:buildNumber:)` and the model of the Xcode project it read (nil without
    /// one), so that a caller needing the model does not parse the pbxproj a second time.
    func planWithProject(_ targets: [Target], version: String, buildNumber: String?) throws -> (plan: VersionStampPlan, project: PBXProject?) {
        var planner = try VersionStampPlanner(fileSystem: fileSystem, root: root, targets: targets)
        planner.locator?.includesIgnoreCase = includesIgnoreCase
        for target in targets {
            switch target {
            case .versionFile(let path):
                // A missing VERSION file is created; any other failure (a link out of the
                // project, a device, a huge file) is an error, never an empty old version.
                let current: String
                do { current = try fileSystem.readText(path, as: .versionFile) } catch FileSystemError.notFound { current = "" }
                let old = current.trimmingCharacters(in: .whitespacesAndNewlines)
                planner.setText(version + "\n", of: path)
                planner.changes.append(VersionChange(file: planner.paths.display(path), old: old, new: version))
            case .pattern(let path, let pattern):
                let (text, old, line) = try replacingPattern(pattern, in: try fileSystem.readText(path, as: .versionFile), path: path, with: version)
                planner.setText(text, of: path)
                planner.changes.append(VersionChange(file: planner.paths.display(path), line: line, old: old, new: version))
            case .infoPlist(let path):
                var values = [(key: "CFBundleShortVersionString", value: version)]
                if let buildNumber { values.append(("CFBundleVersion", buildNumber)) }
                try planner.stampPlist(path, values: values)
            case .xcodeproj(let path, let targets):
                var settings = [(key: "MARKETING_VERSION", value: version)]
                if let buildNumber { settings.append(("CURRENT_PROJECT_VERSION", buildNumber)) }
                try planner.stampProject(path: path, targets: targets, settings: settings)
            }
        }
        return (try planner.finish(), planner.locator?.project)
    }

    /// The new contents of each target's file (nothing is written): `plan(_:version:buildNumber:)`'s edits.
    public func edits(_ targets: [Target], version: String, buildNumber: String?) throws -> [(path: String, text: String)] {
        try plan(targets, version: version, buildNumber: buildNumber).edits
    }

    /// Writes the edits, each atomically, after checking that every one may be written (so
    /// that a link at the third file's name leaves the first two untouched).
    /// - Throws: `ProjectFileError` (nothing written); what the file system throws.
    public func apply(_ edits: [(path: String, text: String)]) throws {
        try checkWritable(edits)
        for edit in edits { try fileSystem.writeAtomically(edit.text, to: edit.path) }
    }

    /// Checks with the door (when the file system is the project's) that each edit's file may
    /// be written: its folder stays inside the project and its name is no link.
    /// - Throws: `ProjectFileError` for the first that may not.
    public func checkWritable(_ edits: [(path: String, text: String)]) throws {
        guard let door = (fileSystem as? ProjectFileSystem)?.files else { return }
        for edit in edits { _ = try door.checkedForWriting(edit.path) }
    }

    /// Works out the edits and writes them, holding the lock of every Xcode project among
    /// `targets` from before it is read until it is written, so that a sync or another
    /// command editing the same project cannot interleave. Returns the plan written.
    /// - Throws: `LockError.busy` (nothing written) when another process works on one of the
    ///   projects; what `plan(_:version:buildNumber:)` and `apply(_:)` throw.
    @discardableResult
    public func stamp(_ targets: [Target], version: String, buildNumber: String?) throws -> VersionStampPlan {
        var locks: [ExclusiveLock] = []
        defer { for lock in locks { lock.release() } }
        var projects: [String] = []
        for case .xcodeproj(let path, _) in targets {
            let pbxproj = ProjectFile(path: path).pbxprojPath
            guard !projects.contains(pbxproj) else { continue }
            projects.append(pbxproj)
            if let lock = try ExclusiveLock.acquireProject(pbxproj: pbxproj) { locks.append(lock) }
        }
        let plan = try plan(targets, version: version, buildNumber: buildNumber)
        try apply(plan.edits)
        return plan
    }

    /// The text with the pattern's first group replaced, the group's old text, and its line.
    func replacingPattern(_ pattern: String, in text: String, path: String, with version: String) throws -> (String, String, Int) {
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
        let line = text[..<group.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        return (text.replacingCharacters(in: group, with: version), String(text[group]), line)
    }

    /// The range and text of the `<string>` value that follows `<key>KEY</key>` in an XML
    /// property list, or nil when there is none.
    static func plistString(_ key: String, in text: String) -> (Range<String.Index>, String)? {
        guard let keyRange = text.range(of: "<key>\(key)</key>") else { return nil }
        let rest = text[keyRange.upperBound...]
        guard let open = rest.range(of: "<string>"), rest[rest.startIndex..<open.lowerBound].allSatisfy(\.isWhitespace),
              let close = rest.range(of: "</string>", range: open.upperBound..<rest.endIndex)
        else { return nil }
        let range = open.upperBound..<close.lowerBound
        let value = String(text[range]).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return (range, value)
    }
}
