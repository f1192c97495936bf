import Basics
import Foundation

/// Test results in the shape JUnit XML reports have, shared by everything that writes them
/// (`slipway xcode log --junit`, result bundles, the steps that read them, and the lane's own report).
public struct JUnitTestCase: Sendable, Hashable, Codable {
    /// How a test ended.
    public enum Outcome: Sendable, Hashable, Codable {
        case passed
        /// Failed; `message` is the first failure, `details` all of them (with file:line).
        case failed(message: String, details: String)
        case skipped(message: String?)
        /// Failed at least once and then passed on a retry: reported as passed, with a note.
        case flaky(failedRuns: Int, details: String)
    }

    /// The suite or class (`MyAppTests.LoginTests`), JUnit's `classname`.
    public var className: String
    /// The test's name (`testLogin()`).
    public var name: String
    /// Seconds, when known.
    public var duration: Double?
    public var outcome: Outcome
    /// Where the (first) failure is, for annotations and JUnit's `file` attribute.
    public var file: String?
    public var line: Int?

    public init(className: String, name: String, duration: Double? = nil, outcome: Outcome, file: String? = nil, line: Int? = nil) {
        self.className = className
        self.name = name
        self.duration = duration
        self.outcome = outcome
        self.file = file
        self.line = line
    }
}

/// Renders test cases as a JUnit XML document (the dialect GitHub, GitLab, Jenkins and
/// Buildkite read): one `<testsuite>` per class name, in first-seen order.
public enum JUnitXML {
    /// The document for `cases`, named `name`.
    public static func render(_ cases: [JUnitTestCase], name: String) -> String {
        let failed = cases.filter { if case .failed = $0.outcome { true } else { false } }.count
        let skipped = cases.filter { if case .skipped = $0.outcome { true } else { false } }.count
        let total = cases.reduce(0.0) { $0 + ($1.duration ?? 0) }
        return documentHead(name: name, tests: cases.count, failures: failed, skipped: skipped, time: total)
            + suites(cases) + documentTail
    }

    /// The XML declaration and the `<testsuites>` opening tag (`render`'s first two lines).
    static func documentHead(name: String, tests: Int, failures: Int, skipped: Int, time: Double) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"\(escape(name))\" tests=\"\(tests)\" failures=\"\(failures)\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
    }

    static let documentTail = "</testsuites>\n"

    /// A `<testsuite>` opening tag, indented as `suites` writes it.
    static func suiteHead(name: String, tests: Int, failures: Int, skipped: Int, time: Double) -> String {
        "  <testsuite name=\"\(escape(name))\" tests=\"\(tests)\" failures=\"\(failures)\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
    }

    static let suiteTail = "  </testsuite>\n"

    /// The `<testsuite>` elements for `cases` (one per class name, `prefix` before each suite's
    /// name), indented to sit inside `<testsuites>`: for a report that has suites of its own.
    public static func suites(_ cases: [JUnitTestCase], prefix: String = "") -> String {
        var order: [String] = []
        var byClass: [String: [JUnitTestCase]] = [:]
        for test in cases {
            if byClass[test.className] == nil { order.append(test.className) }
            byClass[test.className, default: []].append(test)
        }
        var xml = ""
        for className in order {
            let members = byClass[className] ?? []
            let memberFailures = members.filter { if case .failed = $0.outcome { true } else { false } }.count
            let memberSkipped = members.filter { if case .skipped = $0.outcome { true } else { false } }.count
            let time = members.reduce(0.0) { $0 + ($1.duration ?? 0) }
            xml += suiteHead(name: prefix + className, tests: members.count, failures: memberFailures, skipped: memberSkipped, time: time)
            for test in members { xml += element(test) }
            xml += suiteTail
        }
        return xml
    }

    static func element(_ test: JUnitTestCase) -> String {
        var open = "    <testcase classname=\"\(escape(test.className))\" name=\"\(escape(test.name))\" time=\"\(seconds(test.duration ?? 0))\""
        if let file = test.file { open += " file=\"\(escape(file))\"" + (test.line.map { " line=\"\($0)\"" } ?? "") }
        switch test.outcome {
        case .passed:
            return open + "/>\n"
        case .failed(let message, let details):
            return open + ">\n      <failure message=\"\(escape(message))\">\(escape(details))</failure>\n    </testcase>\n"
        case .skipped(let message):
            return open + ">\n      <skipped" + (message.map { " message=\"\(escape($0))\"" } ?? "") + "/>\n    </testcase>\n"
        case .flaky(let failedRuns, let details):
            let note = "flaky: failed \(failedRuns) time\(failedRuns == 1 ? "" : "s"), then passed on a retry\n" + details
            return open + ">\n      <system-out>\(escape(note))</system-out>\n    </testcase>\n"
        }
    }

    private static func seconds(_ value: Double) -> String {
        NumberText.seconds(value)
    }

    /// XML text and attribute escaping; characters XML 1.0 forbids even when escaped (most
    /// control characters, U+FFFE, U+FFFF) become `?`.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { result += "?" } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }
}
