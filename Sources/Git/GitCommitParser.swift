import Foundation

/// Reads a commit from its raw text in the object database, the way libgit2's commit parser
/// reads it, without making libgit2's commit object (a dozen allocations, kept in the
/// repository's object cache). A history walk of tens of thousands of commits spends most of
/// its time in those allocations otherwise.
///
/// The raw text is a header (`tree`, `parent` lines, `author`, `committer`, then others such as
/// `encoding` or a multi-line `gpgsig`), a blank line and the message. Only well-formed commits
/// are read here: for anything unusual (a missing author, a signature without a time, an odd
/// time zone) `parse` returns nil and the caller asks libgit2, whose leniency is the reference.
enum GitCommitParser {
    /// The commit in `buffer` (the object's raw bytes), nil when it is not plainly well formed.
    static func parse(_ buffer: UnsafeRawBufferPointer, oid: GitOID) -> GitCommit? {
        var position = 0
        var parents: [GitOID] = []
        var author: GitSignature?
        var committer: GitSignature?
        var sawTree = false
        var messageStart = buffer.count
        while position < buffer.count {
            let lineEnd = index(of: UInt8(ascii: "\n"), in: buffer, from: position) ?? buffer.count
            if lineEnd == position {  // the blank line before the message
                messageStart = position + 1
                break
            }
            if !sawTree {
                guard hasPrefix("tree ", buffer, at: position) else { return nil }
                sawTree = true
            } else if hasPrefix("parent ", buffer, at: position) {
                // Parents follow the tree directly, as libgit2 requires.
                guard author == nil, lineEnd - position == 7 + 2 * GitOID.byteCount,
                      let parent = GitOID(hexDigitsIn: buffer, at: position + 7) else { return nil }
                parents.append(parent)
            } else if hasPrefix("author ", buffer, at: position) {
                // libgit2 ignores extra author lines that some tools write. It wants the
                // signature lines to end in a newline.
                guard lineEnd < buffer.count else { return nil }
                if author == nil {
                    guard committer == nil, let signature = signature(buffer, from: position + 7, to: lineEnd) else { return nil }
                    author = signature
                }
            } else if hasPrefix("committer ", buffer, at: position), committer == nil {
                guard author != nil, lineEnd < buffer.count, let signature = signature(buffer, from: position + 10, to: lineEnd) else { return nil }
                committer = signature
            }
            // Anything else (encoding, gpgsig and its continuation lines, mergetag) is skipped.
            position = lineEnd + 1
        }
        guard let author, let committer else { return nil }
        return GitCommit(oid: oid, message: message(buffer, from: messageStart), author: author,
                         committer: committer, parents: parents)
    }

    /// The message as `git_commit_message` gives it: up to the first NUL byte (libgit2 copies
    /// it as a C string), without leading newlines; invalid UTF-8 repaired.
    private static func message(_ buffer: UnsafeRawBufferPointer, from start: Int) -> String {
        guard start < buffer.count else { return "" }
        let end = index(of: 0, in: buffer, from: start) ?? buffer.count
        var first = start
        while first < end, buffer[first] == UInt8(ascii: "\n") { first += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[first..<end]), as: UTF8.self)
    }

    /// `Name <email> 1600000000 +0100` between `start` and `end`; nil unless it has all four
    /// parts in that form (libgit2's parser then decides what a malformed one means).
    private static func signature(_ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> GitSignature? {
        // The e-mail is between the last '<' and the last '>', as libgit2 finds it.
        guard let open = lastIndex(of: UInt8(ascii: "<"), in: buffer, from: start, to: end),
              let close = lastIndex(of: UInt8(ascii: ">"), in: buffer, from: start, to: end), close > open,
              close + 2 < end, buffer[close + 1] == UInt8(ascii: " ") else { return nil }
        var position = close + 2
        var seconds: Int64 = 0
        let digitsStart = position
        while position < end, let digit = decimal(buffer[position]) {
            let (times, overflow) = seconds.multipliedReportingOverflow(by: 10)
            guard !overflow, digit <= Int64.max - times else { return nil }
            seconds = times + digit
            position += 1
        }
        // A time, one space, a sign and exactly four digits (hours ≤ 14, minutes ≤ 59).
        guard position > digitsStart, position - digitsStart <= 18, end - position == 6,
              buffer[position] == UInt8(ascii: " "),
              buffer[position + 1] == UInt8(ascii: "+") || buffer[position + 1] == UInt8(ascii: "-") else { return nil }
        var zone: Int64 = 0
        for offset in 2..<6 {
            guard let digit = decimal(buffer[position + offset]) else { return nil }
            zone = zone * 10 + digit
        }
        let hours = Int(zone / 100)
        let minutes = Int(zone % 100)
        guard hours <= 14, minutes <= 59 else { return nil }
        let offset = (hours * 60 + minutes) * (buffer[position + 1] == UInt8(ascii: "-") ? -1 : 1)
        return GitSignature(name: trimmedString(buffer, from: start, to: open),
                            email: trimmedString(buffer, from: open + 1, to: close),
                            date: Date(timeIntervalSince1970: TimeInterval(seconds)),
                            timeZoneOffsetMinutes: offset)
    }

    /// The text between `start` and `end` without white space at either end (libgit2's
    /// `extract_trimmed`), cut at a NUL byte as a C string would be.
    private static func trimmedString(_ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> String {
        var first = start
        var last = end
        while first < last, isSpace(buffer[first]) { first += 1 }
        while last > first, isSpace(buffer[last - 1]) { last -= 1 }
        if let zero = index(of: 0, in: buffer, from: first, to: last) { last = zero }
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[first..<last]), as: UTF8.self)
    }

    /// libgit2's `git__isspace`: space, tab, newline, vertical tab, form feed, carriage return.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
    }

    private static func decimal(_ byte: UInt8) -> Int64? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int64(byte - UInt8(ascii: "0")) : nil
    }

    private static func hasPrefix(_ prefix: StaticString, _ buffer: UnsafeRawBufferPointer, at position: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard position + count <= buffer.count else { return false }
        let start = prefix.utf8Start
        for offset in 0..<count where buffer[position + offset] != start[offset] { return false }
        return true
    }

    private static func index(of byte: UInt8, in buffer: UnsafeRawBufferPointer, from start: Int, to end: Int? = nil) -> Int? {
        let end = end ?? buffer.count
        guard start < end, let base = buffer.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(byte), end - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    private static func lastIndex(of byte: UInt8, in buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        var position = end - 1
        while position >= start {
            if buffer[position] == byte { return position }
            position -= 1
        }
        return nil
    }

    /// The first paragraph of `message` on one line, as `git_commit_summary` makes it: a run
    /// of white space that contains a newline becomes one space, other runs are kept, and the
    /// paragraph ends at a line that is empty or only white space.
    static func summary(of message: String) -> String {
        var message = message
        return message.withUTF8 { bytes -> String in
            var summary: [UInt8] = []
            var spaceStart: Int?
            var spaceHasNewline = false
            var position = 0
            while position < bytes.count, bytes[position] != 0 {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\n") {
                    var next = position + 1
                    while next < bytes.count, bytes[next] != UInt8(ascii: "\n"), bytes[next] != 0, isSpace(bytes[next]) { next += 1 }
                    if next >= bytes.count || bytes[next] == 0 || bytes[next] == UInt8(ascii: "\n") { break }
                }
                if isSpace(byte) {
                    if spaceStart == nil {
                        spaceStart = position
                        spaceHasNewline = false
                    }
                    spaceHasNewline = spaceHasNewline || byte == UInt8(ascii: "\n")
                } else {
                    if let start = spaceStart {
                        if spaceHasNewline { summary.append(UInt8(ascii: " ")) } else { summary.append(contentsOf: bytes[start..<position]) }
                        spaceStart = nil
                    }
                    summary.append(byte)
                }
                position += 1
            }
            return String(decoding: summary, as: UTF8.self)
        }
    }
}
