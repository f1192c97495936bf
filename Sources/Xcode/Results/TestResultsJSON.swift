import Foundation

/// The JSON of Xcode 16+'s `xcrun xcresulttool get test-results tests|summary --format json`,
/// decoded leniently: unknown keys and node types are ignored, every field but a node's type
/// and name may be missing.
enum TestResultsJSON {
    /// `get test-results tests`.
    struct Tests: Decodable, Sendable {
        var testNodes: [Node] = []
        var devices: [Device] = []
        var testPlanConfigurations: [Configuration] = []

        enum CodingKeys: String, CodingKey { case testNodes, devices, testPlanConfigurations }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // Required: output without it is not a test tree, and must not read as "0 tests".
            testNodes = try container.decode([Node].self, forKey: .testNodes)
            devices = try container.decodeIfPresent([Device].self, forKey: .devices) ?? []
            testPlanConfigurations = try container.decodeIfPresent([Configuration].self, forKey: .testPlanConfigurations) ?? []
        }
    }

    /// `get test-results summary` (only what the totals and the header need).
    struct Summary: Decodable, Sendable {
        var title: String?
        var result: String?
        var startTime: Double?
        var finishTime: Double?
        var totalTestCount: Int?
        var passedTests: Int?
        var failedTests: Int?
        var skippedTests: Int?
        var expectedFailures: Int?
        var devicesAndConfigurations: [DeviceAndConfiguration]?

        /// How the summary's own counts differ from `totals` (counted from the `tests` tree), or
        /// nil when they agree or the summary gives none. Only a run on one device and
        /// configuration is compared: there each "Test Case" node is one of the summary's tests.
        func mismatch(with totals: TestResults.Totals) -> String? {
            guard let totalTestCount else { return nil }
            if totals.total == 0, totalTestCount > 0 { return "the summary counts \(totalTestCount) tests, the test tree none" }
            guard (devicesAndConfigurations?.count ?? 0) <= 1 else { return nil }
            let summary = TestResults.Totals(total: totalTestCount, passed: passedTests ?? totals.passed, failed: failedTests ?? totals.failed,
                                             skipped: skippedTests ?? totals.skipped, expectedFailures: expectedFailures ?? totals.expectedFailures,
                                             flaky: totals.flaky)
            guard summary != totals else { return nil }
            return "the summary counts \(Self.describe(summary)), the test tree \(Self.describe(totals))"
        }

        private static func describe(_ totals: TestResults.Totals) -> String {
            "\(totals.total) test\(totals.total == 1 ? "" : "s") (\(totals.passed) passed, \(totals.failed) failed, \(totals.skipped) skipped, "
                + "\(totals.expectedFailures) expected failures)"
        }
    }

    struct DeviceAndConfiguration: Decodable, Sendable {
        var device: Device?
        var testPlanConfiguration: Configuration?
    }

    struct Device: Decodable, Sendable {
        var deviceId: String?
        var deviceName: String?
        var osVersion: String?

        /// `iPhone 16 (18.2)`, or the name alone.
        var label: String? {
            guard let deviceName else { return nil }
            return osVersion.map { "\(deviceName) (\($0))" } ?? deviceName
        }
    }

    struct Configuration: Decodable, Sendable {
        var configurationId: String?
        var configurationName: String?
    }

    /// One node of the `testNodes` tree.
    struct Node: Decodable, Sendable {
        var nodeType: String
        var name: String
        var nodeIdentifier: String?
        var result: String?
        var duration: String?
        var durationInSeconds: Double?
        var details: String?
        var children: [Node]

        enum CodingKeys: String, CodingKey {
            case nodeType, name, nodeIdentifier, result, duration, durationInSeconds, details, children
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            nodeType = try container.decodeIfPresent(String.self, forKey: .nodeType) ?? ""
            name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
            nodeIdentifier = try container.decodeIfPresent(String.self, forKey: .nodeIdentifier)
            result = try container.decodeIfPresent(String.self, forKey: .result)
            duration = try container.decodeIfPresent(String.self, forKey: .duration)
            durationInSeconds = try container.decodeIfPresent(Double.self, forKey: .durationInSeconds)
            details = try container.decodeIfPresent(String.self, forKey: .details)
            children = try container.decodeIfPresent([Node].self, forKey: .children) ?? []
        }

        init(nodeType: String, name: String, result: String? = nil, children: [Node] = []) {
            self.nodeType = nodeType
            self.name = name
            self.result = result
            self.children = children
        }

        /// Seconds from `durationInSeconds`, else from `duration` ("0.12s", "1m 2s").
        var seconds: Double? { durationInSeconds ?? duration.flatMap(ResultText.seconds) }
    }
}

/// Small text parsers shared by both bundle formats.
enum ResultText {
    /// Seconds in xcresulttool's duration strings: `0.12s`, `1m 2s`, `1h 2m 3s`, `12ms`, `0,5s`.
    static func seconds(_ text: String) -> Double? {
        var total = 0.0
        var found = false
        for token in text.split(whereSeparator: { $0 == " " }) {
            let digits = token.prefix { $0.isNumber || $0 == "." || $0 == "," }
            guard let value = Double(digits.replacingOccurrences(of: ",", with: ".")) else { return nil }
            switch token.dropFirst(digits.count) {
            case "h": total += value * 3600
            case "m", "min": total += value * 60
            case "s", "sec": total += value
            case "ms": total += value / 1000
            default: return nil
            }
            found = true
        }
        return found ? total : nil
    }

    /// Splits `File.swift:42: message` into its file, line and message; a message without that
    /// prefix (a crash, an issue without a location) is returned whole.
    static func failure(_ text: String) -> TestResult.Failure {
        let utf8 = text.utf8
        var index = utf8.startIndex
        while let colon = utf8[index...].firstIndex(of: UInt8(ascii: ":")) {
            var cursor = utf8.index(after: colon)
            var line = 0
            var digits = 0
            while cursor < utf8.endIndex, let byte = Optional(utf8[cursor]), byte >= 0x30, byte <= 0x39, digits < 9 {
                line = line * 10 + Int(byte - 0x30)
                digits += 1
                cursor = utf8.index(after: cursor)
            }
            let file = String(text[text.startIndex..<colon])
            if digits > 0, cursor < utf8.endIndex, utf8[cursor] == UInt8(ascii: ":"), looksLikeFile(file) {
                var start = utf8.index(after: cursor)
                if start < utf8.endIndex, utf8[start] == UInt8(ascii: " ") { start = utf8.index(after: start) }
                return TestResult.Failure(message: String(text[start...]), file: file, line: line)
            }
            // A file name holds no ": ", so a colon followed by a space ends the search.
            if cursor < utf8.endIndex, utf8[cursor] == UInt8(ascii: " ") { break }
            index = utf8.index(after: colon)
        }
        return TestResult.Failure(message: text)
    }

    /// A source file name: something with an extension and no spaces around it.
    private static func looksLikeFile(_ text: String) -> Bool {
        guard let dot = text.lastIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex else { return false }
        return !text.hasPrefix(" ") && !text.hasSuffix(" ") && !text.contains("\n")
    }
}
