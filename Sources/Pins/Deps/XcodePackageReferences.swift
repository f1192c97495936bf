import Basics
import Foundation
import PBXProj

/// A remote package an Xcode project depends on: an `XCRemoteSwiftPackageReference` listed in
/// the project's `packageReferences`, with the rule Xcode resolves it by.
struct XcodeRemotePackage: Sendable, Hashable {
    /// Xcode's dependency rules, as `requirement = { kind = …; }` spells them.
    enum Requirement: Sendable, Hashable {
        case upToNextMajor(SemanticVersion)
        case upToNextMinor(SemanticVersion)
        case exact(SemanticVersion)
        /// `minimumVersion ..< maximumVersion` (the upper bound is exclusive, as in Xcode's UI).
        case range(SemanticVersion, SemanticVersion)
        case branch(String)
        case revision(String)

        /// `5.0.0..<6.0.0 (up to next major from 5.0.0)`, `exactly 2.0.0`, `branch 'main'`.
        var description: String {
            switch self {
            case .upToNextMajor(let minimum):
                return "\(minimum)..<\(Self.nextMajor(minimum)) (up to next major from \(minimum))"
            case .upToNextMinor(let minimum):
                return "\(minimum)..<\(Self.nextMinor(minimum)) (up to next minor from \(minimum))"
            case .exact(let version): return "exactly \(version)"
            case let .range(minimum, maximum): return "\(minimum)..<\(maximum)"
            case .branch(let branch): return "branch '\(branch)'"
            case .revision(let revision): return "revision \(revision)"
            }
        }

        static func nextMajor(_ version: SemanticVersion) -> String { "\(version.major + 1).0.0" }
        static func nextMinor(_ version: SemanticVersion) -> String { "\(version.major).\(version.minor + 1).0" }

        /// SwiftPM's rule: a version range holds a pre-release only when one of its bounds is a
        /// pre-release, and never the pre-releases of an upper bound that is a release.
        static func contains(_ version: SemanticVersion, lower: SemanticVersion, upper: SemanticVersion) -> Bool {
            if version.isPrerelease {
                if !lower.isPrerelease && !upper.isPrerelease { return false }
                if !upper.isPrerelease && upper.major == version.major && upper.minor == version.minor
                    && upper.patch == version.patch { return false }
            }
            return lower <= version && version < upper
        }

        /// True when `pin` meets this rule.
        func isSatisfied(by pin: PackageResolved.Pin) -> Bool {
            let version = pin.version.flatMap(XcodeRemotePackage.version)
            switch self {
            case .upToNextMajor(let minimum):
                guard let version, let upper = SemanticVersion(Self.nextMajor(minimum)) else { return false }
                return Self.contains(version, lower: minimum, upper: upper)
            case .upToNextMinor(let minimum):
                guard let version, let upper = SemanticVersion(Self.nextMinor(minimum)) else { return false }
                return Self.contains(version, lower: minimum, upper: upper)
            case .exact(let exact):
                return version.map { $0 == exact } ?? false
            case let .range(minimum, maximum):
                return version.map { Self.contains($0, lower: minimum, upper: maximum) } ?? false
            case .branch(let branch):
                return pin.branch == branch
            case .revision(let revision):
                return !revision.isEmpty && pin.revision.hasPrefix(revision.lowercased())
            }
        }
    }

    /// `repositoryURL` as written.
    var url: String
    var requirement: Requirement
    /// The line of the reference object in the project file.
    var line: Int?

    /// SwiftPM's identity: the URL's last path component, lower-cased, without `.git`.
    var identity: String { PackageResolved.identity(of: url) }

    /// A version as Xcode and SwiftPM accept it: SemVer, where a missing minor or patch number is
    /// 0 (ElementX pins `exactVersion` `1.2`, resolved as 1.2.0) and leading zeros do not count
    /// (ElementX's `26.07.22` is 26.7.22, as SwiftPM reads numbers).
    static func version(_ text: String) -> SemanticVersion? {
        let end = text.firstIndex { $0 == "-" || $0 == "+" } ?? text.endIndex
        let parts = text[..<end].split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count else { return nil }
        let core = (numbers + Array(repeating: 0, count: 3 - numbers.count)).map(String.init).joined(separator: ".")
        return SemanticVersion(core + text[end...])
    }
}

/// A local package (`XCLocalSwiftPackageReference`): a folder relative to the project's folder.
struct XcodeLocalPackage: Sendable, Hashable {
    var relativePath: String
    var line: Int?
}

/// The packages one `.xcodeproj` depends on.
struct XcodeProjectPackages: Sendable {
    /// The `project.pbxproj`, as shown to the user.
    var projectFile: String
    /// The folder that holds the `.xcodeproj` (local packages' paths are relative to it).
    var projectFolder: String
    var remote: [XcodeRemotePackage] = []
    var local: [XcodeLocalPackage] = []

    static let fix = "Set the package's dependency rule again in Xcode (the project's Package Dependencies tab), "
        + "or correct the 'requirement' entry by hand."

    /// Reads the packages of the `.xcodeproj` at `bundle`; `display` shows a path to the user.
    /// - Throws: `PinsError.malformedDependencyFile` naming the project file and line when it
    ///   cannot be read or a requirement is not one Xcode writes.
    static func read(bundle: String, fileSystem: any FileSystem, display: (String) -> String) throws -> XcodeProjectPackages {
        let path = bundle + "/project.pbxproj"
        let file = display(path)
        let name = String((bundle.split(separator: "/").last ?? "").dropLast(".xcodeproj".count))
        let project: PBXProject
        do {
            project = try PBXProject(bytes: try fileSystem.read(path, as: .projectFile), projectName: name)
        } catch let error as PBXProjError {
            throw PinsError.malformedDependencyFile(
                file: file, line: error.location?.line, reason: error.message,
                fix: "Its package requirements cannot be checked until Xcode can open it.")
        }
        let folder = bundle.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        var packages = XcodeProjectPackages(projectFile: file, projectFolder: folder.isEmpty ? "." : folder)
        guard let rootID = project.rootObjectID, let root = project.object(rootID) else { return packages }
        for id in root.references("packageReferences") {
            guard let object = project.object(id) else {
                throw PinsError.malformedDependencyFile(
                    file: file, line: project.location(of: rootID)?.line,
                    reason: "'packageReferences' lists '\(id)', which is not an object in the file", fix: fix)
            }
            let line = project.location(of: id)?.line
            func malformed(_ reason: String) -> PinsError {
                .malformedDependencyFile(file: file, line: line, reason: reason, fix: fix)
            }
            switch object.isa {
            case "XCRemoteSwiftPackageReference":
                guard let url = object.string("repositoryURL"), !url.isEmpty else {
                    throw malformed("the package reference '\(id)' has no 'repositoryURL'")
                }
                guard let requirement = object["requirement"]?.dictionary else {
                    throw malformed("the package '\(url)' has no 'requirement'")
                }
                packages.remote.append(XcodeRemotePackage(url: url, requirement: try Self.requirement(requirement, url: url,
                                                                                                       malformed: malformed),
                                                          line: line))
            case "XCLocalSwiftPackageReference":
                guard let relativePath = object.string("relativePath"), !relativePath.isEmpty else {
                    throw malformed("the local package reference '\(id)' has no 'relativePath'")
                }
                packages.local.append(XcodeLocalPackage(relativePath: relativePath, line: line))
            default:
                continue
            }
        }
        return packages
    }

    static let kinds = ["upToNextMajorVersion", "upToNextMinorVersion", "exactVersion", "versionRange", "branch", "revision"]

    private static func requirement(_ raw: PBXDictionary, url: String,
                                    malformed: (String) -> PinsError) throws -> XcodeRemotePackage.Requirement {
        guard let kind = raw["kind"]?.string else { throw malformed("the requirement of '\(url)' has no 'kind'") }
        func text(_ key: String) throws -> String {
            guard let value = raw[key]?.string, !value.isEmpty else {
                throw malformed("the requirement of '\(url)' (kind \(kind)) has no '\(key)'")
            }
            return value
        }
        func version(_ key: String) throws -> SemanticVersion {
            let value = try text(key)
            guard let version = XcodeRemotePackage.version(value) else {
                throw malformed("the requirement of '\(url)' has \(key) '\(value)', which is not a version like 1.2.3")
            }
            return version
        }
        switch kind {
        case "upToNextMajorVersion": return .upToNextMajor(try version("minimumVersion"))
        case "upToNextMinorVersion": return .upToNextMinor(try version("minimumVersion"))
        case "exactVersion": return .exact(try version("version"))
        case "versionRange":
            let minimum = try version("minimumVersion")
            let maximum = try version("maximumVersion")
            guard minimum < maximum else {
                throw malformed("the requirement of '\(url)' has minimumVersion \(minimum) not below maximumVersion \(maximum)")
            }
            return .range(minimum, maximum)
        case "branch": return .branch(try text("branch"))
        case "revision": return .revision(try text("revision"))
        default:
            throw malformed("the requirement of '\(url)' has kind '\(kind)', which is not one of \(kinds.joined(separator: ", "))")
        }
    }
}

/// SwiftPM's canonical form of a package location, used to tell whether a pin is for the same
/// repository as a requirement: case, scheme, user, `.git` and a trailing `/` do not count, and
/// `git@host:owner/repo` is `host/owner/repo`.
enum PackageLocation {
    static func canonical(_ location: String) -> String {
        var text = location.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        if text.hasSuffix(".git") { text.removeLast(4) }
        var hadScheme = false
        if let range = text.range(of: "://") {
            text = String(text[range.upperBound...])
            hadScheme = true
        }
        if let at = text.firstIndex(of: "@"), text[..<at].allSatisfy({ $0 != "/" }) {
            text = String(text[text.index(after: at)...])
        }
        if !hadScheme, let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0 != "/" }) {
            text.replaceSubrange(colon...colon, with: "/")
        }
        return text
    }
}
