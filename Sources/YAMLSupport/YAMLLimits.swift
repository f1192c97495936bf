import Basics
// libyaml, as Yams builds it. Yams does not vend CYaml as a product, but SwiftPM puts the module
// maps of every C target a dependency is built from on the include path, so the same parser
// (same version, same scanner) that `Yams.compose` runs is reachable here for the event pass.
import CYaml

/// Bounds on what a YAML document may cost to read, checked on libyaml's events before Yams
/// builds a node tree.
///
/// Why before: `Yams.compose` resolves an alias (`*name`) to the anchored node itself, so a
/// document of nine nested anchors, each a list of nine aliases of the previous one, composes in
/// microseconds into a tree that is shared, but whose expansion has 9^9 (387 million) nodes. Every
/// walk of that tree pays for the expansion: converting it into `YAMLValue`s took more than 30 s
/// and 6 GB, and Yams' own duplicate-key check hashes a whole (aliased) key at compose time. The
/// events name each anchor and alias once, so one linear pass knows every anchor's expanded size
/// and depth without expanding anything.
///
/// Aliases are not refused outright: they have always been resolved, and a Toolfile that repeats a
/// small mapping through an alias is legitimate. Instead the nodes that aliases add are counted,
/// nested aliases multiplied out, against a budget far above any such reuse and far below harm.
public struct YAMLLimits: Sendable, Hashable {
    /// The largest document, in bytes of UTF-8.
    public var maxBytes: Int
    /// The deepest nesting of lists and mappings, counted after aliases are expanded.
    public var maxDepth: Int
    /// How many nodes all aliases of a document may add together once expanded.
    public var maxAliasedNodes: Int

    /// The limits of every YAML document Slipway reads: 4 MiB, 64 levels, 10,000 nodes through
    /// aliases.
    public static let standard = YAMLLimits(maxBytes: 4 << 20, maxDepth: 64, maxAliasedNodes: 10_000)

    /// Limits with the given values.
    public init(maxBytes: Int, maxDepth: Int, maxAliasedNodes: Int) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxAliasedNodes = maxAliasedNodes
    }

    /// The first limit `text` exceeds, as a diagnostic in `file` that says what to do, or nil.
    /// Text libyaml cannot parse is left to the composer, which reports it with its own wording
    /// (everything before the error has been checked by then).
    /// - Parameter documents: how the documents are called in the message: "lane files".
    public func violation(in text: String, file: String, documents: String) -> Diagnostic? {
        let size = text.utf8.count
        if size > maxBytes {
            return Diagnostic(at: SourceLocation(file: file, line: 1, column: 1),
                              "the file is \(Self.mebibytes(size)); \(documents) are limited to \(Self.mebibytes(maxBytes)) of YAML. Make it smaller.")
        }
        var pass = EventPass(limits: self, documents: documents, file: file)
        var text = text
        return text.withUTF8 { pass.run(over: $0) }
    }

    /// `4 MiB`, `5.2 MiB`.
    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 20) - 1) / (1 << 20)  // rounded up: 4 MiB and 1 byte is "4.1 MiB"
        return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
    }
}

/// One linear walk over libyaml's events that sizes every anchor and adds up what aliases expand to.
private struct EventPass {
    /// A list or mapping being read: its anchor, the nodes in its expansion, its levels of nesting.
    struct Frame {
        var anchor: String?
        var nodes = 1
        var levels = 1
    }

    /// An anchored value: the nodes in its expansion and its levels of nesting (0 for a scalar).
    struct Size {
        var nodes: Int
        var levels: Int
    }

    let limits: YAMLLimits
    let documents: String
    let file: String
    /// The root's stand-in at index 0, then the open lists and mappings, innermost last.
    var stack = [Frame(nodes: 0, levels: 0)]
    var anchors: [String: Size] = [:]
    var aliasedNodes = 0

    init(limits: YAMLLimits, documents: String, file: String) {
        self.limits = limits
        self.documents = documents
        self.file = file
    }

    mutating func run(over input: UnsafeBufferPointer<UInt8>) -> Diagnostic? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, input.baseAddress, input.count)
        var event = yaml_event_t()
        while yaml_parser_parse(&parser, &event) == 1 {
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT { return nil }
            if let problem = handle(event) { return problem }
        }
        return nil
    }

    private mutating func handle(_ event: yaml_event_t) -> Diagnostic? {
        switch event.type {
        case YAML_SCALAR_EVENT:
            add(Size(nodes: 1, levels: 0), anchor: Self.string(event.data.scalar.anchor))
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            guard stack.count <= limits.maxDepth else {
                return Diagnostic(at: location(of: event), "lists and mappings are nested more than \(limits.maxDepth) levels deep here; \(documents) are limited to \(limits.maxDepth) levels. Flatten the structure.")
            }
            let anchor = event.type == YAML_SEQUENCE_START_EVENT
                ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
            stack.append(Frame(anchor: Self.string(anchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard stack.count > 1, let frame = stack.popLast() else { return nil }
            add(Size(nodes: frame.nodes, levels: frame.levels), anchor: frame.anchor)
        case YAML_ALIAS_EVENT:
            return alias(event)
        default:
            break
        }
        return nil
    }

    /// Counts an alias's expansion; an undefined alias is left to the composer's error.
    private mutating func alias(_ event: yaml_event_t) -> Diagnostic? {
        guard let name = Self.string(event.data.alias.anchor), let size = anchors[name] else { return nil }
        aliasedNodes += size.nodes
        if aliasedNodes > limits.maxAliasedNodes {
            return Diagnostic(at: location(of: event), "the alias '*\(name)' makes the aliases of this file expand to more than \(limits.maxAliasedNodes) values (an alias repeats its anchor's whole value, and nested aliases multiply); \(documents) allow no more. Write the values out, or use fewer, smaller aliases.")
        }
        if stack.count - 1 + size.levels > limits.maxDepth {
            return Diagnostic(at: location(of: event), "the alias '*\(name)' nests lists and mappings more than \(limits.maxDepth) levels deep once expanded; \(documents) are limited to \(limits.maxDepth) levels. Flatten the structure.")
        }
        add(size, anchor: nil)
        return nil
    }

    /// Adds a finished value to the list or mapping around it, and records its anchor.
    private mutating func add(_ size: Size, anchor: String?) {
        let parent = stack.count - 1
        stack[parent].nodes += size.nodes
        stack[parent].levels = max(stack[parent].levels, size.levels + (parent == 0 ? 0 : 1))
        if let anchor { anchors[anchor] = size }
    }

    private func location(of event: yaml_event_t) -> SourceLocation {
        SourceLocation(file: file, line: event.start_mark.line + 1, column: event.start_mark.column + 1)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafePointer($0)) }
    }
}
