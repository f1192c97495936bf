import Basics
import Foundation

/// Audits one `Package.resolved`: its schema (on reading), its `originHash` against the
/// manifest, each root dependency's pin against the manifest's requirement, and the checkouts
/// in `.build/workspace-state.json` against the pins.
struct PackageResolvedAudit: Sendable {
    let context: PinsContext

    /// Audits `resolvedPath`; `manifestFolder` is the package's folder when there is a
    /// Package.swift beside it (Xcode projects' Package.resolved has none).
    func audit(resolvedPath: String, manifestFolder: String?) async throws -> DepsReport {
        let file = context.display(resolvedPath)
        let resolved = try PackageResolved.parse(try context.fileSystem.read(resolvedPath, as: .lockfile), file: file)
        var list = FindingList(file: file)
        var notes: [String] = []
        list.check("schema", ok: true, expected: "Package.resolved version 1, 2 or 3",
                   found: "version \(resolved.version) with \(resolved.pins.count) pin(s)")
        if let manifestFolder {
            let manifests = try manifestFiles(in: manifestFolder)
            if let originHash = resolved.originHash {
                checkOriginHash(originHash, manifests: manifests, into: &list)
            }
            let bytes = manifests.flatMap(\.bytes)
            if let dependencies = try await ManifestDumper(context: context).dependencies(in: manifestFolder, manifests: bytes) {
                checkRequirements(dependencies, resolved: resolved, into: &list)
            } else {
                notes.append("\(file): the pins were not checked against Package.swift's requirements: no 'swift' on PATH.")
            }
            checkCheckouts(resolved, stateFile: manifestFolder + "/.build/workspace-state.json", into: &list)
        }
        return DepsReport(files: [file], findings: list.findings, notes: notes)
    }

    /// `Package.swift` and any `Package@swift-X.swift`, with their bytes.
    private func manifestFiles(in folder: String) throws -> [(name: String, bytes: [UInt8])] {
        let names = try context.fileSystem.contents(ofDirectory: folder)
            .filter { $0 == "Package.swift" || ($0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift")) }
        return try names.map { ($0, try context.fileSystem.read(folder + "/" + $0, as: .versionFile)) }
    }

    /// SwiftPM writes the SHA-256 of the root manifest's text as `originHash`; with
    /// version-specific manifests, any of them may be the one the toolchain picked.
    private func checkOriginHash(_ originHash: String, manifests: [(name: String, bytes: [UInt8])],
                                 into list: inout FindingList) {
        let hashes = manifests.map { ($0.name, Digest256.hex($0.bytes)) }
        let match = hashes.first { $0.1 == originHash.lowercased() }
        let expected = hashes.first { $0.0 == "Package.swift" }?.1 ?? hashes.first?.1 ?? "a manifest"
        list.check("originHash", ok: match != nil, expected: match?.1 ?? expected, found: originHash,
                   advice: "Package.swift changed after Package.resolved was written; run 'swift package resolve' and commit the result.")
    }

    private func checkRequirements(_ dependencies: [ManifestDependency], resolved: PackageResolved,
                                   into list: inout FindingList) {
        let pins = Dictionary(resolved.pins.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
        for dependency in dependencies {
            let expected = dependency.requirement.description
            guard let pin = pins[dependency.identity] else {
                list.check("requirement", dependency.identity, ok: false, expected: "a pin for \(expected)", found: "no pin",
                           advice: "Run 'swift package resolve' and commit Package.resolved.")
                continue
            }
            // Typed step by step: the chained `??` of interpolations took the type checker 270 ms.
            let found: String
            if let version = pin.version {
                found = "\(version) (\(pin.revision.prefix(7)))"
            } else if let branch = pin.branch {
                found = "branch '\(branch)'"
            } else {
                found = "revision \(pin.revision)"
            }
            list.check("requirement", dependency.identity, ok: Self.satisfies(pin, dependency.requirement), expected: expected,
                       found: found, advice: "Package.swift asks for \(expected); run 'swift package resolve' to pin a matching version.")
        }
    }

    static func satisfies(_ pin: PackageResolved.Pin, _ requirement: ManifestDependency.Requirement) -> Bool {
        switch requirement {
        case let .range(lower, upper):
            guard let version = pin.version.flatMap({ SemanticVersion($0) }), let low = SemanticVersion(lower),
                  let high = SemanticVersion(upper)
            else { return false }
            return low <= version && version < high
        case .exact(let exact):
            return pin.version.flatMap { SemanticVersion($0) } == SemanticVersion(exact) && pin.version != nil
        case .branch(let branch):
            return pin.branch == branch
        case .revision(let revision):
            return pin.revision.hasPrefix(revision.lowercased())
        }
    }

    private func checkCheckouts(_ resolved: PackageResolved, stateFile: String, into list: inout FindingList) {
        guard let bytes = try? context.fileSystem.read(stateFile, as: .lockfile), let checkouts = WorkspaceState.checkouts(bytes) else {
            return
        }
        let stateName = context.display(stateFile)
        for pin in resolved.pins {
            guard let revision = checkouts[pin.identity] else { continue }
            list.check("checkout", pin.identity, ok: revision == pin.revision, expected: pin.revision, found: revision,
                       advice: "The checkout in .build differs from the pin; run 'swift package resolve'.", file: stateName)
        }
    }
}
