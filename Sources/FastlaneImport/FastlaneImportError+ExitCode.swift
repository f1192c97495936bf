import Basics

extension FastlaneImportError: ExitCodeProviding {
    /// A Fastfile or project that cannot be imported is bad input (`Basics.FailureKind`).
    public var failureKind: FailureKind { .invalidInput }
}
