import Basics
import Foundation

/// Downloads an archive, hashes it, unpacks it and hashes the executable inside: the work both
/// `lock` (to learn the checksums) and `install` (to check them) do for archive tools.
struct ArchiveFetcher: Sendable {
    let context: PinsContext
    let events: PinsEventHandler?

    /// An archive on disk, unpacked.
    struct Fetched: Sendable {
        /// The SHA-256 of the archive as downloaded.
        var archiveSHA256: String
        /// The unpacked folder.
        var payload: String
        /// The executable inside `payload`.
        var executable: String
        /// Its SHA-256.
        var executableSHA256: String
    }

    /// Downloads `url` into `folder`, checks it against `expectedSHA256` when given (before
    /// unpacking anything), unpacks it into `folder/payload` and finds the executable.
    /// - Throws: `PinsError.networkUnavailable`, `.downloadFailed`, `.downloadStopped` (a download
    ///   limit broken; the partial file is gone), `.checksumMismatch`, the
    ///   unpacker's errors, `.executableMissing`.
    func fetch(tool: String, url: String, executable: String, expectedSHA256: String?, in folder: String) async throws
        -> Fetched {
        guard let parsed = URL(string: url), parsed.scheme != nil else {
            throw PinsError.downloadFailed(tool: tool, url: url, reason: "it is not a valid URL")
        }
        guard ArchiveURLPolicy.allows(url) else { throw PinsError.refusedScheme(tool: tool, url: url) }
        guard let http = context.http else { throw PinsError.networkUnavailable(tool: tool) }
        let archive = folder + "/archive"
        let events = self.events
        let response: HTTPResponse
        do {
            response = try await http.download(HTTPRequest(url: parsed), to: archive) { progress in
                events?(.downloading(tool: tool, url: url, progress: progress))
            }
        } catch let error as HTTPError {
            switch error {
            case .responseTooLarge, .stalled: throw PinsError.downloadStopped(tool: tool, reason: errorText(error))
            default: throw PinsError.downloadFailed(tool: tool, url: url, reason: errorText(error))
            }
        } catch {
            throw PinsError.downloadFailed(tool: tool, url: url, reason: errorText(error))
        }
        guard response.isSuccess else {
            throw PinsError.downloadFailed(tool: tool, url: url, reason: "the server answered HTTP \(response.status)")
        }
        let archiveSHA256 = try context.files.sha256(ofFile: archive)
        if let expectedSHA256, expectedSHA256 != archiveSHA256 {
            throw PinsError.checksumMismatch(tool: tool, subject: "The archive '\(url)'", expected: expectedSHA256,
                                             found: archiveSHA256)
        }
        let payload = folder + "/payload"
        try context.fileSystem.createDirectory(payload)
        try await ArchiveUnpacker(context: context).unpack(archive, url: url, into: payload)
        let path = payload + "/" + executable
        guard context.fileSystem.kind(of: path) == .file || context.fileSystem.isExecutable(path) else {
            throw PinsError.executableMissing(tool: tool, path: executable)
        }
        if !context.fileSystem.isExecutable(path) { try context.files.makeExecutable(path) }
        try context.fileSystem.remove(archive)
        return Fetched(archiveSHA256: archiveSHA256, payload: payload, executable: path,
                       executableSHA256: try context.files.sha256(ofFile: path))
    }
}
