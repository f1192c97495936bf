#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Bad input to a project diff (`slipway xcodeproj diff`).
public enum ProjectDiffInputError: Error, Hashable, Sendable {
    /// No project.pbxproj where the user pointed.
    case notAProject(path: String, pbxproj: String)
    /// A project that does not parse; `place` is `file:line:column` or the file.
    case unreadable(place: String, message: String)
    /// The project file lies outside the repository found from it.
    case outsideRepository(path: String, repository: String)

    /// What is wrong, naming the path, and what to pass instead.
    public var message: String {
        switch self {
        case let .notAProject(path, pbxproj):
            return "'\(path)' is not an Xcode project: there is no '\(pbxproj)'; pass a .xcodeproj folder or the project.pbxproj inside it"
        case let .unreadable(place, message):
            return "\(place): \(message)"
        case let .outsideRepository(path, repository):
            return "'\(path)' is not inside the git repository at '\(repository)'; --rev needs a project tracked by git"
        }
    }
}

extension ProjectDiffInputError: LocalizedError {
    /// The message.
    public var errorDescription: String? { message }
}

/// A project's earlier versions, as `ProjectDiffSource.revisions` reads them: the git repository
/// holding it (PBXProj does not depend on Git; the caller adapts its repository).
public protocol ProjectRevisions {
    /// The project file's path inside the repository (how `REV:path` labels name it).
    var relativePath: String { get }
    /// The project file's bytes at `revision`; throws when the revision or the file is unknown.
    func contents(at revision: String) throws -> [UInt8]
}

/// One side of a project diff: a project file in the working copy or a blob at a git revision.
public struct ProjectDiffSource {
    /// How messages and JSON name this side: a path, or `REV:path`.
    public let label: String
    /// The project's name (from its `.xcodeproj` folder).
    public let projectName: String
    private let bytes: () throws -> [UInt8]

    /// A side read by `bytes` when it is compared.
    public init(label: String, projectName: String, bytes: @escaping () throws -> [UInt8]) {
        self.label = label
        self.projectName = projectName
        self.bytes = bytes
    }

    /// The project at `path` (a `.xcodeproj` folder or its `project.pbxproj`) in the working copy.
    /// Reading it throws `ProjectDiffInputError.notAProject` when there is no project file, and
    /// `.unreadable` when it cannot be read.
    public static func workingCopy(_ path: String) -> ProjectDiffSource {
        let file = ProjectFile(path: path)
        return ProjectDiffSource(label: file.pbxprojPath, projectName: file.projectName) {
            guard access(file.pbxprojPath, F_OK) == 0 else {
                throw ProjectDiffInputError.notAProject(path: path, pbxproj: file.pbxprojPath)
            }
            guard let bytes = try? FileIO.read(file.pbxprojPath) else {
                throw ProjectDiffInputError.unreadable(place: file.pbxprojPath, message: "the file cannot be read; check its permissions")
            }
            return bytes
        }
    }

    /// The sides for `--rev REV` (the project at `REV` against the working copy) or `--rev A..B`.
    /// `open` finds the repository holding the project file it is given (and throws when there is
    /// none, or the file lies outside it).
    /// - Throws: `ProjectDiffInputError.notAProject` when the project's folder does not exist
    ///   (only for `REV`: with `A..B` both sides come from git, so the project may be missing
    ///   from the working copy), and what `open` throws.
    public static func revisions(_ rev: String, of path: String,
                                 open: (_ pbxprojPath: String) throws -> any ProjectRevisions) throws -> (ProjectDiffSource, ProjectDiffSource) {
        let file = ProjectFile(path: path)
        let parts = rev.split(separator: "..", omittingEmptySubsequences: false)
        let isRange = parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
        // A..B reads both sides from git: the project may be gone from the working copy.
        guard isRange || access(folder(of: file.pbxprojPath), F_OK) == 0 else {
            throw ProjectDiffInputError.notAProject(path: path, pbxproj: file.pbxprojPath)
        }
        let revisions = try open(file.pbxprojPath)
        func atRevision(_ revision: String) -> ProjectDiffSource {
            ProjectDiffSource(label: "\(revision):\(revisions.relativePath)", projectName: file.projectName) {
                try revisions.contents(at: revision)
            }
        }
        if isRange {
            return (atRevision(String(parts[0])), atRevision(String(parts[1])))
        }
        return (atRevision(rev), workingCopy(path))
    }

    /// The side read and reduced to a snapshot; parse errors name the side and the place.
    /// - Throws: `ProjectDiffInputError`, or what reading the side throws.
    public func snapshot() throws -> ProjectSnapshot {
        let bytes = try self.bytes()
        do {
            return try ProjectSnapshot(PBXProject(bytes: bytes, projectName: projectName))
        } catch let error as PBXProjError {
            let place = error.location.map { "\(label):\($0.line):\($0.column)" } ?? label
            throw ProjectDiffInputError.unreadable(place: place, message: error.message)
        }
    }

    /// The difference from `old` to `new`, both read and parsed.
    /// - Throws: what `snapshot()` throws, for `old` first.
    public static func compare(_ old: ProjectDiffSource, _ new: ProjectDiffSource) throws -> ProjectDiff {
        ProjectDiff(from: try old.snapshot(), to: try new.snapshot())
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
