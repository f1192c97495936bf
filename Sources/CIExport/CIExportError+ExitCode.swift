import Basics

extension CIExportError: ExitCodeProviding {
    /// A lane that cannot be exported as asked is bad input (`Basics.FailureKind`).
    public var failureKind: FailureKind { .invalidInput }
}
