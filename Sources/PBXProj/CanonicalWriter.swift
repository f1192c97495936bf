/// Where Xcode puts an object on one line.
enum XcodeLayout {
    /// Whether Xcode writes objects of `isa` on one line: build files and file references
    /// always; synchronized root groups in the Xcode 16 betas' format (objectVersion below 77).
    static func isOneLine(isa: String, objectVersion: Int) -> Bool {
        switch isa {
        case "PBXBuildFile", "PBXFileReference": return true
        case "PBXFileSystemSynchronizedRootGroup": return objectVersion < 77
        default: return false
        }
    }

    /// How the strings under a key are written: object ids get comments, except in
    /// `remoteGlobalIDString` (an id in another project) and in the free-form `attributes` and
    /// `buildSettings` dictionaries; the lines of an Xcode 26 `shellScript` list are always
    /// quoted.
    static func context(forKey key: UnsafeBufferPointer<UInt8>, inherited: ValueContext) -> ValueContext {
        if inherited == .plain { return .plain }
        // Told apart by length first: asked of every key written.
        switch key.count {
        case 3: return equals(key, "isa") ? .plain : .references
        case 10: return equals(key, "attributes") ? .plain : .references
        case 11: return equals(key, "shellScript") ? .shellLines : .references
        case 13: return equals(key, "buildSettings") ? .plain : .references
        case 20: return equals(key, "remoteGlobalIDString") ? .plain : .references
        default: return .references
        }
    }

    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { $0.elementsEqual(bytes) }
    }
}

/// How strings in a value are written.
enum ValueContext: Equatable {
    /// Object ids get their `/* comment */`.
    case references
    /// No comments.
    case plain
    /// Every string quoted, no comments.
    case shellLines
}

/// Writes a parsed project exactly as Xcode would: the UTF-8 header, the top-level keys in byte
/// order, objects grouped in `/* Begin isa section */` blocks sorted by isa and then by id,
/// `isa` first and every other key in byte order, one-line build files and file references,
/// tab indentation, Xcode's quoting and escapes, and derived comments.
///
/// It reads the syntax tree directly (no decoded model) through unsafe buffers, so a 1.5 MB
/// project is written in a few milliseconds; strings already in Xcode's form are copied as they
/// are.
struct CanonicalWriter {
    let tree: SyntaxTree
    let table: ObjectTable
    let text: UnsafeBufferPointer<UInt8>
    let nodes: UnsafeBufferPointer<SyntaxNode>
    /// The comment per object.
    let comments: [String?]
    let objectVersion: Int
    var out: [UInt8] = []
    /// When checking: the text to compare with. What is written is compared with it object by
    /// object and dropped, so that a check makes no copy of the file and stops at the first
    /// difference.
    var reference: UnsafeBufferPointer<UInt8>?
    /// When checking: how many bytes of `reference` what was written so far matched.
    var verified = 0
    /// When checking: whether what was written differs from `reference`.
    var diverged = false
    /// Which objects' canonical text is in `text` already (`CanonicalSplice.reuse`).
    var reuse: TextReuse?

    /// The canonical bytes.
    static func write(tree: SyntaxTree, table: ObjectTable, projectName: String, dialect: CommentDialect) -> [UInt8] {
        let comments = CommentDeriver(tree: tree, table: table, projectName: projectName, dialect: dialect).deriveAll()
        return write(tree: tree, table: table, comments: comments, reuse: nil)
    }

    /// The canonical bytes with the comments given (`CommentDeriver.deriveAll()`'s for this
    /// tree), copying from the tree's text the objects whose canonical text `reuse` says is
    /// there already (objects of a file in Xcode's form that no edit touched).
    static func write(tree: SyntaxTree, table: ObjectTable, comments: [String?], reuse: TextReuse?) -> [UInt8] {
        tree.bytes.withUnsafeBufferPointer { text in
            tree.nodes.withUnsafeBufferPointer { nodes in
                var writer = CanonicalWriter(
                    tree: tree, table: table, text: text, nodes: nodes, comments: comments, objectVersion: tree.objectVersion)
                writer.reuse = reuse
                writer.out.reserveCapacity(text.count + text.count / 16 + 256)
                writer.writeDocument()
                return writer.out
            }
        }
    }

    /// Whether the canonical bytes are the tree's own text (`write(...) == tree.bytes`), found
    /// without keeping the bytes written and stopping at the first object that differs.
    static func isCanonical(tree: SyntaxTree, table: ObjectTable, projectName: String, dialect: CommentDialect) -> Bool {
        check(tree: tree, table: table, projectName: projectName, dialect: dialect).isCanonical
    }

    /// `isCanonical`, and the comments derived to find it out (which an edited copy of a file in
    /// Xcode's form is written with: see `CanonicalSplice`).
    static func check(
        tree: SyntaxTree, table: ObjectTable, projectName: String, dialect: CommentDialect
    ) -> (isCanonical: Bool, comments: [String?], maps: ReverseMaps) {
        let maps = ReverseMaps(tree: tree, table: table, dialect: dialect)
        let comments = CommentDeriver(tree: tree, table: table, projectName: projectName, dialect: dialect)
            .deriveAll(maps: maps) { _, _ in nil }
        let canonical = tree.bytes.withUnsafeBufferPointer { text in
            tree.nodes.withUnsafeBufferPointer { nodes in
                var writer = CanonicalWriter(
                    tree: tree, table: table, text: text, nodes: nodes, comments: comments, objectVersion: tree.objectVersion)
                writer.reference = text
                writer.out.reserveCapacity(4096)
                writer.writeDocument()
                writer.compareWritten()
                return !writer.diverged && writer.verified == text.count
            }
        }
        return (canonical, comments, maps)
    }

    /// When checking: compares what was written since the last call with `reference` and drops it.
    private mutating func compareWritten() {
        guard let reference, !diverged else { return }
        let end = verified + out.count
        let same = end <= reference.count && out.withUnsafeBufferPointer { written in
            ByteCompare.equal(written, UnsafeBufferPointer(rebasing: reference[verified..<end]))
        }
        if same { verified = end } else { diverged = true }
        out.removeAll(keepingCapacity: true)
    }

    private mutating func writeDocument() {
        append("// !$*UTF8*$!\n{\n")
        for (key, value) in sortedEntries(0) {
            out.append(0x09)
            appendString(key, forceQuotes: false)
            append(" = ")
            if value == table.objectsNode {
                writeObjects()
                if diverged { return }
            } else {
                appendValue(value, depth: 1, oneLine: false, context: context(forKey: key, inherited: .references))
            }
            append(";\n")
        }
        append("}\n")
    }

    private mutating func writeObjects() {
        append("{\n")
        var buckets = [[Int]](repeating: [], count: table.isaNames.count)
        for (index, entry) in table.entries.enumerated() { buckets[Int(entry.isa)].append(index) }
        let isaOrder = table.isaNames.indices.sorted {
            table.isaNames[$0].utf8.lexicographicallyPrecedes(table.isaNames[$1].utf8)
        }
        for isaIndex in isaOrder {
            let isa = table.isaNames[isaIndex]
            var members = buckets[isaIndex]
            // An isa whose objects were all removed (in an edited tree) has no section.
            guard !members.isEmpty else { continue }
            sortObjects(&members)
            let oneLine = XcodeLayout.isOneLine(isa: isa, objectVersion: objectVersion)
            append("\n/* Begin \(CommentDeriver.sanitized(isa)) section */\n")
            for member in members {
                let entry = table.entries[member]
                if let reuse {
                    switch reuse.kinds[member] {
                    case .copy:
                        // From the tabs before the id to the newline after the `;`.
                        let start = Int(nodes[Int(entry.key)].start) - 2, end = Int(nodes[Int(entry.value)].end) + 2
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<end]))
                        continue
                    case .patch:
                        append("\t\t")
                        appendString(Int(entry.key), forceQuotes: false)
                        appendComment(comments[member])
                        append(" = ")
                        let value = Int(entry.value)
                        var cursor = Int(nodes[value].start)
                        copyPatchingComments(value, context: .references, end: Int(nodes[value].end), cursor: &cursor, reuse: reuse)
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: text[cursor..<Int(nodes[value].end)]))
                        append(";\n")
                        continue
                    case .write:
                        break
                    }
                }
                append("\t\t")
                appendString(Int(entry.key), forceQuotes: false)
                appendComment(comments[member])
                append(" = ")
                appendValue(Int(entry.value), depth: 2, oneLine: oneLine, context: .references)
                append(";\n")
                if reference != nil {
                    compareWritten()
                    if diverged { return }
                }
            }
            append("/* End \(CommentDeriver.sanitized(isa)) section */\n")
        }
        append("\t}")
    }

    // MARK: - Values

    private mutating func appendValue(_ node: Int, depth: Int, oneLine: Bool, context: ValueContext) {
        switch nodes[node].kind {
        case .unquoted, .quoted:
            appendString(node, forceQuotes: context == .shellLines)
            if context == .references, let span = span(node), let target = table.find(span, in: tree) {
                appendComment(comments[target])
            }
        case .data:
            appendSource(Int(nodes[node].start), Int(nodes[node].end))
        case .array:
            out.append(UInt8(ascii: "("))
            if !oneLine { out.append(0x0A) }
            var child = node + 1
            let end = Int(nodes[node].link)
            while child < end {
                if !oneLine { appendTabs(depth + 1) }
                appendValue(child, depth: depth + 1, oneLine: oneLine, context: context)
                append(oneLine ? ", " : ",\n")
                child = Int(nodes[child].link)
            }
            if !oneLine { appendTabs(depth) }
            out.append(UInt8(ascii: ")"))
        case .dictionary:
            out.append(UInt8(ascii: "{"))
            if !oneLine { out.append(0x0A) }
            if let sorted = reorderedEntries(node) {
                for (key, value) in sorted { appendEntry(key, value, depth: depth, oneLine: oneLine, context: context) }
            } else {
                // Already in Xcode's order (as in every file Xcode wrote): no list made.
                var key = node + 1
                let end = Int(nodes[node].link)
                while key < end {
                    appendEntry(key, key + 1, depth: depth, oneLine: oneLine, context: context)
                    key = Int(nodes[key + 1].link)
                }
            }
            if !oneLine { appendTabs(depth) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Copies the text of an object's value up to each id whose comment changed
    /// (`reuse.changedIDs`, where the writer writes a comment: `.references`), and writes that
    /// id's comment in place of the old one (` /* ... */` right after it in a text in Xcode's
    /// form; a comment cannot hold `*/`). `cursor`: how far the text is copied.
    private mutating func copyPatchingComments(_ node: Int, context: ValueContext, end: Int, cursor: inout Int, reuse: TextReuse) {
        switch nodes[node].kind {
        case .unquoted, .quoted:
            guard context == .references, let span = span(node), reuse.names(span) else { return }
            let stringEnd = Int(nodes[node].end)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: text[cursor..<stringEnd]))
            cursor = stringEnd
            if stringEnd + 4 <= end, text[stringEnd] == 0x20, text[stringEnd + 1] == UInt8(ascii: "/"),
                text[stringEnd + 2] == UInt8(ascii: "*"), text[stringEnd + 3] == 0x20 {
                var close = stringEnd + 4
                while close + 1 < end, !(text[close] == UInt8(ascii: "*") && text[close + 1] == UInt8(ascii: "/")) { close += 1 }
                cursor = min(close + 2, end)
            }
            if let target = table.find(span, in: tree) { appendComment(comments[target]) }
        case .data:
            return
        case .array:
            var child = node + 1
            let last = Int(nodes[node].link)
            while child < last {
                copyPatchingComments(child, context: context, end: end, cursor: &cursor, reuse: reuse)
                child = Int(nodes[child].link)
            }
        case .dictionary:
            var key = node + 1
            let last = Int(nodes[node].link)
            while key < last {
                copyPatchingComments(key + 1, context: self.context(forKey: key, inherited: context), end: end, cursor: &cursor, reuse: reuse)
                key = Int(nodes[key + 1].link)
            }
        }
    }

    private mutating func appendEntry(_ key: Int, _ value: Int, depth: Int, oneLine: Bool, context: ValueContext) {
        if !oneLine { appendTabs(depth + 1) }
        appendString(key, forceQuotes: false)
        append(" = ")
        appendValue(value, depth: depth + 1, oneLine: oneLine, context: self.context(forKey: key, inherited: context))
        append(oneLine ? "; " : ";\n")
    }

    private func context(forKey key: Int, inherited: ValueContext) -> ValueContext {
        if inherited == .plain { return .plain }
        if let span = span(key) { return XcodeLayout.context(forKey: span, inherited: inherited) }
        return tree.withContent(key) { XcodeLayout.context(forKey: $0, inherited: inherited) }
    }

    // MARK: - Order

    /// The text of a string node without quotes, when it has no escapes.
    @inline(__always)
    private func span(_ node: Int) -> UnsafeBufferPointer<UInt8>? {
        let info = nodes[node]
        switch info.kind {
        case .unquoted: return UnsafeBufferPointer(rebasing: text[Int(info.start)..<Int(info.end)])
        case .quoted where info.flags == 0: return UnsafeBufferPointer(rebasing: text[Int(info.start) + 1..<Int(info.end) - 1])
        default: return nil
        }
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        if let left = span(a), let right = span(b) { return left.lexicographicallyPrecedes(right) }
        return tree.withContent(a) { left in tree.withContent(b) { right in left.lexicographicallyPrecedes(right) } }
    }

    private func isISA(_ node: Int) -> Bool {
        if let span = span(node) {
            return span.count == 3 && span[0] == UInt8(ascii: "i") && span[1] == UInt8(ascii: "s") && span[2] == UInt8(ascii: "a")
        }
        return tree.contentEquals(node, "isa")
    }

    /// `isa` first, then byte order.
    private func keyPrecedes(_ a: Int, _ b: Int) -> Bool {
        let aIsISA = isISA(a), bIsISA = isISA(b)
        if aIsISA || bIsISA { return aIsISA && !bIsISA }
        return precedes(a, b)
    }

    /// A dictionary's entries in Xcode's order when that is not their order in the file (nil
    /// when it is): `sortedEntries` without making a list for a dictionary already in order.
    private func reorderedEntries(_ node: Int) -> [(key: Int, value: Int)]? {
        var cursor = node + 1
        let end = Int(nodes[node].link)
        var last: Int?
        while cursor < end {
            if let last, !keyPrecedes(last, cursor) { return sortedEntries(node) }
            last = cursor
            cursor = Int(nodes[cursor + 1].link)
        }
        return nil
    }

    /// A dictionary's entries in Xcode's order (equal keys keep their order, so writing is
    /// deterministic even for a file with a duplicated key).
    private func sortedEntries(_ node: Int) -> [(key: Int, value: Int)] {
        var entries: [(key: Int, value: Int)] = []
        var cursor = node + 1
        let end = Int(nodes[node].link)
        var sorted = true
        while cursor < end {
            if sorted, let last = entries.last, !keyPrecedes(last.key, cursor) { sorted = false }
            entries.append((cursor, cursor + 1))
            cursor = Int(nodes[cursor + 1].link)
        }
        guard !sorted else { return entries }
        return entries.enumerated().sorted { a, b in
            if keyPrecedes(a.element.key, b.element.key) { return true }
            if keyPrecedes(b.element.key, a.element.key) { return false }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Sorts object indexes by id (ids are unique, so no tie-break is needed). Objects added to
    /// a file in order come after its own: the sorted run they follow is merged with them
    /// sorted, instead of sorting the whole class again.
    private func sortObjects(_ items: inout [Int]) {
        let key = { (item: Int) in Int(self.table.entries[item].key) }
        var sortedPrefix = 1
        while sortedPrefix < items.count, precedes(key(items[sortedPrefix - 1]), key(items[sortedPrefix])) { sortedPrefix += 1 }
        guard sortedPrefix < items.count else { return }
        var tail = Array(items[sortedPrefix...])
        tail.sort { precedes(key($0), key($1)) }
        var merged: [Int] = []
        merged.reserveCapacity(items.count)
        var (i, j) = (0, 0)
        while i < sortedPrefix, j < tail.count {
            if precedes(key(tail[j]), key(items[i])) {
                merged.append(tail[j])
                j += 1
            } else {
                merged.append(items[i])
                i += 1
            }
        }
        merged.append(contentsOf: items[i..<sortedPrefix])
        merged.append(contentsOf: tail[j...])
        items = merged
    }

    // MARK: - Strings

    /// Appends a string in Xcode's form, copying the source text when it already is.
    private mutating func appendString(_ node: Int, forceQuotes: Bool) {
        let info = nodes[node]
        let start = Int(info.start), end = Int(info.end)
        if info.kind == .unquoted {
            let content = UnsafeBufferPointer(rebasing: text[start..<end])
            if forceQuotes || StringEscapes.needsQuotes(content) {
                StringEscapes.appendCanonical(content, to: &out, forceQuotes: true)
            } else {
                appendSource(start, end)
            }
            return
        }
        if info.flags == 0, text[start] == UInt8(ascii: "\"") {
            let content = UnsafeBufferPointer(rebasing: text[start + 1..<end - 1])
            if (forceQuotes || StringEscapes.needsQuotes(content)) && StringEscapes.isCanonicalQuotedBody(content) {
                appendSource(start, end)
                return
            }
        }
        tree.withContent(node) { StringEscapes.appendCanonical($0, to: &out, forceQuotes: forceQuotes) }
    }

    private mutating func appendComment(_ comment: String?) {
        guard var comment else { return }
        append(" /* ")
        comment.withUTF8 { out.append(contentsOf: $0) }
        append(" */")
    }

    /// Appends `text[start..<end]`. When checking, and that is where the text compared with
    /// stands, what was written before it is compared, and the range is passed over: it is the
    /// text compared with itself.
    @inline(__always)
    private mutating func appendSource(_ start: Int, _ end: Int) {
        if reference != nil, verified + out.count == start {
            compareWritten()
            if !diverged { verified = end }
            return
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<end]))
    }

    @inline(__always)
    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private mutating func append(_ text: String) {
        out.append(contentsOf: text.utf8)
    }

    private mutating func appendTabs(_ count: Int) {
        for _ in 0..<count { out.append(0x09) }
    }
}

/// Which objects of an edited tree have their canonical text in the tree's text already
/// (`CanonicalSplice.reuse`): copied as they are, copied with the comments after some ids
/// written anew, or written.
struct TextReuse {
    enum Kind: UInt8 {
        case write, copy, patch
    }

    /// Per table entry.
    var kinds: [Kind]
    /// The ids whose comment is not what it was.
    var changedIDs: HashedStrings

    /// Whether `content` may be one of the changed ids (a false match only costs a look-up).
    @inline(__always)
    func names(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
        changedIDs.mayContain(content)
    }
}
