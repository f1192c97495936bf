/// Finds every redaction pattern in a byte string in one pass.
///
/// Each text position is first checked against a 64 Ki-bit table of the byte pairs a match can
/// start with (8 KiB, stays in the L1 cache); only positions that pass are compared with the
/// patterns starting with that pair. Ordinary output passes for few positions, so the cost per
/// byte is a load and a bit test, whatever the number of secrets and forms.
struct RedactionMatcher: Sendable {
    private let filter: [UInt64]
    private let buckets: [UInt16: [Int]]
    private let patterns: [RedactionPattern]
    /// The pattern's bytes when it is a plain string (the fast path), else nil.
    private let literals: [[UInt8]?]
    /// The most bytes one match can span.
    let maximumMatchLength: Int

    init(patterns: Set<RedactionPattern>) {
        let patterns = Array(patterns)
        var filter = [UInt64](repeating: 0, count: 1024)
        var buckets: [UInt16: [Int]] = [:]
        for (index, pattern) in patterns.enumerated() {
            for pair in pattern.startingPairs {
                filter[Int(pair >> 6)] |= 1 << UInt64(pair & 63)
                buckets[pair, default: []].append(index)
            }
        }
        self.filter = filter
        self.buckets = buckets
        self.patterns = patterns
        literals = patterns.map { $0.units.count == 1 && $0.units[0].count == 1 ? $0.units[0][0] : nil }
        maximumMatchLength = patterns.map(\.maximumLength).max() ?? 0
    }

    /// True when there is nothing to find.
    var isEmpty: Bool { patterns.isEmpty }

    /// The byte ranges of `bytes` covered by a match, in order; overlapping matches are merged
    /// into one range (adjacent ones are not), so that two overlapping secrets leave no part of
    /// either visible. At each position the longest match counts.
    func ranges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        guard bytes.count >= 2, !patterns.isEmpty else { return result }
        filter.withUnsafeBufferPointer { filter in
            var previous = UInt16(bytes[0])
            for index in 1..<bytes.count {
                let byte = UInt16(bytes[index])
                let pair = previous << 8 | byte
                previous = byte
                guard filter[Int(pair >> 6)] & (1 << UInt64(pair & 63)) != 0 else { continue }
                let start = index - 1
                let length = longestMatch(startingWith: pair, at: start, in: bytes)
                guard length > 0 else { continue }
                if let last = result.last, start < last.upperBound {
                    result[result.count - 1] = last.lowerBound..<max(last.upperBound, start + length)
                } else {
                    result.append(start..<(start + length))
                }
            }
        }
        return result
    }

    private func longestMatch(startingWith pair: UInt16, at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let candidates = buckets[pair] else { return 0 }
        var longest = 0
        for candidate in candidates {
            let length: Int
            if let literal = literals[candidate] {
                if patterns[candidate].allowsLineBreaks {
                    length = Self.wrappedMatchLength(of: literal, at: start, in: bytes)
                } else {
                    length = Self.matches(literal, at: start, in: bytes) ? literal.count : 0
                }
            } else {
                length = matchLength(of: patterns[candidate], at: start, in: bytes)
            }
            longest = max(longest, length)
        }
        return longest
    }

    /// The longest match of a pattern with alternatives, found by following every way of
    /// matching at once (the set of text positions reachable after each unit), so that an
    /// alternative that is a prefix of another (`\` and `\\`) never needs backtracking.
    private func matchLength(of pattern: RedactionPattern, at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var positions = [start]
        var next: [Int] = []
        for unit in pattern.units {
            next.removeAll(keepingCapacity: true)
            for position in positions {
                for alternative in unit where Self.matches(alternative, at: position, in: bytes) {
                    let end = position + alternative.count
                    if !next.contains(end) { next.append(end) }
                }
            }
            if next.isEmpty { return 0 }
            swap(&positions, &next)
        }
        return (positions.max() ?? start) - start
    }

    /// The length of a match of `needle` at `start` with at most one line break (`\n` or
    /// `\r\n`) between any two of its bytes, or 0.
    private static func wrappedMatchLength(of needle: [UInt8], at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = start, matched = 0
        var afterBreak = true
        while matched < needle.count {
            guard index < bytes.count else { return 0 }
            let byte = bytes[index]
            if byte == needle[matched] {
                index += 1
                matched += 1
                afterBreak = false
            } else if !afterBreak && byte == 0x0A {
                index += 1
                afterBreak = true
            } else if !afterBreak && byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A {
                index += 2
                afterBreak = true
            } else {
                return 0
            }
        }
        return index - start
    }

    private static func matches(_ needle: [UInt8], at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count - start >= needle.count else { return false }
        var index = start
        for byte in needle {
            if bytes[index] != byte { return false }
            index += 1
        }
        return true
    }
}
