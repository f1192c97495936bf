/// The second pass of a lossless write: brings `/* comments */` after object ids up to date.
///
/// Comments are derived on the original and on the edited text; an object whose comment
/// changed (a renamed file, say, and every build file naming it) is "affected", and every
/// existing comment after a reference to it is rewritten. Text written afresh by the edit gets
/// the comments Xcode would write. All other comments stay byte for byte, even where they do
/// not match what Xcode would derive.
struct CommentFixer {
    let original: SyntaxTree
    let originalTable: ObjectTable
    let draft: SyntaxTree
    let draftTable: ObjectTable
    let fresh: [Range<Int>]
    let projectName: String
    let dialect: CommentDialect

    /// The draft text with comments fixed.
    func fixed() -> [UInt8] {
        let before = CommentDeriver(tree: original, table: originalTable, projectName: projectName, dialect: dialect)
            .deriveAll()
        let after = CommentDeriver(tree: draft, table: draftTable, projectName: projectName, dialect: dialect)
            .deriveAll()
        var affected = [Bool](repeating: false, count: draftTable.entries.count)
        for (index, entry) in draftTable.entries.enumerated() {
            let old = draft.withContent(Int(entry.key)) { originalTable.find($0, in: original) }
            affected[index] = old.map { before[$0] != after[index] } ?? true
        }
        var walker = Walker(fixer: self, comments: after, affected: affected)
        walker.walkRoot()
        return LosslessWriter.apply(walker.patches, to: draft.bytes).0
    }

    private struct Walker {
        let fixer: CommentFixer
        let comments: [String?]
        let affected: [Bool]
        var patches: [Patch] = []
        var freshCursor = 0

        var tree: SyntaxTree { fixer.draft }

        mutating func walkRoot() {
            for (key, value) in tree.entries(0) {
                if value == fixer.draftTable.objectsNode {
                    for entry in fixer.draftTable.entries {
                        visitString(Int(entry.key))
                        walk(Int(entry.value), context: .references)
                    }
                } else {
                    let context = tree.withContent(key) { XcodeLayout.context(forKey: $0, inherited: .references) }
                    walk(value, context: context)
                }
            }
        }

        private mutating func walk(_ node: Int, context: ValueContext) {
            switch tree.nodes[node].kind {
            case .unquoted, .quoted:
                if context == .references { visitString(node) }
            case .data:
                break
            case .array:
                for child in tree.children(node) { walk(child, context: context) }
            case .dictionary:
                for (key, value) in tree.entries(node) {
                    let inner = tree.withContent(key) { XcodeLayout.context(forKey: $0, inherited: context) }
                    walk(value, context: inner)
                }
            }
        }

        private mutating func isFresh(_ offset: Int) -> Bool {
            let ranges = fixer.fresh
            while freshCursor < ranges.count, ranges[freshCursor].upperBound <= offset { freshCursor += 1 }
            return freshCursor < ranges.count && ranges[freshCursor].contains(offset)
        }

        private mutating func visitString(_ node: Int) {
            let end = Int(tree.nodes[node].end)
            let bytes = tree.bytes
            let comment = TextScan.commentAfter(end, in: bytes)
            let fresh = isFresh(Int(tree.nodes[node].start))
            guard fresh || comment != nil else { return }
            let target = fixer.draftTable.find(node: node, in: tree)
            let desired = target.flatMap { comments[$0] }
            if let comment {
                guard fresh || target.map({ affected[$0] }) == true else { return }
                let current = bytes[min(comment.lowerBound + 3, comment.upperBound)..<max(comment.upperBound - 3, comment.lowerBound)]
                if let desired {
                    if !current.elementsEqual(desired.utf8) || bytes[comment.lowerBound - 1] != 0x20 {
                        patches.append(Patch(range: end..<comment.upperBound, bytes: CommentFixer.commentBytes(desired), fresh: []))
                    }
                } else if target != nil || fresh {
                    patches.append(Patch(range: end..<comment.upperBound, bytes: [], fresh: []))
                }
            } else if let desired {
                patches.append(Patch(range: end..<end, bytes: CommentFixer.commentBytes(desired), fresh: []))
            }
        }
    }

    static func commentBytes(_ text: String) -> [UInt8] {
        Array(" /* \(text) */".utf8)
    }
}
