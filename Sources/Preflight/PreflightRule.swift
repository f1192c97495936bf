/// One check of `slipway preflight`: a small value with an id, what it checks and where Apple
/// says so. Offline rules read the checkout only; rules that `needsAppStoreConnect` read the
/// facts the runner fetched with the key, and are skipped (and said so) without one.
public protocol PreflightRule: Sendable {
    /// A stable id, kebab-case (`version-format`), used in output, JSON and docs/preflight.md.
    var id: String { get }
    /// One line: what the rule checks.
    var summary: String { get }
    /// Apple's document (URL) or the ITMS error the rule prevents.
    var citation: String { get }
    /// True when the rule reads App Store Connect (it runs only when a key is given).
    var needsAppStoreConnect: Bool { get }
    /// Why the rule cannot run with what it was given (no metadata folder, no profiles), or nil.
    func skipReason(_ context: PreflightContext) -> String?
    /// The findings; every problem, not the first. Throws only when the rule cannot decide at
    /// all (the runner turns that into a finding naming the rule).
    func check(_ context: PreflightContext) throws -> [PreflightFinding]
}

extension PreflightRule {
    /// Runs whenever its kind of input is there.
    public func skipReason(_ context: PreflightContext) -> String? { nil }

    /// A finding of this rule, with its citation.
    func finding(_ severity: PreflightSeverity, at location: PreflightLocation, _ message: String, advice: String,
                 citation: String? = nil) -> PreflightFinding {
        PreflightFinding(rule: id, severity: severity, location: location, message: message, advice: advice,
                         citation: citation ?? self.citation)
    }
}
