import Basics
import Yams

/// A YAML scalar with where it stands and whether it was quoted (a quoted `"42"` is a string,
/// a plain `42` an integer).
public struct YAMLScalar: Sendable, Hashable {
    /// The text.
    public var text: String
    /// True for plain (unquoted, non-block) scalars, whose type is resolved from the text.
    public var isPlain: Bool
    /// Where it starts.
    public var location: SourceLocation
    /// True for single- or double-quoted scalars.
    public var isQuoted: Bool = false

    /// Where the text itself starts: after the opening quote of a quoted scalar.
    public var contentLocation: SourceLocation {
        guard isQuoted else { return location }
        var shifted = location
        shifted.column += 1
        return shifted
    }

    /// The scalar's value by YAML 1.2's core schema (plain scalars only; quoted ones are strings).
    public var resolved: ScalarValue {
        guard isPlain else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default:
            if let number = Int(text) { return .int(number) }
            return .string(text)
        }
    }

    /// A scalar's value.
    public enum ScalarValue: Sendable, Hashable {
        case string(String), int(Int), bool(Bool), null
    }
}

/// A YAML document as a tree whose every node knows its line and column, so that errors found
/// long after parsing (in validation) still point at the right place.
public indirect enum YAMLValue: Sendable, Hashable {
    case scalar(YAMLScalar)
    case sequence([YAMLValue], SourceLocation)
    case mapping([YAMLEntry], SourceLocation)

    /// Where the node starts.
    public var location: SourceLocation {
        switch self {
        case .scalar(let scalar): return scalar.location
        case .sequence(_, let location), .mapping(_, let location): return location
        }
    }

    /// "a mapping", "a list", "a string": what the node is, for error messages.
    public var kindDescription: String {
        switch self {
        case .scalar(let scalar):
            switch scalar.resolved {
            case .string: return "a string"
            case .int: return "a number"
            case .bool: return "a boolean"
            case .null: return "nothing (null)"
            }
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    /// The scalar, or nil.
    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// True for a null scalar.
    public var isNull: Bool { scalar?.resolved == .null }
}

/// One key/value pair of a mapping, in file order.
public struct YAMLEntry: Sendable, Hashable {
    /// The key (always a scalar in lane files).
    public var key: YAMLScalar
    /// The value.
    public var value: YAMLValue
}

/// Parses YAML text into `YAMLValue` trees through Yams (libyaml), turning its errors into
/// diagnostics with line and column.
public enum YAMLReader {
    /// Parses `text`; `file` is the name used in locations. An empty document gives nil.
    public static func parse(_ text: String, file: String) throws -> YAMLValue? {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw DiagnosticsError([diagnostic(for: error, file: file, text: text)])
        }
        guard let node else { return nil }
        return try convert(node, file: file)
    }

    private static func convert(_ node: Node, file: String) throws -> YAMLValue {
        let location = SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
        switch node {
        case .scalar(let scalar):
            return .scalar(YAMLScalar(text: scalar.string, isPlain: scalar.style == .plain, location: location,
                                      isQuoted: scalar.style == .singleQuoted || scalar.style == .doubleQuoted))
        case .sequence(let sequence):
            return .sequence(try sequence.map { try convert($0, file: file) }, location)
        case .mapping(let mapping):
            var entries: [YAMLEntry] = []
            for (key, value) in mapping {
                let keyLocation = SourceLocation(file: file, line: key.mark?.line ?? location.line, column: key.mark?.column ?? location.column)
                guard case .scalar(let keyScalar) = key else {
                    throw DiagnosticsError([Diagnostic(at: keyLocation, "a mapping key must be a plain name, not a list or mapping")])
                }
                entries.append(YAMLEntry(
                    key: YAMLScalar(text: keyScalar.string, isPlain: keyScalar.style == .plain, location: keyLocation),
                    value: try convert(value, file: file)))
            }
            return .mapping(entries, location)
        case .alias:
            throw DiagnosticsError([Diagnostic(at: location, "YAML aliases (*name) are not supported in lane files; repeat the value instead")])
        }
    }

    static func diagnostic(for error: YamlError, file: String, text: String) -> Diagnostic {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let location = SourceLocation(file: file, line: mark.line, column: mark.column)
            let contextText = context.map { context -> String in
                let start = context.mark.line == mark.line && context.mark.column == mark.column
                    ? "" : " that starts at \(context.mark.line):\(context.mark.column)"
                return " (\(context.text)\(start))"
            } ?? ""
            return Diagnostic(at: location, "invalid YAML: \(problem)\(contextText). Check the indentation and quoting here.")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let mark = context.mark
            let location = SourceLocation(file: file, line: mark.line, column: mark.column)
            return Diagnostic(at: location, "duplicate key(s) \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in a mapping; keep one of each")
        case .reader(let problem, let offset, _, _):
            let location = offset.map { Self.location(ofOffset: $0, in: text, file: file) }
            return Diagnostic(at: location, "cannot read the file: \(problem). Save it as UTF-8.")
        default:
            return Diagnostic(at: SourceLocation(file: file, line: 1, column: 1), "invalid YAML: \(error)")
        }
    }

    static func location(ofOffset offset: Int, in text: String, file: String) -> SourceLocation {
        var line = 1, column = 1
        for (index, byte) in text.utf8.enumerated() {
            if index >= offset { break }
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}
