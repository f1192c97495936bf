/// A unified diff of two texts, line by line (longest common subsequence; pipeline files are
/// a few hundred lines).
enum LineDiff {
    private enum Edit: Equatable {
        case same(String), removed(String), added(String)
    }

    /// `---`/`+++` headers and hunks with `context` lines around each change.
    static func unified(from old: String, to new: String, fromName: String, toName: String, context: Int = 3) -> String {
        let edits = self.edits(lines(old), lines(new))
        var output = ["--- \(fromName)", "+++ \(toName)"]
        var index = 0
        while index < edits.count {
            guard let change = edits[index...].firstIndex(where: { $0 != .same(text(of: $0)) }) else { break }
            let start = max(0, change - context)
            var end = change
            var lastChange = change
            while end < edits.count {
                if case .same = edits[end] {
                    if end - lastChange > 2 * context { break }
                } else {
                    lastChange = end
                }
                end += 1
            }
            end = min(edits.count, lastChange + context + 1)
            output.append(hunkHeader(edits, start: start, end: end))
            for edit in edits[start..<end] {
                switch edit {
                case .same(let line): output.append(" " + line)
                case .removed(let line): output.append("-" + line)
                case .added(let line): output.append("+" + line)
                }
            }
            index = end
        }
        return output.joined(separator: "\n") + "\n"
    }

    private static func text(of edit: Edit) -> String {
        switch edit {
        case .same(let line), .removed(let line), .added(let line): return line
        }
    }

    private static func hunkHeader(_ edits: [Edit], start: Int, end: Int) -> String {
        var oldStart = 1, newStart = 1
        for edit in edits[..<start] {
            if case .added = edit {} else { oldStart += 1 }
            if case .removed = edit {} else { newStart += 1 }
        }
        var oldCount = 0, newCount = 0
        for edit in edits[start..<end] {
            if case .added = edit {} else { oldCount += 1 }
            if case .removed = edit {} else { newCount += 1 }
        }
        return "@@ -\(oldCount == 0 ? oldStart - 1 : oldStart),\(oldCount) +\(newCount == 0 ? newStart - 1 : newStart),\(newCount) @@"
    }

    private static func lines(_ text: String) -> [String] {
        if text.isEmpty { return [] }
        var body = text
        if body.hasSuffix("\n") { body.removeLast() }
        return body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    private static func edits(_ old: [String], _ new: [String]) -> [Edit] {
        let n = old.count, m = new.count
        var table = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var result: [Edit] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] {
                result.append(.same(old[i])); i += 1; j += 1
            } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
                result.append(.removed(old[i])); i += 1
            } else {
                result.append(.added(new[j])); j += 1
            }
        }
        return result
    }
}
