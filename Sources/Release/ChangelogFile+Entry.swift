import Foundation

extension ChangelogFile {
    /// The body of the `## [version]` entry (its lines up to the next `## ` heading, without the
    /// heading and without link reference definitions), trimmed; nil when there is no such entry
    /// or it is empty. `version` may be written with a leading `v` in the file or the argument.
    public func entry(version: String) -> String? {
        let wanted = version.hasPrefix("v") ? String(version.dropFirst()) : version
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { line in
            guard line.hasPrefix("## [") else { return false }
            let name = line.dropFirst(4).prefix { $0 != "]" }
            return name == wanted || name == "v" + wanted
        }) else { return nil }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.count
        let body = lines[(start + 1)..<end].filter { line in
            !(line.hasPrefix("[") && line.contains("]: "))
        }
        let text = body.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
