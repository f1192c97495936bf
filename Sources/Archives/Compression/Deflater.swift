import CZlib
import Foundation

/// A raw deflate stream (RFC 1951) over the system's zlib. Owns the zlib state, which must not
/// move while in use, hence a class that frees it in `deinit`. Output depends only on the
/// input and the level, so archives are byte-identical run to run.
final class Deflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    private let subject: String

    /// A deflater at `level` (0 none ... 9 best; zlib's default 6 matches gzip's).
    /// - Throws: `ArchiveError.compressionFailed` naming `subject` when zlib cannot start.
    init(level: Int, subject: String, outputSize: Int = 1 << 18) throws {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = UnsafeMutableRawBufferPointer.allocate(byteCount: outputSize, alignment: 16)
        self.subject = subject
        // windowBits -15: raw deflate, no zlib or gzip wrapper; callers write their own framing.
        let status = deflateInit2_(stream, Int32(level), Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                                   zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            output.deallocate()
            throw ArchiveError.compressionFailed(path: subject, reason: "zlib could not start (status \(status))")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
        output.deallocate()
    }

    /// Compresses `input`, handing compressed bytes to `sink` as they come; with `finish`, ends
    /// the stream (call once, last).
    func compress(_ input: UnsafeRawBufferPointer, finish: Bool,
                  to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        stream.pointee.next_in = input.baseAddress.map {
            UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self))
        }
        stream.pointee.avail_in = uInt(input.count)
        while true {
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(output.count)
            let status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw ArchiveError.compressionFailed(path: subject, reason: "zlib failed (status \(status))")
            }
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0 { try sink(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
            if finish {
                if status == Z_STREAM_END { return }
            } else if stream.pointee.avail_out != 0 {
                return
            }
        }
    }

    /// Compresses a byte array (small inputs: headers, link targets).
    func compress(_ bytes: [UInt8], finish: Bool, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try bytes.withUnsafeBytes { try compress($0, finish: finish, to: sink) }
    }
}

/// CRC-32 (the one gzip and zip use), over zlib's implementation.
struct CRC32 {
    private(set) var value: UInt32 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return }
        var remaining = bytes.count
        var crc = uLong(value)
        // zlib takes a 32-bit length; feed large buffers in pieces.
        while remaining > 0 {
            let piece = min(remaining, 1 << 30)
            crc = crc32(crc, base, uInt(piece))
            base += piece
            remaining -= piece
        }
        value = UInt32(truncatingIfNeeded: crc)
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }
}
