/// Inserts a rendered entry into a Keep a Changelog file: right after the `## [Unreleased]`
/// section, moving what was written by hand under Unreleased into the new version, merged by
/// `### Heading` so that no heading appears twice.
public struct ChangelogFile: Sendable {
    /// The file's text.
    public var text: String
    let path: String

    /// Wraps a changelog's text (`path` for messages).
    public init(text: String, path: String) {
        self.text = text
        self.path = path
    }

    /// True when a `## [version]` heading already exists (then inserting is a no-op).
    public func contains(version: String) -> Bool {
        text.split(separator: "\n").contains { $0.hasPrefix("## [\(version)]") }
    }

    /// The text with `entry` (rendered Markdown starting with its `## ` heading) inserted.
    public func inserting(_ entry: String, version: String) throws -> String {
        if contains(version: version) { return text }
        var lines = text.components(separatedBy: "\n")
        guard let unreleased = lines.firstIndex(where: { $0.lowercased().hasPrefix("## [unreleased]") }) else {
            throw ReleaseError.noUnreleasedSection(file: path)
        }
        let end = lines[(unreleased + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.count
        let handWritten = Array(lines[(unreleased + 1)..<end])
        var merged = Self.merge(entry: entry.components(separatedBy: "\n"), handWritten: handWritten)
        while merged.last?.isEmpty == true { merged.removeLast() }
        lines.replaceSubrange((unreleased + 1)..<end, with: [""] + merged + [""])
        return lines.joined(separator: "\n")
    }

    /// Keep a Changelog's own release: the notes written by hand under `## [Unreleased]` become
    /// the section headed `heading` (`## [1.2.0] - 2026-12-02`), below an empty Unreleased.
    /// Link reference definitions (`[1.1.0]: https://…`) stay where they are. Unchanged when the
    /// version already has a section.
    /// - Throws: `ReleaseError.noUnreleasedSection`, or `.nothingUnreleased` when nothing but blank
    ///   lines is written under Unreleased.
    public func releasingUnreleased(heading: String, version: String) throws -> String {
        if contains(version: version) { return text }
        var lines = text.components(separatedBy: "\n")
        guard let unreleased = lines.firstIndex(where: { $0.lowercased().hasPrefix("## [unreleased]") }) else {
            throw ReleaseError.noUnreleasedSection(file: path)
        }
        let end = lines[(unreleased + 1)..<lines.count].firstIndex { $0.hasPrefix("## ") } ?? lines.count
        var notes: [String] = []
        var references: [String] = []
        for line in lines[(unreleased + 1)..<end] {
            if Self.isLinkReference(line) { references.append(line) } else { notes.append(line) }
        }
        while notes.first?.trimmingCharacters(in: .whitespaces).isEmpty == true { notes.removeFirst() }
        while notes.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { notes.removeLast() }
        guard !notes.isEmpty else { throw ReleaseError.nothingUnreleased(file: path) }
        let section = [""] + [heading, ""] + notes + [""] + (references.isEmpty ? [] : references + [""])
        lines.replaceSubrange((unreleased + 1)..<end, with: section)
        return lines.joined(separator: "\n")
    }

    /// A Markdown link reference definition, `[label]: url`.
    static func isLinkReference(_ line: String) -> Bool {
        line.hasPrefix("[") && line.contains("]: ")
    }

    /// The entry's lines with hand-written Unreleased notes added under matching headings
    /// (and under new headings, at the end, when the entry has none of that name).
    static func merge(entry: [String], handWritten: [String]) -> [String] {
        var notes: [(heading: String, lines: [String])] = []
        var preamble: [String] = []
        for line in handWritten {
            if line.hasPrefix("### ") {
                notes.append((line, []))
            } else if notes.isEmpty {
                if !line.trimmingCharacters(in: .whitespaces).isEmpty { preamble.append(line) }
            } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                notes[notes.count - 1].lines.append(line)
            }
        }
        var result = entry
        while result.last?.isEmpty == true { result.removeLast() }
        if !preamble.isEmpty, let heading = result.firstIndex(where: { $0.hasPrefix("## ") }) {
            result.insert(contentsOf: [""] + preamble, at: heading + 1)
        }
        for note in notes where !note.lines.isEmpty {
            if let heading = result.firstIndex(of: note.heading) {
                var insertAt = heading + 1
                while insertAt < result.count, result[insertAt].hasPrefix("-") || result[insertAt].hasPrefix("  ") {
                    insertAt += 1
                }
                result.insert(contentsOf: note.lines, at: insertAt)
            } else {
                result += ["", note.heading] + note.lines
            }
        }
        return result
    }
}
