/// Builds POSIX ustar headers, with a pax extended header in front when a name, link target or
/// size does not fit ustar's fields. Owner and group are 0 with empty names, so nothing of the
/// machine that built the archive leaks into it.
enum TarHeader {
    static let blockSize = 512

    /// The header block(s) for `entry`, with `mtime` as its modification time.
    static func blocks(for entry: ArchiveEntry, mtime: Int64) -> [UInt8] {
        let name = entry.storedName
        var pax: [(String, String)] = []
        let split = splitName(name)
        if split == nil { pax.append(("path", name)) }
        var linkName = ""
        var type: UInt8 = UInt8(ascii: "0")
        switch entry.content {
        case .file: type = UInt8(ascii: "0")
        case .directory: type = UInt8(ascii: "5")
        case .symbolicLink(let target):
            type = UInt8(ascii: "2")
            linkName = target
            if target.utf8.count > 100 { pax.append(("linkpath", target)) }
        }
        let size = entry.size
        if size > maximumOctal(digits: 11) { pax.append(("size", String(size))) }
        var result: [UInt8] = []
        if !pax.isEmpty {
            let records = paxRecords(pax)
            let paxName = "PaxHeaders/" + String(decoding: Array(name.utf8.suffix(80)), as: UTF8.self)
            result += header(name: ("", paxName), mode: 0o644, size: Int64(records.count), mtime: mtime,
                             type: UInt8(ascii: "x"), linkName: "")
            result += padded(records)
        }
        let fields = split ?? ("", String(decoding: Array(name.utf8.suffix(100)), as: UTF8.self))
        result += header(name: fields, mode: entry.mode, size: size > maximumOctal(digits: 11) ? 0 : size,
                         mtime: mtime, type: type, linkName: String(decoding: Array(linkName.utf8.prefix(100)), as: UTF8.self))
        return result
    }

    /// Zero bytes that pad `count` bytes of data up to a whole block.
    static func padding(after count: Int64) -> [UInt8] {
        let remainder = Int(count % Int64(blockSize))
        return remainder == 0 ? [] : [UInt8](repeating: 0, count: blockSize - remainder)
    }

    /// The end of the archive: two zero blocks, then zeros up to a 10 KiB record as tar(1) writes.
    static func trailer(archiveLength: Int64) -> [UInt8] {
        let record: Int64 = 10_240
        var length = archiveLength + 2 * Int64(blockSize)
        let remainder = length % record
        if remainder != 0 { length += record - remainder }
        return [UInt8](repeating: 0, count: Int(length - archiveLength))
    }

    /// (prefix, name) when the path fits ustar's 155 + 100 bytes split at a `/`, else nil.
    static func splitName(_ path: String) -> (String, String)? {
        let bytes = Array(path.utf8)
        if bytes.count <= 100 { return ("", path) }
        guard bytes.count <= 256 else { return nil }
        // The prefix is everything before a slash; the rest (after it) must fit in 100 bytes.
        for index in bytes.indices.reversed() where bytes[index] == UInt8(ascii: "/") {
            let prefix = bytes[..<index], rest = bytes[(index + 1)...]
            if prefix.count <= 155 && rest.count <= 100 && !rest.isEmpty && !prefix.isEmpty {
                return (String(decoding: prefix, as: UTF8.self), String(decoding: rest, as: UTF8.self))
            }
            if prefix.count > 155 { continue }
            break
        }
        return nil
    }

    private static func header(name: (prefix: String, name: String), mode: UInt16, size: Int64, mtime: Int64,
                               type: UInt8, linkName: String) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: blockSize)
        put(name.name, at: 0, width: 100, in: &block)
        put(octal(Int64(mode), digits: 7), at: 100, width: 8, in: &block)
        put(octal(0, digits: 7), at: 108, width: 8, in: &block)
        put(octal(0, digits: 7), at: 116, width: 8, in: &block)
        put(octal(size, digits: 11), at: 124, width: 12, in: &block)
        put(octal(max(0, min(mtime, maximumOctal(digits: 11))), digits: 11), at: 136, width: 12, in: &block)
        block[156] = type
        put(linkName, at: 157, width: 100, in: &block)
        put("ustar", at: 257, width: 6, in: &block)
        put("00", at: 263, width: 2, in: &block)
        put(name.prefix, at: 345, width: 155, in: &block)
        // The checksum is computed with its own field as eight spaces.
        for index in 148..<156 { block[index] = UInt8(ascii: " ") }
        let sum = block.reduce(0) { $0 + Int64($1) }
        put(octal(sum, digits: 6), at: 148, width: 6, in: &block)
        block[154] = 0
        block[155] = UInt8(ascii: " ")
        return block
    }

    /// Pax records "LEN key=value\n", where LEN counts the whole record including itself.
    static func paxRecords(_ pairs: [(String, String)]) -> [UInt8] {
        var result: [UInt8] = []
        for (key, value) in pairs {
            let body = " \(key)=\(value)\n"
            let bodyLength = body.utf8.count
            var length = bodyLength + 1
            while String(length).utf8.count + bodyLength != length { length = String(length).utf8.count + bodyLength }
            result += Array("\(length)\(body)".utf8)
        }
        return result
    }

    private static func padded(_ bytes: [UInt8]) -> [UInt8] {
        bytes + padding(after: Int64(bytes.count))
    }

    private static func maximumOctal(digits: Int) -> Int64 { (Int64(1) << (3 * digits)) - 1 }

    private static func octal(_ value: Int64, digits: Int) -> String {
        let text = String(value, radix: 8)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    private static func put(_ text: String, at offset: Int, width: Int, in block: inout [UInt8]) {
        for (index, byte) in text.utf8.prefix(width).enumerated() { block[offset + index] = byte }
    }
}
