import Foundation

/// Why an archive could not be written.
public enum ArchiveError: Error, Equatable, LocalizedError {
    /// zlib failed, or an input changed size while it was being archived.
    case compressionFailed(path: String, reason: String)
    /// A name inside a zip needs more than the 65535 bytes a zip entry can hold.
    case nameTooLong(name: String, bytes: Int)
    /// An entry, or the archive, passes the 4 GiB a zip without zip64 can hold.
    case tooLargeForZip(path: String)

    /// The subject the message names first (a path or an entry name).
    public var subject: String {
        switch self {
        case .compressionFailed(let path, _): return path
        case .nameTooLong(let name, _): return String(name.prefix(60)) + "..."
        case .tooLargeForZip(let path): return path
        }
    }

    /// What is wrong with the subject and what to do, after its quoted name.
    public var problem: String {
        switch self {
        case .compressionFailed(_, let reason): return reason
        case .nameTooLong(_, let bytes):
            return "is \(bytes) bytes long as a name inside the archive, more than the 65535 a zip entry can hold. Use a shorter prefix or path"
        case .tooLargeForZip:
            return "is too large for a zip archive without zip64 (4 GiB). Use a .tar.gz archive instead"
        }
    }

    public var errorDescription: String? {
        switch self {
        case .compressionFailed(let path, let reason): return "could not compress '\(path)': \(reason)."
        case .nameTooLong, .tooLargeForZip: return "'\(subject)' \(problem)."
        }
    }
}
