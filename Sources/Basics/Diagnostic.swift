/// A position in a text file, 1-based, as editors and compilers print it.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file as the user should see it (relative to the working directory when possible).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}

/// One problem found in user input, with where it is.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How bad it is: errors stop the run, warnings are printed and the run goes on.
    public enum Severity: String, Sendable, Hashable {
        case error, warning, note
    }

    /// Where the problem is, when known.
    public var location: SourceLocation?
    /// What is wrong and what to do about it.
    public var message: String
    /// Error, warning or note.
    public var severity: Severity

    /// Creates a diagnostic.
    public init(_ severity: Severity = .error, at location: SourceLocation?, _ message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    /// `file:line:col: error: message`, the form editors and CI annotate.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message)"
    }
}

/// Every problem found in one input at once; thrown when there is at least one error.
public struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
    /// All diagnostics, in the order found (warnings included).
    public var diagnostics: [Diagnostic]

    /// Wraps a list of diagnostics.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One diagnostic per line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}

/// Collects diagnostics while a validator walks its input, so that every problem is reported at
/// once instead of the first one only.
public struct DiagnosticCollector: Sendable {
    /// Everything collected so far.
    public private(set) var diagnostics: [Diagnostic] = []

    /// An empty collector.
    public init() {}

    /// Records an error.
    public mutating func error(_ message: String, at location: SourceLocation?) {
        diagnostics.append(Diagnostic(.error, at: location, message))
    }

    /// Records a warning.
    public mutating func warning(_ message: String, at location: SourceLocation?) {
        diagnostics.append(Diagnostic(.warning, at: location, message))
    }

    /// Records a note, unless the same note (same place, same words) is already there.
    public mutating func noteOnce(_ message: String, at location: SourceLocation?) {
        let note = Diagnostic(.note, at: location, message)
        if !diagnostics.contains(note) { diagnostics.append(note) }
    }

    /// Appends diagnostics found elsewhere.
    public mutating func append(contentsOf other: [Diagnostic]) {
        diagnostics.append(contentsOf: other)
    }

    /// True when at least one error was recorded.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Throws a `DiagnosticsError` when an error was recorded.
    public func throwIfErrors() throws {
        if hasErrors { throw DiagnosticsError(diagnostics) }
    }
}
