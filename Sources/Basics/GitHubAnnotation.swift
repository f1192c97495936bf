import Foundation

/// A GitHub Actions workflow command (`::error file=F,line=L,col=C::message`), which GitHub
/// shows on the pull request's diff.
public struct GitHubAnnotation: Sendable, Hashable {
    public enum Level: String, Sendable { case error, warning, notice }

    public var level: Level
    public var message: String
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var title: String?

    public init(_ level: Level, _ message: String, file: String? = nil, line: Int? = nil, column: Int? = nil, title: String? = nil) {
        self.level = level
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.title = title
    }

    /// The command line (no trailing newline), escaped as GitHub's toolkit does: `%`, CR and LF
    /// in the message; also `:` and `,` in property values.
    public var rendered: String {
        var properties: [String] = []
        if let file { properties.append("file=" + Self.escapeProperty(file)) }
        if let line { properties.append("line=\(line)") }
        if let column { properties.append("col=\(column)") }
        if let title { properties.append("title=" + Self.escapeProperty(title)) }
        let head = "::" + level.rawValue + (properties.isEmpty ? "" : " " + properties.joined(separator: ","))
        return head + "::" + Self.escapeData(message)
    }

    public static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    public static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
