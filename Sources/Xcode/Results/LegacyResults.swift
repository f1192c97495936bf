import Foundation

/// A value of the legacy (Xcode 11–15) `xcresulttool get --format json` output, where every
/// value is wrapped with its type: `{"_type":{"_name":"String"},"_value":"x"}`, arrays as
/// `{"_values":[...]}`, objects as their fields plus `_type`.
enum LegacyValue: Decodable, Sendable {
    case object([String: LegacyValue])
    case array([LegacyValue])
    case scalar(String)
    case other

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: Key.self) {
            if container.contains(Key(stringValue: "_values")) {
                self = .array(try container.decode([LegacyValue].self, forKey: Key(stringValue: "_values")))
            } else if container.contains(Key(stringValue: "_value")) {
                let value = try container.decode(LegacyValue.self, forKey: Key(stringValue: "_value"))
                self = value
            } else {
                var fields: [String: LegacyValue] = [:]
                for key in container.allKeys where key.stringValue != "_type" {
                    fields[key.stringValue] = try container.decode(LegacyValue.self, forKey: key)
                }
                self = .object(fields)
            }
        } else if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .scalar(text)
        } else if let number = try? decoder.singleValueContainer().decode(Double.self) {
            self = .scalar(String(number))
        } else if let values = try? decoder.singleValueContainer().decode([LegacyValue].self) {
            self = .array(values)
        } else {
            self = .other
        }
    }

    subscript(_ key: String) -> LegacyValue? {
        if case .object(let fields) = self { return fields[key] } else { return nil }
    }

    var string: String? { if case .scalar(let text) = self { text } else { nil } }
    var values: [LegacyValue] { if case .array(let values) = self { values } else { [] } }
}

/// Reads the legacy result-bundle objects: the invocation record's test references, the test
/// plan run summaries' test tree and each failed test's summary.
enum LegacyResults {
    /// `actions[].actionResult.testsRef.id`, with the run destination's name.
    static func testReferences(_ record: LegacyValue) -> [(id: String, device: String?)] {
        record["actions"]?.values.compactMap { action in
            guard let id = action["actionResult"]?["testsRef"]?["id"]?.string else { return nil }
            return (id, action["runDestination"]?["displayName"]?.string)
        } ?? []
    }

    /// One leaf (`ActionTestMetadata`) of the test tree, before its failures are fetched.
    struct Leaf: Sendable {
        var identifier: TestResult.Identifier
        /// The test plan configuration, bundle and test: leaves with the same key are runs of
        /// one test (repetitions or retries, which xcodebuild lists one after the other).
        var key: String
        var status: String
        var duration: Double?
        var summaryID: String?
        /// The leaf's JSON path (`summaries[0].testableSummaries[1].tests[0].subtests[3]`), for errors.
        var path: String
    }

    /// The leaves of `ActionTestPlanRunSummaries`, in document order: bundle from each testable
    /// summary, suite from the groups above the leaf (the testable's own group and the
    /// "All tests"/"Selected tests" wrappers left out). The same test in two test plan
    /// configurations is two tests, never two runs of one.
    static func leaves(_ summaries: LegacyValue, configurations: inout [String]) -> [Leaf] {
        var leaves: [Leaf] = []
        for (planIndex, plan) in (summaries["summaries"]?.values ?? []).enumerated() {
            if let name = plan["name"]?.string, !configurations.contains(name) { configurations.append(name) }
            for (testableIndex, testable) in (plan["testableSummaries"]?.values ?? []).enumerated() {
                let bundle = testable["targetName"]?.string ?? testable["name"]?.string ?? ""
                let path = "summaries[\(planIndex)].testableSummaries[\(testableIndex)].tests"
                for (index, test) in (testable["tests"]?.values ?? []).enumerated() {
                    walk(test, bundle: bundle, plan: planIndex, groups: [], path: path + "[\(index)]", into: &leaves)
                }
            }
        }
        return leaves
    }

    private static func walk(_ node: LegacyValue, bundle: String, plan: Int, groups: [String], path: String, into leaves: inout [Leaf]) {
        if let subtests = node["subtests"] {
            var groups = groups
            let name = node["name"]?.string ?? ""
            let isWrapper = name == "All tests" || name == "Selected tests" || name.hasSuffix(".xctest") || name == bundle
            if !isWrapper, !name.isEmpty { groups.append(name) }
            for (index, child) in subtests.values.enumerated() {
                walk(child, bundle: bundle, plan: plan, groups: groups, path: path + ".subtests[\(index)]", into: &leaves)
            }
            return
        }
        guard let status = node["testStatus"]?.string else { return }
        let name = node["name"]?.string ?? ""
        let identifier = TestResult.Identifier(bundle: bundle, suite: groups.joined(separator: "."), name: name)
        leaves.append(Leaf(identifier: identifier, key: "\(plan)/" + bundle + "/" + (node["identifier"]?.string ?? name), status: status,
                           duration: node["duration"]?.string.flatMap(Double.init), summaryID: node["summaryRef"]?["id"]?.string,
                           path: path))
    }

    /// The leaves grouped by test (`Leaf.key`), in the order each test first appears.
    static func grouped(_ leaves: [Leaf]) -> [[Leaf]] {
        var order: [String] = []
        var runs: [String: [Leaf]] = [:]
        for leaf in leaves {
            if runs[leaf.key] == nil { order.append(leaf.key) }
            runs[leaf.key, default: []].append(leaf)
        }
        return order.compactMap { runs[$0] }
    }

    /// The failures of an `ActionTestSummary` (`failureSummaries[]`: message, fileName, lineNumber).
    static func failures(_ summary: LegacyValue) -> [TestResult.Failure] {
        (summary["failureSummaries"]?.values ?? []).map { failure in
            let file = failure["fileName"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            return TestResult.Failure(message: failure["message"]?.string ?? "(no message)", file: file,
                                      line: failure["lineNumber"]?.string.flatMap { Double($0) }.map { Int($0) })
        }
    }

    /// Leaves of the same test (repetitions, retries) folded into one result: flaky when an
    /// earlier run failed and the last passed.
    /// - Throws: `TestNodeTree.Unreadable` for a `testStatus` slipway does not know.
    static func result(_ runs: [Leaf], failures: [TestResult.Failure], device: String?) throws -> TestResult {
        let statuses = runs.map(\.status)
        for run in runs where !["Success", "Failure", "Skipped", "Expected Failure"].contains(run.status) {
            throw TestNodeTree.Unreadable(path: run.path + ".testStatus",
                                          reason: "test '\(run.identifier.name)' has the status '\(run.status)', which slipway does not know")
        }
        var outcome: TestResult.Outcome
        switch statuses.last {
        case "Success": outcome = statuses.dropLast().contains("Failure") ? .flaky : .passed
        case "Skipped": outcome = .skipped
        case "Expected Failure": outcome = .expectedFailure
        default: outcome = .failed
        }
        let seconds = runs.compactMap(\.duration)
        return TestResult(identifier: runs[0].identifier, outcome: outcome, duration: seconds.isEmpty ? nil : seconds.reduce(0, +),
                          failures: failures, runs: runs.count, device: device)
    }
}
