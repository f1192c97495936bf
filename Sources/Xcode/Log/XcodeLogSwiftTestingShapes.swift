/// Swift Testing's lines. Each starts with a symbol: `◇ ✔ ✘ ➜` and one space where the terminal has
/// no SF Symbols (Linux, most CI logs), or a private-use SF Symbol and two spaces in Xcode's own
/// output on macOS (`􁁛  Test x() passed after 0.001 seconds.`, seen in real logs of
/// swift-testing's own test run, captured by xcbeautify's fixtures). The status is read from the
/// words (`passed after`, `failed after`, `skipped`), never from the symbol: a test that passed
/// with a known issue is printed with the failure symbol.
extension XcodeLogParser {
    /// The text after the symbol and its spaces, when `line` starts with a symbol (one Unicode
    /// scalar of 3 or 4 UTF-8 bytes) followed by at least one space.
    static func afterSwiftTestingSymbol(_ line: Substring) -> Substring? {
        var utf8 = line.utf8
        // xcodebuild may put a zero-width space (U+200B) before the symbol.
        if utf8.starts(with: [0xE2, 0x80, 0x8B]) { utf8 = utf8.dropFirst(3) }
        guard let first = utf8.first else { return nil }
        let width = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 0
        guard width > 0, utf8.count > width else { return nil }
        var index = utf8.index(utf8.startIndex, offsetBy: width)
        guard utf8[index] == UInt8(ascii: " ") else { return nil }
        while index < utf8.endIndex, utf8[index] == UInt8(ascii: " ") { index = utf8.index(after: index) }
        return Substring(utf8[index...])
    }

    /// `✔ Test x() passed after ...`, `✘ Test x() failed after ...`, `✘ Test x() recorded an issue
    /// at F.swift:1:2: ...` (also `... recorded an issue with 2 arguments a → 1, b → 2 at F.swift:1:2:
    /// ...`), `➜ Test x() skipped`, `◇ Test x() started (repetition 2).`, and the run's
    /// `✔ Test run with N tests passed after X seconds.` / `✘ ... failed after X seconds with M issues.`
    static func swiftTestingLine(_ line: Substring) -> XcodeLogEvent? {
        guard let rest = afterSwiftTestingSymbol(line)?.after("Test ") else { return nil }
        if let run = rest.after("run with ") {
            let failed = run.find(" failed after ") != nil
            guard let tests = run.numbers(limit: 1).first.flatMap({ Int($0) }) else { return nil }
            let afterWord = run.find(" after ").map { run[$0.upperBound...] } ?? ""
            let numbers = afterWord.numbers(limit: 2)
            let duration = numbers.first.flatMap { Double($0) }
            let issues = failed ? (numbers.count > 1 ? Int(numbers[1]) ?? 0 : 0) : 0
            return .testRun(.init(tests: tests, failures: issues, duration: duration))
        }
        if let issue = rest.find(" recorded an issue") {
            return swiftTestingIssue(name: rest[..<issue.lowerBound], rest[issue.upperBound...])
        }
        // Repetitions are announced on the start line: `◇ Test x() started (repetition 2).`
        // (swift-testing's `--repetitions`/`--repeat-until` and xcodebuild's `-test-iterations`,
        // `-retry-tests-on-failure` for Swift Testing; the spelling as recorded in published
        // transcripts of Xcode 26 runs; the first run's line is plain `started.`).
        if let started = rest.find(" started (repetition ") {
            guard let number = rest[started.upperBound...].numbers(limit: 1).first.flatMap({ Int($0) }), number >= 2 else { return nil }
            return .testRepeat(.init(suite: nil, name: swiftTestingName(rest[..<started.lowerBound]), iteration: number))
        }
        let words: [(String, XcodeLogEvent.TestStatus)] = [(" passed after ", .passed), (" failed after ", .failed)]
        for (word, status) in words {
            guard let found = rest.find(word) else { continue }
            let duration = rest[found.upperBound...].numbers(limit: 1).first.flatMap { Double($0) }
            return .testCase(.init(suite: nil, name: swiftTestingName(rest[..<found.lowerBound]), status: status, duration: duration))
        }
        // `x() skipped.`, `x() skipped: "comment"` (not `"JUnit omits time for skipped tests" started.`).
        if let name = skippedName(rest) { return .testCase(.init(suite: nil, name: swiftTestingName(name), status: .skipped)) }
        return nil
    }

    /// The name before ` skipped` when the line ends there, or in `.`, or goes on with `: "comment"`.
    static func skippedName(_ rest: Substring) -> Substring? {
        if let found = rest.find(" skipped: \"") { return rest[..<found.lowerBound] }
        for ending in [" skipped.", " skipped"] where rest.hasSuffix(ending) {
            return Substring(rest.utf8.dropLast(ending.utf8.count))
        }
        return nil
    }

    /// What follows `recorded an issue`: ` at F.swift:1:2: message`, ` with 2 arguments ... at
    /// F.swift:1:2: message` (the place is the first ` at ` followed by a `file:line:column: `),
    /// or `: message` without a place.
    static func swiftTestingIssue(name: Substring, _ tail: Substring) -> XcodeLogEvent {
        let testName = swiftTestingName(name)
        var search = tail
        while let at = search.find(" at ") {
            let candidate = tail[at.upperBound...]
            if let separator = candidate.find(": ") {
                let location = candidate[..<separator.lowerBound]
                let (file, lineNumber, column) = splitLocation(location)
                if lineNumber != nil, !location.contains(" ") {
                    return .testFailure(.init(suite: nil, name: testName, file: String(file), line: lineNumber, column: column,
                                              message: String(candidate[separator.upperBound...])))
                }
            }
            search = tail[at.upperBound...]
        }
        let message = tail.find(": ").map { tail[$0.upperBound...] } ?? tail
        return .testFailure(.init(suite: nil, name: testName, file: "", line: nil, message: String(message)))
    }
}
