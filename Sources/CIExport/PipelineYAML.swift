/// A YAML document built in code and written as text with a fixed layout: the same tree always
/// gives the same bytes (keys in the order given, two-space indents, scalars quoted only when
/// plain style could change their meaning).
indirect enum PipelineNode: Sendable, Equatable {
    /// A string; written plain when safe, quoted otherwise, as a `|` block when it has lines.
    case string(String)
    case int(Int)
    case bool(Bool)
    /// Nothing: `key:` with no value (YAML's null), as in a bare `workflow_dispatch:`.
    case empty
    /// A list written one item a line.
    case list([PipelineNode])
    /// A list of strings written inline: `[a, b]`.
    case flowList([String])
    /// A mapping, keys in this order.
    case map([PipelineEntry])

    /// True for scalars (written after `key: ` on one line).
    var isInline: Bool {
        switch self {
        case .string(let text): return !text.contains("\n")
        case .int, .bool, .flowList, .empty: return true
        case .list(let items): return items.isEmpty
        case .map(let entries): return entries.isEmpty
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

/// Writes `PipelineNode`s as text.
enum PipelineYAML {
    /// The node as YAML text, ending in a newline.
    static func render(_ node: PipelineNode) -> String {
        var lines: [String] = []
        write(node, indent: 0, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func write(_ node: PipelineNode, indent: Int, into lines: inout [String]) {
        let pad = String(repeating: " ", count: indent)
        switch node {
        case .map(let entries):
            for entry in entries { writeEntry(entry, pad: pad, indent: indent, into: &lines) }
        case .list(let items):
            for item in items { writeItem(item, pad: pad, indent: indent, into: &lines) }
        default:
            lines.append(pad + inline(node))
        }
    }

    private static func writeEntry(_ entry: PipelineEntry, pad: String, indent: Int, into lines: inout [String]) {
        let key = plainKey(entry.key) ? entry.key : scalar(entry.key)
        if entry.value == .empty {
            lines.append("\(pad)\(key):")
        } else if entry.value.isInline {
            lines.append("\(pad)\(key): \(inline(entry.value))")
        } else if case .string(let text) = entry.value {
            lines.append("\(pad)\(key): \(blockHeader(text))")
            lines += blockLines(text, pad: pad + "  ")
        } else {
            lines.append("\(pad)\(key):")
            // Lists under a key are indented by two, as the usual CI examples are.
            write(entry.value, indent: indent + 2, into: &lines)
        }
    }

    private static func writeItem(_ item: PipelineNode, pad: String, indent: Int, into lines: inout [String]) {
        switch item {
        case .map(let entries) where !entries.isEmpty:
            var nested: [String] = []
            write(item, indent: indent + 2, into: &nested)
            let inner = String(repeating: " ", count: indent + 2)
            lines.append(pad + "- " + nested[0].dropFirst(inner.count))
            lines += nested.dropFirst()
        case .string(let text) where text.contains("\n"):
            lines.append(pad + "- " + blockHeader(text))
            lines += blockLines(text, pad: pad + "    ")
        case .list(let items) where !items.isEmpty:
            lines.append(pad + "-")
            write(item, indent: indent + 2, into: &lines)
        default:
            lines.append(pad + "- " + inline(item))
        }
    }

    private static func inline(_ node: PipelineNode) -> String {
        switch node {
        case .string(let text): return scalar(text)
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .empty: return "null"
        case .flowList(let items): return "[" + items.map { scalar($0, flow: true) }.joined(separator: ", ") + "]"
        case .list: return "[]"
        case .map: return "{}"
        }
    }

    /// `|` keeps the final newline, `|-` drops it.
    private static func blockHeader(_ text: String) -> String {
        text.hasSuffix("\n") ? "|" : "|-"
    }

    private static func blockLines(_ text: String, pad: String) -> [String] {
        var body = text
        if body.hasSuffix("\n") { body.removeLast() }
        return body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : pad + $0 }
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

    private static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]

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
