import Basics

// What Signing's errors mean for the CLI's exit code (`Basics.FailureKind`).

extension DeviceInputError: ExitCodeProviding {
    /// A devices file that is wrong; `.stopped` (registering stopped part-way) is a failure.
    public var failureKind: FailureKind {
        if case .stopped = self { return .failed }
        return .invalidInput
    }
}

extension SigningStorageError: ExitCodeProviding {
    /// A storage address that cannot be parsed is bad input; what the storage holds or
    /// answers is a failure.
    public var failureKind: FailureKind {
        if case .invalidLocation = self { return .invalidInput }
        return .failed
    }
}
