/// A unified diff of two texts, line by line: the common first and last lines are matched
/// directly, and the lines between by a longest common subsequence when that table stays within
/// `tableBudget` cells (pipeline files are a few hundred lines); past it (a committed file that
/// has little to do with the pipeline) those lines are all removed and all added, a correct but
/// longer diff. Memory stays linear in the texts plus the bounded table.
enum LineDiff {
    /// The most cells of the longest-common-subsequence table (4 bytes each): 16 MB.
    static let tableBudget = 4_000_000

    enum Edit: Equatable {
        case same(String), removed(String), added(String)
    }

    /// `---`/`+++` headers and hunks with `context` lines around each change.
    static func unified(from old: String, to new: String, fromName: String, toName: String, context: Int = 3) -> String {
        let edits = self.edits(lines(old), lines(new))
        var output = ["--- \(fromName)", "+++ \(toName)"]
        var index = 0
        // Lines of each side before `counted`, advanced hunk by hunk (linear in the edits).
        var counted = 0, oldBefore = 0, newBefore = 0
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
            for edit in edits[counted..<start] {
                if case .added = edit {} else { oldBefore += 1 }
                if case .removed = edit {} else { newBefore += 1 }
            }
            counted = start
            output.append(hunkHeader(edits[start..<end], oldStart: oldBefore + 1, newStart: newBefore + 1))
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

    private static func hunkHeader(_ hunk: ArraySlice<Edit>, oldStart: Int, newStart: Int) -> String {
        var oldCount = 0, newCount = 0
        for edit in hunk {
            if case .added = edit {} else { oldCount += 1 }
            if case .removed = edit {} else { newCount += 1 }
        }
        return "@@ -\(oldCount == 0 ? oldStart - 1 : oldStart),\(oldCount) +\(newCount == 0 ? newStart - 1 : newStart),\(newCount) @@"
    }

    /// The lines, split at each LF byte (a CR stays part of its line, so CRLF files differ).
    private static func lines(_ text: String) -> [String] {
        if text.isEmpty { return [] }
        var body = Substring(text).utf8
        if body.last == UInt8(ascii: "\n") { body = body.dropLast() }
        return body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Lines are equal when their bytes are (not merely canonically equivalent).
    private static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    static func edits(_ old: [String], _ new: [String]) -> [Edit] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, same(old[prefix], new[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              same(old[old.count - 1 - suffix], new[new.count - 1 - suffix]) { suffix += 1 }
        let oldMiddle = old[prefix..<(old.count - suffix)], newMiddle = new[prefix..<(new.count - suffix)]
        var result = old[..<prefix].map(Edit.same)
        let n = oldMiddle.count, m = newMiddle.count
        if n.multipliedReportingOverflow(by: m).partialValue <= tableBudget && n <= tableBudget && m <= tableBudget {
            result += commonSubsequence(Array(oldMiddle), Array(newMiddle))
        } else {
            result += oldMiddle.map(Edit.removed) + newMiddle.map(Edit.added)
        }
        result += old[(old.count - suffix)...].map(Edit.same)
        return result
    }

    /// The edits by a longest common subsequence, in one flat table of `(n+1)·(m+1)` counts.
    private static func commonSubsequence(_ old: [String], _ new: [String]) -> [Edit] {
        let n = old.count, m = new.count, width = m + 1
        var table = [Int32](repeating: 0, count: (n + 1) * width)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i * width + j] = same(old[i], new[j])
                    ? table[(i + 1) * width + j + 1] + 1
                    : max(table[(i + 1) * width + j], table[i * width + j + 1])
            }
        }
        var result: [Edit] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, same(old[i], new[j]) {
                result.append(.same(old[i])); i += 1; j += 1
            } else if i < n, j == m || table[(i + 1) * width + j] >= table[i * width + j + 1] {
                result.append(.removed(old[i])); i += 1
            } else {
                result.append(.added(new[j])); j += 1
            }
        }
        return result
    }
}
