import Basics
import YAMLSupport

/// The shared YAML reader with the Toolfile's wording, and how the Toolfile parser reads nodes.
enum ToolfileYAML {
    static let reader = YAMLReader(
        documents: "Toolfiles", complexKeyMessage: "a key must be a name, not a list or mapping",
        namesContext: false, explainsUnreadableText: false,
        syntaxHint: { line in
            startsWithIndicator(line)
                ? "A version constraint that starts with '>', '*' or '&' must be quoted, e.g. version: \">=1.2, <2\"."
                : nil
        })

    /// True when the value on `line` starts with a character YAML reads as syntax, which is
    /// what happens to an unquoted `>=1.2` or `*`.
    static func startsWithIndicator(_ line: Substring) -> Bool {
        guard let colon = line.firstIndex(of: ":") else { return false }
        let value = line[line.index(after: colon)...].drop { $0 == " " }
        return value.first.map { ">*&|!%@`".contains($0) } ?? false
    }
}

extension YAMLValue {
    /// The text of a scalar that is not null (a plain empty, `~` or `null`); every other scalar
    /// counts as text in a Toolfile, numbers included.
    var text: String? {
        guard let scalar, !scalar.isToolfileNull else { return nil }
        return scalar.text
    }

    /// "a mapping", "a list", "a text", "nothing (null)": for the Toolfile's messages.
    var toolfileKind: String {
        switch self {
        case .scalar(let scalar): return scalar.isToolfileNull ? "nothing (null)" : "a text"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}

extension YAMLScalar {
    var isToolfileNull: Bool { isPlain && ["", "~", "null"].contains(text) }
}
