import Foundation

/// Where `ZipDirectory` reads bytes from: an open file, or bytes in memory. Reads are checked
/// against the size, so a claimed offset or length past the end is `Malformed`, not a trap.
struct ZipSource {
    /// The number of bytes.
    let size: UInt64
    private let handle: FileHandle?
    private let bytes: [UInt8]

    init(handle: FileHandle) throws {
        self.handle = handle
        self.bytes = []
        self.size = try handle.seekToEnd()
    }

    init(bytes: [UInt8]) {
        self.handle = nil
        self.bytes = bytes
        self.size = UInt64(bytes.count)
    }

    /// `count` bytes at `offset`.
    /// - Throws: `ZipDirectory.Malformed` when they are not all inside the file.
    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        let (end, overflow) = offset.addingReportingOverflow(UInt64(clamping: count))
        guard count >= 0, !overflow, end <= size else { throw ZipDirectory.Malformed(reason: "it ends early") }
        guard let handle else {
            guard let start = Int(exactly: offset) else { throw ZipDirectory.Malformed(reason: "it ends early") }
            return Array(bytes[start..<(start + count)])
        }
        try handle.seek(toOffset: offset)
        let data = try handle.read(upToCount: count) ?? Data()
        guard data.count == count else { throw ZipDirectory.Malformed(reason: "it ends early") }
        return Array(data)
    }
}
