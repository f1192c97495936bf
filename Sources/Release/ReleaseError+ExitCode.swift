import Basics

extension ReleaseError: ExitCodeProviding {
    /// Nothing to release has its own exit code (4); every other release error is bad input
    /// (tags, strategy, version files).
    public var failureKind: FailureKind {
        if case .nothingToRelease = self { return .nothingToRelease }
        return .invalidInput
    }
}
