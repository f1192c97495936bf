import Basics
import Foundation

/// A root dependency of a Swift package and what its manifest requires of it.
struct ManifestDependency: Sendable, Hashable {
    enum Requirement: Sendable, Hashable, CustomStringConvertible {
        case range(lower: String, upper: String)
        case exact(String)
        case branch(String)
        case revision(String)

        var description: String {
            switch self {
            case let .range(lower, upper): return "\(lower)..<\(upper)"
            case let .exact(version): return "exactly \(version)"
            case let .branch(branch): return "branch '\(branch)'"
            case let .revision(revision): return "revision \(revision)"
            }
        }
    }

    var identity: String
    var requirement: Requirement
}

/// Asks the toolchain for a manifest's dependencies (`swift package dump-package`), which is
/// the only faithful reading of a Package.swift, and caches the answer by the manifests' bytes
/// and the toolchain's identity, so that only the first verify after a change pays for it.
struct ManifestDumper: Sendable {
    let context: PinsContext

    /// The folder the answers are cached in.
    var cacheFolder: String { ToolsCache.slipwayCacheDirectory(environment: context.environment) + "/manifests" }

    /// The root dependencies of the package in `directory`; nil when there is no `swift` on
    /// PATH. `manifests` are the bytes of every manifest file there (the cache key).
    /// - Throws: `PinsError.malformedDependencyFile` when the toolchain cannot read the manifest.
    func dependencies(in directory: String, manifests: [UInt8]) async throws -> [ManifestDependency]? {
        let environment = context.environment.variables
        guard let swift = ExecutableLocator.find("swift", environment: environment) else { return nil }
        let identity = context.files.identity(of: swift).map { "\($0.size)-\($0.mtime)-\($0.inode)" } ?? ""
        let key = Digest256.hex(manifests + Array("\n\(swift)\n\(identity)".utf8))
        let cached = cacheFolder + "/\(key).json"
        if let bytes = try? context.fileSystem.read(cached), let parsed = Self.parse(bytes) { return parsed }
        // SwiftPM leaves a lock file named after the scratch folder in $TMPDIR: keep both here.
        let scratch = cacheFolder + "/scratch"
        try context.fileSystem.createDirectory(scratch + "/tmp")
        let spec = ProcessSpec(executable: swift, arguments: ["package", "dump-package", "--scratch-path", scratch],
                               environment: environment.merging(["TMPDIR": scratch + "/tmp"]) { $1 },
                               workingDirectory: directory)
        let result = try await context.processRunner.run(spec)
        guard result.status.isSuccess, let parsed = Self.parse(result.standardOutput) else {
            throw PinsError.malformedDependencyFile(
                file: "Package.swift", line: nil,
                reason: "'swift package dump-package' failed: \(result.errorText.suffix(400))",
                fix: "Fix the manifest so that 'swift package dump-package' succeeds.")
        }
        try? context.fileSystem.createDirectory(cacheFolder)
        try? context.fileSystem.writeAtomically(result.standardOutput, to: cached)
        return parsed
    }

    /// The source-control and registry dependencies in dump-package's JSON.
    static func parse(_ bytes: [UInt8]) -> [ManifestDependency]? {
        guard let root = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
              let dependencies = root["dependencies"] as? [[String: Any]]
        else { return nil }
        var result: [ManifestDependency] = []
        for dependency in dependencies {
            for kind in ["sourceControl", "registry"] {
                guard let entries = dependency[kind] as? [[String: Any]] else { continue }
                for entry in entries {
                    guard let identity = entry["identity"] as? String,
                          let requirement = requirement(entry["requirement"] as? [String: Any])
                    else { continue }
                    result.append(ManifestDependency(identity: identity.lowercased(), requirement: requirement))
                }
            }
        }
        return result
    }

    private static func requirement(_ raw: [String: Any]?) -> ManifestDependency.Requirement? {
        guard let raw else { return nil }
        if let range = (raw["range"] as? [[String: Any]])?.first,
           let lower = range["lowerBound"] as? String, let upper = range["upperBound"] as? String {
            return .range(lower: lower, upper: upper)
        }
        if let exact = (raw["exact"] as? [String])?.first { return .exact(exact) }
        if let branch = (raw["branch"] as? [String])?.first { return .branch(branch) }
        if let revision = (raw["revision"] as? [String])?.first { return .revision(revision) }
        return nil
    }
}
