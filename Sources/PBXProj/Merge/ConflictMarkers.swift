/// Combines two texts that differ only in a few places (the same merge written once with the
/// conflicts resolved our way and once their way) into one text with git's conflict markers
/// around each differing run of lines.
enum ConflictMarkers {
    /// Lines of context that must agree again before a differing run is considered over.
    static let resyncLines = 3
    /// How far ahead a run may reach before the rest of the file is taken as one run.
    static let searchLimit = 4000

    /// `wholeEntries`: keys of entries that conflicted as a whole dictionary (a package's
    /// `requirement`). A run of differing lines that is the whole body of such an entry is
    /// widened to its `key = {` and `};` lines, so that each side between the markers is the
    /// complete entry.
    static func combine(ours: [UInt8], theirs: [UInt8], wholeEntries: Set<String> = []) -> [UInt8] {
        let a = lines(ours), b = lines(theirs)
        let openers = Set(wholeEntries.map { Array("\($0) = {".utf8) })
        var out: [UInt8] = []
        out.reserveCapacity(ours.count + 256)
        var i = 0, j = 0
        var lastCommonStart = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                lastCommonStart = out.count
                out += a[i]
                i += 1
                j += 1
                continue
            }
            var (start, startB) = (i, j)
            var (ni, nj) = resync(a, i, b, j)
            if i > 0, j > 0, ni < a.count, nj < b.count, let indent = openerIndent(a[i - 1], openers), a[ni] == Array(indent + Array("};\n".utf8))[...] {
                // The whole body of an entry that conflicted as a whole: take its first and last lines in.
                out.removeSubrange(lastCommonStart...)
                (start, startB) = (i - 1, j - 1)
                (ni, nj) = (ni + 1, nj + 1)
            }
            out += Array("<<<<<<< ours\n".utf8)
            for line in a[start..<ni] { append(line, to: &out) }
            out += Array("=======\n".utf8)
            for line in b[startB..<nj] { append(line, to: &out) }
            out += Array(">>>>>>> theirs\n".utf8)
            (i, j) = (ni, nj)
        }
        return out
    }

    /// The indentation of `line` when it opens one of `openers` (`\t\t\trequirement = {`).
    private static func openerIndent(_ line: ArraySlice<UInt8>, _ openers: Set<[UInt8]>) -> [UInt8]? {
        guard !openers.isEmpty, line.last == 0x0A else { return nil }
        let indent = line.prefix { $0 == 0x09 || $0 == 0x20 }
        let rest = Array(line[indent.endIndex..<(line.endIndex - 1)])
        return openers.contains(rest) ? Array(indent) : nil
    }

    /// A line, with a newline added when it is the file's unterminated last line.
    private static func append(_ line: ArraySlice<UInt8>, to out: inout [UInt8]) {
        out += line
        if line.last != 0x0A { out.append(0x0A) }
    }

    /// The nearest positions after `i` and `j` from which the texts agree again for
    /// `resyncLines` lines (or to both ends), preferring the shortest runs.
    private static func resync(_ a: [ArraySlice<UInt8>], _ i: Int, _ b: [ArraySlice<UInt8>], _ j: Int) -> (Int, Int) {
        let limit = min(searchLimit, (a.count - i) + (b.count - j))
        for distance in 1...max(1, limit) {
            for skipA in 0...distance {
                let x = i + skipA, y = j + distance - skipA
                guard x <= a.count, y <= b.count else { continue }
                if agree(a, x, b, y) { return (x, y) }
            }
        }
        return (a.count, b.count)
    }

    private static func agree(_ a: [ArraySlice<UInt8>], _ x: Int, _ b: [ArraySlice<UInt8>], _ y: Int) -> Bool {
        if x == a.count || y == b.count { return x == a.count && y == b.count }
        var k = 0
        while k < resyncLines {
            let endA = x + k >= a.count, endB = y + k >= b.count
            if endA || endB { return endA && endB }
            if a[x + k] != b[y + k] { return false }
            k += 1
        }
        return true
    }

    /// The lines of a text, each with its newline.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            result.append(bytes[start...index])
            start = index + 1
        }
        if start < bytes.count { result.append(bytes[start...]) }
        return result
    }
}
