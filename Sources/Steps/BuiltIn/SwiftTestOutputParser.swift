/// Reads `swift test` output (XCTest and Swift Testing, on Linux and macOS) into counts and
/// failures, line by line as it streams.
public struct SwiftTestOutputParser: Sendable {
    /// One failed test and what it reported.
    public struct Failure: Sendable, Hashable {
        /// The test's name as the framework prints it (`Suite.testName` or `name()`).
        public var test: String
        /// The assertion messages it recorded, with their locations.
        public var messages: [String]

        /// Creates a failure record.
        public init(test: String, messages: [String]) {
            self.test = test
            self.messages = messages
        }
    }

    /// Tests that passed.
    public private(set) var passed = 0
    /// Tests that failed.
    public private(set) var failed = 0
    /// Tests skipped.
    public private(set) var skipped = 0
    /// The failures in the order they finished.
    public private(set) var failures: [Failure] = []
    private var pendingMessages: [String: [String]] = [:]

    /// An empty parser.
    public init() {}

    /// All tests seen.
    public var total: Int { passed + failed + skipped }

    /// Feeds one line of output.
    public mutating func consume(_ line: String) {
        if let (name, status) = Self.xctestCase(line) {
            record(name, status)
        } else if let (name, message) = Self.xctestError(line) {
            pendingMessages[name, default: []].append(message)
        } else if let body = Self.swiftTestingBody(line) {
            consumeSwiftTesting(body)
        }
    }

    /// Feeds a whole output.
    public mutating func consume(output: String) {
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) { consume(String(line)) }
    }

    private mutating func record(_ name: String, _ status: Substring) {
        switch status {
        case "passed": passed += 1
        case "failed":
            failed += 1
            failures.append(Failure(test: name, messages: pendingMessages.removeValue(forKey: name) ?? []))
        case "skipped": skipped += 1
        default: break
        }
    }

    private mutating func consumeSwiftTesting(_ body: Substring) {
        // body starts after "Test ": "NAME passed after ...", "NAME failed after ...",
        // "NAME skipped...", "NAME recorded an issue at LOC: MESSAGE".
        guard !body.hasPrefix("run with ") else { return }
        if let range = body.range(of: " recorded an issue") {
            let name = String(body[..<range.lowerBound])
            let message = body[range.upperBound...].drop { $0 == " " }
            pendingMessages[name, default: []].append(String(message.hasPrefix("at ") ? message.dropFirst(3) : message))
        } else if let range = body.range(of: " passed after ") {
            record(String(body[..<range.lowerBound]), "passed")
        } else if let range = body.range(of: " failed after ") {
            record(String(body[..<range.lowerBound]), "failed")
        } else if let range = body.range(of: " skipped") {
            record(String(body[..<range.lowerBound]), "skipped")
        }
    }

    /// `Test Case 'X.y' passed (0.1 seconds)` (Linux) or `Test Case '-[X y]' passed (...)` (macOS).
    static func xctestCase(_ line: String) -> (String, Substring)? {
        guard line.hasPrefix("Test Case '"), let end = line.range(of: "' ", range: line.index(line.startIndex, offsetBy: 11)..<line.endIndex)
        else { return nil }
        let name = String(line[line.index(line.startIndex, offsetBy: 11)..<end.lowerBound])
        let rest = line[end.upperBound...]
        guard let status = rest.split(separator: " ").first, ["passed", "failed", "skipped"].contains(status) else { return nil }
        return (normalize(name), status)
    }

    /// `/path/File.swift:6: error: X.y : message`.
    static func xctestError(_ line: String) -> (String, String)? {
        guard let errorRange = line.range(of: ": error: ") else { return nil }
        let location = line[..<errorRange.lowerBound]
        let rest = line[errorRange.upperBound...]
        guard let separator = rest.range(of: " : ") else { return nil }
        let name = normalize(String(rest[..<separator.lowerBound]))
        return (name, "\(location): \(rest[separator.upperBound...])")
    }

    /// The text after "Test " on a Swift Testing event line (`✔ Test foo() passed ...`),
    /// whatever symbol the platform prints first.
    static func swiftTestingBody(_ line: String) -> Substring? {
        guard let space = line.firstIndex(of: " "), line.distance(from: line.startIndex, to: space) <= 4 else { return nil }
        let rest = line[line.index(after: space)...]
        guard rest.hasPrefix("Test ") else { return nil }
        return rest.dropFirst(5)
    }

    /// `-[Module.X y]` → `X.y`, so both platforms' names match.
    static func normalize(_ name: String) -> String {
        guard name.hasPrefix("-["), name.hasSuffix("]") else { return name }
        let parts = name.dropFirst(2).dropLast().split(separator: " ")
        guard parts.count == 2 else { return name }
        let type = parts[0].split(separator: ".").last.map(String.init) ?? String(parts[0])
        return "\(type).\(parts[1])"
    }
}
