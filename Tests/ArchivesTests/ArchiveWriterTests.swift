@testable import Archives
import Foundation
import Testing
import TestSupport
import TestThreads

/// The writers, read back by the reader: one module writes and reads both formats' bytes.
/// (PublishTests check the archives against tar, unzip and Python's zipfile.)
@Suite(.dedicatedThreads) struct ArchiveWriterTests {
    /// An archive written to memory.
    final class MemoryOutput: ArchiveOutput {
        var bytes: [UInt8] = []
        var offset: Int64 { Int64(bytes.count) }
        func write(_ chunk: UnsafeRawBufferPointer) throws { bytes += chunk }
        func overwrite(_ patch: [UInt8], at offset: Int64) throws {
            bytes.replaceSubrange(Int(offset)..<(Int(offset) + patch.count), with: patch)
        }
    }

    /// Entries' files from a dictionary, in chunks of `chunk` bytes.
    struct MemoryInputs: ArchiveInputs {
        var files: [String: [UInt8]]
        var chunk = 3
        func forEachChunk(ofFile path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
            let bytes = files[path] ?? []
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                try Array(bytes[start..<min(start + chunk, bytes.count)]).withUnsafeBytes { try body($0) }
            }
        }
    }

    let settings = ArchiveSettings(output: "/out/a.zip", modificationTime: 0, compressionLevel: 6)
    let script = Array("#!/bin/sh\necho hello\n".utf8)

    var entries: [ArchiveEntry] {
        [ArchiveEntry(name: "bin", content: .directory, mode: 0o755),
         ArchiveEntry(name: "bin/tool", content: .file(source: "/in/tool", size: Int64(script.count)), mode: 0o755),
         ArchiveEntry(name: "bin/link", content: .symbolicLink(target: "tool"), mode: 0o777)]
    }

    @Test func aWrittenZipReadsBackWithModesAndLinks() throws {
        let output = MemoryOutput()
        var advanced: Int64 = 0
        try ZipWriter(output: output, inputs: MemoryInputs(files: ["/in/tool": script]), settings: settings,
                      advance: { advanced += $0 }).write(entries)
        #expect(advanced == Int64(script.count))
        let zip = try ZipDirectory(bytes: output.bytes)
        try zip.checkLayout()
        #expect(zip.entries.map(\.name) == ["bin/", "bin/tool", "bin/link"])
        #expect(zip.entries.map(\.unixMode) == [0o040755, 0o100755, 0o120777])
        #expect(zip.entries.map(\.isSymbolicLink) == [false, false, true])
        #expect(try zip.contents(of: zip.entries[1]) == script)
        #expect(try zip.contents(of: zip.entries[2]) == Array("tool".utf8))
    }

    @Test func aFileThatChangesSizeIsRefusedByBothWriters() throws {
        let inputs = MemoryInputs(files: ["/in/tool": Array(script.dropLast())])
        let expected = ArchiveError.compressionFailed(path: "/in/tool", reason: "it changed size while being archived")
        #expect(throws: expected) { try ZipWriter(output: MemoryOutput(), inputs: inputs, settings: settings).write(entries) }
        #expect(throws: expected) { try TarGzipWriter(inputs: inputs, settings: settings).write(entries) { _ in } }
        #expect(expected.localizedDescription == "could not compress '/in/tool': it changed size while being archived.")
    }

    @Test func aZipNameOver65535BytesIsRefusedBeforeAnythingIsWritten() {
        let output = MemoryOutput()
        let name = String(repeating: "p", count: 70_000)
        #expect(throws: ArchiveError.nameTooLong(name: name + "/", bytes: 70_001)) {
            try ZipWriter(output: output, inputs: MemoryInputs(files: [:]), settings: settings)
                .write([ArchiveEntry(name: name, content: .directory, mode: 0o755)])
        }
        #expect(output.bytes.isEmpty)
    }

    @Test func theSameEntriesGiveTheSameBytes() throws {
        let inputs = MemoryInputs(files: ["/in/tool": script])
        var first: [UInt8] = [], second: [UInt8] = []
        try TarGzipWriter(inputs: inputs, settings: settings).write(entries) { first += $0 }
        try TarGzipWriter(inputs: MemoryInputs(files: ["/in/tool": script], chunk: 1), settings: settings).write(entries) { second += $0 }
        #expect(!first.isEmpty && first == second)
        #expect(Array(first.prefix(4)) == [0x1F, 0x8B, 0x08, 0x00])
    }

    @Test func zipDatesStartIn1980() {
        let epoch = ZipWriter.dosTime(0)
        #expect(epoch.time == 0)
        #expect(epoch.date == 0x21)
        let later = ZipWriter.dosTime(1_700_000_000)
        let time: UInt16 = 22 << 11 | 13 << 5 | 10
        let date: UInt16 = 43 << 9 | 11 << 5 | 14
        #expect(later.time == time)
        #expect(later.date == date)
    }
}
