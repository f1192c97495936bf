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
        let header: Header
        if scan.isPlainASCII {
            // Every byte of the first line is then a Character of its own: read the bytes.
            guard let read = message.utf8.withContiguousStorageIfAvailable({ Self.asciiHeader($0, colon: colonOffset, end: scan.headerEnd) }),
                  let found = read else { return nil }
            header = found
        } else {
            guard let found = Self.header(message, colon: bytes.index(bytes.startIndex, offsetBy: colonOffset), end: headerEnd) else { return nil }
            header = found
        }
        type = header.type
        scope = header.scope
        description = header.description
        var breaking = header.isBreaking
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

    /// The parts of the first line, `type(scope)!: description`.
    struct Header: Equatable {
        var type: String
        var scope: String?
        var description: String
        var isBreaking: Bool
    }

    /// The header read Character by Character, for first lines with non-ASCII text or a
    /// carriage return.
    static func header(_ message: String, colon: String.Index, end headerEnd: String.Index) -> Header? {
        var prefix = message[message.startIndex..<colon]
        let summary = Self.trimmed(message[message.utf8.index(colon, offsetBy: 2)..<headerEnd])
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
        let type = prefix.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) ? prefix.lowercased() : String(prefix)
        return Header(type: type, scope: scope, description: String(summary), isBreaking: breaking)
    }

    /// The header of a first line that is plain ASCII without a carriage return, read byte by
    /// byte with the same rules as `header` (which the tests compare it with).
    static func asciiHeader(_ bytes: UnsafeBufferPointer<UInt8>, colon: Int, end: Int) -> Header? {
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte) }
        var first = colon + 2
        var last = end
        while first < last, isSpace(bytes[first]) { first += 1 }
        while last > first, isSpace(bytes[last - 1]) { last -= 1 }
        guard first < last else { return nil }
        var prefixEnd = colon
        var breaking = false
        if prefixEnd > 0, bytes[prefixEnd - 1] == UInt8(ascii: "!") {
            breaking = true
            prefixEnd -= 1
        }
        var scope: String?
        if prefixEnd > 0, bytes[prefixEnd - 1] == UInt8(ascii: ")"),
           let open = bytes[0..<prefixEnd].firstIndex(of: UInt8(ascii: "(")) {
            guard prefixEnd - 1 > open + 1 else { return nil }
            scope = text((open + 1)..<(prefixEnd - 1))
            prefixEnd = open
        }
        guard prefixEnd > 0 else { return nil }
        var hasUpper = false
        for byte in bytes[0..<prefixEnd] {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"): continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): hasUpper = true
            default: return nil
            }
        }
        let type = hasUpper
            ? String(decoding: bytes[0..<prefixEnd].map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
            : text(0..<prefixEnd)
        return Header(type: type, scope: scope, description: text(first..<last), isBreaking: breaking)
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
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (headerEnd: Int, colon: Int?, mentionsBreaking: Bool, isPlainASCII: Bool) {
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
        guard colon != nil else { return (headerEnd, nil, false, false) }
        let isPlainASCII = !bytes[0..<headerEnd].contains { $0 >= 0x80 || $0 == UInt8(ascii: "\r") }
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
        return (headerEnd, colon, mentionsBreaking, isPlainASCII)
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
