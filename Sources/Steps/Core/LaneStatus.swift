/// How the run stands when a step starts: what `${{ lane.status }}`, `${{ lane.failed-step }}`
/// and `${{ lane.error }}` read, and what a `finally:` step (a `notify` about the run) sees in
/// its context without being told.
public struct LaneStatus: Sendable, Hashable, Codable {
    /// How the run stands.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// No step has failed (so far).
        case success
        /// A step failed (one that was not `continue-on-error`).
        case failure
        /// The run was interrupted.
        case cancelled
    }

    /// The names `lane.NAME` accepts in expressions.
    public static let fields = ["name", "status", "failed-step", "error"]

    /// The lane's name.
    public var lane: String
    /// How the run stands.
    public var outcome: Outcome
    /// The id of the first step that failed, if one did.
    public var failedStep: String?
    /// That step's error, secrets masked.
    public var error: String?

    /// A status.
    public init(lane: String = "", outcome: Outcome = .success, failedStep: String? = nil, error: String? = nil) {
        self.lane = lane
        self.outcome = outcome
        self.failedStep = failedStep
        self.error = error
    }

    /// The value of `lane.FIELD` (empty for a field with no value, such as `failed-step` while
    /// nothing failed); nil for an unknown field.
    public func value(of field: String) -> String? {
        switch field {
        case "name": return lane
        case "status": return outcome.rawValue
        case "failed-step": return failedStep ?? ""
        case "error": return error ?? ""
        default: return nil
        }
    }
}
