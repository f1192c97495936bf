import Foundation

/// Hand-built hostile inputs for the readers of untrusted binary files: property lists whose
/// shared references multiply (DAG bombs), and zips whose directories lie (zip64 sizes and
/// offsets of 2^64 - 1, counts of 2^32, overlapping entries). Every byte is written here, so the
/// tests say exactly what each file claims.
public enum HostileArchive {
    /// A binary plist: a dictionary `{CFBundleIdentifier: "com.example.app", "bomb": L}` where
    /// L is `levels` of arrays, each holding `fan` references to the array below it, over the
    /// integer 0; it expands to fan^levels values. (12 levels of 8: 8^12, in under 200 bytes.)
    public static func dagBombPlist(levels: Int = 12, fan: Int = 8) -> [UInt8] {
        precondition(levels >= 1 && levels + 4 < 256 && fan >= 1 && fan < 15, "test helper: small values only")
        var objects: [[UInt8]] = [[0x10, 0x00]]
        for level in 1...levels { objects.append([0xA0 | UInt8(fan)] + Array(repeating: UInt8(level - 1), count: fan)) }
        let bombKey = objects.count, idKey = bombKey + 1, id = bombKey + 2
        objects.append([0x54] + Array("bomb".utf8))
        objects.append([0x5F, 0x10, 18] + Array("CFBundleIdentifier".utf8))
        objects.append([0x5F, 0x10, 15] + Array("com.example.app".utf8))
        objects.append([0xD2, UInt8(idKey), UInt8(bombKey), UInt8(id), UInt8(levels)])
        return binaryPlist(objects, top: objects.count - 1)
    }

    /// A `bplist00` of `objects` (each an encoded object whose references are 1 byte), with a
    /// 1-byte offset table and the trailer; `top` is the root's index.
    public static func binaryPlist(_ objects: [[UInt8]], top: Int) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += bigEndian(UInt64(objects.count)) + bigEndian(UInt64(top)) + bigEndian(UInt64(table))
        return bytes
    }

    /// One entry of a hand-built zip.
    public struct Entry {
        public var name: String
        public var data: [UInt8]
        /// Overrides of what the central directory claims (nil: the truth).
        public var claimedCompressedSize: UInt64?
        public var claimedUncompressedSize: UInt64?
        public var claimedOffset: UInt64?

        public init(name: String, data: [UInt8], claimedCompressedSize: UInt64? = nil,
                    claimedUncompressedSize: UInt64? = nil, claimedOffset: UInt64? = nil) {
            self.name = name
            self.data = data
            self.claimedCompressedSize = claimedCompressedSize
            self.claimedUncompressedSize = claimedUncompressedSize
            self.claimedOffset = claimedOffset
        }
    }

    /// What the end records claim about the central directory (nil: the truth).
    public struct DirectoryClaims {
        public var count: UInt64?
        public var offset: UInt64?
        public var size: UInt64?
        /// Write a zip64 end record and locator (and 0xFFFF / 0xFFFFFFFF in the classic record).
        public var zip64: Bool

        public init(count: UInt64? = nil, offset: UInt64? = nil, size: UInt64? = nil, zip64: Bool = false) {
            self.count = count
            self.offset = offset
            self.size = size
            self.zip64 = zip64
        }
    }

    /// A zip of stored entries. Claims that do not fit 32 bits go into a zip64 extra field
    /// (sizes and offset as 0xFFFFFFFF in the directory, the real claim in the field).
    public static func zip(_ entries: [Entry], directory: DirectoryClaims = DirectoryClaims()) -> [UInt8] {
        var bytes: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let offset = UInt64(bytes.count)
            let name = Array(entry.name.utf8)
            let crc = crc32(entry.data)
            bytes += le(0x0403_4B50, 4) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(UInt64(crc), 4)
            bytes += le(UInt64(entry.data.count), 4) + le(UInt64(entry.data.count), 4) + le(UInt64(name.count), 2) + le(0, 2)
            bytes += name + entry.data
            let compressed = entry.claimedCompressedSize ?? UInt64(entry.data.count)
            let uncompressed = entry.claimedUncompressedSize ?? UInt64(entry.data.count)
            let local = entry.claimedOffset ?? offset
            var extra: [UInt8] = []
            func field(_ value: UInt64) -> UInt64 {
                guard value >= 0xFFFF_FFFF else { return value }
                extra += le(value, 8)
                return 0xFFFF_FFFF
            }
            let uncompressedField = field(uncompressed), compressedField = field(compressed), offsetField = field(local)
            if !extra.isEmpty { extra = le(1, 2) + le(UInt64(extra.count), 2) + extra }
            central += le(0x0201_4B50, 4) + le(45, 2) + le(45, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(UInt64(crc), 4)
            central += le(compressedField, 4) + le(uncompressedField, 4) + le(UInt64(name.count), 2) + le(UInt64(extra.count), 2)
            central += le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(offsetField, 4) + name + extra
        }
        let directoryOffset = UInt64(bytes.count)
        bytes += central
        let count = directory.count ?? UInt64(entries.count)
        let offset = directory.offset ?? directoryOffset
        let size = directory.size ?? UInt64(central.count)
        if directory.zip64 {
            let recordOffset = UInt64(bytes.count)
            bytes += le(0x0606_4B50, 4) + le(44, 8) + le(45, 2) + le(45, 2) + le(0, 4) + le(0, 4)
            bytes += le(count, 8) + le(count, 8) + le(size, 8) + le(offset, 8)
            bytes += le(0x0706_4B50, 4) + le(0, 4) + le(recordOffset, 8) + le(1, 4)
            bytes += le(0x0605_4B50, 4) + le(0, 2) + le(0, 2) + le(0xFFFF, 2) + le(0xFFFF, 2)
            bytes += le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(0, 2)
        } else {
            bytes += le(0x0605_4B50, 4) + le(0, 2) + le(0, 2) + le(min(count, 0xFFFF), 2) + le(min(count, 0xFFFF), 2)
            bytes += le(min(size, 0xFFFF_FFFF), 4) + le(min(offset, 0xFFFF_FFFF), 4) + le(0, 2)
        }
        return bytes
    }

    /// A small valid XML Info.plist.
    public static let infoPlist = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.app</string>\
        <key>CFBundleShortVersionString</key><string>1.2.0</string><key>CFBundleVersion</key><string>42</string></dict></plist>
        """.utf8)

    private static func le(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(7 - $0))) }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
