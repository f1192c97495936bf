@testable import Archives
import Foundation
import Testing
import TestSupport
import TestThreads

/// The zip reader on its own, over HostileArchive's hand-built zips: every claim that does not
/// fit the file is a `Malformed` with its reason, never a trap (the same promises the `zip`
/// fuzz target checks). The .ipa and `tools install` tests check the messages their users see.
@Suite(.dedicatedThreads) struct ZipDirectoryTests {
    func reason(_ bytes: [UInt8], limits: ZipDirectory.Limits = ZipDirectory.Limits()) -> String? {
        do {
            let zip = try ZipDirectory(bytes: bytes, limits: limits)
            _ = try zip.totalUncompressedSize()
            try zip.checkLayout()
            for entry in zip.entries { _ = try zip.contents(of: entry) }
            return nil
        } catch let error as ZipDirectory.Malformed {
            return error.reason
        } catch {
            return "unexpected: \(error)"
        }
    }

    func entry(_ name: String = "bin/tool", _ claims: (inout HostileArchive.Entry) -> Void = { _ in }) -> HostileArchive.Entry {
        var entry = HostileArchive.Entry(name: name, data: Array("#!/bin/sh\n".utf8))
        claims(&entry)
        return entry
    }

    @Test func aHandBuiltZipReads() throws {
        let zip = try ZipDirectory(bytes: HostileArchive.zip([entry(), entry("README")]))
        #expect(zip.entries.map(\.name) == ["bin/tool", "README"])
        #expect(try zip.contents(of: zip.entries[0]) == Array("#!/bin/sh\n".utf8))
        #expect(try zip.totalUncompressedSize() == 20)
        #expect(zip.entries.allSatisfy { !$0.isSymbolicLink && $0.unixMode == 0 })
    }

    @Test func claimsOfTwoToTheSixtyFourAreReasonsNotTraps() {
        #expect(reason(HostileArchive.zip([entry { $0.claimedCompressedSize = .max }]))
            == "the entry 'bin/tool' claims data past the end of the archive's contents")
        #expect(reason(HostileArchive.zip([entry { $0.claimedUncompressedSize = .max }, entry("b") { $0.claimedUncompressedSize = .max }]))
            == "its entries claim more than 18446744073709551615 bytes uncompressed")
        #expect(reason(HostileArchive.zip([entry { $0.claimedOffset = .max - 10 }]))
            == "the entry 'bin/tool' claims data past the end of the archive's contents")
        #expect(reason(HostileArchive.zip([entry()], directory: .init(offset: .max, zip64: true)))
            == "its central directory lies outside the file")
        #expect(reason(HostileArchive.zip([entry()], directory: .init(count: 1 << 32, zip64: true)))
            == "its directory claims 4294967296 entries, more than 1 (what it can hold)")
        #expect(reason(Array("not a zip".utf8)) == "it has no zip end-of-directory record")
        #expect(reason([]) == "it has no zip end-of-directory record")
    }

    @Test func overlappingEntriesAndOversizedEntriesAreRefused() {
        #expect(reason(HostileArchive.zip([entry(), entry("bin/other") { $0.claimedOffset = 0 }]))
            == "the entries 'bin/tool' and 'bin/other' overlap")
        #expect(reason(HostileArchive.zip([entry()]), limits: .init(maxEntryBytes: 4))
            == "the entry 'bin/tool' is larger than the 4 bytes slipway reads")
        #expect(reason(HostileArchive.zip([entry(), entry("b")]), limits: .init(maxEntries: 1))
            == "its directory claims 2 entries, more than 1 (what it can hold)")
    }

    @Test func aFileOnDiskReadsLikeTheSameBytes() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-zip-directory")
        let bytes = HostileArchive.zip([entry(), entry("README")])
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/a.zip"))
        let fromDisk = try ZipDirectory(path: folder.path + "/a.zip")
        #expect(fromDisk.entries == (try ZipDirectory(bytes: bytes)).entries)
        #expect(throws: ZipDirectory.Malformed(reason: "it cannot be opened")) { try ZipDirectory(path: folder.path + "/missing.zip") }
    }
}
