import Basics
import Foundation
import Testing
import TestSupport
import TestThreads
import Xcode

/// Property lists from the checkout (ExportOptions.plist, an archive's Info.plist) that are
/// DAG bombs or too large are refused by the budget, naming the file; nothing changes on disk.
@Suite(.dedicatedThreads) struct HostilePropertyListTests {
    @Test func aDAGBombExportOptionsOrArchiveInfoPlistIsRefused() throws {
        let directory = try TemporaryDirectory()
        let options = directory.path + "/ExportOptions.plist"
        try Data(HostileArchive.dagBombPlist()).write(to: URL(fileURLWithPath: options))
        try FileManager.default.createDirectory(atPath: directory.path + "/App.xcarchive", withIntermediateDirectories: true)
        try Data(HostileArchive.dagBombPlist()).write(to: URL(fileURLWithPath: directory.path + "/App.xcarchive/Info.plist"))
        let before = try Snapshot.of(directory.path)
        func message(_ path: String) -> String {
            "'\(path)' is not a readable property list: it expands to more than 1000000 values (each shared reference counted "
                + "every time it is used); the file may be hostile, so slipway stopped reading it. Fix or recreate the file."
        }
        #expect {
            _ = try ExportOptions.read(path: options, fileSystem: LocalFileSystem())
        } throws: { error in
            error.localizedDescription == message(options)
        }
        #expect {
            _ = try XcodeArchive.read(path: directory.path + "/App.xcarchive", fileSystem: LocalFileSystem())
        } throws: { error in
            error.localizedDescription == message(directory.path + "/App.xcarchive/Info.plist")
        }
        #expect(try Snapshot.of(directory.path) == before)
    }

    @Test func aFileOverTheInputBudgetIsRefusedBeforeItIsRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/ExportOptions.plist"
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(32 << 20) + 1)  // sparse: no 32 MiB written
        try handle.close()
        #expect {
            _ = try ExportOptions.read(path: path, fileSystem: LocalFileSystem())
        } throws: { error in
            error.localizedDescription == "'\(path)' is not a readable property list: it is 33554433 bytes, more than the 33554432 bytes allowed; "
                + "the file may be hostile, so slipway stopped reading it. Fix or recreate the file."
        }
    }
}
