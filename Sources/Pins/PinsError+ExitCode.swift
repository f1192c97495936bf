import Basics

extension PinsError: ExitCodeProviding {
    /// A missing or unreadable Toolfile or lockfile and unknown names are bad input; everything
    /// else (drift, a moved tag, a bad checksum) is a failure (`Basics.FailureKind`).
    public var failureKind: FailureKind {
        switch self {
        case .toolfileNotFound, .lockfileNotFound, .lockfileCorrupt, .lockfileUnsupportedVersion, .unknownTool,
             .archiveNeedsExactVersion, .malformedDependencyFile, .unsupportedDependencyFileVersion:
            return .invalidInput
        default:
            return .failed
        }
    }
}
