import Basics

extension LintError: ExitCodeProviding {
    /// A path that is no project, or a configuration that is wrong: bad input.
    public var failureKind: FailureKind { .invalidInput }
}
