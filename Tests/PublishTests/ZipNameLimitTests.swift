import Basics
import Foundation
import Publish
import Testing
import TestSupport
import TestThreads

/// A zip entry's name has a 16-bit length: a longer one (a lane's prefix is lane-file input) is
/// an error before anything is written, not a trap in `UInt16(_:)`. (The first entry is the
/// prefix folder itself, `ppp…/`: 70,001 bytes.)
@Suite(.dedicatedThreads) struct ZipNameLimitTests {
    @Test func aNameLongerThan65535BytesIsRefusedAndNothingIsWritten() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-zip-name")
        try folder.write("in/tool", "#!/bin/sh\n")
        let streams = LocalFileStreams()
        let prefix = String(repeating: "p", count: 70_000)
        let entries = try ArchiveLayout(fileSystem: LocalFileSystem(), streams: streams)
            .entries(for: [ArchiveInput(path: folder.path + "/in/tool", name: "tool")], prefix: prefix)
        let before = try Snapshot.of(folder.path)
        #expect {
            _ = try Archiver(streams: streams).write(ArchiveRequest(output: folder.path + "/out.zip", format: .zip, entries: entries))
        } throws: { error in
            error.localizedDescription == "'\(String(repeating: "p", count: 60))...' is 70001 bytes long as a name inside the archive, "
                + "more than the 65535 a zip entry can hold. Use a shorter prefix or path."
        }
        #expect(try Snapshot.of(folder.path) == before)
    }
}
