import Basics
import Yams

/// A YAML node with where it starts, for Toolfile diagnostics.
///
/// Lanes has a fuller reader (`YAMLReader` in Sources/Lanes), but Pins sits below Lanes and
/// cannot import it; this small one goes away once that reader moves down to a shared module.
indirect enum LocatedYAML: Sendable {
    case scalar(String, SourceLocation, isPlain: Bool)
    case sequence([LocatedYAML], SourceLocation)
    case mapping([(key: String, keyLocation: SourceLocation, value: LocatedYAML)], SourceLocation)

    var location: SourceLocation {
        switch self {
        case .scalar(_, let location, _), .sequence(_, let location), .mapping(_, let location): return location
        }
    }

    /// "a mapping", "a list", "a text": for messages.
    var kindDescription: String {
        switch self {
        case .scalar(let text, _, let plain): return plain && ["", "~", "null"].contains(text) ? "nothing (null)" : "a text"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    /// The text of a non-null scalar.
    var text: String? {
        if case .scalar(let text, _, let plain) = self, !(plain && ["", "~", "null"].contains(text)) { return text }
        return nil
    }

    /// Parses `text`; nil for an empty document.
    /// - Throws: `DiagnosticsError` with the line and column of the problem.
    static func parse(_ text: String, file: String) throws -> LocatedYAML? {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw DiagnosticsError([diagnostic(for: error, file: file, text: text)])
        }
        return try node.map { try convert($0, file: file) }
    }

    private static func convert(_ node: Node, file: String) throws -> LocatedYAML {
        let location = SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
        switch node {
        case .scalar(let scalar):
            return .scalar(scalar.string, location, isPlain: scalar.style == .plain)
        case .sequence(let sequence):
            return .sequence(try sequence.map { try convert($0, file: file) }, location)
        case .mapping(let mapping):
            var entries: [(key: String, keyLocation: SourceLocation, value: LocatedYAML)] = []
            for (key, value) in mapping {
                let keyLocation = SourceLocation(file: file, line: key.mark?.line ?? location.line,
                                                 column: key.mark?.column ?? location.column)
                guard case .scalar(let keyScalar) = key else {
                    throw DiagnosticsError([Diagnostic(at: keyLocation, "a key must be a name, not a list or mapping")])
                }
                entries.append((keyScalar.string, keyLocation, try convert(value, file: file)))
            }
            return .mapping(entries, location)
        case .alias:
            throw DiagnosticsError([Diagnostic(at: location, "YAML aliases (*name) are not supported in a Toolfile; repeat the value instead")])
        }
    }

    private static func diagnostic(for error: YamlError, file: String, text: String) -> Diagnostic {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            var message = "invalid YAML: \(problem). Check the indentation and quoting here."
            if startsWithIndicator(line: mark.line, of: text) {
                message += " A version constraint that starts with '>', '*' or '&' must be quoted, e.g. version: \">=1.2, <2\"."
            }
            return Diagnostic(at: SourceLocation(file: file, line: mark.line, column: mark.column), message)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return Diagnostic(at: SourceLocation(file: file, line: context.mark.line, column: context.mark.column),
                              "duplicate key(s) \(names) in a mapping; keep one of each")
        default:
            return Diagnostic(at: SourceLocation(file: file, line: 1, column: 1), "invalid YAML: \(error)")
        }
    }

    /// True when the value on that line starts with a character YAML reads as syntax, which is
    /// what happens to an unquoted `>=1.2` or `*`.
    private static func startsWithIndicator(line number: Int, of text: String) -> Bool {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard number >= 1, number <= lines.count, let colon = lines[number - 1].firstIndex(of: ":") else { return false }
        let value = lines[number - 1][lines[number - 1].index(after: colon)...].drop { $0 == " " }
        return value.first.map { ">*&|!%@`".contains($0) } ?? false
    }
}
