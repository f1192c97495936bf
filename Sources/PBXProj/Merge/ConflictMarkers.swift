#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
        ours.withUnsafeBufferPointer { ours in
            theirs.withUnsafeBufferPointer { theirs in
                combine(Lines(ours), Lines(theirs), wholeEntries: wholeEntries)
            }
        }
    }

    /// The lines of a text as byte ranges (each with its newline; the last may lack one),
    /// compared in place: no slice (and no reference count) per line.
    struct Lines {
        let text: UnsafeBufferPointer<UInt8>
        let ranges: [Range<Int>]

        init(_ text: UnsafeBufferPointer<UInt8>) {
            self.text = text
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(text.count / 24 + 16)
            var start = 0
            if let base = text.baseAddress {
                // Each newline found with memchr.
                while start < text.count, let hit = memchr(base + start, 0x0A, text.count - start) {
                    let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
                    ranges.append(start..<end)
                    start = end
                }
            }
            if start < text.count { ranges.append(start..<text.count) }
            self.ranges = ranges
        }

        var count: Int { ranges.count }

        subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: text[ranges[index]])
        }

        /// Whether line `index` and line `other` of `lines` hold the same bytes.
        func same(_ index: Int, _ lines: Lines, _ other: Int) -> Bool {
            ByteCompare.equal(self[index], lines[other])
        }
    }

    private static func combine(_ a: Lines, _ b: Lines, wholeEntries: Set<String>) -> [UInt8] {
        let openers = Set(wholeEntries.map { Array("\($0) = {".utf8) })
        var out: [UInt8] = []
        out.reserveCapacity(a.text.count + 256)
        var i = 0, j = 0
        var lastCommonStart = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a.same(i, b, j) {
                // The run of lines both have, copied at once (lines are consecutive in the text).
                let first = i
                repeat {
                    i += 1
                    j += 1
                } while i < a.count && j < b.count && a.same(i, b, j)
                let runStart = a.ranges[first].lowerBound
                lastCommonStart = out.count + (a.ranges[i - 1].lowerBound - runStart)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: a.text[runStart..<a.ranges[i - 1].upperBound]))
                continue
            }
            var (start, startB) = (i, j)
            var (ni, nj) = resync(a, i, b, j)
            if i > 0, j > 0, ni < a.count, nj < b.count, let indent = openerIndent(a[i - 1], openers),
                a[ni].elementsEqual(indent + Array("};\n".utf8)) {
                // The whole body of an entry that conflicted as a whole: take its first and last lines in.
                out.removeSubrange(lastCommonStart...)
                (start, startB) = (i - 1, j - 1)
                (ni, nj) = (ni + 1, nj + 1)
            }
            out += Array("<<<<<<< ours\n".utf8)
            for line in start..<ni { append(a[line], to: &out) }
            out += Array("=======\n".utf8)
            for line in startB..<nj { append(b[line], to: &out) }
            out += Array(">>>>>>> theirs\n".utf8)
            (i, j) = (ni, nj)
        }
        return out
    }

    /// The indentation of a line that opens one of `openers` (`requirement = {`), or nil.
    private static func openerIndent(_ line: UnsafeBufferPointer<UInt8>, _ openers: Set<[UInt8]>) -> [UInt8]? {
        guard !openers.isEmpty, line.last == 0x0A else { return nil }
        let indent = line.prefix { $0 == 0x09 || $0 == 0x20 }
        let rest = Array(line[indent.count..<(line.count - 1)])
        return openers.contains(rest) ? Array(indent) : nil
    }

    private static func append(_ line: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(contentsOf: line)
        if line.last != 0x0A { out.append(0x0A) }
    }

    /// The first place after a difference where `resyncLines` lines agree again (or both texts
    /// end), searched by increasing total distance.
    private static func resync(_ a: Lines, _ i: Int, _ b: Lines, _ j: Int) -> (Int, Int) {
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

    private static func agree(_ a: Lines, _ x: Int, _ b: Lines, _ y: Int) -> Bool {
        if x == a.count || y == b.count { return x == a.count && y == b.count }
        var k = 0
        while k < resyncLines {
            let endA = x + k >= a.count, endB = y + k >= b.count
            if endA || endB { return endA && endB }
            if !a.same(x + k, b, y + k) { return false }
            k += 1
        }
        return true
    }
}
