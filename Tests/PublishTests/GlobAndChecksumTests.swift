import Basics
import Foundation
@testable import Publish
import Testing
import TestSupport
import TestThreads

/// SHA256SUMS files (checked with `sha256sum -c`); the patterns' own tests are ProjectGlobTests.
@Suite(.dedicatedThreads) struct GlobAndChecksumTests {
    let fileSystem = LocalFileSystem()

    func tree() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-glob")
        for path in ["dist/a.tar.gz", "dist/b.zip", "dist/.hidden.zip", "dist/sub/c.tar.gz", "dist/sub/deeper/d.tar.gz", "other/e.txt"] {
            try folder.write(path, path)
        }
        return folder
    }

    @Test func checksumFilesAreCheckedBySha256sum() throws {
        let folder = try tree()
        let streams = LocalFileStreams()
        let files = try ProjectGlob(fileSystem: fileSystem, root: folder.path)
            .expand(["dist/**/*.tar.gz", "dist/b.zip"], in: folder.path).matches.map(\.path)
        let output = folder.path + "/dist/SHA256SUMS"
        let lines = try ChecksumFile(fileSystem: fileSystem, streams: streams).write(files: files.reversed(), to: output)
        #expect(lines.map(\.name) == ["a.tar.gz", "b.zip", "sub/c.tar.gz", "sub/deeper/d.tar.gz"])
        let check = try Shell.output("sha256sum -c SHA256SUMS", in: folder.path + "/dist")
        #expect(check == "a.tar.gz: OK\nb.zip: OK\nsub/c.tar.gz: OK\nsub/deeper/d.tar.gz: OK\n")
        #expect(try fileSystem.readText(output).split(separator: "\n").first
            == "\(try Shell.output("sha256sum dist/a.tar.gz", in: folder.path).prefix(64))  a.tar.gz")
    }

    @Test func filesOutsideTheChecksumFoldersAreRefusedBeforeWriting() throws {
        let folder = try tree()
        let outside = folder.path + "/other/e.txt"
        #expect(throws: PublishError.notBesideChecksums(file: outside, folder: folder.path + "/dist")) {
            try ChecksumFile(fileSystem: fileSystem, streams: LocalFileStreams())
                .write(files: [folder.path + "/dist/b.zip", outside], to: folder.path + "/dist/SHA256SUMS")
        }
        #expect(!fileSystem.exists(folder.path + "/dist/SHA256SUMS"))
    }
}
