import Foundation

/// Why screenshots could not be read, checked, sent or fetched. Each message names the file,
/// folder or screenshot and says what to do.
public enum ScreenshotError: Error, LocalizedError, Sendable, Equatable {
    /// The screenshots folder does not exist or is not a directory.
    case noFolder(path: String)
    /// The folder breaks Apple's rules (sizes, formats, counts) or deliver's layout; every
    /// problem found, one per line. Nothing was sent.
    case invalidFolder(path: String, problems: [String])
    /// Apple processed screenshots as FAILED (with its errors), or did not finish in time; the
    /// other screenshots were sent.
    case processingFailed(problems: [String])
    /// Apple's answer lacks what the flow needs.
    case unexpectedAnswer(step: String, problem: String)
    /// A download was larger than slipway accepts.
    case downloadTooLarge(url: String, limit: Int)

    public var errorDescription: String? {
        switch self {
        case .noFolder(let path):
            return "'\(path)' is not a folder. Give deliver's screenshots folder (fastlane/screenshots, one folder per locale), "
                + "or run 'pull' first to create it."
        case let .invalidFolder(path, problems):
            return "the screenshots in '\(path)' have \(problems.count) problem\(problems.count == 1 ? "" : "s"); nothing was sent:\n"
                + problems.map { "  - " + $0 }.joined(separator: "\n")
        case .processingFailed(let problems):
            return "App Store Connect did not accept \(problems.count) screenshot\(problems.count == 1 ? "" : "s"):\n"
                + problems.map { "  - " + $0 }.joined(separator: "\n")
                + "\nFix the files Apple refused and run again: screenshots it accepted are not sent again."
        case let .unexpectedAnswer(step, problem):
            return "App Store Connect's answer to \(step) lacks what the screenshot sync needs: \(problem)."
        case let .downloadTooLarge(url, limit):
            return "the screenshot at '\(url)' is larger than the \(limit) bytes slipway downloads for one image; nothing was written. "
                + "Check that the App Store Connect address is Apple's."
        }
    }
}
