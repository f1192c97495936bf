import Basics

extension PluginError: ExitCodeProviding {
    /// A plugin that cannot be found or used is bad input (`Basics.FailureKind`).
    public var failureKind: FailureKind { .invalidInput }
}
