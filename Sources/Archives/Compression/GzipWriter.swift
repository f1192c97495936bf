import Foundation

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
