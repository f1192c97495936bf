import Foundation

/// Why fastlane's files could not be read.
public enum FastlaneImportError: Error, Equatable, LocalizedError {
    /// The Ruby could not be split into statements.
    case syntax(file: String, line: Int, column: Int, problem: String)
    /// No Fastfile where fastlane looks for one.
    case noFastfile(directory: String)
    /// A file is larger than a Fastfile ever is.
    case tooLarge(file: String, limit: Int)
    /// A file is a link that leads out of the project, or cannot be read.
    case unreadable(file: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .syntax(let file, let line, let column, let problem):
            return "\(file):\(line):\(column): \(problem); Slipway reads Fastfiles without running them, so fix the file (does 'ruby -c \(file)' accept it?) or translate that lane by hand"
        case .noFastfile(let directory):
            return "no Fastfile in \(directory)/fastlane or \(directory)/.fastlane; run 'slipway init --from-fastlane' in the folder that holds the fastlane folder"
        case .tooLarge(let file, let limit):
            return "\(file) is larger than \(limit / 1024) KiB; Slipway does not read fastlane files that large"
        case .unreadable(let file, let reason):
            return "cannot read \(file): \(reason)"
        }
    }
}
