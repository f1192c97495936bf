import Basics
import Yams

/// Parses YAML text into `YAMLValue` trees through Yams (libyaml), turning its errors into
/// diagnostics with line and column. Each kind of document (lane files, Toolfiles) names itself
/// and its rules in the messages through the reader's properties.
public struct YAMLReader: Sendable {
    /// How the documents are called in messages about their limits: "lane files", "Toolfiles".
    public var documents: String
    /// The size, depth and alias expansion a document may have; checked before it is composed.
    public var limits: YAMLLimits
    /// The message for a mapping key that is a list or mapping.
    public var complexKeyMessage: String
    /// Whether a syntax error names libyaml's context, e.g. "(while scanning a quoted scalar that
    /// starts at 3:10)".
    public var namesContext: Bool
    /// Whether text libyaml cannot read (control characters) gets its own message and location,
    /// rather than "invalid YAML" at 1:1.
    public var explainsUnreadableText: Bool
    /// A sentence added to a syntax error, given the line the error is on (nil adds nothing).
    public var syntaxHint: (@Sendable (_ line: Substring) -> String?)?

    /// A reader whose messages speak of `documents`.
    public init(documents: String, complexKeyMessage: String, namesContext: Bool = true,
                explainsUnreadableText: Bool = true, syntaxHint: (@Sendable (_ line: Substring) -> String?)? = nil,
                limits: YAMLLimits = .standard) {
        self.documents = documents
        self.limits = limits
        self.complexKeyMessage = complexKeyMessage
        self.namesContext = namesContext
        self.explainsUnreadableText = explainsUnreadableText
        self.syntaxHint = syntaxHint
    }

    /// Parses `text`; `file` is the name used in locations. An empty document gives nil.
    /// - Throws: `DiagnosticsError` with the line and column of the problem, including a document
    ///   beyond `limits` (refused before any node is built).
    public func parse(_ text: String, file: String) throws -> YAMLValue? {
        if let violation = limits.violation(in: text, file: file, documents: documents) {
            throw DiagnosticsError([violation])
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw DiagnosticsError([diagnostic(for: error, file: file, text: text)])
        }
        guard let node else { return nil }
        return try convert(node, file: file)
    }

    private func convert(_ node: Node, file: String) throws -> YAMLValue {
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
                    throw DiagnosticsError([Diagnostic(at: keyLocation, complexKeyMessage)])
                }
                entries.append(YAMLEntry(
                    key: YAMLScalar(text: keyScalar.string, isPlain: keyScalar.style == .plain, location: keyLocation),
                    value: try convert(value, file: file)))
            }
            return .mapping(entries, location)
        case .alias:
            // `Yams.compose` resolves aliases to their anchors' nodes (sized by `limits` first).
            throw DiagnosticsError([Diagnostic(at: location, "a YAML alias could not be resolved; repeat the value instead")])
        }
    }

    func diagnostic(for error: YamlError, file: String, text: String) -> Diagnostic {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let location = SourceLocation(file: file, line: mark.line, column: mark.column)
            let contextText = namesContext ? context.map { context -> String in
                let start = context.mark.line == mark.line && context.mark.column == mark.column
                    ? "" : " that starts at \(context.mark.line):\(context.mark.column)"
                return " (\(context.text)\(start))"
            } ?? "" : ""
            var message = "invalid YAML: \(problem)\(contextText). Check the indentation and quoting here."
            if let syntaxHint, let line = Self.line(mark.line, of: text), let hint = syntaxHint(line) {
                message += " " + hint
            }
            return Diagnostic(at: location, message)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let mark = context.mark
            let location = SourceLocation(file: file, line: mark.line, column: mark.column)
            return Diagnostic(at: location, "duplicate key(s) \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in a mapping; keep one of each")
        case .reader(let problem, let offset, _, _) where explainsUnreadableText:
            let location = offset.map { Self.location(ofOffset: $0, in: text, file: file) }
            return Diagnostic(at: location, "cannot read the file: \(problem). Save it as UTF-8.")
        default:
            return Diagnostic(at: SourceLocation(file: file, line: 1, column: 1), "invalid YAML: \(error)")
        }
    }

    /// Line `number` (1-based) of `text`, if there is one.
    static func line(_ number: Int, of text: String) -> Substring? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard number >= 1, number <= lines.count else { return nil }
        return lines[number - 1]
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
