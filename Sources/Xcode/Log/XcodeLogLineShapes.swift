/// The shapes of the lines `XcodeLogParser` recognises, one function per family. Each takes a
/// whole line and returns nil when the line is not of its shape.
extension XcodeLogParser {
    typealias Severity = XcodeLogEvent.Diagnostic.Severity

    private static let severityMarkers: [(String, Severity)] = [
        (" error: ", .error), (" warning: ", .warning), (" note: ", .note), (" fatal error: ", .error),
    ]

    /// `location: severity: message`, split at the first colon followed by a severity word.
    static func splitDiagnostic(_ line: Substring) -> (location: Substring, severity: Severity, message: Substring)? {
        let utf8 = line.utf8
        var index = utf8.startIndex
        while let colon = utf8[index...].firstIndex(of: UInt8(ascii: ":")) {
            let next = utf8.index(after: colon)
            if next < utf8.endIndex, utf8[next] == UInt8(ascii: " ") {
                let rest = line[next...]
                for (marker, severity) in severityMarkers {
                    if let message = rest.after(marker) { return (line[..<colon], severity, message) }
                }
            }
            index = next
        }
        return nil
    }

    /// `splitDiagnostic` for the lines whose location is believable: an absolute path or
    /// `<unknown>` (`/a/B.swift:3:5:`, `<unknown>:0:`), a relative path with a line number
    /// (`Sources/App/main.swift:3:5:`, `main.c:3:`, even with spaces in it), or one word naming a tool
    /// (`clang`, `ld`, `xcodebuild`, `swift-frontend`). `Create schema failed with error: ...` and
    /// other prose stay unrecognised.
    static func locatedDiagnostic(_ line: Substring) -> (location: Substring, severity: Severity, message: Substring)? {
        guard let first = line.utf8.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t"),
              let split = splitDiagnostic(line) else { return nil }
        if first == UInt8(ascii: "/") || first == UInt8(ascii: "<") { return split }
        if splitLocation(split.location).line != nil || isToolName(split.location) { return split }
        return nil
    }

    /// One word of letters, digits, `-`, `_`, `.` and `+` (`clang`, `ld`, `swift-frontend`).
    static func isToolName(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"): true
            default: false
            }
        }
    }

    /// `path:line:column`, `path:line` or `path`.
    static func splitLocation(_ location: Substring) -> (file: Substring, line: Int?, column: Int?) {
        var file = location
        var last: Int?
        var beforeLast: Int?
        for _ in 0..<2 {
            guard let colon = file.utf8.lastIndex(of: UInt8(ascii: ":")),
                  let number = Int(file[file.utf8.index(after: colon)...]) else { break }
            beforeLast = last
            last = number
            file = file[..<colon]
        }
        // Read from the end: with two numbers the first one found is the column.
        if let beforeLast, let last { return (file, last, beforeLast) }
        return (file, last, nil)
    }

    /// XCTest's failure message `-[Module.Class test] : message` (or `Class.test : message`).
    static func xctestFailure(_ message: Substring, file: Substring, line: Int?) -> XcodeLogEvent.TestFailure? {
        guard let separator = message.find(" : ") else { return nil }
        let test = message[..<separator.lowerBound]
        let isObjCName = test.hasPrefix("-[") && test.hasSuffix("]")
        guard isObjCName || (!test.contains(" ") && test.contains(".")) else { return nil }
        let (suite, name) = testName(test)
        return .init(suite: suite, name: name, file: String(file), line: line,
                     message: String(message[separator.upperBound...]))
    }

    /// `-[Module.Class test]` → (`Module.Class`, `test`); `Class.test()` → (`Class`, `test()`).
    static func testName(_ text: Substring) -> (suite: String?, name: String) {
        // Byte-wise: the names are ASCII punctuation-delimited, and character-wise slicing
        // costs a grapheme check per bound.
        let utf8 = text.utf8
        if utf8.starts(with: "-[".utf8), utf8.last == UInt8(ascii: "]") {
            let inner = utf8.dropFirst(2).dropLast()
            guard let space = inner.firstIndex(of: UInt8(ascii: " ")) else { return (nil, String(Substring(inner))) }
            return (String(Substring(inner[..<space])), String(Substring(inner[inner.index(after: space)...])))
        }
        let head = utf8.firstIndex(of: UInt8(ascii: "(")).map { utf8[..<$0] } ?? utf8[...]
        guard let dot = head.lastIndex(of: UInt8(ascii: ".")) else { return (nil, String(text)) }
        return (String(Substring(utf8[..<dot])), String(Substring(utf8[utf8.index(after: dot)...])))
    }

    /// XCTest's `Test Suite '...' ...` and `Test Case '...' ...` / `Test case '...' ... on '...'`.
    static func xctestLine(_ line: Substring) -> XcodeLogEvent? {
        if let rest = line.after("Test Suite '") {
            guard let (name, tail) = rest.splitAtClosingQuote() else { return nil }
            let status: XcodeLogEvent.TestSuite.Status
            if tail.hasPrefix("started") { status = .started }
            else if tail.hasPrefix("passed") { status = .passed }
            else if tail.hasPrefix("failed") { status = .failed }
            else if tail.hasPrefix("finished") { status = .finished }
            else { return nil }
            return .testSuite(.init(name: String(name), status: status))
        }
        guard let rest = line.after("Test Case '") ?? line.after("Test case '"),
              let (test, tail) = rest.splitAtClosingQuote() else { return nil }
        if tail.utf8.starts(with: "started".utf8) { return xctestRepeat(test, tail) }
        let status: XcodeLogEvent.TestStatus
        var remainder: Substring
        if let after = tail.after("passed") { status = .passed; remainder = after }
        else if let after = tail.after("failed") { status = .failed; remainder = after }
        else if let after = tail.after("skipped") { status = .skipped; remainder = after }
        else { return nil }
        var device: String?
        if let onDevice = remainder.after(" on '"), let (name, after) = onDevice.splitAtClosingQuote() {
            device = String(name)
            remainder = after
        }
        let (suite, name) = testName(test)
        return .testCase(.init(suite: suite, name: name, status: status, duration: secondsInParentheses(remainder), device: device))
    }

    /// XCTest announces a repetition on the start line: `Test Case '-[C t]' started (Iteration 2 of 3).`
    /// (`-test-iterations`, `-retry-tests-on-failure`, `-run-tests-until-failure`, Xcode 13 and
    /// later; the first run says `(Iteration 1 of 3)`). The spelling is the one in published
    /// xcodebuild transcripts, e.g. the retry log quoted in tuist/tuist#4021's discussion of
    /// Xcode 13 retries and in CI tools that read these logs. A plain `started.` is no repetition.
    static func xctestRepeat(_ test: Substring, _ tail: Substring) -> XcodeLogEvent? {
        guard let found = tail.find("(Iteration ") else { return nil }
        let numbers = tail[found.upperBound...].numbers(limit: 2)
        guard let iteration = numbers.first.flatMap({ Int($0) }), iteration >= 2 else { return nil }
        let (suite, name) = testName(test)
        return .testRepeat(.init(suite: suite, name: name, iteration: iteration, of: numbers.count > 1 ? Int(numbers[1]) : nil))
    }

    /// `(0.012 seconds)` anywhere in `text`.
    static func secondsInParentheses(_ text: Substring) -> Double? {
        guard let open = text.firstIndex(of: "("), let end = text[open...].find(" second") else { return nil }
        return Double(text[text.index(after: open)..<end.lowerBound])
    }

    /// `Executed 3 tests, with 1 failure (0 unexpected) in 0.113 (0.115) seconds`.
    /// Newer XCTest also counts skips: `Executed 5 tests, with 1 test skipped and 0 failures (0 unexpected) in ...`.
    static func executedLine(_ line: Substring) -> XcodeLogEvent.TestRun? {
        let skips = line.find(" skipped and ") != nil
        var numbers = line.numbers(limit: skips ? 5 : 4)
        guard numbers.count == (skips ? 5 : 4) else { return nil }
        if skips { numbers.remove(at: 1) }
        guard let tests = Int(numbers[0]), let failures = Int(numbers[1]) else { return nil }
        return .init(tests: tests, failures: failures, unexpected: Int(numbers[2]), duration: Double(numbers[3]))
    }

    /// `** BUILD SUCCEEDED **`, `** TEST EXECUTE FAILED **`...
    static func resultLine(_ line: Substring) -> XcodeLogEvent.Result? {
        guard let inner = line.after("** "), inner.hasSuffix(" **") else { return nil }
        let words = inner.dropLast(3)
        guard let space = words.lastIndex(of: " ") else { return nil }
        let action = words[..<space]
        switch words[words.index(after: space)...] {
        case "SUCCEEDED": return .init(action: String(action), succeeded: true)
        case "FAILED", "INTERRUPTED": return .init(action: String(action), succeeded: false)
        default: return nil
        }
    }

    /// `foo()`, `"Display name"` (unquoted), `foo(x:) with 3 test cases` (without the count).
    static func swiftTestingName(_ text: Substring) -> String {
        var name = text
        if let cases = name.find(" with "), name[cases.upperBound...].hasSuffix(" test cases") { name = name[..<cases.lowerBound] }
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = name.dropFirst().dropLast() }
        return String(name)
    }
}

extension Substring {
    /// The rest after `prefix`, or nil when the text does not start with it (byte comparison).
    func after(_ prefix: String) -> Substring? {
        guard utf8.starts(with: prefix.utf8) else { return nil }
        return Substring(utf8[utf8.index(startIndex, offsetBy: prefix.utf8.count)...])
    }

    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              let last = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        return Substring(utf8[first...last])
    }

    /// `name` and what follows `' ` (the text after a quoted name's closing quote and a space;
    /// the whole rest when the quote ends the line).
    func splitAtClosingQuote() -> (Substring, Substring)? {
        let utf8 = self.utf8
        var index = utf8.startIndex
        while let quote = utf8[index...].firstIndex(of: UInt8(ascii: "'")) {
            let next = utf8.index(after: quote)
            if next == utf8.endIndex { return (Substring(utf8[..<quote]), Substring(utf8[next...])) }
            if utf8[next] == UInt8(ascii: " ") { return (Substring(utf8[..<quote]), Substring(utf8[utf8.index(after: next)...])) }
            index = next
        }
        return nil
    }

    /// The first `limit` runs of digits (with dots) in the text.
    func numbers(limit: Int) -> [Substring] {
        var found: [Substring] = []
        let utf8 = self.utf8
        var index = utf8.startIndex
        while found.count < limit, let start = utf8[index...].firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
            let end = utf8[start...].firstIndex(where: { !($0 >= 0x30 && $0 <= 0x39) && $0 != UInt8(ascii: ".") }) ?? utf8.endIndex
            var number = self[start..<end]
            while number.utf8.last == UInt8(ascii: ".") { number = number.dropLast() }
            found.append(number)
            index = end
        }
        return found
    }
}

extension Substring {
    /// The first occurrence of `needle`, compared byte by byte (no Foundation, no Unicode
    /// normalisation: the words searched for are ASCII).
    func find(_ needle: String) -> Range<Index>? {
        let bytes = needle.utf8
        guard let first = bytes.first else { return nil }
        let utf8 = self.utf8
        var index = utf8.startIndex
        while let candidate = utf8[index...].firstIndex(of: first) {
            if utf8[candidate...].starts(with: bytes) {
                return candidate..<utf8.index(candidate, offsetBy: bytes.count)
            }
            index = utf8.index(after: candidate)
        }
        return nil
    }
}
