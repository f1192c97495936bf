import Basics
import Foundation
@testable import Sync
import Testing
import TestSupport
import TestThreads

/// Issue 25 point 7: the case-sensitivity probe's macOS answer (no name to flip: assume the
/// case-insensitive APFS default) used to sit in an `#if os(macOS)` branch and never ran here.
@Suite(.dedicatedThreads) struct CaseSensitivityProbeTests {
    @Test func withoutANameToFlipThePlatformsFileSystemDecides() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-case")
        try folder.write("123", "")
        try folder.write("4-5", "")
        let disk = LocalFileSystem()
        #expect(DirectoryListing.probeCaseSensitivity(root: folder.path, names: ["123", "4-5"], fileSystem: disk, fallback: false) == false,
                "the Mac's answer")
        #expect(DirectoryListing.probeCaseSensitivity(root: folder.path, names: ["123", "4-5"], fileSystem: disk, fallback: true) == true,
                "Linux's answer")
        #expect(DirectoryListing.probeCaseSensitivity(root: folder.path, names: ["123"], fileSystem: disk)
            == DirectoryListing.platformIsCaseSensitive)
        #if os(macOS)
        #expect(DirectoryListing.platformIsCaseSensitive == false)
        #else
        #expect(DirectoryListing.platformIsCaseSensitive == true)
        #endif
    }

    @Test func aNameWithCaseIsProbedWhateverThePlatformAssumes() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-case")
        try folder.write("App.swift", "")
        let disk = LocalFileSystem()
        // Whether "APP.SWIFT" reaches the file is the disk's answer; the fallback plays no part.
        let sensitive = disk.kind(of: folder.path + "/APP.SWIFT") == nil
        for fallback in [false, true] {
            #expect(DirectoryListing.probeCaseSensitivity(root: folder.path, names: ["App.swift"], fileSystem: disk,
                                                          fallback: fallback) == sensitive)
        }
        // Two names that differ only in case: the disk tells them apart.
        #expect(DirectoryListing.probeCaseSensitivity(root: folder.path, names: ["a", "A"], fileSystem: disk, fallback: false))
    }
}
