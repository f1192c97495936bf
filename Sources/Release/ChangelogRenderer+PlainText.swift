import Foundation

/// A changelog entry as plain text, for fields that show no Markdown, such as TestFlight's
/// What to Test.
extension ChangelogRenderer {
    /// The entry's items as `- description` lines (with `scope: ` before a conventional item's
    /// description), under `Title:` lines when the entry has more than one section; no
    /// version heading, hashes or links. "No user-facing changes." when it has no items.
    public static func plainText(_ entry: ChangelogEntry) -> String {
        guard !entry.sections.isEmpty else { return "No user-facing changes.\n" }
        var text = ""
        for (index, section) in entry.sections.enumerated() {
            if entry.sections.count > 1 {
                if index > 0 { text += "\n" }
                text += section.title + ":\n"
            }
            for item in section.items {
                text += "- " + (item.scope.map { $0 + ": " } ?? "") + item.description + "\n"
            }
        }
        return text
    }

    /// Keep a Changelog's preamble for a new CHANGELOG.md, ending with an empty
    /// `## [Unreleased]` section, into which `ChangelogFile.inserting` puts the first entry.
    public static let keepAChangelogSkeleton = """
        # Changelog

        All notable changes to this project are documented in this file.

        The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),
        and this project adheres to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).

        ## [Unreleased]

        """
}

extension ChangelogFile {
    /// The `## [version]` entry (see `entry(version:)`) as plain text for fields that show no
    /// Markdown (TestFlight's What to Test, the App Store's What's New): `### Added` becomes
    /// `Added:`, `**scope:**` becomes `scope:`, a link `[text](url)` its text, and an item's
    /// trailing commit or pull-request reference (`(abc1234)`, `([abc1234](url))`, `([#12](url))`)
    /// is dropped. Other text is kept as written. Nil when there is no such entry.
    public func plainEntry(version: String) -> String? {
        guard let entry = entry(version: version) else { return nil }
        var lines: [String] = []
        for line in entry.components(separatedBy: "\n") {
            if line.hasPrefix("### ") {
                if let last = lines.last, !last.isEmpty { lines.append("") }
                lines.append(String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces) + ":")
                continue
            }
            var text = line
            if text.hasPrefix("- ") || text.hasPrefix("* ") { text = Self.droppingReference(text) }
            text = Self.unlinked(text).replacingOccurrences(of: "**", with: "")
            lines.append(text)
        }
        return lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `text` without a trailing ` (abc1234)`, ` ([abc1234](url))`, ` (#12)` or ` ([#12](url))`.
    static func droppingReference(_ text: String) -> String {
        guard text.hasSuffix(")"), let open = text.range(of: " (", options: .backwards) else { return text }
        var inner = String(text[open.upperBound..<text.index(before: text.endIndex)])
        if inner.hasPrefix("["), let close = inner.range(of: "](") { inner = String(inner[inner.index(after: inner.startIndex)..<close.lowerBound]) }
        let isHash = inner.count >= 7 && inner.count <= 40 && inner.allSatisfy(\.isHexDigit)
        let isPull = inner.hasPrefix("#") && inner.count > 1 && inner.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
        return isHash || isPull ? String(text[..<open.lowerBound]) : text
    }

    /// `text` with each Markdown link `[label](url)` replaced by its label.
    static func unlinked(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "["), let middle = rest[open...].range(of: "]("),
              let close = rest[middle.upperBound...].firstIndex(of: ")") {
            result += rest[..<open]
            result += rest[rest.index(after: open)..<middle.lowerBound]
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
