import Basics

extension SyncError: ExitCodeProviding {
    /// Refusals before anything changed are bad input; failures during the sync or a recovery
    /// are failures (`Basics.FailureKind`).
    public var failureKind: FailureKind {
        switch self {
        case .applyFailed, .recoveryFailed, .backupDamaged, .git: return .failed
        default: return .invalidInput
        }
    }
}
