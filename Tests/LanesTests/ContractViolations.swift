import Testing

/// Records the App Store Connect contract fake's violations as a test issue: every fake passes
/// this as `onViolations`, so violations nobody acknowledged fail the test that made them.
@Sendable func recordContractViolations(_ violations: [String]) {
    Issue.record(Comment(rawValue: "App Store Connect contract violations:\n" + violations.joined(separator: "\n")))
}
