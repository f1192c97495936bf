import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a zip file (PKWARE APPNOTE 6.3) entry by entry: a local header with zero sizes, the
/// deflated data, then the header patched with the CRC and sizes (no data descriptors), and a
/// central directory at the end. Fixed time stamps, Unix permissions in the external
/// attributes, no extra fields, so output is reproducible. Without zip64, entries and the
/// archive stay below 4 GiB; larger inputs are refused with a pointer to tar.gz.
public struct ZipWriter {
    private let file: any ArchiveOutput
    private let inputs: any ArchiveInputs
    private let settings: ArchiveSettings
    private let advance: (Int64) -> Void

    /// A writer appending to `output` and reading entries' files from `inputs`; `advance` is
    /// called with the number of input bytes each deflated chunk archived.
    public init(output: any ArchiveOutput, inputs: any ArchiveInputs, settings: ArchiveSettings,
                advance: @escaping (Int64) -> Void = { _ in }) {
        self.file = output
        self.inputs = inputs
        self.settings = settings
        self.advance = advance
    }

    private static let limit: Int64 = 0xFFFF_FFFF

    private struct Central {
        var name: [UInt8]
        var method: UInt16
        var crc: UInt32
        var compressedSize: UInt32
        var size: UInt32
        var externalAttributes: UInt32
        var offset: UInt32
        var flags: UInt16
    }

    /// Writes `entries` in order and the central directory.
    /// - Throws: `ArchiveError.nameTooLong` (before a byte is written), `.tooLargeForZip`,
    ///   `.compressionFailed`, or what the output and inputs throw.
    public func write(_ entries: [ArchiveEntry]) throws {
        let (time, date) = Self.dosTime(settings.modificationTime)
        // Checked before a byte is written: a name (a lane's prefix + a path) is a 16-bit length in a zip.
        for entry in entries where entry.storedName.utf8.count > 0xFFFF {
            throw ArchiveError.nameTooLong(name: entry.storedName, bytes: entry.storedName.utf8.count)
        }
        var central: [Central] = []
        for entry in entries {
            central.append(try writeEntry(entry, time: time, date: date))
        }
        let directoryOffset = file.offset
        var directory = ByteWriter()
        for record in central { appendCentral(record, time: time, date: date, to: &directory) }
        guard central.count <= 0xFFFF, directoryOffset + Int64(directory.bytes.count) < Self.limit else {
            throw ArchiveError.tooLargeForZip(path: settings.output)
        }
        var end = ByteWriter()
        end.uint32LE(0x0605_4B50)
        end.uint16LE(0)
        end.uint16LE(0)
        end.uint16LE(UInt16(central.count))
        end.uint16LE(UInt16(central.count))
        end.uint32LE(UInt32(directory.bytes.count))
        end.uint32LE(UInt32(directoryOffset))
        end.uint16LE(0)
        try file.write(directory.bytes + end.bytes)
    }

    private func writeEntry(_ entry: ArchiveEntry, time: UInt16, date: UInt16) throws -> Central {
        let name = Array(entry.storedName.utf8)
        let offset = file.offset
        guard offset < Self.limit, entry.size < Self.limit - 1 else { throw ArchiveError.tooLargeForZip(path: entryPath(entry)) }
        let isDeflated: Bool
        if case .file(_, let size) = entry.content, size > 0 { isDeflated = true } else { isDeflated = false }
        // Bit 11: the name is UTF-8 (only set when it is not plain ASCII, as zip(1) does).
        let flags: UInt16 = name.allSatisfy { $0 < 0x80 } ? 0 : 0x0800
        let method: UInt16 = isDeflated ? 8 : 0
        var local = ByteWriter()
        local.uint32LE(0x0403_4B50)
        local.uint16LE(20)
        local.uint16LE(flags)
        local.uint16LE(method)
        local.uint16LE(time)
        local.uint16LE(date)
        local.append([UInt8](repeating: 0, count: 12))  // CRC and sizes, patched below
        local.uint16LE(UInt16(name.count))
        local.uint16LE(0)
        local.append(name)
        try file.write(local.bytes)
        let (crc, compressed, size) = try writeData(entry, deflate: isDeflated)
        guard compressed < Self.limit, file.offset < Self.limit else { throw ArchiveError.tooLargeForZip(path: entryPath(entry)) }
        var patch = ByteWriter()
        patch.uint32LE(crc)
        patch.uint32LE(UInt32(compressed))
        patch.uint32LE(UInt32(size))
        try file.overwrite(patch.bytes, at: offset + 14)
        let type: UInt32
        switch entry.content {
        case .file: type = 0o100000
        case .directory: type = 0o040000
        case .symbolicLink: type = 0o120000
        }
        // High 16 bits: Unix mode; bit 4: the MS-DOS directory flag.
        var attributes = (type | UInt32(entry.mode)) << 16
        if case .directory = entry.content { attributes |= 0x10 }
        return Central(name: name, method: method, crc: crc, compressedSize: UInt32(compressed), size: UInt32(size),
                       externalAttributes: attributes, offset: UInt32(offset), flags: flags)
    }

    /// Writes an entry's data; returns its CRC-32, stored size and original size.
    private func writeData(_ entry: ArchiveEntry, deflate: Bool) throws -> (UInt32, Int64, Int64) {
        var crc = CRC32()
        switch entry.content {
        case .directory:
            return (0, 0, 0)
        case .symbolicLink(let target):
            let bytes = Array(target.utf8)
            crc.update(bytes)
            try file.write(bytes)
            return (crc.value, Int64(bytes.count), Int64(bytes.count))
        case .file(let source, let size):
            let start = file.offset
            var copied: Int64 = 0
            if deflate {
                let deflater = try Deflater(level: settings.compressionLevel, subject: settings.output)
                try inputs.forEachChunk(ofFile: source) { chunk in
                    crc.update(chunk)
                    copied += Int64(chunk.count)
                    advance(Int64(chunk.count))
                    try deflater.compress(chunk, finish: false) { try file.write($0) }
                }
                try deflater.compress([], finish: true) { try file.write($0) }
            } else {
                try inputs.forEachChunk(ofFile: source) { chunk in
                    crc.update(chunk)
                    copied += Int64(chunk.count)
                    try file.write(chunk)
                }
            }
            guard copied == size else {
                throw ArchiveError.compressionFailed(path: source, reason: "it changed size while being archived")
            }
            return (crc.value, file.offset - start, copied)
        }
    }

    private func appendCentral(_ record: Central, time: UInt16, date: UInt16, to writer: inout ByteWriter) {
        writer.uint32LE(0x0201_4B50)
        writer.uint16LE(0x0314)  // made by: Unix (3), spec 2.0
        writer.uint16LE(20)
        writer.uint16LE(record.flags)
        writer.uint16LE(record.method)
        writer.uint16LE(time)
        writer.uint16LE(date)
        writer.uint32LE(record.crc)
        writer.uint32LE(record.compressedSize)
        writer.uint32LE(record.size)
        writer.uint16LE(UInt16(record.name.count))
        writer.uint16LE(0)  // extra field length
        writer.uint16LE(0)  // comment length
        writer.uint16LE(0)  // disk number
        writer.uint16LE(0)  // internal attributes
        writer.uint32LE(record.externalAttributes)
        writer.uint32LE(record.offset)
        writer.append(record.name)
    }

    private func entryPath(_ entry: ArchiveEntry) -> String {
        if case .file(let source, _) = entry.content { return source }
        return entry.name
    }

    /// MS-DOS time and date of `seconds` since 1970 (UTC), clamped to 1980-01-01, the earliest
    /// a zip can hold.
    static func dosTime(_ seconds: Int64) -> (time: UInt16, date: UInt16) {
        var value = time_t(max(seconds, 315_532_800))
        var parts = tm()
        gmtime_r(&value, &parts)
        let time = UInt16(parts.tm_hour) << 11 | UInt16(parts.tm_min) << 5 | UInt16(parts.tm_sec / 2)
        let date = UInt16(max(0, parts.tm_year - 80)) << 9 | UInt16(parts.tm_mon + 1) << 5 | UInt16(parts.tm_mday)
        return (time, date)
    }
}
