import Archives
import Basics
import Crypto
import Foundation

/// What to archive and how.
public struct ArchiveRequest: Sendable {
    /// The archive's absolute path.
    public var output: String
    /// Its format.
    public var format: ArchiveFormat
    /// The entries, in the order they are written (`ArchiveLayout` sorts them).
    public var entries: [ArchiveEntry]
    /// The modification time stored for every entry, in seconds since 1970 (0, or
    /// SOURCE_DATE_EPOCH, for reproducible builds).
    public var modificationTime: Int64
    /// zlib's level, 0...9.
    public var compressionLevel: Int

    /// Creates a request.
    public init(output: String, format: ArchiveFormat, entries: [ArchiveEntry], modificationTime: Int64 = 0,
                compressionLevel: Int = 6) {
        self.output = output
        self.format = format
        self.entries = entries
        self.modificationTime = modificationTime
        self.compressionLevel = compressionLevel
    }
}

/// What was written.
public struct ArchiveResult: Sendable, Hashable {
    /// The archive's path.
    public var path: String
    /// The SHA-256 of the archive, lower-case hex.
    public var sha256: String
    /// Its size in bytes.
    public var size: Int64
    /// How many entries it holds.
    public var entryCount: Int
}

/// Called with the input bytes archived so far and the total.
public typealias ByteProgressHandler = @Sendable (_ completed: Int64, _ total: Int64) -> Void

/// Writes reproducible archives: the same entries and settings give the same bytes, on any
/// machine, at any time. Inputs are streamed in 1 MiB chunks; the archive appears at its path
/// only once complete (written beside it, then renamed).
public struct Archiver: Sendable {
    private let streams: any FileStreams

    /// An archiver reading and writing through `streams`.
    public init(streams: any FileStreams) {
        self.streams = streams
    }

    /// Writes the archive.
    /// - Throws: `FileSystemError` for unreadable inputs or an unwritable output,
    ///   `PublishError.compressionFailed`, `.invalidConfiguration` (a zip entry's name or size
    ///   over zip's limits); nothing is left at `output` then.
    public func write(_ request: ArchiveRequest, progress: ByteProgressHandler? = nil) throws -> ArchiveResult {
        let file = try streams.createAtomically(request.output, permissions: 0o644)
        let total = request.entries.reduce(Int64(0)) { $0 + $1.size }
        let meter = ProgressMeter(total: total, handler: progress)
        let settings = ArchiveSettings(output: request.output, modificationTime: request.modificationTime,
                                       compressionLevel: request.compressionLevel)
        let inputs = StreamInputs(streams: streams)
        var sha256 = ""
        do {
            switch request.format {
            case .tarGzip:
                var hasher = SHA256()
                try TarGzipWriter(inputs: inputs, settings: settings, advance: meter.advance(by:)).write(request.entries) { chunk in
                    hasher.update(bufferPointer: chunk)
                    try file.write(chunk)
                }
                sha256 = hasher.finalize().hexString
            case .zip:
                try ZipWriter(output: file, inputs: inputs, settings: settings, advance: meter.advance(by:)).write(request.entries)
            }
        } catch let error as ArchiveError {
            throw PublishError(error)
        }
        let size = file.offset
        try file.commit()
        let digest = sha256.isEmpty ? try FileHasher(streams: streams).sha256(of: request.output) : sha256
        return ArchiveResult(path: request.output, sha256: digest, size: size, entryCount: request.entries.count)
    }
}

/// Entries' files read through `FileStreams`, in 1 MiB chunks.
private struct StreamInputs: ArchiveInputs {
    let streams: any FileStreams

    func forEachChunk(ofFile path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try streams.openForReading(path).forEachChunk(body)
    }
}

extension PublishError {
    /// The archive writer's error, with the message it always had.
    init(_ error: ArchiveError) {
        switch error {
        case .compressionFailed(let path, let reason): self = .compressionFailed(path: path, reason: reason)
        case .nameTooLong, .tooLargeForZip: self = .invalidConfiguration(name: error.subject, problem: error.problem)
        }
    }
}

/// Reports progress at most every 1% (or every 8 MiB, whichever is larger), not per chunk.
final class ProgressMeter: @unchecked Sendable {
    private let total: Int64
    private let handler: ByteProgressHandler?
    private let step: Int64
    private var completed: Int64 = 0
    private var lastReported: Int64 = 0

    init(total: Int64, handler: ByteProgressHandler?) {
        self.total = total
        self.handler = handler
        self.step = max(total / 100, 8 << 20)
    }

    func advance(by count: Int64) {
        completed += count
        guard let handler, completed - lastReported >= step || completed == total else { return }
        lastReported = completed
        handler(completed, total)
    }
}

