import CZlib
import Foundation

/// A zip file's central directory, read from its end (zip64 included), and single small entries
/// read on demand: enough to find an `.ipa`'s `Info.plist` without reading the archive whole, or
/// to check a downloaded tool's archive (names, sizes, layout) before anything is unpacked.
///
/// Every size, offset and count comes from a file that may be hostile, so all arithmetic on them
/// is checked (`addingReportingOverflow`, `Int(exactly:)`) and every claim is held against the
/// file's size and `ZipLimits`: a malformed archive is a `Malformed` error, never a trap.
public struct ZipDirectory {
    /// One entry of the central directory.
    public struct Entry: Sendable, Hashable {
        /// The name as the directory spells it (bytes read as UTF-8).
        public var name: String
        /// The compression method (0 stored, 8 deflated).
        public var method: UInt16
        /// What the directory claims; checked before use, never trusted.
        public var compressedSize: UInt64
        /// What the directory claims; checked before use, never trusted.
        public var uncompressedSize: UInt64
        /// Where the entry's local header starts, as claimed.
        public var localHeaderOffset: UInt64
        /// The name's length in bytes, the least the local header adds before the data.
        public var nameLength: Int
        /// The Unix file type and permission bits when the archive was made on Unix, else 0.
        public var unixMode: UInt32

        /// True for an entry that unpacks as a symbolic link (its contents are the target).
        public var isSymbolicLink: Bool { unixMode & 0o170000 == 0o120000 }
    }

    /// Why the file is not a zip this reader understands.
    public struct Malformed: Error, Equatable {
        /// What is wrong, as a clause: "it has no zip end-of-directory record".
        public var reason: String
    }

    /// The bounds of what a zip's directory may claim.
    public struct Limits: Sendable, Hashable {
        /// The most entries.
        public var maxEntries: UInt64 = 1_000_000
        /// The largest central directory, in bytes.
        public var maxDirectoryBytes: UInt64 = 256 << 20
        /// The largest entry `contents(of:)` reads, compressed or not.
        public var maxEntryBytes: UInt64 = 64 << 20

        /// Limits; the defaults are what the .ipa reader uses.
        public init(maxEntries: UInt64 = 1_000_000, maxDirectoryBytes: UInt64 = 256 << 20, maxEntryBytes: UInt64 = 64 << 20) {
            self.maxEntries = maxEntries
            self.maxDirectoryBytes = maxDirectoryBytes
            self.maxEntryBytes = maxEntryBytes
        }
    }

    /// The entries, in directory order.
    public let entries: [Entry]
    /// Where the central directory starts: every entry's data must end before it.
    public let directoryOffset: UInt64
    private let source: ZipSource
    private let limits: Limits

    /// Reads the directory of the zip at `path`.
    /// - Throws: `Malformed` (not a zip, or claims that do not fit the file), or a file error.
    public init(path: String, limits: Limits = Limits()) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Malformed(reason: "it cannot be opened") }
        try self.init(source: try ZipSource(handle: handle), limits: limits)
    }

    /// Reads the directory of a zip held in memory (tests and fuzzing).
    public init(bytes: [UInt8], limits: Limits = Limits()) throws {
        try self.init(source: ZipSource(bytes: bytes), limits: limits)
    }

    private init(source: ZipSource, limits: Limits) throws {
        self.source = source
        self.limits = limits
        let size = source.size
        let tailLength = min(size, 65_557)
        let tail = try source.read(at: size - tailLength, count: Int(tailLength))
        guard let end = Self.lastIndex(of: [0x50, 0x4B, 0x05, 0x06], in: tail), end + 22 <= tail.count else {
            throw Malformed(reason: "it has no zip end-of-directory record")
        }
        var count = UInt64(Self.u16(tail, end + 10))
        var directorySize = UInt64(Self.u32(tail, end + 12))
        var directoryOffset = UInt64(Self.u32(tail, end + 16))
        let wantsZip64 = directoryOffset == 0xFFFF_FFFF || directorySize == 0xFFFF_FFFF || count == 0xFFFF
        if wantsZip64, end >= 20, Self.u32(tail, end - 20) == 0x0706_4B50 {
            let recordOffset = Self.u64(tail, end - 12)
            guard size >= 56, recordOffset <= size - 56 else { throw Malformed(reason: "its zip64 end record lies outside the file") }
            let zip64 = try source.read(at: recordOffset, count: 56)
            guard Self.u32(zip64, 0) == 0x0606_4B50 else { throw Malformed(reason: "its zip64 end record is damaged") }
            count = Self.u64(zip64, 32)
            directorySize = Self.u64(zip64, 40)
            directoryOffset = Self.u64(zip64, 48)
        }
        let (directoryEnd, overflow) = directoryOffset.addingReportingOverflow(directorySize)
        guard !overflow, directoryEnd <= size else { throw Malformed(reason: "its central directory lies outside the file") }
        guard directorySize <= limits.maxDirectoryBytes else {
            throw Malformed(reason: "its central directory is \(directorySize) bytes, more than the \(limits.maxDirectoryBytes) allowed")
        }
        // Each entry takes at least 46 bytes of the directory.
        guard count <= limits.maxEntries, count <= directorySize / 46 else {
            throw Malformed(reason: "its directory claims \(count) entries, more than \(min(limits.maxEntries, directorySize / 46)) (what it can hold)")
        }
        self.directoryOffset = directoryOffset
        let directory = try source.read(at: directoryOffset, count: Int(directorySize))
        entries = try Self.parse(directory, count: Int(count))
    }

    /// The sum of the entries' uncompressed sizes.
    /// - Throws: `Malformed` when the sum passes 2^64 - 1.
    public func totalUncompressedSize() throws -> UInt64 {
        var total: UInt64 = 0
        for entry in entries {
            let (sum, overflow) = total.addingReportingOverflow(entry.uncompressedSize)
            guard !overflow else { throw Malformed(reason: "its entries claim more than \(UInt64.max) bytes uncompressed") }
            total = sum
        }
        return total
    }

    /// Checks that every entry's data lies before the central directory and that no two
    /// entries share bytes (overlapping entries are how zip bombs multiply their output).
    /// - Throws: `Malformed` naming the entry.
    public func checkLayout() throws {
        var spans: [(start: UInt64, end: UInt64, name: String)] = []
        spans.reserveCapacity(entries.count)
        for entry in entries {
            let (header, overflow1) = entry.localHeaderOffset.addingReportingOverflow(30 + UInt64(entry.nameLength))
            let (end, overflow2) = header.addingReportingOverflow(entry.compressedSize)
            guard !overflow1, !overflow2, end <= directoryOffset else {
                throw Malformed(reason: "the entry '\(entry.name)' claims data past the end of the archive's contents")
            }
            spans.append((entry.localHeaderOffset, end, entry.name))
        }
        // Ties broken by directory order, so that the message names the entries the same way each time.
        let ordered = spans.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        for (first, second) in zip(ordered, ordered.dropFirst()) where second.start < first.end {
            throw Malformed(reason: "the entries '\(first.name)' and '\(second.name)' overlap")
        }
    }

    private static func parse(_ bytes: [UInt8], count: Int) throws -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var position = 0
        for _ in 0..<count {
            guard position + 46 <= bytes.count, u32(bytes, position) == 0x0201_4B50 else {
                throw Malformed(reason: "its central directory is damaged")
            }
            let nameLength = Int(u16(bytes, position + 28)), extraLength = Int(u16(bytes, position + 30))
            let commentLength = Int(u16(bytes, position + 32))
            let nameStart = position + 46, extraStart = nameStart + nameLength, extraEnd = extraStart + extraLength
            guard extraEnd <= bytes.count else { throw Malformed(reason: "an entry is cut short") }
            var entry = Entry(name: String(decoding: bytes[nameStart..<extraStart], as: UTF8.self),
                              method: u16(bytes, position + 10), compressedSize: UInt64(u32(bytes, position + 20)),
                              uncompressedSize: UInt64(u32(bytes, position + 24)),
                              localHeaderOffset: UInt64(u32(bytes, position + 42)), nameLength: nameLength,
                              unixMode: u16(bytes, position + 4) >> 8 == 3 ? u32(bytes, position + 38) >> 16 : 0)
            applyZip64(bytes[extraStart..<extraEnd], to: &entry)
            entries.append(entry)
            position = extraEnd + commentLength
        }
        return entries
    }

    /// Replaces the 0xFFFFFFFF sizes and offset with the zip64 extra field's values, in order.
    /// Whatever they claim is checked later (`checkLayout`, `contents(of:)`), never trusted.
    private static func applyZip64(_ extra: ArraySlice<UInt8>, to entry: inout Entry) {
        let extra = Array(extra)
        var position = 0
        while position + 4 <= extra.count {
            let id = u16(extra, position), length = Int(u16(extra, position + 2))
            let fieldEnd = min(position + 4 + length, extra.count)
            if id == 1 {
                var field = position + 4
                func next(_ value: inout UInt64) {
                    guard value == 0xFFFF_FFFF, field + 8 <= fieldEnd else { return }
                    value = u64(extra, field)
                    field += 8
                }
                next(&entry.uncompressedSize)
                next(&entry.compressedSize)
                next(&entry.localHeaderOffset)
            }
            position += 4 + length
        }
    }

    /// The entry's bytes, inflated.
    /// - Throws: `Malformed` for an unsupported method, damaged data, or an entry larger than
    ///   the limits or lying outside the file.
    public func contents(of entry: Entry) throws -> [UInt8] {
        guard entry.compressedSize <= limits.maxEntryBytes, entry.uncompressedSize <= limits.maxEntryBytes,
              let compressed = Int(exactly: entry.compressedSize), let expected = Int(exactly: entry.uncompressedSize) else {
            throw Malformed(reason: "the entry '\(entry.name)' is larger than the \(limits.maxEntryBytes) bytes slipway reads")
        }
        let (headerEnd, overflow) = entry.localHeaderOffset.addingReportingOverflow(30)
        guard !overflow, headerEnd <= directoryOffset else {
            throw Malformed(reason: "the entry '\(entry.name)' starts past the end of the archive's contents")
        }
        let header = try source.read(at: entry.localHeaderOffset, count: 30)
        guard Self.u32(header, 0) == 0x0403_4B50 else { throw Malformed(reason: "the entry '\(entry.name)' is damaged") }
        let start = headerEnd + UInt64(Self.u16(header, 26)) + UInt64(Self.u16(header, 28))
        let (end, overflow2) = start.addingReportingOverflow(entry.compressedSize)
        guard !overflow2, end <= directoryOffset else {
            throw Malformed(reason: "the entry '\(entry.name)' claims data past the end of the archive's contents")
        }
        let stored = try source.read(at: start, count: compressed)
        switch entry.method {
        case 0:
            guard compressed == expected else { throw Malformed(reason: "the stored entry '\(entry.name)' has two different sizes") }
            return stored
        case 8: return try Self.inflate(stored, expected: expected, name: entry.name)
        default: throw Malformed(reason: "the entry '\(entry.name)' uses compression method \(entry.method)")
        }
    }

    /// Inflates into a buffer of exactly `expected` bytes: output beyond it is an error, never an allocation.
    private static func inflate(_ input: [UInt8], expected: Int, name: String) throws -> [UInt8] {
        guard let inputCount = uInt(exactly: input.count), let outputCount = uInt(exactly: max(expected, 1)) else {
            throw Malformed(reason: "the entry '\(name)' is too large")
        }
        var stream = z_stream()
        guard slipway_inflate_init_raw(&stream) == Z_OK else { throw Malformed(reason: "zlib could not start") }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: max(expected, 1))
        var input = input
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = inputCount
                stream.next_out = target.baseAddress
                stream.avail_out = outputCount
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(exactly: stream.total_out) == expected else {
            throw Malformed(reason: "the entry '\(name)' does not inflate")
        }
        return Array(output.prefix(expected))
    }

    private static func lastIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return stride(from: bytes.count - pattern.count, through: 0, by: -1).first { start in
            pattern.indices.allSatisfy { bytes[start + $0] == pattern[$0] }
        }
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 { UInt32(u16(bytes, at)) | UInt32(u16(bytes, at + 2)) << 16 }
    static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32 }
}
