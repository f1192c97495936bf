import Basics
import Crypto
import Foundation

/// SHA-256 (and MD5, for S3 ETags) of files, streamed in 1 MiB chunks: a file of any size costs
/// one chunk of memory.
public struct FileHasher: Sendable {
    private let streams: any FileStreams

    /// A hasher reading through `streams`.
    public init(streams: any FileStreams) {
        self.streams = streams
    }

    /// The SHA-256 of the file at `path`, lower-case hex.
    /// - Throws: `FileSystemError` when it cannot be read.
    public func sha256(of path: String) throws -> String {
        var hasher = SHA256()
        try streams.openForReading(path).forEachChunk { hasher.update(bufferPointer: $0) }
        return hasher.finalize().hexString
    }

    /// The MD5 of the file at `path`, lower-case hex (what S3 reports as a single-part ETag).
    /// - Throws: `FileSystemError` when it cannot be read.
    public func md5(of path: String) throws -> String {
        var hasher = Insecure.MD5()
        try streams.openForReading(path).forEachChunk { hasher.update(bufferPointer: $0) }
        return hasher.finalize().hexString
    }
}
