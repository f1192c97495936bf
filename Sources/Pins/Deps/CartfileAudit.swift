import Basics
import Foundation

/// A Cartfile or Cartfile.resolved entry: `github "owner/repo" ~> 1.2`.
struct CartfileEntry: Sendable, Hashable {
    /// `github`, `git` or `binary`.
    var kind: String
    /// The quoted identifier.
    var identifier: String
    /// What follows: `~> 1.2`, `== 1.0`, `>= 1.0`, `"branch"`, or nothing.
    var requirement: String?
    var line: Int

    var key: String { "\(kind) \"\(identifier)\"" }

    static let kinds = ["github", "git", "binary"]

    /// Parses Cartfile-format text (comments after `#`, blank lines ignored).
    /// - Throws: `PinsError.malformedDependencyFile` with the line.
    static func parse(_ text: String, file: String, fix: String) throws -> [CartfileEntry] {
        var entries: [CartfileEntry] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = stripComment(String(raw)).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            guard let space = line.firstIndex(of: " "), kinds.contains(String(line[..<space])) else {
                throw PinsError.malformedDependencyFile(file: file, line: index + 1,
                                                        reason: "'\(line)' does not start with github, git or binary", fix: fix)
            }
            let rest = line[space...].trimmingCharacters(in: .whitespaces)
            guard rest.hasPrefix("\""), let close = rest.dropFirst().firstIndex(of: "\"") else {
                throw PinsError.malformedDependencyFile(file: file, line: index + 1,
                                                        reason: "the name in '\(line)' is not in double quotes", fix: fix)
            }
            let identifier = String(rest[rest.index(after: rest.startIndex)..<close])
            let requirement = rest[rest.index(after: close)...].trimmingCharacters(in: .whitespaces)
            entries.append(CartfileEntry(kind: String(line[..<space]), identifier: identifier,
                                         requirement: requirement.isEmpty ? nil : requirement, line: index + 1))
        }
        return entries
    }

    private static func stripComment(_ line: String) -> String {
        var inQuotes = false
        for (offset, character) in line.enumerated() {
            if character == "\"" { inQuotes.toggle() }
            if character == "#" && !inQuotes { return String(line.prefix(offset)) }
        }
        return line
    }
}

/// Audits `Cartfile` (and `Cartfile.private`) against `Cartfile.resolved`: every dependency is
/// resolved, and the resolved version meets the requirement, by Carthage's rules (`~> 1.2` is
/// `>= 1.2, < 2.0`; under 0.x the minor version may not change; a branch resolves to a commit).
struct CartfileAudit: Sendable {
    let context: PinsContext

    func audit(folder: String) throws -> DepsReport {
        let resolvedPath = folder + "/Cartfile.resolved"
        let file = context.display(resolvedPath)
        let fix = "Run 'carthage update' (or 'carthage bootstrap') to write it again."
        let resolved = try CartfileEntry.parse(try context.fileSystem.readText(resolvedPath, as: .lockfile), file: file, fix: fix)
        var byKey: [String: CartfileEntry] = [:]
        for entry in resolved {
            guard let value = entry.requirement, value.hasPrefix("\""), value.hasSuffix("\""), value.count > 2 else {
                throw PinsError.malformedDependencyFile(file: file, line: entry.line,
                                                        reason: "'\(entry.key)' has no quoted version", fix: fix)
            }
            byKey[entry.key] = entry
        }
        var list = FindingList(file: file)
        var files = [file]
        for name in ["Cartfile", "Cartfile.private"] where context.fileSystem.exists(folder + "/" + name) {
            files.append(context.display(folder + "/" + name))
            let wanted = try CartfileEntry.parse(try context.fileSystem.readText(folder + "/" + name, as: .configuration),
                                                 file: name, fix: "Fix the line.")
            for entry in wanted {
                check(entry, resolved: byKey[entry.key], into: &list)
            }
        }
        if files.count == 1 {
            return DepsReport(files: files, notes: [
                "\(file): not checked: there is no Cartfile or Cartfile.private to check it against. Add the Cartfile it "
                    + "was resolved from, or delete Cartfile.resolved if the project no longer uses Carthage.",
            ], unchecked: [file])
        }
        return DepsReport(files: files, findings: list.findings)
    }

    private func check(_ entry: CartfileEntry, resolved: CartfileEntry?, into list: inout FindingList) {
        let expected = entry.requirement ?? "any version"
        guard let resolved, let value = resolved.requirement.map({ String($0.dropFirst().dropLast()) }) else {
            list.check("resolved", entry.key, ok: false, expected: expected, found: "not in Cartfile.resolved",
                       advice: "Run 'carthage update \(entry.identifier.split(separator: "/").last ?? "")'.")
            return
        }
        list.check("resolved", entry.key, ok: Self.satisfies(value, entry.requirement), expected: expected, found: value,
                   advice: "Cartfile.resolved does not meet the Cartfile's requirement; run 'carthage update'.")
    }

    /// Carthage's rules for a resolved value against a requirement.
    static func satisfies(_ value: String, _ requirement: String?) -> Bool {
        guard let requirement else { return true }
        if requirement.hasPrefix("\"") {
            let reference = String(requirement.dropFirst().dropLast())
            // A branch is resolved to the commit it pointed at, which cannot be checked offline.
            return value == reference || (value.count == 40 && value.allSatisfy(\.isHexDigit))
        }
        guard let version = lenientVersion(value) else { return true }
        guard let operation = ["~>", "==", ">="].first(where: requirement.hasPrefix),
              let bound = lenientVersion(requirement.dropFirst(2).trimmingCharacters(in: .whitespaces))
        else { return false }
        let preReleaseOK = !version.isPrerelease || (bound.isPrerelease && version.major == bound.major
            && version.minor == bound.minor && version.patch == bound.patch)
        switch operation {
        case "==": return version == bound
        case ">=": return preReleaseOK && version >= bound
        case "~>":
            guard preReleaseOK, version >= bound else { return false }
            return bound.major == 0 ? version.major == 0 && version.minor == bound.minor : version.major == bound.major
        default: return false
        }
    }

    /// `v1.2` → 1.2.0; text before the first digit is skipped, as Carthage does.
    static func lenientVersion(_ text: String) -> SemanticVersion? {
        let start = text.drop { !$0.isNumber }
        let core = start.prefix { $0.isNumber || $0 == "." }
        let rest = start.dropFirst(core.count)
        var numbers = core.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(numbers.count), numbers.allSatisfy({ !$0.isEmpty }) else { return nil }
        while numbers.count < 3 { numbers.append("0") }
        return SemanticVersion(numbers.joined(separator: ".") + rest)
    }
}
