import Basics

// What AppleAPI's errors mean for the CLI's exit code (`Basics.FailureKind`): a key, a folder or
// a file that is wrong before anything is sent is bad input (exit 2); what App Store Connect
// answers, and a run stopped part-way, is a failure (exit 1).

extension AppStoreConnectKeyError: ExitCodeProviding {
    /// A key that cannot be read or whose ids are malformed.
    public var failureKind: FailureKind { .invalidInput }
}

extension AppStoreListingError: ExitCodeProviding {
    /// The listing folder or its texts are wrong (checked before anything is sent); the
    /// version and app-info states are App Store Connect's answer.
    public var failureKind: FailureKind {
        switch self {
        case .folderMissing, .unknownLocaleFolder, .unknownLocale, .invalidTexts, .nameRequired, .unsafeFile: return .invalidInput
        default: return .failed
        }
    }
}

extension ScreenshotError: ExitCodeProviding {
    /// The screenshots folder is missing or wrong; processing and answers are failures.
    public var failureKind: FailureKind {
        switch self {
        case .noFolder, .invalidFolder: return .invalidInput
        default: return .failed
        }
    }
}

extension BetaTesterInputError: ExitCodeProviding {
    /// A testers file, a group or a limit that is wrong; `.stopped` (a run stopped part-way by
    /// App Store Connect) is a failure.
    public var failureKind: FailureKind {
        if case .stopped = self { return .failed }
        return .invalidInput
    }
}
