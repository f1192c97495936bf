import Lanes

/// A YAML document built in code and written as text with a fixed layout: the same tree always
/// gives the same bytes (keys in the order given, two-space indents, scalars quoted only when
/// plain style could change their meaning).
indirect enum PipelineNode: Sendable, Equatable {
    /// A one-line string; written plain when safe, quoted otherwise. Control characters
    /// (line breaks included) are refused when written.
    case string(String)
    /// Lines written as a `|` block scalar (the text is the lines, each ending in a newline):
    /// the only way a line break reaches the file, each line refused if it has a control
    /// character.
    case block([String])
    case int(Int)
    case bool(Bool)
    /// Nothing: `key:` with no value (YAML's null), as in a bare `workflow_dispatch:`.
    case empty
    /// A list written one item a line.
    case list([PipelineNode])
    /// A list of strings written inline: `[a, b]`.
    case flowList([String])
    /// A mapping, keys in this order (each key once).
    case map([PipelineEntry])

    /// True for scalars (written after `key: ` on one line).
    var isInline: Bool {
        switch self {
        case .string, .int, .bool, .flowList, .empty: return true
        case .block: return false
        case .list(let items): return items.isEmpty
        case .map(let entries): return entries.isEmpty
        }
    }

    /// The node with `transform` applied to every string in it (values and list items, not
    /// keys): how an engine escapes what it would interpolate.
    func mapStrings(_ transform: (String) -> String) -> PipelineNode {
        switch self {
        case .string(let text): return .string(transform(text))
        case .block(let lines): return .block(lines.map(transform))
        case .flowList(let items): return .flowList(items.map(transform))
        case .list(let items): return .list(items.map { $0.mapStrings(transform) })
        case .map(let entries): return .map(entries.map { PipelineEntry($0.key, $0.value.mapStrings(transform)) })
        case .int, .bool, .empty: return self
        }
    }
}

/// `key: value` in a `PipelineNode.map`.
struct PipelineEntry: Sendable, Equatable {
    var key: String
    var value: PipelineNode

    init(_ key: String, _ value: PipelineNode) {
        self.key = key
        self.value = value
    }
}

/// Writes `PipelineNode`s as text: the one place pipeline files are written, so the one place
/// that decides what may reach them. It refuses control characters outside its own line breaks
/// and a key given twice in one mapping (`CIExportError.unsafePipelineText`,
/// `CIExportError.duplicatePipelineKey`), whatever validated the lane before.
enum PipelineYAML {
    /// The node as YAML text, ending in a newline.
    static func render(_ node: PipelineNode) throws -> String {
        var lines: [String] = []
        try write(node, indent: 0, path: "", into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `lines` as `# ` comment lines (an empty line stays `#`), ending in a newline; throws
    /// when a line has a control character, which would end the comment.
    static func comment(_ lines: [String]) throws -> String {
        try lines.map { line in
            try checked(line, path: "the header comment")
            return line.isEmpty ? "#" : "# " + line
        }.joined(separator: "\n") + "\n"
    }

    private static func write(_ node: PipelineNode, indent: Int, path: String, into lines: inout [String]) throws {
        let pad = String(repeating: " ", count: indent)
        switch node {
        case .map(let entries):
            var seen = Set<String>()
            for entry in entries {
                guard seen.insert(entry.key).inserted else {
                    throw CIExportError.duplicatePipelineKey(key: LaneNames.escaped(entry.key), path: path.isEmpty ? "the top level" : path)
                }
                try writeEntry(entry, pad: pad, indent: indent, path: join(path, entry.key), into: &lines)
            }
        case .list(let items):
            for (index, item) in items.enumerated() {
                try writeItem(item, pad: pad, indent: indent, path: path + "[\(index)]", into: &lines)
            }
        default:
            lines.append(pad + (try inline(node, path: path)))
        }
    }

    /// Where a value sits, for messages (`jobs.build.name`), control characters escaped.
    private static func join(_ path: String, _ key: String) -> String {
        let shown = LaneNames.escaped(key)
        return path.isEmpty ? shown : path + "." + shown
    }

    private static func writeEntry(_ entry: PipelineEntry, pad: String, indent: Int, path: String, into lines: inout [String]) throws {
        let key = plainKey(entry.key) ? entry.key : scalar(try checked(entry.key, path: path))
        if entry.value == .empty {
            lines.append("\(pad)\(key):")
        } else if entry.value.isInline {
            lines.append("\(pad)\(key): \(try inline(entry.value, path: path))")
        } else if case .block(let blockLines) = entry.value {
            lines.append("\(pad)\(key): \(try blockHeader(blockLines, path: path))")
            lines += try self.blockLines(blockLines, pad: pad + "  ", path: path)
        } else {
            lines.append("\(pad)\(key):")
            // Lists under a key are indented by two, as the usual CI examples are.
            try write(entry.value, indent: indent + 2, path: path, into: &lines)
        }
    }

    private static func writeItem(_ item: PipelineNode, pad: String, indent: Int, path: String, into lines: inout [String]) throws {
        switch item {
        case .map(let entries) where !entries.isEmpty:
            var nested: [String] = []
            try write(item, indent: indent + 2, path: path, into: &nested)
            let inner = String(repeating: " ", count: indent + 2)
            lines.append(pad + "- " + nested[0].dropFirst(inner.count))
            lines += nested.dropFirst()
        case .block(let blockLines):
            lines.append(pad + "- " + (try blockHeader(blockLines, path: path)))
            lines += try self.blockLines(blockLines, pad: pad + "    ", path: path)
        case .list(let items) where !items.isEmpty:
            lines.append(pad + "-")
            try write(item, indent: indent + 2, path: path, into: &lines)
        default:
            lines.append(pad + "- " + (try inline(item, path: path)))
        }
    }

    private static func inline(_ node: PipelineNode, path: String) throws -> String {
        switch node {
        case .string(let text): return scalar(try checked(text, path: path))
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .empty: return "null"
        case .flowList(let items):
            return "[" + (try items.map { scalar(try checked($0, path: path), flow: true) }).joined(separator: ", ") + "]"
        case .list, .block: return "[]"
        case .map: return "{}"
        }
    }

    /// `text`, or a throw when it has a character that would end its line or scalar.
    @discardableResult
    private static func checked(_ text: String, path: String) throws -> String {
        if let control = LaneNames.controlCharacter(in: text) {
            throw CIExportError.unsafePipelineText(character: LaneNames.describe(control), path: path)
        }
        return text
    }

    /// `|` clips to one final newline; `|+` keeps the empty last lines. A block must not start
    /// with a blank or indented line, from which YAML would guess the indentation.
    private static func blockHeader(_ lines: [String], path: String) throws -> String {
        guard let first = lines.first, let head = first.unicodeScalars.first, head != " " else {
            throw CIExportError.unsafePipelineText(character: "a blank or indented first line", path: path)
        }
        return lines.last == "" ? "|+" : "|"
    }

    private static func blockLines(_ lines: [String], pad: String, path: String) throws -> [String] {
        try lines.map { line in try checked(line, path: path).isEmpty ? "" : pad + line }
    }

    /// `text` plain when YAML reads it back as the same string, otherwise quoted. In a flow list
    /// (`[a, b]`) fewer characters are plain.
    static func scalar(_ text: String, flow: Bool = false) -> String {
        if isPlainSafe(text, flow: flow) { return text }
        if !text.contains("'") { return "'" + text + "'" }
        if !text.contains("\"") && !text.contains("\\") { return "\"" + text + "\"" }
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Keys such as `on`, `if` and `runs-on` stay plain (YAML 1.2 and the CI engines read them as strings).
    private static func plainKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, isLetter(first) || first == "_" else { return false }
        return key.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }

    private static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ".inf", ".nan"]

    /// Letters, digits and `_-./@+=` and inner spaces; in block context also `$(){}'*,` after the
    /// first character (GitHub's `${{ ... }}` included). Never `:` or `#`, never a leading
    /// digit (numbers, dates), indicator or reserved word.
    private static func isPlainSafe(_ text: String, flow: Bool) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        if reserved.contains(text.lowercased()) || last == " " { return false }
        if !(isLetter(first) || first == "_" || first == "." || first == "/" || (!flow && first == "$")) { return false }
        if text.hasPrefix("..") { return false }
        let extra = flow ? "" : "$(){}'*,"
        return text.unicodeScalars.allSatisfy {
            isLetter($0) || ("0"..."9").contains($0) || "_-./@+= ".unicodeScalars.contains($0) || extra.unicodeScalars.contains($0)
        }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
