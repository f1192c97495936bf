/// A commit message read as a Conventional Commit (https://www.conventionalcommits.org):
/// `type(scope)!: description`, a body, and footers such as `BREAKING CHANGE: ...`.
public struct ConventionalCommit: Sendable, Hashable {
    /// `feat`, `fix`, `perf`, ... (lower-cased).
    public var type: String
    /// The scope in parentheses, if any.
    public var scope: String?
    /// The summary after the colon.
    public var description: String
    /// True for `!` after the type/scope or a `BREAKING CHANGE:` / `BREAKING-CHANGE:` footer.
    public var isBreaking: Bool
    /// The text of the breaking-change footer, when there is one.
    public var breakingNote: String?

    /// Parses a full commit message; nil when the summary line is not conventional.
    ///
    /// Works on the message's UTF-8 bytes and slices it without copying: over a release of
    /// thousands of commits this runs once per commit, so it avoids Foundation's bridged
    /// `range(of:)`/`trimmingCharacters` and splitting the whole message into lines (the body
    /// is searched for `BREAKING` only).
    public init?(message: String) {
        var message = message
        message.makeContiguousUTF8()  // a no-op for the native strings copied out of git
        guard let scan = message.utf8.withContiguousStorageIfAvailable(Self.scan), let colonOffset = scan.colon else { return nil }
        let bytes = message.utf8
        let headerEnd = bytes.index(bytes.startIndex, offsetBy: scan.headerEnd)
        let colon = bytes.index(bytes.startIndex, offsetBy: colonOffset)
        var prefix = message[message.startIndex..<colon]
        let summary = Self.trimmed(message[bytes.index(colon, offsetBy: 2)..<headerEnd])
        guard !summary.isEmpty else { return nil }
        var breaking = false
        if prefix.hasSuffix("!") {
            breaking = true
            prefix = prefix.dropLast()
        }
        var scope: String?
        if let open = prefix.firstIndex(of: "("), prefix.hasSuffix(")") {
            scope = String(prefix[prefix.index(after: open)..<prefix.index(before: prefix.endIndex)])
            prefix = prefix[..<open]
            if scope?.isEmpty == true { return nil }
        }
        guard !prefix.isEmpty, Self.isType(prefix) else { return nil }
        type = prefix.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) ? prefix.lowercased() : String(prefix)
        self.scope = scope
        description = String(summary)
        if scan.mentionsBreaking {
            // Lines end at "\n" bytes (a "\r\n" is one Character, so Character splitting
            // would miss footers in CRLF messages).
            var lineStart = bytes.index(after: headerEnd)
            while true {
                let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
                let line = message[lineStart..<lineEnd]
                for marker in ["BREAKING CHANGE:", "BREAKING-CHANGE:"] where line.hasPrefix(marker) {
                    breaking = true
                    breakingNote = String(Self.trimmed(line.dropFirst(marker.count)))
                }
                if lineEnd == bytes.endIndex { break }
                lineStart = bytes.index(after: lineEnd)
            }
        }
        isBreaking = breaking
    }

    /// Letters and hyphens only (ASCII checked byte by byte, anything else by Character).
    private static func isType(_ text: Substring) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"): continue
            case 0x80...: return text.allSatisfy { $0.isLetter || $0 == "-" }
            default: return false
            }
        }
        return true
    }

    /// Byte offsets in a message: where its first line ends, where the first ": " on that line
    /// is, and whether the rest mentions `BREAKING` at all (most bodies do not, and are then
    /// not read line by line).
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (headerEnd: Int, colon: Int?, mentionsBreaking: Bool) {
        let headerEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        var colon: Int?
        var index = 0
        while index + 1 < headerEnd {
            if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: " ") {
                colon = index
                break
            }
            index += 1
        }
        guard colon != nil else { return (headerEnd, nil, false) }
        let word = breakingWord
        var mentionsBreaking = false
        index = headerEnd
        while index + word.count <= bytes.count, !mentionsBreaking {
            if bytes[index] == word[0] {
                var matched = 1
                while matched < word.count, bytes[index + matched] == word[matched] { matched += 1 }
                mentionsBreaking = matched == word.count
            }
            index += 1
        }
        return (headerEnd, colon, mentionsBreaking)
    }

    private static let breakingWord = Array("BREAKING".utf8)

    /// `text` without white space (spaces, tabs, a carriage return) at either end.
    private static func trimmed(_ text: Substring) -> Substring {
        var result = text
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }

    /// How far this commit moves the version.
    public var impact: VersionImpact {
        if isBreaking { return .major }
        switch type {
        case "feat": return .minor
        case "fix", "perf": return .patch
        default: return .none
        }
    }
}

/// How much a set of changes moves the version.
public enum VersionImpact: Int, Sendable, Comparable, CaseIterable {
    case none, patch, minor, major

    public static func < (lhs: VersionImpact, rhs: VersionImpact) -> Bool { lhs.rawValue < rhs.rawValue }
}
