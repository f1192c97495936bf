import Basics

// What the lanes' errors mean for the CLI's exit code (`Basics.FailureKind`): a lane file, a
// lane's inputs or a hand-over record that is wrong is bad input; nothing ran.

extension LaneStoreError: ExitCodeProviding {
    /// A lane file that cannot be found or read.
    public var failureKind: FailureKind { .invalidInput }
}

extension LaneRunError: ExitCodeProviding {
    /// A lane that cannot be run as asked (unknown lane, missing input or secret).
    public var failureKind: FailureKind { .invalidInput }
}

extension HandOverError: ExitCodeProviding {
    /// A hand-over record that cannot be used.
    public var failureKind: FailureKind { .invalidInput }
}
