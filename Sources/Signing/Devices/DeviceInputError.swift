import Foundation

/// Why devices to register were refused before anything was sent (each message names the file,
/// line or option and says what to fix), or why registering stopped part way.
public enum DeviceInputError: Error, LocalizedError, Sendable, Hashable {
    /// The devices file could not be read.
    case unreadable(file: String, reason: String)
    /// The devices file is larger than `DeviceFile.maximumBytes`.
    case tooLarge(file: String, limit: Int)
    /// Lines of the devices file are wrong: every problem, as `file:line: what to fix`.
    case invalidFile(file: String, problems: [String])
    /// App Store Connect refused a device after others were registered or changed (`done`, which
    /// stay so); `reason` is the refusal's message.
    case stopped(done: [DeviceRegistrationItem], reason: String)

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
        case let .stopped(done, reason):
            let count = done.filter { $0.action != .alreadyRegistered }.count
            return reason + "\nRegistering stopped there; \(count) device\(count == 1 ? " was" : "s were") registered or changed before "
                + "(listed above) and stay\(count == 1 ? "s" : "") so. Run the command again once that is fixed: it skips them."
        }
    }
}
