import Basics
import Crypto
import Foundation

/// The container format of an archive.
public enum ArchiveFormat: String, Sendable, Hashable, CaseIterable {
    /// A ustar/pax tar stream, gzip-compressed.
    case tarGzip = "tar.gz"
    /// A zip file, entries deflated.
    case zip

    /// The format a file name implies (`.tar.gz`, `.tgz`, `.zip`), or nil.
    public init?(fileName: String) {
        let lower = fileName.lowercased()
        if lower.hasSuffix(".tar.gz") || lower.hasSuffix(".tgz") { self = .tarGzip }
        else if lower.hasSuffix(".zip") { self = .zip }
        else { return nil }
    }
}

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
    ///   `PublishError.compressionFailed`; nothing is left at `output` then.
    public func write(_ request: ArchiveRequest, progress: ByteProgressHandler? = nil) throws -> ArchiveResult {
        let file = try streams.createAtomically(request.output, permissions: 0o644)
        let total = request.entries.reduce(Int64(0)) { $0 + $1.size }
        let meter = ProgressMeter(total: total, handler: progress)
        let sha256: String
        switch request.format {
        case .tarGzip:
            sha256 = try writeTarGzip(request, to: file, meter: meter)
        case .zip:
            try ZipWriter(file: file, streams: streams, request: request, meter: meter).write()
            sha256 = ""
        }
        let size = file.offset
        try file.commit()
        let digest = sha256.isEmpty ? try FileHasher(streams: streams).sha256(of: request.output) : sha256
        return ArchiveResult(path: request.output, sha256: digest, size: size, entryCount: request.entries.count)
    }

    private func writeTarGzip(_ request: ArchiveRequest, to file: any AtomicWritableFile, meter: ProgressMeter) throws -> String {
        var hasher = SHA256()
        let gzip = try GzipWriter(level: request.compressionLevel, subject: request.output) { chunk in
            hasher.update(bufferPointer: chunk)
            try file.write(chunk)
        }
        var tarLength: Int64 = 0
        func emit(_ bytes: [UInt8]) throws {
            try gzip.write(bytes)
            tarLength += Int64(bytes.count)
        }
        for entry in request.entries {
            try emit(TarHeader.blocks(for: entry, mtime: request.modificationTime))
            guard case .file(let source, let size) = entry.content else { continue }
            let input = try streams.openForReading(source)
            var copied: Int64 = 0
            try input.forEachChunk { chunk in
                let usable = UnsafeRawBufferPointer(rebasing: chunk.prefix(Int(min(Int64(chunk.count), size - copied))))
                try gzip.write(usable)
                copied += Int64(usable.count)
                meter.advance(by: Int64(usable.count))
            }
            // A file that shrank while being read would corrupt the tar stream; refuse it.
            guard copied == size else {
                throw PublishError.compressionFailed(path: source, reason: "it changed size while being archived")
            }
            tarLength += size
            try emit(TarHeader.padding(after: size))
        }
        try emit(TarHeader.trailer(archiveLength: tarLength))
        try gzip.finish()
        return hasher.finalize().hexString
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

/// The gzip container (RFC 1952) around a raw deflate stream, with a fixed header: no name,
/// modification time 0, OS byte 255, so that output never depends on the host or the clock.
final class GzipWriter {
    private let deflater: Deflater
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private var crc = CRC32()
    private var length: UInt64 = 0

    init(level: Int, subject: String, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        deflater = try Deflater(level: level, subject: subject)
        self.sink = sink
        // ID1 ID2, CM=deflate, FLG=0, MTIME=0 (4 bytes), XFL=0, OS=255 (unknown).
        let header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]
        try header.withUnsafeBytes { try sink($0) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        crc.update(bytes)
        length += UInt64(bytes.count)
        try deflater.compress(bytes, finish: false, to: sink)
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    func finish() throws {
        try deflater.compress([], finish: true, to: sink)
        // CRC-32 and the length modulo 2^32, both little-endian.
        var trailer = ByteWriter()
        trailer.uint32LE(crc.value)
        trailer.uint32LE(UInt32(truncatingIfNeeded: length))
        try trailer.bytes.withUnsafeBytes { try sink($0) }
    }
}
