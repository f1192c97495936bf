import Basics
import Foundation
import Yams
import YAMLSupport
import Crypto

/// CocoaPods' `Podfile.lock` (YAML), read into what the audit needs.
struct PodfileLock: Sendable {
    struct Dependency: Sendable, Hashable {
        var name: String
        var requirement: String?
        /// `(from `…`)`: a path or git source, whose version is not constrained.
        var isExternal: Bool
    }

    static let fix = "Run 'pod install' to write it again."

    var pods: [String: String] = [:]
    var dependencies: [Dependency] = []
    var specChecksums: [String: String] = [:]
    var podfileChecksum: String?
    var cocoapodsVersion: String?

    /// Parses the file's text.
    /// - Throws: `PinsError.malformedDependencyFile` with the line of the problem.
    static func parse(_ text: String, file: String) throws -> PodfileLock {
        func malformed(_ line: Int?, _ reason: String) -> PinsError {
            .malformedDependencyFile(file: file, line: line, reason: reason, fix: fix)
        }
        // Bounded before Yams composes it: an alias bomb would otherwise expand while keys are hashed.
        if let violation = YAMLLimits.standard.violation(in: text, file: file, documents: "Podfile.lock files") {
            let reason = violation.message.hasSuffix(".") ? String(violation.message.dropLast()) : violation.message
            throw malformed(violation.location?.line, reason)
        }
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            throw malformed(nil, "it is not valid YAML (\(error))")
        }
        guard let mapping = root?.mapping else { throw malformed(1, "it is not a mapping of sections (PODS, DEPENDENCIES, ...)") }
        var lock = PodfileLock()
        guard mapping["PODS"] != nil || mapping["COCOAPODS"] != nil else {
            throw malformed(1, "it has neither a PODS list nor a COCOAPODS version")
        }
        for item in mapping["PODS"]?.sequence ?? [] {
            let text = item.scalar?.string ?? item.mapping?.keys.first?.string ?? ""
            guard let (name, version) = split(text), let version else {
                throw malformed(item.mark?.line, "'\(text)' is not 'Name (version)'")
            }
            lock.pods[name] = version
        }
        for item in mapping["DEPENDENCIES"]?.sequence ?? [] {
            guard let text = item.scalar?.string, let (name, requirement) = split(text) else {
                throw malformed(item.mark?.line, "a DEPENDENCIES entry is not 'Name' or 'Name (requirement)'")
            }
            let external = requirement.map { $0.hasPrefix("from ") || $0.contains("`") } ?? false
            lock.dependencies.append(Dependency(name: name, requirement: requirement, isExternal: external))
        }
        for (key, value) in mapping["SPEC CHECKSUMS"]?.mapping ?? [:] {
            if let name = key.string, let checksum = value.string { lock.specChecksums[name] = checksum }
        }
        lock.podfileChecksum = mapping["PODFILE CHECKSUM"]?.string
        lock.cocoapodsVersion = mapping["COCOAPODS"]?.string
        return lock
    }

    /// `Name (inside)` → (Name, inside); `Name` → (Name, nil).
    static func split(_ text: String) -> (String, String?)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let open = trimmed.firstIndex(of: " ") else { return trimmed.isEmpty ? nil : (trimmed, nil) }
        let name = String(trimmed[..<open])
        let rest = trimmed[open...].trimmingCharacters(in: .whitespaces)
        guard rest.hasPrefix("("), rest.hasSuffix(")") else { return nil }
        return (name, String(rest.dropFirst().dropLast()))
    }
}

/// Audits `Podfile.lock`: PODFILE CHECKSUM against the Podfile (SHA-1 of its bytes, as CocoaPods
/// computes it), DEPENDENCIES against PODS, SPEC CHECKSUMS for every pod, equality with
/// `Pods/Manifest.lock`, and the `COCOAPODS:` version against Gemfile.lock's cocoapods gem.
struct PodfileLockAudit: Sendable {
    let context: PinsContext

    func audit(folder: String, gemfileLock: GemfileLock?) throws -> DepsReport {
        let path = folder + "/Podfile.lock"
        let file = context.display(path)
        let bytes = try context.fileSystem.read(path, as: .lockfile)
        let lock = try PodfileLock.parse(String(decoding: bytes, as: UTF8.self), file: file)
        var list = FindingList(file: file)
        var notes: [String] = []
        try checkPodfile(lock, podfile: folder + "/Podfile", into: &list)
        checkDependencies(lock, into: &list)
        let manifest = folder + "/Pods/Manifest.lock"
        if context.fileSystem.isDirectory(folder + "/Pods") {
            // Absent is a finding; a link leading outside, a device or a huge file is an error.
            let installed: [UInt8]?
            do {
                installed = try context.fileSystem.read(manifest, as: .lockfile)
            } catch FileSystemError.notFound {
                installed = nil
            }
            list.check("manifest-lock", ok: installed == bytes, expected: "identical to Podfile.lock",
                       found: installed == nil ? "no Pods/Manifest.lock" : installed == bytes ? "identical" : "different",
                       advice: "The installed Pods do not match Podfile.lock; run 'pod install'.", file: context.display(manifest))
        } else {
            notes.append("\(file): Pods/Manifest.lock was not compared: the Pods folder is not installed.")
        }
        if let lockVersion = lock.cocoapodsVersion, let gemVersion = gemfileLock?.specs["cocoapods"]?.version {
            let ok = GemVersion(lockVersion).map { GemVersion(gemVersion) == $0 } ?? false
            list.check("cocoapods-version", ok: ok, expected: "COCOAPODS: \(gemVersion) (Gemfile.lock's cocoapods gem)",
                       found: "COCOAPODS: \(lockVersion)",
                       advice: "Run 'bundle exec pod install' so that the bundled CocoaPods writes Podfile.lock.")
        }
        return DepsReport(files: [file], findings: list.findings, notes: notes)
    }

    private func checkPodfile(_ lock: PodfileLock, podfile: String, into list: inout FindingList) throws {
        guard let recorded = lock.podfileChecksum else { return }
        let bytes: [UInt8]
        do {
            bytes = try context.fileSystem.read(podfile, as: .configuration)
        } catch FileSystemError.notFound {
            list.check("podfile-checksum", ok: false, expected: "a Podfile beside Podfile.lock", found: "none",
                       advice: "Restore the Podfile, or remove the stale Podfile.lock.")
            return
        }
        let actual = Insecure.SHA1.hash(data: bytes).hexString
        list.check("podfile-checksum", ok: actual == recorded, expected: actual, found: recorded,
                   advice: "The Podfile changed after Podfile.lock was written; run 'pod install' and commit Podfile.lock.")
    }

    private func checkDependencies(_ lock: PodfileLock, into list: inout FindingList) {
        for dependency in lock.dependencies {
            let expected = dependency.isExternal ? "a pod (external source)" : dependency.requirement.map { "a version \($0)" }
                ?? "any version"
            guard let version = lock.pods[dependency.name] else {
                list.check("dependency", dependency.name, ok: false, expected: expected, found: "not in PODS",
                           advice: "Run 'pod install' to resolve it.")
                continue
            }
            var ok = true
            if !dependency.isExternal, let text = dependency.requirement {
                ok = GemRequirement(text).flatMap { requirement in GemVersion(version).map(requirement.isSatisfied) } ?? false
            }
            list.check("dependency", dependency.name, ok: ok, expected: expected, found: version,
                       advice: "PODS has \(version), which the Podfile's requirement excludes; run 'pod install'.")
        }
        for root in Set(lock.pods.keys.map { String($0.prefix { $0 != "/" }) }).sorted() where lock.specChecksums[root] == nil {
            list.check("spec-checksum", root, ok: false, expected: "an entry in SPEC CHECKSUMS", found: "none",
                       advice: "Run 'pod install' to write Podfile.lock again.")
        }
    }
}
