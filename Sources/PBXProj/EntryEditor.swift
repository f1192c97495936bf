/// A replacement of a byte range of the original text.
struct Patch {
    /// The original bytes replaced (empty for an insertion).
    var range: Range<Int>
    /// The new bytes.
    var bytes: [UInt8]
    /// Parts of `bytes` written afresh (relative offsets); the comment pass fills in comments
    /// there. Bytes copied from the original keep their comments.
    var fresh: [Range<Int>]
    /// Orders insertions at the same offset.
    var order: Int = 0
}

/// Computes the patches that turn an object's original text into its edited value, keeping
/// every unchanged entry's text (and comments) as it was.
struct EntryEditor {
    let tree: SyntaxTree
    let style: DocumentStyle
    var renderer: ValueRenderer { ValueRenderer(style: style) }

    /// Patches for dictionary node `node` so that it reads `new`. The n-th entry of a key in
    /// `new` is matched with the n-th entry of that key in the text (keys are unique in any
    /// sane file, but a hand-edited one may repeat one).
    func editDictionary(_ node: Int, to new: PBXDictionary, into patches: inout [Patch]) {
        let original = tree.entries(node)
        let oneLine = !tree.bytes[Int(tree.nodes[node].start)..<Int(tree.nodes[node].end)].contains(0x0A)
        let entryIndent = indentForEntries(of: node, entries: original)
        var occurrences: [String: [Int]] = [:]
        for (index, entry) in original.enumerated() { occurrences[tree.string(entry.key), default: []].append(index) }
        var matched = [Int?](repeating: nil, count: new.count)
        var used = [Bool](repeating: false, count: original.count)
        for (position, entry) in new.entries.enumerated() {
            guard var candidates = occurrences[entry.key], !candidates.isEmpty else { continue }
            let index = candidates.removeFirst()
            occurrences[entry.key] = candidates
            matched[position] = index
            used[index] = true
        }
        for (index, entry) in original.enumerated() where !used[index] {
            patches.append(Patch(range: removalRange(entry, oneLine: oneLine), bytes: [], fresh: []))
        }
        for (position, entry) in new.entries.enumerated() {
            if let index = matched[position] {
                editValue(original[index].value, to: entry.value, key: entry.key, indent: entryIndent, oneLine: oneLine, into: &patches)
                continue
            }
            // A new key goes before the next entry that exists already, or before the closing brace.
            let following = matched[(position + 1)...].lazy.compactMap { $0 }.first.map { original[$0] }
            let anchor = following.map { Int(tree.nodes[$0.key].start) } ?? Int(tree.nodes[node].end) - 1
            var text: [UInt8] = []
            if oneLine || !TextScan.isFirstOnLine(anchor, in: tree.bytes) {
                // One-line dictionaries, and odd layouts where the anchor shares its line: inline.
                renderer.appendEntry(key: entry.key, value: entry.value, indent: entryIndent, oneLine: true, to: &text)
                text.append(0x20)
                patches.append(Patch(range: anchor..<anchor, bytes: text, fresh: [0..<text.count], order: position))
            } else {
                let at = TextScan.lineStart(anchor, in: tree.bytes)
                text.append(contentsOf: entryIndent)
                renderer.appendEntry(key: entry.key, value: entry.value, indent: entryIndent, oneLine: false, to: &text)
                text.append(0x0A)
                patches.append(Patch(range: at..<at, bytes: text, fresh: [0..<text.count], order: position))
            }
        }
    }

    /// Patches turning value node `node` into `new` (nothing when equal).
    func editValue(
        _ node: Int, to new: PBXValue, key: String, indent: [UInt8], oneLine: Bool, into patches: inout [Patch]
    ) {
        let old = tree.value(node)
        guard old != new else { return }
        let kind = tree.nodes[node].kind
        if kind == .dictionary, case .dictionary(let dictionary) = new {
            editDictionary(node, to: dictionary, into: &patches)
            return
        }
        if kind == .array, case .array(let elements) = new {
            let empty = tree.nodes[node].link == UInt32(node + 1)
            let flat = oneLine || (!empty && !tree.rawBytes(node).contains(0x0A))
            patches.append(editArray(node, to: elements, shellLines: key == "shellScript", indent: indent, oneLine: flat))
            return
        }
        let range = Int(tree.nodes[node].start)..<Int(tree.nodes[node].end)
        var text: [UInt8] = []
        renderer.append(new, indent: indent, oneLine: oneLine, shellLines: key == "shellScript", to: &text)
        patches.append(Patch(range: range, bytes: text, fresh: [0..<text.count]))
    }

    /// One patch rewriting an array, reusing the text (and comments) of elements that stay.
    private func editArray(_ node: Int, to new: [PBXValue], shellLines: Bool, indent: [UInt8], oneLine: Bool) -> Patch {
        let bytes = tree.bytes
        let range = Int(tree.nodes[node].start)..<Int(tree.nodes[node].end)
        var available: [PBXValue: [Range<Int>]] = [:]
        var elementIndent: [UInt8]?
        for child in tree.children(node) {
            let start = Int(tree.nodes[child].start)
            var end = Int(tree.nodes[child].end)
            if let comment = TextScan.commentAfter(end, in: bytes) { end = comment.upperBound }
            available[tree.value(child), default: []].append(start..<end)
            if elementIndent == nil, TextScan.isFirstOnLine(start, in: bytes) {
                elementIndent = TextScan.indentation(before: start, in: bytes)
            }
        }
        let closingIndent = TextScan.isFirstOnLine(range.upperBound - 1, in: bytes)
            ? TextScan.indentation(before: range.upperBound - 1, in: bytes) : indent
        let inner = elementIndent ?? closingIndent + style.indentUnit
        var text: [UInt8] = [UInt8(ascii: "(")]
        var fresh: [Range<Int>] = []
        for element in new {
            if !oneLine {
                text.append(0x0A)
                text.append(contentsOf: inner)
            }
            if var reusable = available[element], !reusable.isEmpty {
                text.append(contentsOf: bytes[reusable.removeFirst()])
                available[element] = reusable
            } else {
                let start = text.count
                renderer.append(element, indent: inner, oneLine: oneLine, shellLines: shellLines, to: &text)
                fresh.append(start..<text.count)
            }
            text.append(UInt8(ascii: ","))
            if oneLine { text.append(0x20) }
        }
        if !oneLine {
            text.append(0x0A)
            text.append(contentsOf: closingIndent)
        }
        text.append(UInt8(ascii: ")"))
        return Patch(range: range, bytes: text, fresh: fresh)
    }

    /// The byte range removing one entry (see `SyntaxTree.removalRange`).
    func removalRange(_ entry: (key: Int, value: Int), oneLine: Bool) -> Range<Int> {
        tree.removalRange(entry, oneLine: oneLine)
    }

    /// The indentation for entries of a multi-line dictionary: that of its first entry, else the
    /// closing brace's plus one unit.
    private func indentForEntries(of node: Int, entries: [(key: Int, value: Int)]) -> [UInt8] {
        let bytes = tree.bytes
        if let first = entries.first, TextScan.isFirstOnLine(Int(tree.nodes[first.key].start), in: bytes) {
            return TextScan.indentation(before: Int(tree.nodes[first.key].start), in: bytes)
        }
        let close = Int(tree.nodes[node].end) - 1
        return TextScan.indentation(before: close, in: bytes) + style.indentUnit
    }
}

extension SyntaxTree {
    /// The byte range removing one entry: its whole line when it stands alone on it.
    func removalRange(_ entry: (key: Int, value: Int), oneLine: Bool) -> Range<Int> {
        let bytes = self.bytes
        let start = Int(nodes[entry.key].start)
        let valueEnd = Int(nodes[entry.value].end)
        var end = TextScan.terminatorEnd(after: valueEnd, terminator: UInt8(ascii: ";"), in: bytes) ?? valueEnd
        if !oneLine && TextScan.isFirstOnLine(start, in: bytes) {
            var after = end
            while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
            if after >= bytes.count || bytes[after] == 0x0A || bytes[after] == 0x0D {
                return TextScan.lineStart(start, in: bytes)..<TextScan.lineEnd(after, in: bytes)
            }
        }
        while end < bytes.count, bytes[end] == 0x20 { end += 1 }
        return start..<end
    }
}
