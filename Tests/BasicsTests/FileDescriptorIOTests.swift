import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one home of the EINTR-retrying reads and writes, and of the date texts.
@Suite(.dedicatedThreads) struct FileDescriptorIOTests {
    @Test func writesAllAndReadsBackAtAnOffset() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-fd-io")
        let path = folder.path + "/file"
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try FileDescriptorIO.writeAll(descriptor, bytes)
        try FileDescriptorIO.writeAll(descriptor, [1, 2, 3], at: 10)
        var expected = bytes
        expected.replaceSubrange(10..<13, with: [1, 2, 3])
        var buffer = [UInt8](repeating: 0, count: 100)
        let count = try buffer.withUnsafeMutableBytes { try FileDescriptorIO.read(descriptor, into: $0, at: 5) }
        #expect(count == 100 && buffer == Array(expected[5..<105]))
        let end = try buffer.withUnsafeMutableBytes { try FileDescriptorIO.read(descriptor, into: $0) }
        #expect(end == 0, "the descriptor's own position is after the appended bytes")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == expected)
    }

    @Test func aFailureCarriesTheErrno() throws {
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(throws: FileDescriptorIO.Failure(code: EBADF)) {
            _ = try buffer.withUnsafeMutableBytes { try FileDescriptorIO.read(-1, into: $0) }
        }
        #expect(throws: FileDescriptorIO.Failure(code: EBADF)) { try FileDescriptorIO.writeAll(-1, [1]) }
        try FileDescriptorIO.writeAll(-1, [])
    }

    @Test func dayAndISO8601Texts() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(DateText.day(date) == "2023-11-14")
        #expect(DateText.day(Date(timeIntervalSince1970: -1)) == "1969-12-31")
        #expect(DateText.iso8601(date) == "2023-11-14T22:13:20Z")
        #expect(DateText.date(iso8601: "2023-11-14T22:13:20Z") == date)
        #expect(DateText.date(iso8601: "2023-11-14T23:13:20+01:00") == date)
        #expect(DateText.date(iso8601: "2023-11-14T22:13:20.000Z") == nil)
        #expect(DateText.date(iso8601: "2023-11-14T22:13:20.000Z", fractionalSeconds: true) == date)
        #expect(DateText.date(iso8601: "2023-11-14") == nil)
    }
}
