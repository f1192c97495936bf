/// A version as RubyGems and CocoaPods compare them: dot-separated segments, numbers compare
/// numerically, letters start a pre-release (`1.0.0.beta.1`, `1.0.0-rc.1`), and a release sorts
/// above its pre-releases. Missing numeric segments count as 0 (`1.2 == 1.2.0`).
struct GemVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case number(Int)
        case text(String)
    }

    /// The text as written.
    let text: String
    let segments: [Segment]

    /// Parses a version; nil for empty text or characters other than letters, digits, `.`, `-`.
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.first?.isNumber == true,
              trimmed.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" })
        else { return nil }
        self.text = trimmed
        // RubyGems reads `-` as `.pre.`; splitting also between digits and letters (`1.0b1`).
        var segments: [Segment] = []
        var current = ""
        func flush() {
            guard !current.isEmpty else { return }
            segments.append(Int(current).map(Segment.number) ?? .text(current))
            current = ""
        }
        for character in trimmed.replacingOccurrences(of: "-", with: ".pre.") {
            if character == "." || character == "+" {
                flush()
                continue
            }
            if let last = current.last, last.isNumber != character.isNumber { flush() }
            current.append(character)
        }
        flush()
        self.segments = segments
    }

    var description: String { text }

    /// True when a segment has letters.
    var isPrerelease: Bool {
        segments.contains { if case .text = $0 { return true } else { return false } }
    }

    /// The release segments before the first text segment.
    var releaseNumbers: [Int] {
        var numbers: [Int] = []
        for segment in segments {
            guard case .number(let value) = segment else { break }
            numbers.append(value)
        }
        return numbers
    }

    /// The upper bound of `~> self`: pre-release parts dropped, then the last part dropped
    /// (unless it is the only one) and the new last part raised by one.
    var pessimisticUpperBound: GemVersion? {
        var numbers = releaseNumbers
        if numbers.count > 1 { numbers.removeLast() }
        guard let last = numbers.popLast() else { return nil }
        numbers.append(last + 1)
        return GemVersion(numbers.map(String.init).joined(separator: "."))
    }

    static func == (lhs: GemVersion, rhs: GemVersion) -> Bool { compare(lhs, rhs) == 0 }

    func hash(into hasher: inout Hasher) {
        var trimmed = segments
        while case .number(0)? = trimmed.last { trimmed.removeLast() }
        hasher.combine(trimmed)
    }

    static func < (lhs: GemVersion, rhs: GemVersion) -> Bool { compare(lhs, rhs) < 0 }

    private static func compare(_ lhs: GemVersion, _ rhs: GemVersion) -> Int {
        let count = max(lhs.segments.count, rhs.segments.count)
        for index in 0..<count {
            let left = index < lhs.segments.count ? lhs.segments[index] : .number(0)
            let right = index < rhs.segments.count ? rhs.segments[index] : .number(0)
            switch (left, right) {
            case let (.number(a), .number(b)) where a != b: return a < b ? -1 : 1
            case let (.text(a), .text(b)) where a != b: return a < b ? -1 : 1
            case (.text, .number): return -1
            case (.number, .text): return 1
            default: continue
            }
        }
        return 0
    }
}

/// A RubyGems/CocoaPods requirement: comma-separated `op version` parts, all of which must hold
/// (`~> 1.2`, `>= 1.0, < 2`, `= 3.1.0`, `!= 2.0`; no operator means `=`).
struct GemRequirement: Sendable, Hashable, CustomStringConvertible {
    enum Operation: String, Sendable, CaseIterable {
        case pessimistic = "~>", greaterOrEqual = ">=", lessOrEqual = "<=", notEqual = "!=", greater = ">", less = "<", equal = "="
    }

    let text: String
    let parts: [(Operation, GemVersion)]

    static func == (lhs: GemRequirement, rhs: GemRequirement) -> Bool { lhs.text == rhs.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// Parses a requirement; nil when a part is not `op version`.
    init?(_ text: String) {
        var parts: [(Operation, GemVersion)] = []
        for raw in text.split(separator: ",") {
            var piece = raw.trimmingCharacters(in: .whitespaces)
            var operation = Operation.equal
            if let found = Operation.allCases.first(where: { piece.hasPrefix($0.rawValue) }) {
                operation = found
                piece = String(piece.dropFirst(found.rawValue.count)).trimmingCharacters(in: .whitespaces)
            }
            guard let version = GemVersion(piece) else { return nil }
            parts.append((operation, version))
        }
        guard !parts.isEmpty else { return nil }
        self.text = text.trimmingCharacters(in: .whitespaces)
        self.parts = parts
    }

    var description: String { text }

    /// True when `version` meets every part.
    func isSatisfied(by version: GemVersion) -> Bool {
        parts.allSatisfy { operation, bound in
            switch operation {
            case .equal: return version == bound
            case .notEqual: return version != bound
            case .greater: return version > bound
            case .less: return version < bound
            case .greaterOrEqual: return version >= bound
            case .lessOrEqual: return version <= bound
            case .pessimistic:
                guard let upper = bound.pessimisticUpperBound else { return version >= bound }
                return version >= bound && version < upper
            }
        }
    }
}
