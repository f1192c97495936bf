import Archives
import Basics
import Foundation
import Publish
import Testing
import TestSupport
import TestThreads

/// Archives checked by the real tools: tar, gzip, unzip and Python's zipfile.
@Suite(.dedicatedThreads) struct ArchiveTests {
    let fileSystem = LocalFileSystem()
    let streams = LocalFileStreams()

    /// A folder with a script, a text file, a nested folder, a link and a long name.
    func makeInputs() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-archive")
        try folder.write("in/tool", "#!/bin/sh\necho hi\n")
        chmod(folder.path + "/in/tool", 0o700)
        try folder.write("in/README.md", String(repeating: "release notes\n", count: 2000))
        try folder.write("in/docs/guide.txt", "guide\n")
        let long = String(repeating: "d", count: 90) + "/" + String(repeating: "n", count: 90) + ".txt"
        try folder.write("in/docs/\(long)", "long\n")
        symlink("tool", folder.path + "/in/link")
        chmod(folder.path + "/in/README.md", 0o600)
        return folder
    }

    func inputs(_ folder: TemporaryDirectory) -> [ArchiveInput] {
        ["tool", "README.md", "docs", "link"].map { ArchiveInput(path: folder.path + "/in/" + $0, name: $0) }
    }

    func archive(_ folder: TemporaryDirectory, _ name: String, format: ArchiveFormat, mtime: Int64 = 0,
                 prefix: String? = nil) throws -> ArchiveResult {
        let entries = try ArchiveLayout(fileSystem: fileSystem, streams: streams).entries(for: inputs(folder), prefix: prefix)
        return try Archiver(streams: streams).write(ArchiveRequest(output: folder.path + "/" + name, format: format,
                                                                   entries: entries, modificationTime: mtime))
    }

    func bytes(_ path: String) throws -> [UInt8] { try fileSystem.read(path) }

    @Test(arguments: [ArchiveFormat.tarGzip, .zip])
    func twoRunsGiveIdenticalBytes(format: ArchiveFormat) throws {
        let folder = try makeInputs()
        let name = format == .zip ? "a.zip" : "a.tar.gz"
        let first = try archive(folder, name, format: format)
        let firstBytes = try bytes(first.path)
        // Touch everything and change a permission the archive normalises away.
        try Shell.run("touch -d '2021-02-03 04:05:06' in/tool in/README.md in/docs && chmod 644 in/README.md", in: folder.path)
        let second = try archive(folder, name, format: format)
        #expect(try bytes(second.path) == firstBytes)
        #expect(first.sha256 == second.sha256)
        #expect(try Shell.output("sha256sum \(name) | cut -d' ' -f1", in: folder.path) == first.sha256 + "\n")
        #expect(first.size == Int64(firstBytes.count))
    }

    @Test func tarListsSortedEntriesWithFixedTimesOwnersAndModes() throws {
        let folder = try makeInputs()
        let result = try archive(folder, "out.tar.gz", format: .tarGzip, prefix: "pkg-1.0")
        #expect(try Shell.output("gzip -t out.tar.gz && echo ok", in: folder.path) == "ok\n")
        let listing = try Shell.output("TZ=UTC tar -tzvf out.tar.gz", in: folder.path)
        let lines = listing.split(separator: "\n").map(String.init)
        let long = "pkg-1.0/docs/" + String(repeating: "d", count: 90) + "/" + String(repeating: "n", count: 90) + ".txt"
        #expect(lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).joined(separator: " ") } == [
            "pkg-1.0/", "pkg-1.0/README.md", "pkg-1.0/docs/", "pkg-1.0/docs/" + String(repeating: "d", count: 90) + "/",
            long, "pkg-1.0/docs/guide.txt", "pkg-1.0/link -> tool", "pkg-1.0/tool",
        ])
        for line in lines {
            #expect(line.contains(" 0/0 "), "\(line)")
            #expect(line.contains("1970-01-01 00:00"), "\(line)")
        }
        #expect(lines[1].hasPrefix("-rw-r--r--"))
        #expect(lines[7].hasPrefix("-rwxr-xr-x"))
        #expect(lines[0].hasPrefix("drwxr-xr-x"))
        #expect(lines[6].hasPrefix("lrwxrwxrwx"))
        #expect(result.entryCount == 8)
        try Shell.run("mkdir x && tar -xzf out.tar.gz -C x && cmp x/pkg-1.0/README.md in/README.md && cmp '\(folder.path)/x/\(long)' 'in/docs/\(long.dropFirst(13))'", in: folder.path)
    }

    @Test func sourceDateEpochIsTheStoredTime() throws {
        let folder = try makeInputs()
        _ = try archive(folder, "out.tar.gz", format: .tarGzip, mtime: 1_700_000_000)
        let listing = try Shell.output("TZ=UTC tar -tzvf out.tar.gz", in: folder.path)
        #expect(listing.split(separator: "\n").allSatisfy { $0.contains("2023-11-14 22:13") }, "\(listing)")
        _ = try archive(folder, "out.zip", format: .zip, mtime: 1_700_000_000)
        let zipInfo = try Shell.output("python3 -c 'import zipfile,sys; print(zipfile.ZipFile(sys.argv[1]).getinfo(\"tool\").date_time)' out.zip", in: folder.path)
        #expect(zipInfo == "(2023, 11, 14, 22, 13, 20)\n")
    }

    @Test func zipIsReadByUnzipAndPython() throws {
        let folder = try makeInputs()
        _ = try archive(folder, "out.zip", format: .zip)
        let test = try Shell.output("unzip -tq out.zip", in: folder.path)
        #expect(test.hasPrefix("No errors detected"), "\(test)")
        let script = """
            import zipfile, sys
            z = zipfile.ZipFile(sys.argv[1])
            for i in z.infolist():
                print(i.filename, oct(i.external_attr >> 16), i.date_time, i.compress_type)
            """
        try folder.write("list.py", script)
        let listing = try Shell.output("python3 list.py out.zip", in: folder.path)
        let long = "docs/" + String(repeating: "d", count: 90) + "/" + String(repeating: "n", count: 90) + ".txt"
        #expect(listing == """
            README.md 0o100644 (1980, 1, 1, 0, 0, 0) 8
            docs/ 0o40755 (1980, 1, 1, 0, 0, 0) 0
            docs/\(String(repeating: "d", count: 90))/ 0o40755 (1980, 1, 1, 0, 0, 0) 0
            \(long) 0o100644 (1980, 1, 1, 0, 0, 0) 8
            docs/guide.txt 0o100644 (1980, 1, 1, 0, 0, 0) 8
            link 0o120777 (1980, 1, 1, 0, 0, 0) 0
            tool 0o100755 (1980, 1, 1, 0, 0, 0) 8

            """)
        try Shell.run("mkdir x && cd x && unzip -q ../out.zip && cmp README.md ../in/README.md && test -x tool && test \"$(readlink link)\" = tool", in: folder.path)
    }

    @Test func duplicateNamesAreRefusedBeforeAnythingIsWritten() throws {
        let folder = try makeInputs()
        let inputs = [ArchiveInput(path: folder.path + "/in/tool", name: "x"), ArchiveInput(path: folder.path + "/in/README.md", name: "x")]
        #expect(throws: PublishError.duplicateEntry(name: "x")) {
            _ = try ArchiveLayout(fileSystem: fileSystem, streams: streams).entries(for: inputs)
        }
        #expect(PublishError.duplicateEntry(name: "x").errorDescription ==
            "two inputs would be stored as 'x' in the archive. Rename one, or set 'base' so that their paths differ.")
    }

    @Test func aFailedArchiveLeavesNothingBehind() throws {
        let folder = try makeInputs()
        let entries = [ArchiveEntry(name: "gone", content: .file(source: folder.path + "/missing", size: 3), mode: 0o644)]
        #expect(throws: FileSystemError.notFound(path: folder.path + "/missing")) {
            _ = try Archiver(streams: streams).write(ArchiveRequest(output: folder.path + "/out.tar.gz", format: .tarGzip, entries: entries))
        }
        #expect(try fileSystem.contents(ofDirectory: folder.path) == ["in"])
    }

    @Test func largeFileStreamsThroughWithProgress() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-archive-big")
        try Shell.run("head -c 30000000 /dev/urandom | base64 > big.txt", in: folder.path)
        let entries = try ArchiveLayout(fileSystem: fileSystem, streams: streams)
            .entries(for: [ArchiveInput(path: folder.path + "/big.txt", name: "big.txt")])
        let reports = Reports()
        let result = try Archiver(streams: streams).write(
            ArchiveRequest(output: folder.path + "/big.tar.gz", format: .tarGzip, entries: entries)) { done, total in
                reports.append(done, total)
            }
        #expect(reports.values.last?.0 == reports.values.last?.1)
        #expect(reports.values.count >= 3)
        try Shell.run("mkdir x && tar -xzf big.tar.gz -C x && cmp x/big.txt big.txt", in: folder.path)
        #expect(result.size < 40_000_000)
    }
}

final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(Int64, Int64)] = []
    var values: [(Int64, Int64)] { lock.withLock { stored } }
    func append(_ done: Int64, _ total: Int64) { lock.withLock { stored.append((done, total)) } }
}
