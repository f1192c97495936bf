/// Where an archive is written: bytes are appended, and headers already written may be patched
/// in place (a zip's local headers get their CRC and sizes once the data is written).
/// Publish's atomic files are one; a writer never commits or closes it.
public protocol ArchiveOutput: AnyObject {
    /// Bytes written so far (the offset of the next `write`).
    var offset: Int64 { get }
    /// Appends bytes.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Overwrites bytes already written, at `offset`.
    func overwrite(_ bytes: [UInt8], at offset: Int64) throws
}

extension ArchiveOutput {
    /// Appends bytes.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }
}

/// Where the bytes of an entry's source file come from, in chunks, never whole (a release
/// artifact may be hundreds of megabytes).
public protocol ArchiveInputs {
    /// Calls `body` with the bytes of the file at `path`, chunk by chunk, in order.
    func forEachChunk(ofFile path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws
}

/// How an archive is written: what its entries claim, not what they hold.
public struct ArchiveSettings: Sendable, Hashable {
    /// The archive's path, named in errors.
    public var output: String
    /// The modification time stored for every entry, in seconds since 1970.
    public var modificationTime: Int64
    /// zlib's level, 0...9.
    public var compressionLevel: Int

    /// Creates settings.
    public init(output: String, modificationTime: Int64, compressionLevel: Int) {
        self.output = output
        self.modificationTime = modificationTime
        self.compressionLevel = compressionLevel
    }
}
