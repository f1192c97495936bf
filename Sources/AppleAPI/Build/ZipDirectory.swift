import CZlib
import Foundation

/// A zip file's central directory, read from its end (zip64 included), and single small entries
/// read on demand: enough to find an `.ipa`'s `Info.plist` without reading the archive whole.
struct ZipDirectory {
    /// One entry of the central directory.
    struct Entry {
        var name: String
        var method: UInt16
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localHeaderOffset: UInt64
    }

    /// Why the file is not a zip this reader understands.
    struct Malformed: Error { var reason: String }

    let entries: [Entry]
    private let handle: FileHandle

    /// Reads the directory of the zip at `path`.
    /// - Throws: `Malformed` (not a zip), or a file error.
    init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Malformed(reason: "it cannot be opened") }
        self.handle = handle
        let size = try handle.seekToEnd()
        let tailLength = min(size, 65_557)
        let tail = try Self.read(handle, at: size - tailLength, count: Int(tailLength))
        guard let end = Self.lastIndex(of: [0x50, 0x4B, 0x05, 0x06], in: tail), end + 22 <= tail.count else {
            throw Malformed(reason: "it has no zip end-of-directory record")
        }
        var count = UInt64(Self.u16(tail, end + 10))
        var directorySize = UInt64(Self.u32(tail, end + 12))
        var directoryOffset = UInt64(Self.u32(tail, end + 16))
        if directoryOffset == 0xFFFF_FFFF || count == 0xFFFF, end >= 20, Self.u32(tail, end - 20) == 0x0706_4B50 {
            let zip64 = try Self.read(handle, at: Self.u64(tail, end - 12), count: 56)
            guard Self.u32(zip64, 0) == 0x0606_4B50 else { throw Malformed(reason: "its zip64 end record is damaged") }
            count = Self.u64(zip64, 32)
            directorySize = Self.u64(zip64, 40)
            directoryOffset = Self.u64(zip64, 48)
        }
        guard directoryOffset + directorySize <= size, directorySize < 256 << 20 else {
            throw Malformed(reason: "its central directory lies outside the file")
        }
        let directory = try Self.read(handle, at: directoryOffset, count: Int(directorySize))
        entries = try Self.parse(directory, count: count)
    }

    private static func parse(_ bytes: [UInt8], count: UInt64) throws -> [Entry] {
        var entries: [Entry] = []
        var position = 0
        for _ in 0..<count {
            guard position + 46 <= bytes.count, u32(bytes, position) == 0x0201_4B50 else {
                throw Malformed(reason: "its central directory is damaged")
            }
            let nameLength = Int(u16(bytes, position + 28)), extraLength = Int(u16(bytes, position + 30))
            let commentLength = Int(u16(bytes, position + 32))
            guard position + 46 + nameLength + extraLength <= bytes.count else { throw Malformed(reason: "an entry is cut short") }
            var entry = Entry(name: String(decoding: bytes[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self),
                              method: u16(bytes, position + 10), compressedSize: UInt64(u32(bytes, position + 20)),
                              uncompressedSize: UInt64(u32(bytes, position + 24)),
                              localHeaderOffset: UInt64(u32(bytes, position + 42)))
            applyZip64(Array(bytes[(position + 46 + nameLength)..<(position + 46 + nameLength + extraLength)]), to: &entry)
            entries.append(entry)
            position += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// Replaces the 0xFFFFFFFF sizes and offset with the zip64 extra field's values, in order.
    private static func applyZip64(_ extra: [UInt8], to entry: inout Entry) {
        var position = 0
        while position + 4 <= extra.count {
            let id = u16(extra, position), length = Int(u16(extra, position + 2))
            if id == 1 {
                var field = position + 4
                if entry.uncompressedSize == 0xFFFF_FFFF, field + 8 <= extra.count { entry.uncompressedSize = u64(extra, field); field += 8 }
                if entry.compressedSize == 0xFFFF_FFFF, field + 8 <= extra.count { entry.compressedSize = u64(extra, field); field += 8 }
                if entry.localHeaderOffset == 0xFFFF_FFFF, field + 8 <= extra.count { entry.localHeaderOffset = u64(extra, field) }
            }
            position += 4 + length
        }
    }

    /// The entry's bytes, inflated.
    /// - Throws: `Malformed` for an unsupported method or damaged data.
    func contents(of entry: Entry) throws -> [UInt8] {
        let header = try Self.read(handle, at: entry.localHeaderOffset, count: 30)
        guard Self.u32(header, 0) == 0x0403_4B50 else { throw Malformed(reason: "the entry '\(entry.name)' is damaged") }
        let start = entry.localHeaderOffset + 30 + UInt64(Self.u16(header, 26)) + UInt64(Self.u16(header, 28))
        let stored = try Self.read(handle, at: start, count: Int(entry.compressedSize))
        switch entry.method {
        case 0: return stored
        case 8: return try Self.inflate(stored, expected: Int(entry.uncompressedSize), name: entry.name)
        default: throw Malformed(reason: "the entry '\(entry.name)' uses compression method \(entry.method)")
        }
    }

    private static func inflate(_ input: [UInt8], expected: Int, name: String) throws -> [UInt8] {
        var stream = z_stream()
        guard slipway_inflate_init_raw(&stream) == Z_OK else { throw Malformed(reason: "zlib could not start") }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: max(expected, 1))
        var input = input
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == expected else {
            throw Malformed(reason: "the entry '\(name)' does not inflate")
        }
        return Array(output.prefix(expected))
    }

    private static func read(_ handle: FileHandle, at offset: UInt64, count: Int) throws -> [UInt8] {
        try handle.seek(toOffset: offset)
        let data = try handle.read(upToCount: count) ?? Data()
        guard data.count == count else { throw Malformed(reason: "it ends early") }
        return Array(data)
    }

    private static func lastIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return stride(from: bytes.count - pattern.count, through: 0, by: -1).first { Array(bytes[$0..<($0 + pattern.count)]) == pattern }
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 { UInt32(u16(bytes, at)) | UInt32(u16(bytes, at + 2)) << 16 }
    static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32 }
}
