@testable import CIExport
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 23 item 8c: `slipway ci check` reads a committed file an untrusted branch may have
/// replaced. Its memory is bounded (checked with an address-space rlimit on the real binary),
/// a file past `CIExporter.maxCommittedBytes` is refused before it is read, and a symbolic link
/// (to `/dev/zero`, say) is refused without being followed.
@Suite("slipway ci check: bounded input", .dedicatedThreads) struct CICheckBoundsTests {
    static let file = ".gitlab-ci.yml"
    /// The address space `ci check` may use: the binary's own needs on this machine are far less
    /// (see `aSmallCheckFitsTheLimit`); the old line-by-line table needed over a gigabyte for
    /// the file below.
    static let addressSpace = 400_000_000

    private func limited(_ arguments: [String], in folder: TemporaryDirectory) throws -> CommandResult {
        try CommandResult.run("/usr/bin/prlimit", ["--as=\(Self.addressSpace)", "--cpu=60", "--", Binaries.slipway] + arguments,
                              in: folder.path, environment: ["NO_COLOR": "1"])
    }

    /// The matrix project with the GitLab pipeline exported to `.gitlab-ci.yml`; its text.
    private func exported() throws -> (TemporaryDirectory, String) {
        let folder = try CIExportSupport.matrixProject()
        let export = try CommandResult.run(Binaries.slipway, ["ci", "export", "ios-matrix", "--to", "gitlab", "--output", Self.file],
                                           in: folder.path, environment: ["NO_COLOR": "1"])
        #expect(export.status == 0, "\(export.standardError)")
        return (folder, try String(contentsOfFile: folder.path + "/" + Self.file, encoding: .utf8))
    }

    private static let check = ["ci", "check", "ios-matrix", "--to", "gitlab", "--file", file]

    @Test func aSmallCheckFitsTheLimit() throws {
        let (folder, _) = try exported()
        let result = try limited(Self.check, in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "\(Self.file) is up to date with lane 'ios-matrix'\n")
    }

    @Test func aLargeCommittedFileIsDiffedWithinTheLimit() throws {
        let (folder, expected) = try exported()
        // Just under the cap, every line different from the pipeline's.
        var lines: [String] = []
        var size = 0
        while size + 16 < CIExporter.maxCommittedBytes {
            let line = "line \(lines.count)"
            lines.append(line)
            size += line.utf8.count + 1
        }
        try folder.write(Self.file, lines.joined(separator: "\n") + "\n")
        let before = try Snapshot.of(folder.path)
        let result = try limited(Self.check, in: folder)
        #expect(result.status == 1, "\(result.standardError)")
        var expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        expectedLines.removeLast()
        let diff = ["--- \(Self.file)", "+++ slipway ci export ios-matrix --to gitlab", "@@ -1,\(lines.count) +1,\(expectedLines.count) @@"]
            + lines.map { "-" + $0 } + expectedLines.map { "+" + $0 }
        #expect(result.standardOutput == diff.joined(separator: "\n") + "\n")
        #expect(result.standardError == "error: '\(Self.file)' is out of date with lane 'ios-matrix'; regenerate it with "
            + "'slipway ci export ios-matrix --to gitlab --output \(Self.file)' (and the same options)\n")
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func aFileOverTheCapIsRefusedUnread() throws {
        let (folder, _) = try exported()
        try folder.write(Self.file, String(repeating: "x", count: CIExporter.maxCommittedBytes) + "\n")
        let before = try Snapshot.of(folder.path)
        let result = try limited(Self.check, in: folder)
        #expect(result.status == 2)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "error: '\(Self.file)' is \(CIExporter.maxCommittedBytes + 1) bytes, more than the "
            + "\(CIExporter.maxCommittedBytes) bytes of any pipeline Slipway writes; it is not an exported pipeline: replace it with "
            + "the output of 'slipway ci export'\n")
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func aSymbolicLinkIsRefusedUnfollowed() throws {
        let (folder, _) = try exported()
        let path = folder.path + "/" + Self.file
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        let lanes = try Snapshot.of(folder.path + "/lanes")
        let result = try limited(Self.check, in: folder)
        #expect(result.status == 2)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "error: '\(Self.file)' is not a regular file (a symbolic link, folder or device); 'ci check' "
            + "compares the committed pipeline file itself: replace it with the output of 'slipway ci export'\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "/dev/zero")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".gitlab-ci.yml", "Toolfile.lock", "lanes"])
        #expect(try Snapshot.of(folder.path + "/lanes") == lanes)
    }

    @Test func aBoundedDiffStillSaysEverything() {
        let old = (0..<3000).map { "old \($0)" }, new = (0..<2000).map { "new \($0)" }
        #expect(old.count * new.count > LineDiff.tableBudget)
        let diff = LineDiff.unified(from: (["same"] + old + ["end"]).joined(separator: "\n") + "\n",
                                    to: (["same"] + new + ["end"]).joined(separator: "\n") + "\n", fromName: "a", toName: "b")
        let expected = ["--- a", "+++ b", "@@ -1,3002 +1,2002 @@", " same"] + old.map { "-" + $0 } + new.map { "+" + $0 } + [" end"]
        #expect(diff == expected.joined(separator: "\n") + "\n")
        // Within the budget the diff is minimal, and a CR is part of its line.
        #expect(LineDiff.unified(from: "a\nb\r\nc\n", to: "a\nb\nc\n", fromName: "x", toName: "y")
            == "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\r\n+b\n c\n")
    }
}
