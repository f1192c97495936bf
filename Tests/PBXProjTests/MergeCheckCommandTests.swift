import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// `slipway xcodeproj merge` on the reproductions of issue 27: what the binary prints, its exit
/// status, and what it writes.
@Suite("slipway xcodeproj merge: checked results", .dedicatedThreads)
struct MergeCheckCommandTests {
    static func write(_ directory: TemporaryDirectory, ours: [MergeReproductionTests.Edit], theirs: [MergeReproductionTests.Edit]) throws {
        try directory.write("base", MiniProject.text)
        try directory.write("ours", String(decoding: try MergeReproductionTests.side(ours), as: UTF8.self))
        try directory.write("theirs", String(decoding: try MergeReproductionTests.side(theirs), as: UTF8.self))
    }

    @Test("deleted by ours, moved by theirs: exit 1, CONFLICT (delete/reference) on standard error, conflict markers in ours")
    func deletedButReferenced() throws {
        let binary = Binaries.slipway
        let directory = try TemporaryDirectory(prefix: "pbx-merge-check")
        try Self.write(directory, ours: [MergeReproductionTests.deleteThree], theirs: [MergeReproductionTests.moveThree])
        let theirs = try String(contentsOfFile: directory.path + "/theirs", encoding: .utf8)
        let result = try CommandResult.run(binary, ["xcodeproj", "merge", "base", "ours", "theirs"], in: directory.path)
        #expect(result.status == 1)
        #expect(result.standardError == """
            CONFLICT (delete/reference): 0B0000000000000000000003 /* Three.swift */ was deleted by ours, but theirs refers to it in 0A0000000000000000000003 /* Sources */ children; keep the object (take theirs) or drop the references to it (take ours)
            error: ours: 1 conflicting entry left between conflict markers; resolve them and 'git add' the file

            """)
        let merged = try String(contentsOfFile: directory.path + "/ours", encoding: .utf8)
        #expect(merged.contains("<<<<<<< ours\n") && merged.contains(">>>>>>> theirs\n"))
        #expect(try String(contentsOfFile: directory.path + "/base", encoding: .utf8) == MiniProject.text)
        #expect(try String(contentsOfFile: directory.path + "/theirs", encoding: .utf8) == theirs)
    }

    @Test("a folder renamed by ours while theirs adds a file to it: exit 1 with CONFLICT (file location)")
    func fileLocation() throws {
        let binary = Binaries.slipway
        let directory = try TemporaryDirectory(prefix: "pbx-merge-check")
        try Self.write(directory, ours: [MergeReproductionTests.renameApp], theirs: [MergeReproductionTests.add("New.swift", to: MiniProject.appGroup)])
        let result = try CommandResult.run(binary, ["xcodeproj", "merge", "base", "ours", "theirs"], in: directory.path)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix(
            "CONFLICT (file location): App/New.swift added by theirs in group 0A0000000000000000000004 /* Application */, whose folder ours renamed from App to Application: "))
    }

    @Test("a pass-through group gains its folder while theirs adds a file: exit 0, the path rewritten, a note")
    func rewrittenPath() throws {
        let binary = Binaries.slipway
        let directory = try TemporaryDirectory(prefix: "pbx-merge-check")
        try Self.write(
            directory, ours: [MergeReproductionTests.giveSourcesFolder("Sources")],
            theirs: [MergeReproductionTests.add("Sources/New.swift", to: MiniProject.sourcesGroup)])
        let result = try CommandResult.run(binary, ["xcodeproj", "merge", "base", "ours", "theirs"], in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "note: ours: theirs added Sources/New.swift to group 0A0000000000000000000003 /* Sources */, whose folder ours changed to Sources: its path was rewritten from Sources/New.swift to New.swift, so that it still resolves to Sources/New.swift\n")
        let merged = try PBXProject(bytes: Array(try String(contentsOfFile: directory.path + "/ours", encoding: .utf8).utf8), projectName: "Mini")
        #expect(try merged.groupTree().nodes.map(\.resolvedPath.description).contains("Sources/New.swift"))
    }
}
