import Basics
import Foundation

/// Bundler's `Gemfile.lock`, read section by section (GEM/GIT/PATH specs, PLATFORMS,
/// DEPENDENCIES, CHECKSUMS).
struct GemfileLock: Sendable {
    struct Spec: Sendable, Hashable {
        var name: String
        var version: String
        var platform: String?
        /// GEM, GIT, PATH or PLUGIN SOURCE.
        var source: String

        /// `name (version[-platform])`, as CHECKSUMS names it.
        var key: String { "\(name) (\(version)\(platform.map { "-\($0)" } ?? ""))" }
    }

    struct Dependency: Sendable, Hashable {
        var name: String
        var requirement: String?
        /// `name!`: pinned to a GIT or PATH source.
        var pinnedToSource: Bool
    }

    static let fix = "Run 'bundle lock' to write it again."
    static let sourceSections = ["GEM", "GIT", "PATH", "PLUGIN SOURCE"]

    var allSpecs: [Spec] = []
    var platforms: [String] = []
    var dependencies: [Dependency] = []
    /// CHECKSUMS entries (`name (version[-platform])` → sha256 or nil); nil without the section.
    var checksums: [String: String?]?
    /// `BUNDLED WITH`: the Bundler version that wrote the lock (Bundler writes no spec for itself).
    var bundledWith: String?

    /// The first spec of each name (the platform-independent one when there are several).
    var specs: [String: Spec] {
        var result: [String: Spec] = [:]
        for spec in allSpecs where result[spec.name] == nil || result[spec.name]?.platform != nil && spec.platform == nil {
            result[spec.name] = spec
        }
        return result
    }

    /// Parses the file's text.
    /// - Throws: `PinsError.malformedDependencyFile` with the line of the problem.
    static func parse(_ text: String, file: String) throws -> GemfileLock {
        var lock = GemfileLock()
        var section = ""
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine)
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            if !line.hasPrefix(" ") {
                section = line
                if section == "CHECKSUMS" { lock.checksums = [:] }
                continue
            }
            func malformed(_ reason: String) -> PinsError {
                .malformedDependencyFile(file: file, line: index + 1, reason: reason, fix: fix)
            }
            try lock.read(line, in: section, malformed: malformed)
        }
        if lock.allSpecs.isEmpty && lock.dependencies.isEmpty && lock.platforms.isEmpty {
            throw PinsError.malformedDependencyFile(file: file, line: 1, reason: "it has no GEM specs, PLATFORMS or DEPENDENCIES",
                                                    fix: fix)
        }
        return lock
    }

    private mutating func read(_ line: String, in section: String, malformed: (String) -> PinsError) throws {
        let indent = line.prefix { $0 == " " }.count
        let content = line.trimmingCharacters(in: .whitespaces)
        switch section {
        case _ where Self.sourceSections.contains(section):
            guard indent == 4 else { return }
            guard let (name, inside) = PodfileLock.split(content), let inside else {
                throw malformed("'\(content)' is not 'name (version)'")
            }
            let dash = inside.firstIndex(of: "-")
            allSpecs.append(Spec(name: name, version: String(inside[..<(dash ?? inside.endIndex)]),
                                 platform: dash.map { String(inside[inside.index(after: $0)...]) }, source: section))
        case "PLATFORMS":
            platforms.append(content)
        case "DEPENDENCIES":
            let pinned = content.hasSuffix("!")
            guard let (name, requirement) = PodfileLock.split(pinned ? String(content.dropLast()) : content) else {
                throw malformed("'\(content)' is not 'name' or 'name (requirement)'")
            }
            dependencies.append(Dependency(name: name, requirement: requirement, pinnedToSource: pinned))
        case "CHECKSUMS":
            let parts = content.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count >= 2 else { throw malformed("'\(content)' is not 'name (version) sha256=…'") }
            let key = parts[0] + " " + parts[1]
            let sha = parts.count > 2 ? parts[2].split(separator: ",").first { $0.hasPrefix("sha256=") }
                .map { String($0.dropFirst("sha256=".count)) } : nil
            checksums?[key] = sha
        case "BUNDLED WITH":
            guard GemVersion(content) != nil else { throw malformed("'\(content)' under BUNDLED WITH is not a version") }
            bundledWith = content
        default:
            return
        }
    }
}

/// Audits `Gemfile.lock`: every DEPENDENCIES entry has a spec that satisfies it, PLATFORMS
/// includes the platform this runs on, and — when the lock has a CHECKSUMS section — every gem
/// from a GEM source has a sha256 there.
struct GemfileLockAudit: Sendable {
    let context: PinsContext

    func audit(path: String, lock: GemfileLock) -> DepsReport {
        var list = FindingList(file: context.display(path))
        let specs = lock.specs
        for dependency in lock.dependencies {
            let expected = dependency.requirement.map { "a version \($0)" } ?? "any version"
            if dependency.name == "bundler" && specs["bundler"] == nil {
                checkBundler(dependency, bundledWith: lock.bundledWith, into: &list)
                continue
            }
            guard let spec = specs[dependency.name] else {
                list.check("dependency", dependency.name, ok: false, expected: expected, found: "no spec",
                           advice: "Run 'bundle lock' to resolve it.")
                continue
            }
            var ok = true
            if let text = dependency.requirement {
                ok = GemRequirement(text).flatMap { requirement in GemVersion(spec.version).map(requirement.isSatisfied) } ?? false
            }
            list.check("dependency", dependency.name, ok: ok, expected: expected, found: spec.version,
                       advice: "The Gemfile asks for \(dependency.requirement ?? "it"); run 'bundle lock'.")
        }
        let wanted = Self.gemPlatforms(for: context.platform)
        // Bundler's rule (Definition#validate_platforms!): a lock that lists `ruby` installs on any
        // machine (gems with native code are built from source); otherwise one of its platforms
        // must match the local one, or Bundler stops with "Your bundle only supports platforms".
        let match = lock.platforms.first { $0 == "ruby" || Self.matches($0, wanted) }
        list.check("platforms", context.platform.description, ok: match != nil,
                   expected: "ruby or one of \(wanted.joined(separator: ", "))",
                   found: lock.platforms.isEmpty ? "none" : lock.platforms.joined(separator: ", "),
                   advice: "Run 'bundle lock --add-platform \(wanted[0])' and commit Gemfile.lock.")
        if let checksums = lock.checksums {
            for spec in lock.allSpecs where spec.source == "GEM" {
                let sha = checksums[spec.key] ?? nil
                list.check("checksums", spec.key, ok: sha != nil, expected: "a sha256 in CHECKSUMS",
                           found: sha.map { "sha256=\($0)" } ?? (checksums[spec.key] == nil ? "no entry" : "an entry without sha256"),
                           advice: "Run 'bundle lock --add-checksums' (Bundler 2.6+) or 'bundle install' to record it.")
            }
        }
        return DepsReport(files: [context.display(path)], findings: list.findings)
    }

    /// Bundler never writes a spec for itself: a requirement on `bundler` is met by the version
    /// in `BUNDLED WITH`, the Bundler that wrote the lock and that `bundle install` switches to.
    private func checkBundler(_ dependency: GemfileLock.Dependency, bundledWith: String?, into list: inout FindingList) {
        let expected = dependency.requirement.map { "a version \($0)" } ?? "any version"
        guard let bundledWith else {
            list.check("dependency", "bundler", ok: false, expected: expected + " in BUNDLED WITH", found: "no BUNDLED WITH",
                       advice: "Run 'bundle update --bundler' to record the Bundler version in Gemfile.lock.")
            return
        }
        var ok = true
        if let text = dependency.requirement {
            ok = GemRequirement(text).flatMap { requirement in GemVersion(bundledWith).map(requirement.isSatisfied) } ?? false
        }
        list.check("dependency", "bundler", ok: ok, expected: expected, found: "BUNDLED WITH \(bundledWith)",
                   advice: "The Gemfile asks for bundler \(dependency.requirement ?? "")"
                       + "; install a matching Bundler ('gem install bundler -v \"\(dependency.requirement ?? "")\"') and run "
                       + "'bundle update --bundler' to record it in BUNDLED WITH.")
    }

    /// True when a PLATFORMS entry names one of `wanted`: exactly, with a Darwin version
    /// (`arm64-darwin-23`), or with glibc spelt out (`x86_64-linux-gnu`; musl is another platform).
    static func matches(_ listed: String, _ wanted: [String]) -> Bool {
        wanted.contains { name in
            if listed == name { return true }
            if name.hasSuffix("-darwin") {
                return listed.hasPrefix(name + "-") && listed.dropFirst(name.count + 1).allSatisfy(\.isNumber)
            }
            return listed == name + "-gnu"
        }
    }

    /// How RubyGems names a platform.
    static func gemPlatforms(for platform: ToolPlatform) -> [String] {
        switch (platform.os, platform.arch) {
        case ("macos", "arm64"): return ["arm64-darwin", "universal-darwin"]
        case ("macos", _): return ["x86_64-darwin", "universal-darwin"]
        case (_, "arm64"): return ["aarch64-linux"]
        default: return ["x86_64-linux"]
        }
    }
}
