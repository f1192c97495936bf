import AppleAPI
import Foundation
import Testing
import TestSupport
import TestThreads

/// Crafted .ipa files: zip directories whose sizes, offsets and counts lie (zip64 values of
/// 2^64 - 1, counts of 2^32, overlapping entries) and an Info.plist that is a DAG bomb. Each is
/// an exact `BuildUploadError` naming the file, never a trap, and nothing on disk changes.
@Suite(.dedicatedThreads) struct HostileIPATests {
    let folder: TemporaryDirectory
    static let plistName = "Payload/Example.app/Info.plist"

    init() throws {
        folder = try TemporaryDirectory(prefix: "hostile-ipa")
    }

    /// Writes `bytes` as NAME.ipa, reads it, and returns the error's message; checks that the
    /// folder (the .ipa included) is byte for byte what it was.
    func readError(_ name: String, _ bytes: [UInt8]) throws -> String? {
        let path = folder.path + "/" + name + ".ipa"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let before = try Snapshot.of(folder.path)
        defer { #expect((try? Snapshot.of(folder.path)) == before, "the folder changed") }
        do {
            _ = try IPAInfo.read(path: path)
            return nil
        } catch {
            return error.localizedDescription
        }
    }

    func notAnArchive(_ name: String, _ reason: String) -> String {
        "'\(folder.path)/\(name).ipa' is not a readable .ipa (zip) archive: \(reason). Give the .ipa that xcode.export (or Xcode) wrote."
    }

    func plist(_ claims: (inout HostileArchive.Entry) -> Void = { _ in }) -> HostileArchive.Entry {
        var entry = HostileArchive.Entry(name: Self.plistName, data: HostileArchive.infoPlist)
        claims(&entry)
        return entry
    }

    @Test func aHandBuiltArchiveReads() throws {
        let path = folder.path + "/Good.ipa"
        try Data(HostileArchive.zip([plist()])).write(to: URL(fileURLWithPath: path))
        let info = try IPAInfo.read(path: path)
        #expect(info.bundleID == "com.example.app" && info.version == "1.2.0" && info.buildNumber == "42")
    }

    @Test func theDAGBombInfoPlistIsRefusedByTheBudget() throws {
        let bomb = HostileArchive.zip([HostileArchive.Entry(name: Self.plistName, data: HostileArchive.dagBombPlist())])
        #expect(bomb.count < 400)
        #expect(try readError("Bomb", bomb) == "'\(Self.plistName)' in '\(folder.path)/Bomb.ipa' exceeds slipway's property-list budget: "
            + "it expands to more than 1000000 values (each shared reference counted every time it is used). "
            + "The archive may be hostile (a small file that expands to a huge one); slipway stopped reading it. Check where the .ipa came from.")
    }

    @Test func zip64SizesAndOffsetsOfTwoToTheSixtyFourAreErrors() throws {
        // Before: Int(UInt64.max) trapped reading the entry.
        #expect(try readError("Compressed", HostileArchive.zip([plist { $0.claimedCompressedSize = .max }]))
            == notAnArchive("Compressed", "the entry '\(Self.plistName)' claims data past the end of the archive's contents"))
        // Before: the sum of the uncompressed sizes overflowed and trapped.
        let sizes = HostileArchive.zip([plist { $0.claimedUncompressedSize = .max },
                                        HostileArchive.Entry(name: "Payload/Example.app/Example", data: [1], claimedUncompressedSize: .max)])
        #expect(try readError("Sizes", sizes) == notAnArchive("Sizes", "its entries claim more than 18446744073709551615 bytes uncompressed"))
        // Before: offset + 30 overflowed and trapped.
        #expect(try readError("Offset", HostileArchive.zip([plist { $0.claimedOffset = .max - 10 }]))
            == notAnArchive("Offset", "the entry '\(Self.plistName)' claims data past the end of the archive's contents"))
        #expect(try readError("Past", HostileArchive.zip([plist { $0.claimedOffset = 1_000_000 }]))
            == notAnArchive("Past", "the entry '\(Self.plistName)' claims data past the end of the archive's contents"))
    }

    @Test func directoryClaimsThatDoNotFitTheFileAreErrors() throws {
        // Before: directory offset + size overflowed and trapped.
        #expect(try readError("DirectoryOffset", HostileArchive.zip([plist()], directory: .init(offset: .max, zip64: true)))
            == notAnArchive("DirectoryOffset", "its central directory lies outside the file"))
        #expect(try readError("Count", HostileArchive.zip([plist()], directory: .init(count: .max, zip64: true)))
            == notAnArchive("Count", "its directory claims 18446744073709551615 entries, more than 1 (what it can hold)"))
        #expect(try readError("FourBillion", HostileArchive.zip([plist()], directory: .init(count: 1 << 32, zip64: true)))
            == notAnArchive("FourBillion", "its directory claims 4294967296 entries, more than 1 (what it can hold)"))
        #expect(try readError("Classic", HostileArchive.zip([plist()], directory: .init(count: 0xFFFF)))
            == notAnArchive("Classic", "its directory claims 65535 entries, more than 1 (what it can hold)"))
    }

    @Test func overlappingEntriesAreRefused() throws {
        // Two directory entries for the same bytes: how overlapping zip bombs multiply output.
        let overlap = HostileArchive.zip([plist(), HostileArchive.Entry(name: "Payload/Example.app/Example", data: [1], claimedOffset: 0)])
        #expect(try readError("Overlap", overlap)
            == notAnArchive("Overlap", "the entries '\(Self.plistName)' and 'Payload/Example.app/Example' overlap"))
    }
}
