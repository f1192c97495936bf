import Foundation

/// Why devices to register were refused before anything was sent. Each message names the file,
/// line or option and says what to fix.
public enum DeviceInputError: Error, LocalizedError, Sendable, Equatable {
    /// The devices file could not be read.
    case unreadable(file: String, reason: String)
    /// The devices file is larger than `DeviceFile.maximumBytes`.
    case tooLarge(file: String, limit: Int)
    /// Lines of the devices file are wrong: every problem, as `file:line: what to fix`.
    case invalidFile(file: String, problems: [String])
    /// A device given with options is wrong.
    case invalidDevice(option: String, problem: String)

    public var errorDescription: String? {
        switch self {
        case let .unreadable(file, reason):
            return "cannot read the devices file '\(file)': \(reason). Give the path of a tab-separated devices file."
        case let .tooLarge(file, limit):
            return "the devices file '\(file)' is larger than \(limit / 1024) KiB; a devices file lists at most a few hundred devices. "
                + "Check that it is the right file."
        case let .invalidFile(file, problems):
            return "\(problems.count) problem\(problems.count == 1 ? "" : "s") in '\(file)'; nothing was registered:\n"
                + problems.map { "  " + $0 }.joined(separator: "\n")
        case let .invalidDevice(option, problem):
            return "\(option): \(problem)"
        }
    }
}
