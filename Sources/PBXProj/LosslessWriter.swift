/// Writes an edited project by splicing: the original text is copied, and only the entries of
/// edited objects, removed objects' lines and added objects' lines change. Comments that name an
/// object whose display name changed are then re-derived wherever they appear.
struct LosslessWriter {
    let project: PBXProject
    var tree: SyntaxTree { project.tree }
    var table: ObjectTable { project.table }

    /// The edited file.
    func write() throws -> [UInt8] {
        guard !project.changes.isEmpty else { return tree.bytes }
        let (draft, fresh, style) = try spliced()
        let (draftTree, draftTable) = try Self.readBack(draft)
        guard style.usesComments else { return draft }
        let fixer = CommentFixer(
            original: tree, originalTable: table, draft: draftTree, draftTable: draftTable,
            fresh: fresh, projectName: project.projectName, dialect: project.commentDialect)
        return fixer.fixed()
    }

    /// The edited project read back from the spliced text, whose comments may still name what
    /// objects were called before the edit: what the canonical writer needs, since it derives
    /// every comment anew (one read of the text instead of two, and no comment fixing).
    func edited() throws -> (tree: SyntaxTree, table: ObjectTable) {
        try Self.readBack(try spliced().text)
    }

    /// The original text with the edits spliced in, the ranges written anew, and the style.
    private func spliced() throws -> (text: [UInt8], fresh: [Range<Int>], style: DocumentStyle) {
        let style = DocumentStyle.detect(tree: tree, table: table)
        // Table entries of removed objects, found once (no String made per entry).
        var removedEntries = Set<Int>()
        for id in project.changes.removed {
            if let index = table.find(id.rawValue, in: tree) { removedEntries.insert(index) }
        }
        var patches: [Patch] = []
        try objectPatches(style: style, removedEntries: removedEntries, into: &patches)
        try rootPatches(style: style, into: &patches)
        let (text, fresh) = LosslessWriter.apply(patches, to: tree.bytes)
        return (text, fresh, style)
    }

    /// Reads the spliced text back; never hands back text that does not read.
    private static func readBack(_ draft: [UInt8]) throws -> (tree: SyntaxTree, table: ObjectTable) {
        do {
            let draftTree = try PropertyListParser.parse(draft)
            return (draftTree, try ObjectTable(tree: draftTree))
        } catch let error as PBXProjError {
            // A bug, reported as one.
            throw PBXProjError.invalidStructure(
                message: "internal error: the edited project does not read back (\(error.errorDescription ?? error.message)); nothing was written. Please report this to Slipway with the project file",
                at: nil)
        }
    }

    private func objectPatches(style: DocumentStyle, removedEntries: Set<Int>, into patches: inout [Patch]) throws {
        let editor = EntryEditor(tree: tree, style: style)
        let changes = project.changes
        for index in removedEntries {
            let entry = table.entries[index]
            let range = editor.removalRange((Int(entry.key), Int(entry.value)), oneLine: false)
            patches.append(Patch(range: range, bytes: [], fresh: []))
        }
        var added: [PBXObject] = []
        for (id, object) in changes.objects {
            guard let index = table.find(id.rawValue, in: tree) else {
                added.append(object)
                continue
            }
            let body = Int(table.entries[index].value)
            editor.editDictionary(body, to: object.properties, into: &patches)
        }
        added.sort { ($0.isa.utf8.lexicographicallyPrecedes($1.isa.utf8)) || ($0.isa == $1.isa && $0.id < $1.id) }
        AdditionPlanner(tree: tree, table: table, style: style, removed: removedEntries)
            .plan(added, into: &patches)
        if style.usesSections && !removedEntries.isEmpty {
            emptiedSectionPatches(keeping: Set(changes.objects.values.map(\.isa)), removed: removedEntries, into: &patches)
        }
    }

    /// When every object of an isa is removed, its `/* Begin ... section */` block goes too (with
    /// the blank line before it), as Xcode writes no empty sections. The block's patch covers the
    /// removed objects' own patches.
    private func emptiedSectionPatches(keeping isas: Set<String>, removed: Set<Int>, into patches: inout [Patch]) {
        let bytes = tree.bytes
        var remaining = [Int](repeating: 0, count: table.isaNames.count)
        var first = [Int?](repeating: nil, count: table.isaNames.count)
        var last = [Int?](repeating: nil, count: table.isaNames.count)
        for (index, entry) in table.entries.enumerated() {
            let code = Int(entry.isa)
            if first[code] == nil { first[code] = index }
            last[code] = index
            if !removed.contains(index) { remaining[code] += 1 }
        }
        for (code, isa) in table.isaNames.enumerated() where remaining[code] == 0 && !isas.contains(isa) {
            guard let firstEntry = first[code], let lastEntry = last[code] else { continue }
            let start = TextScan.lineStart(Int(tree.nodes[Int(table.entries[firstEntry].key)].start), in: bytes)
            let valueEnd = Int(tree.nodes[Int(table.entries[lastEntry].value)].end)
            let end = TextScan.lineEnd(TextScan.terminatorEnd(after: valueEnd, terminator: UInt8(ascii: ";"), in: bytes) ?? valueEnd, in: bytes)
            guard start > 0, end < bytes.count else { continue }
            let beginLine = TextScan.lineStart(start - 1, in: bytes)
            let endLine = TextScan.lineEnd(end, in: bytes)
            guard bytes[beginLine..<start].elementsEqual("/* Begin \(CommentDeriver.sanitized(isa)) section */\n".utf8),
                bytes[end..<endLine].elementsEqual("/* End \(CommentDeriver.sanitized(isa)) section */\n".utf8)
            else { continue }
            var blockStart = beginLine
            if beginLine > 0, bytes[beginLine - 1] == 0x0A, beginLine >= 2, bytes[beginLine - 2] == 0x0A {
                blockStart = beginLine - 1
            }
            patches.append(Patch(range: blockStart..<endLine, bytes: [], fresh: [], order: -1))
        }
    }

    private func rootPatches(style: DocumentStyle, into patches: inout [Patch]) throws {
        guard !project.changes.root.isEmpty else { return }
        let editor = EntryEditor(tree: tree, style: style)
        let renderer = ValueRenderer(style: style)
        let rootIndent = Array(style.objectIndent.prefix(max(style.objectIndent.count - style.indentUnit.count, 0)))
        for key in project.changes.root.keys.sorted() {
            let value = project.changes.root[key] ?? nil
            if let node = tree.lookup(key, in: 0) {
                if let value {
                    editor.editValue(node, to: value, key: key, indent: rootIndent, oneLine: false, into: &patches)
                } else {
                    patches.append(Patch(range: editor.removalRange((node - 1, node), oneLine: false), bytes: [], fresh: []))
                }
                continue
            }
            guard let value else { continue }
            let following = tree.entries(0).first { XcodeOrder.keyPrecedes(key, tree.string($0.key)) }
            let anchor = following.map { Int(tree.nodes[$0.key].start) } ?? Int(tree.nodes[0].end) - 1
            let point = InsertionPoint.before(anchor, in: tree.bytes)
            var body: [UInt8] = []
            renderer.appendEntry(key: key, value: value, indent: rootIndent, oneLine: !point.lineMode, to: &body)
            let text = point.text(body, indent: rootIndent, before: true)
            patches.append(Patch(range: point.offset..<point.offset, bytes: text, fresh: [0..<text.count]))
        }
    }

    /// Applies patches to `bytes`; returns the result and the fresh ranges in its coordinates.
    static func apply(_ patches: [Patch], to bytes: [UInt8]) -> ([UInt8], [Range<Int>]) {
        let sorted = patches.enumerated().sorted { a, b in
            if a.element.range.lowerBound != b.element.range.lowerBound {
                return a.element.range.lowerBound < b.element.range.lowerBound
            }
            if a.element.range.isEmpty != b.element.range.isEmpty { return a.element.range.isEmpty }
            if a.element.range.upperBound != b.element.range.upperBound {
                return a.element.range.upperBound > b.element.range.upperBound
            }
            if a.element.order != b.element.order { return a.element.order < b.element.order }
            return a.offset < b.offset
        }.map(\.element)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + sorted.reduce(0) { $0 + $1.bytes.count })
        var fresh: [Range<Int>] = []
        var cursor = 0
        for patch in sorted {
            // Overlapping patches cannot come from one edit set; a later one inside an earlier
            // one's range is dropped rather than corrupting the text.
            guard patch.range.lowerBound >= cursor else { continue }
            out.append(contentsOf: bytes[cursor..<patch.range.lowerBound])
            let base = out.count
            out.append(contentsOf: patch.bytes)
            fresh.append(contentsOf: patch.fresh.map { ($0.lowerBound + base)..<($0.upperBound + base) })
            cursor = patch.range.upperBound
        }
        out.append(contentsOf: bytes[cursor...])
        return (out, fresh)
    }
}

/// A place to insert text: at the start of a line (whole lines go in) or, in files laid out
/// oddly (several objects on one line), inline next to a token.
struct InsertionPoint {
    let offset: Int
    let lineMode: Bool

    /// Just before the token at `anchor`.
    static func before(_ anchor: Int, in bytes: [UInt8]) -> InsertionPoint {
        TextScan.isFirstOnLine(anchor, in: bytes)
            ? InsertionPoint(offset: TextScan.lineStart(anchor, in: bytes), lineMode: true)
            : InsertionPoint(offset: anchor, lineMode: false)
    }

    /// Just after `end` (past a `;`): the next line when only blanks follow on this one.
    static func after(_ end: Int, in bytes: [UInt8]) -> InsertionPoint {
        var index = end
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
        if index >= bytes.count || bytes[index] == 0x0A { return InsertionPoint(offset: TextScan.lineEnd(end, in: bytes), lineMode: true) }
        return InsertionPoint(offset: end, lineMode: false)
    }

    /// Wraps one-line-free text for this point: whole lines keep their indentation and newline,
    /// inline text is set off by a space.
    func text(_ body: [UInt8], indent: [UInt8], before: Bool) -> [UInt8] {
        if lineMode { return indent + body + [0x0A] }
        return before ? body + [0x20] : [0x20] + body
    }
}

/// Decides where added objects go: among the objects of their isa in id order, or in a new
/// `/* Begin isa section */` block placed in isa order.
private struct AdditionPlanner {
    let tree: SyntaxTree
    let table: ObjectTable
    let style: DocumentStyle
    /// Table entries of removed objects.
    let removed: Set<Int>

    func plan(_ added: [PBXObject], into patches: inout [Patch]) {
        guard !added.isEmpty else { return }
        let renderer = ValueRenderer(style: style)
        let classes = ClassMembers(tree: tree, table: table, removed: removed)
        var newSections: [String: [PBXObject]] = [:]
        for (order, object) in added.enumerated() {
            guard let code = table.isaIndex(object.isa), let (point, before) = positionAmongIsa(code, id: object.id, classes) else {
                newSections[object.isa, default: []].append(object)
                continue
            }
            var body: [UInt8] = []
            renderer.appendObject(object, indent: style.objectIndent, to: &body)
            let text = point.text(body, indent: style.objectIndent, before: before)
            patches.append(Patch(range: point.offset..<point.offset, bytes: text, fresh: [0..<text.count], order: order))
        }
        for (order, isa) in newSections.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            patches.append(sectionPatch(isa: isa, objects: newSections[isa] ?? [], renderer: renderer, order: added.count + order))
        }
    }

    /// The objects of each isa that stay (entry indexes in file order), and whether their ids
    /// are in increasing order, as in every file Xcode writes: then the place of an added object
    /// is found by binary search instead of a scan of the whole class for each addition.
    private struct ClassMembers {
        var members: [[Int]]
        var increasing: [Bool]

        init(tree: SyntaxTree, table: ObjectTable, removed: Set<Int>) {
            members = [[Int]](repeating: [], count: table.isaNames.count)
            increasing = [Bool](repeating: true, count: table.isaNames.count)
            for (index, entry) in table.entries.enumerated() where removed.isEmpty || !removed.contains(index) {
                let code = Int(entry.isa)
                if increasing[code], let previous = members[code].last {
                    increasing[code] = tree.withContent(Int(table.entries[previous].key)) { before in
                        tree.withContent(Int(entry.key)) { before.lexicographicallyPrecedes($0) }
                    }
                }
                members[code].append(index)
            }
        }
    }

    /// Where an object of an isa that has objects goes: before the first one with a greater id,
    /// or after the last. `before` tells which side of the point the existing text is on.
    private func positionAmongIsa(_ code: Int32, id: ObjectID, _ classes: ClassMembers) -> (InsertionPoint, before: Bool)? {
        let members = classes.members[Int(code)]
        guard let lastMember = members.last else { return nil }
        var id = id.rawValue
        let following: Int? = id.withUTF8 { id in
            let precedes = { (member: Int) in tree.withContent(Int(table.entries[member].key)) { id.lexicographicallyPrecedes($0) } }
            guard classes.increasing[Int(code)] else { return members.first(where: precedes) }
            // The first member whose id is greater: `precedes` is false, then true, along the class.
            var low = 0, high = members.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(members[middle]) { high = middle } else { low = middle + 1 }
            }
            return low < members.count ? members[low] : nil
        }
        if let following {
            return (InsertionPoint.before(Int(tree.nodes[Int(table.entries[following].key)].start), in: tree.bytes), true)
        }
        let last = Int(tree.nodes[Int(table.entries[lastMember].value)].end)
        let end = TextScan.terminatorEnd(after: last, terminator: UInt8(ascii: ";"), in: tree.bytes) ?? last
        return (InsertionPoint.after(end, in: tree.bytes), false)
    }

    /// A new section block, before the first object of a later isa or at the end of `objects`.
    private func sectionPatch(isa: String, objects: [PBXObject], renderer: ValueRenderer, order: Int) -> Patch {
        let bytes = tree.bytes
        let later = table.entries.first { isa.utf8.lexicographicallyPrecedes(table.isaNames[Int($0.isa)].utf8) }
        let anchor = later.map { Int(tree.nodes[Int($0.key)].start) } ?? Int(tree.nodes[table.objectsNode].end) - 1
        let point = InsertionPoint.before(anchor, in: bytes)
        var body: [UInt8] = []
        for object in objects {
            var rendered: [UInt8] = []
            renderer.appendObject(object, indent: style.objectIndent, to: &rendered)
            body += point.text(rendered, indent: style.objectIndent, before: true)
        }
        guard point.lineMode, style.usesSections else {
            return Patch(range: point.offset..<point.offset, bytes: body, fresh: [0..<body.count], order: order)
        }
        let name = CommentDeriver.sanitized(isa)
        let block = Array("/* Begin \(name) section */\n".utf8) + body + Array("/* End \(name) section */\n".utf8)
        if later != nil {
            // Before the later section's "/* Begin" line, keeping one blank line between sections.
            let objectLine = point.offset
            let previousLine = objectLine > 0 ? TextScan.lineStart(objectLine - 1, in: bytes) : objectLine
            if TextScan.contains(bytes[previousLine..<objectLine], "/* Begin ") {
                let text = block + [0x0A]
                return Patch(range: previousLine..<previousLine, bytes: text, fresh: [0..<text.count], order: order)
            }
            return Patch(range: objectLine..<objectLine, bytes: block, fresh: [0..<block.count], order: order)
        }
        let text = [0x0A] + block
        return Patch(range: point.offset..<point.offset, bytes: text, fresh: [0..<text.count], order: order)
    }
}
