import Foundation

/// An image file's format and pixel size, read from its header. The bytes are untrusted: every
/// read is bounds-checked, and a header that ends early or makes no sense is a `problem`.
public enum ScreenshotImageFormat: String, Sendable, Hashable {
    /// PNG (`.png`).
    case png
    /// JPEG (`.jpg`, `.jpeg`).
    case jpeg

    /// The extensions deliver and Apple accept for this format, lower-case.
    public var extensions: [String] { self == .png ? ["png"] : ["jpg", "jpeg"] }
}

/// What a screenshot's header says.
public struct ScreenshotImageHeader: Sendable, Hashable {
    /// The format the bytes are in (whatever the file's extension says).
    public var format: ScreenshotImageFormat
    /// The size in pixels.
    public var size: ScreenshotPixelSize

    /// A header.
    public init(format: ScreenshotImageFormat, size: ScreenshotPixelSize) {
        self.format = format
        self.size = size
    }

    /// Reads the format and size of an image, or says why it cannot.
    /// - Returns: the header, or a problem ("a PNG whose IHDR chunk is cut short") that the
    ///   caller puts after the file's name.
    public static func read(_ bytes: [UInt8]) -> Result<ScreenshotImageHeader, ScreenshotProblem> {
        guard !bytes.isEmpty else { return .failure(ScreenshotProblem(text: "is empty (0 bytes)")) }
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if bytes.starts(with: pngSignature) { return png(bytes) }
        if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF { return jpeg(bytes) }
        return .failure(ScreenshotProblem(text: "is neither a PNG nor a JPEG image (its first bytes are "
            + bytes.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ") + ")"))
    }

    /// PNG: the signature, then the IHDR chunk (length 13, width and height big-endian).
    private static func png(_ bytes: [UInt8]) -> Result<ScreenshotImageHeader, ScreenshotProblem> {
        guard bytes.count >= 24 else {
            return .failure(ScreenshotProblem(text: "is a PNG cut short: \(bytes.count) bytes, too few for its IHDR chunk"))
        }
        guard bytes[12..<16].elementsEqual(Array("IHDR".utf8)), bigEndian(bytes, 8, 4) == 13 else {
            return .failure(ScreenshotProblem(text: "is a PNG whose first chunk is not a 13-byte IHDR"))
        }
        let width = bigEndian(bytes, 16, 4), height = bigEndian(bytes, 20, 4)
        guard width > 0, height > 0, width <= 1 << 20, height <= 1 << 20 else {
            return .failure(ScreenshotProblem(text: "is a PNG whose IHDR says \(width)x\(height) pixels"))
        }
        return .success(ScreenshotImageHeader(format: .png, size: ScreenshotPixelSize(width, height)))
    }

    /// JPEG: segments after SOI (`FF D8`) until a start-of-frame marker (`FF C0`–`FF CF` but
    /// `C4`, `C8`, `CC`), whose payload holds precision, height and width.
    private static func jpeg(_ bytes: [UInt8]) -> Result<ScreenshotImageHeader, ScreenshotProblem> {
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else {
                return .failure(ScreenshotProblem(text: "is a JPEG with a broken segment at byte \(index) (no FF marker)"))
            }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }                       // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }
            if marker == 0xD9 || marker == 0xDA { break }                      // end of image, or scan data before any frame
            let length = bigEndian(bytes, index + 2, 2)
            guard length >= 2 else {
                return .failure(ScreenshotProblem(text: "is a JPEG with a segment of impossible length \(length) at byte \(index)"))
            }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 7, index + 9 <= bytes.count else { break }
                let height = bigEndian(bytes, index + 5, 2), width = bigEndian(bytes, index + 7, 2)
                guard width > 0, height > 0 else {
                    return .failure(ScreenshotProblem(text: "is a JPEG whose frame header says \(width)x\(height) pixels"))
                }
                return .success(ScreenshotImageHeader(format: .jpeg, size: ScreenshotPixelSize(width, height)))
            }
            index += 2 + length
        }
        return .failure(ScreenshotProblem(text: "is a JPEG cut short: no frame header (SOF) in its \(bytes.count) bytes"))
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        guard offset >= 0, offset + count <= bytes.count else { return 0 }
        return bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }
}

/// Why a screenshot could not be read or was not accepted; `text` follows the file's name in messages.
public struct ScreenshotProblem: Error, Sendable, Hashable {
    /// "is a PNG cut short: 20 bytes, too few for its IHDR chunk".
    public var text: String
}
