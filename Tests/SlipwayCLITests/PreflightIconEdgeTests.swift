import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 42: the App Store icon's transparency, decided from the PNG's header chunks (IHDR's
/// colour type, a tRNS chunk) through the built binary. Every PNG here is made by the test: real
/// chunks with their CRCs, and pixels in a zlib stream of stored deflate blocks.
@Suite("slipway preflight: the App Store icon's alpha (issue 42)", .dedicatedThreads)
struct PreflightIconEdgeTests {
    let folder: TemporaryDirectory
    static let icon = "App/Assets.xcassets/AppIcon.appiconset/icon.png"
    static let citation = "  see: https://developer.apple.com/documentation/xcode/configuring-your-app-icon (ITMS-90704, ITMS-90717)\n"

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-preflight-icon")
        try PreflightFixture().write(in: folder.path)
    }

    /// Runs preflight on the fixture with `icon` as the App Store icon.
    func preflight(icon bytes: [UInt8]) throws -> CommandResult {
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/" + Self.icon))
        return try run()
    }

    func run() throws -> CommandResult {
        let before = LargeTreeSnapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, ["preflight", "--no-color"], in: folder.path,
                                           environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil])
        #expect(LargeTreeSnapshot.of(folder.path) == before, "preflight wrote to the checkout")
        return result
    }

    // MARK: PNGs made here

    static let crcTable: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> UInt32($0)) & 0xFF) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body[...]))
    }

    /// A zlib stream of `raw` in stored (uncompressed) deflate blocks, with its Adler-32.
    static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        return out + be32(b << 16 | a)
    }

    /// A whole PNG: IHDR, the chunks given (PLTE, tRNS) before the pixels, one IDAT, IEND.
    static func png(size: Int = 1024, colorType: UInt8, bitDepth: UInt8 = 8, before: [[UInt8]] = []) -> [UInt8] {
        let channels: [UInt8: Int] = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4]
        let rowBytes = (size * (channels[colorType] ?? 3) * Int(bitDepth) + 7) / 8
        var raw = [UInt8](repeating: 0, count: size * (rowBytes + 1))   // filter 0, black pixels
        if colorType == 4 || colorType == 6 { for row in 0..<size { raw[row * (rowBytes + 1) + rowBytes] = 0x80 } }
        let header = be32(UInt32(size)) + be32(UInt32(size)) + [bitDepth, colorType, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + before.joined()
            + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    static let palette = chunk("PLTE", [0, 0, 0, 255, 255, 255])

    static func refusal(_ what: String) -> String {
        "error: \(icon): [marketing-icon] 'App': the App Store icon '\(icon)' has \(what); App Store Connect refuses it: "
            + "\"Invalid App Store Icon. The App Store Icon in the asset catalog can't be transparent nor contain an alpha channel.\" (ITMS-90717)\n"
            + "  fix: export the icon as an RGB PNG without an alpha channel or tRNS chunk (Preview: Export, Alpha unchecked; or flatten it on an opaque background)\n"
            + citation
    }

    // MARK: Tests

    @Test func anAlphaChannelIsRefusedCitingITMS90717() throws {
        let rgba = try preflight(icon: Self.png(colorType: 6))
        #expect(rgba.status == 2, "\(rgba.standardOutput)")
        #expect(rgba.standardOutput.hasPrefix(Self.refusal("an alpha channel (PNG colour type 6, RGBA, 8-bit)")), "\(rgba.standardOutput)")
        let grey16 = try preflight(icon: Self.png(size: 1024, colorType: 4, bitDepth: 16))
        #expect(grey16.status == 2)
        #expect(grey16.standardOutput.hasPrefix(Self.refusal("an alpha channel (PNG colour type 4, grey with alpha, 16-bit)")), "\(grey16.standardOutput)")
    }

    @Test func aTRNSChunkIsTransparency() throws {
        let palette = try preflight(icon: Self.png(colorType: 3, before: [Self.palette, Self.chunk("tRNS", [0])]))
        #expect(palette.status == 2)
        #expect(palette.standardOutput.hasPrefix(Self.refusal("transparency (a palette PNG with a tRNS chunk)")), "\(palette.standardOutput)")
        let keyed = try preflight(icon: Self.png(colorType: 2, before: [Self.chunk("tRNS", [0, 0, 0, 0, 0, 0])]))
        #expect(keyed.status == 2)
        #expect(keyed.standardOutput.hasPrefix(Self.refusal("transparency (a tRNS chunk makes one RGB colour transparent)")), "\(keyed.standardOutput)")
    }

    @Test func anOpaqueIconPasses() throws {
        for bytes in [Self.png(colorType: 2), Self.png(colorType: 2, bitDepth: 16), Self.png(colorType: 0),
                      Self.png(colorType: 3, bitDepth: 8, before: [Self.palette])] {
            let result = try preflight(icon: bytes)
            #expect(result.status == 0, "\(result.standardOutput)")
            #expect(result.standardOutput == PreflightCommandTests.offlineRan + PreflightCommandTests.offlineSkips + "0 errors, 0 warnings, 0 notes\n",
                    "\(result.standardOutput)")
        }
    }

    @Test func anIconThatIsNotAReadablePNGIsANoteNotAGuess() throws {
        let jpeg = try preflight(icon: [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 60))
        #expect(jpeg.status == 0)
        #expect(jpeg.standardOutput.hasPrefix("note: \(Self.icon): [marketing-icon] 'App': the App Store icon '\(Self.icon)' is not a PNG (no PNG signature), so its size and transparency are not checked\n"
            + "  fix: export the icon again as a PNG (RGB, 1024x1024, no alpha channel)\n"), "\(jpeg.standardOutput)")
        // A chunk that claims 2 GiB past the end of the file: the walk stops there, reading nothing more.
        let whole = Self.png(colorType: 2)
        let cut = Array(whole[0..<33]) + Self.be32(0x7FFF_FFFF) + Array("tEXt".utf8) + [1, 2, 3]
        let truncated = try preflight(icon: cut)
        #expect(truncated.status == 0)
        #expect(truncated.standardOutput.hasPrefix("note: \(Self.icon): [marketing-icon] 'App': the App Store icon '\(Self.icon)' is a PNG cut short before its pixels (a chunk runs past the end of the file), so its size and transparency are not checked\n"),
                "\(truncated.standardOutput)")
        let noHeader = try preflight(icon: Array(whole[0..<8]) + Self.chunk("IDAT", [0]))
        #expect(noHeader.standardOutput.hasPrefix("note: \(Self.icon): [marketing-icon] 'App': the App Store icon '\(Self.icon)' is a PNG without its IHDR header chunk first, so its size and transparency are not checked\n"),
                "\(noHeader.standardOutput)")
    }

    @Test func aHugeSparseIconIsRefusedBeforeItIsRead() throws {
        let path = folder.path + "/" + Self.icon
        try Data().write(to: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 10 << 30)   // 10 GiB, sparse: reading it would take minutes and the memory
        try handle.close()
        let result = try run()
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.hasPrefix("note: \(Self.icon): [marketing-icon] 'App': the App Store icon '\(Self.icon)' cannot be read, so its size and transparency are not checked: "
            + "'\(path)' is larger than 67108864 bytes, the most Slipway reads of a screenshot. Check that it is the file you meant.\n"
            + "  fix: keep the icon a regular PNG file inside the checkout, under 64 MiB\n"), "\(result.standardOutput)")
    }

    @Test func anIconLinkedOutOfTheCheckoutIsNotRead() throws {
        let outside = try TemporaryDirectory(prefix: "slipway-preflight-icon-outside")
        try Data(Self.png(colorType: 2)).write(to: URL(fileURLWithPath: outside.path + "/icon.png"))
        let path = folder.path + "/" + Self.icon
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside.path + "/icon.png")
        let result = try run()
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.hasPrefix("note: \(Self.icon): [marketing-icon] 'App': the App Store icon '\(Self.icon)' cannot be read, so its size and transparency are not checked: "),
                "\(result.standardOutput)")
        #expect(result.standardOutput.contains("is a symbolic link to '\(outside.path)/icon.png', outside the project. Slipway reads and writes the project's files only inside the project ('"),
                "\(result.standardOutput)")
    }
}
