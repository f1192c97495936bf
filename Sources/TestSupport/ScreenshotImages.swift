import Foundation

/// Small, valid PNG and JPEG files of any pixel size, for screenshot tests.
///
/// PNG: 1-bit grayscale, rows of one shade (`seed` picks which rows are white and goes into a
/// tEXt comment, so files of one size differ), in zlib "stored" blocks, with real CRC-32 and
/// Adler-32, so any decoder reads it. JPEG: baseline,
/// one gray component, every 8x8 block a flat mid-gray (DC difference 0, end of block at once),
/// with one-symbol Huffman tables; `seed` goes into a comment segment so files of one size differ.
public enum ScreenshotImages {
    /// A PNG of `width` x `height` pixels.
    public static func png(width: Int, height: Int, seed: Int = 0) -> [UInt8] {
        let rowBytes = (width + 7) / 8
        var raw: [UInt8] = []
        raw.reserveCapacity((rowBytes + 1) * height)
        for row in 0..<height {
            raw.append(0)   // filter: none
            let shade: UInt8 = (row + seed) % 7 == 0 ? 0xFF : 0x00
            raw.append(contentsOf: repeatElement(shade, count: rowBytes))
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let final: UInt8 = offset + count >= raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        zlib += bigEndian(adler32(raw), 4)
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", bigEndian(UInt32(width), 4) + bigEndian(UInt32(height), 4) + [1, 0, 0, 0, 0])
        file += chunk("tEXt", Array("Comment".utf8) + [0] + Array("slipway test image \(seed)".utf8))
        file += chunk("IDAT", zlib)
        file += chunk("IEND", [])
        return file
    }

    /// A baseline JPEG of `width` x `height` pixels.
    public static func jpeg(width: Int, height: Int, seed: Int = 0) -> [UInt8] {
        var file: [UInt8] = [0xFF, 0xD8]
        file += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        file += segment(0xFE, Array("slipway test image \(seed)".utf8))
        file += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))                          // quantization table 0
        file += segment(0xC0, [8] + bigEndian(UInt32(height), 2) + bigEndian(UInt32(width), 2) + [1, 1, 0x11, 0])
        file += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])              // DC table 0: symbol 0 = "0"
        file += segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0])              // AC table 0: EOB = "0"
        file += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        let bits = blocks * 2
        var data = [UInt8](repeating: 0, count: (bits + 7) / 8)
        if bits % 8 != 0 { data[data.count - 1] = UInt8((1 << (8 - bits % 8)) - 1) }  // pad with ones
        file += data
        file += [0xFF, 0xD9]
        return file
    }

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + bigEndian(UInt32(payload.count + 2), 2) + payload
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count), 4) + typed + bigEndian(crc32(typed), 4)
    }

    private static func bigEndian(_ value: UInt32, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8((value >> (UInt32($0) * 8)) & 0xFF) }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
