import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `read`, `pread`, `write` and `pwrite` on a file descriptor, called again when a signal
/// interrupts them (`EINTR`), in one place instead of a loop in every reader and writer. A
/// failure carries the call's errno, captured right after the call.
///
/// These are blocking calls, like the POSIX ones they wrap: a pipe or a terminal may block for as
/// long as the other end likes. Call them from threads that may block (a process's pump thread,
/// `BlockingWork`, the CLI's signal thread), or on regular files, whose reads and writes end promptly.
public enum FileDescriptorIO {
    /// A failed call's errno.
    public struct Failure: Error, Equatable, Sendable {
        /// The errno the call set (`EIO` for a write that wrote nothing).
        public var code: Int32

        /// A failure with errno `code`.
        public init(code: Int32) { self.code = code }
    }

    /// Reads up to `buffer.count` bytes (at `offset` with `pread`, else at the descriptor's
    /// position): how many, 0 at the end of the file.
    /// - Throws: `Failure` with the errno.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64? = nil) throws -> Int {
        while true {
            let count = offset.map { pread(descriptor, buffer.baseAddress, buffer.count, off_t($0)) }
                ?? Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            let code = errno
            if code != EINTR { throw Failure(code: code) }
        }
    }

    /// Writes all of `bytes` (from `offset` on with `pwrite`, else appended at the descriptor's
    /// position), in as many calls as it takes.
    /// - Throws: `Failure` with the errno of the call that failed (`EIO` when one wrote nothing);
    ///   some bytes may have been written by then.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64? = nil) throws {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let written = offset.map { pwrite(descriptor, base + done, bytes.count - done, off_t($0) + off_t(done)) }
                ?? Foundation.write(descriptor, base + done, bytes.count - done)
            if written > 0 {
                done += written
                continue
            }
            let code = written < 0 ? errno : EIO
            if code != EINTR { throw Failure(code: code) }
        }
    }

    /// Writes all of `bytes`; see `writeAll(_:_:at:)`.
    public static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int64? = nil) throws {
        try bytes.withUnsafeBytes { try writeAll(descriptor, $0, at: offset) }
    }
}
