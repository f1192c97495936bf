/// Finds every redaction pattern in a byte string in one pass.
///
/// Each text position is first checked against a 64 Ki-bit table of the byte pairs a match can
/// start with (8 KiB, stays in the L1 cache); only positions that pass are compared with the
/// patterns starting with that pair. Ordinary output passes for few positions, so the cost per
/// byte is a load and a bit test, whatever the number of secrets and forms.
///
/// An encoded form (a pattern with alternatives) starts with the same pair as its raw value, so
/// plain text that begins like a secret would run every encoded form of it. But a match that is
/// not the raw value (a literal pattern of its own) has an escaped unit, and the first escaped
/// unit starts with an "introducer" byte (`\`, `&`, `%`, ...) within the raw value's length of
/// the start; where no introducer byte is that close, the encoded forms are not tried.
struct RedactionMatcher: Sendable {
    /// The patterns that can start with one pair of bytes.
    private struct Bucket {
        /// Plain strings (wrapped or not).
        var literals: [Int] = []
        /// Patterns with alternatives.
        var encoded: [Int] = []
        /// The longest raw text among `encoded`.
        var longestRaw = 0
    }

    private let filter: [UInt64]
    private let buckets: [UInt16: Bucket]
    private let patterns: [RedactionPattern]
    /// The pattern's bytes when it is a plain string (the fast path), else nil.
    private let literals: [[UInt8]?]
    /// For a pattern with alternatives: the length of its raw text (its units' first
    /// alternatives), within which a match other than the raw text has an introducer byte.
    private let rawLengths: [Int]
    /// The first bytes of every alternative that is not a unit's raw text.
    private let introducers: [Bool]
    /// The most bytes one match can span.
    let maximumMatchLength: Int

    init(patterns: Set<RedactionPattern>) {
        let patterns = Array(patterns)
        let literals = patterns.map { $0.units.count == 1 && $0.units[0].count == 1 ? $0.units[0][0] : nil }
        let rawLengths = patterns.map { $0.units.reduce(0) { $0 + ($1.first?.count ?? 0) } }
        var filter = [UInt64](repeating: 0, count: 1024)
        var buckets: [UInt16: Bucket] = [:]
        for (index, pattern) in patterns.enumerated() {
            for pair in pattern.startingPairs {
                filter[Int(pair >> 6)] |= 1 << UInt64(pair & 63)
                if literals[index] != nil {
                    buckets[pair, default: Bucket()].literals.append(index)
                } else {
                    buckets[pair, default: Bucket()].encoded.append(index)
                    buckets[pair, default: Bucket()].longestRaw = max(buckets[pair]?.longestRaw ?? 0, rawLengths[index])
                }
            }
        }
        self.filter = filter
        self.buckets = buckets
        self.patterns = patterns
        self.literals = literals
        self.rawLengths = rawLengths
        maximumMatchLength = patterns.map(\.maximumLength).max() ?? 0
        var introducers = [Bool](repeating: false, count: 256)
        for pattern in patterns where pattern.units.count > 1 || (pattern.units.first?.count ?? 0) > 1 {
            for unit in pattern.units {
                for alternative in unit.dropFirst() { if let byte = alternative.first { introducers[Int(byte)] = true } }
            }
        }
        self.introducers = introducers
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
            var introducer = IntroducerScan()
            for index in 1..<bytes.count {
                let byte = UInt16(bytes[index])
                let pair = previous << 8 | byte
                previous = byte
                guard filter[Int(pair >> 6)] & (1 << UInt64(pair & 63)) != 0 else { continue }
                let start = index - 1
                let length = longestMatch(startingWith: pair, at: start, in: bytes, introducer: &introducer)
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

    /// The position of the next introducer byte at or after a position; it only moves forward,
    /// so finding it costs one look at each byte per `ranges(in:)` call.
    private struct IntroducerScan {
        var next = -1

        mutating func next(from start: Int, in bytes: UnsafeBufferPointer<UInt8>, table: [Bool]) -> Int {
            if next >= start { return next }
            var index = start
            while index < bytes.count && !table[Int(bytes[index])] { index += 1 }
            next = index
            return index
        }
    }

    private func longestMatch(startingWith pair: UInt16, at start: Int, in bytes: UnsafeBufferPointer<UInt8>,
                              introducer: inout IntroducerScan) -> Int {
        guard let bucket = buckets[pair] else { return 0 }
        var longest = 0
        for candidate in bucket.literals {
            guard let literal = literals[candidate] else { continue }
            let length: Int
            if patterns[candidate].allowsLineBreaks {
                length = Self.wrappedMatchLength(of: literal, at: start, in: bytes)
            } else {
                length = Self.matches(literal, at: start, in: bytes) ? literal.count : 0
            }
            longest = max(longest, length)
        }
        // Without an escape close enough, only the raw values could match: literals of their own.
        guard !bucket.encoded.isEmpty,
              introducer.next(from: start, in: bytes, table: introducers) < start + bucket.longestRaw else { return longest }
        let nearest = introducer.next
        for candidate in bucket.encoded where nearest < start + rawLengths[candidate] {
            longest = max(longest, matchLength(of: patterns[candidate], at: start, in: bytes))
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
