import Testing
import TestThreads
@testable import PBXProj

/// Where the lossless writer puts an added object among the objects of its class: before the
/// first one in file order whose id is greater, else after the last (found by binary search
/// when the class's ids increase, as Xcode writes them, else by a scan: the same place).
@Suite("pbxproj added objects' place", .dedicatedThreads)
struct AdditionPlacementTests {
    static let first = "\t\t0B0000000000000000000001 /* AppDelegate.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppDelegate.swift; sourceTree = \"<group>\"; };\n"
    static let second = "\t\t0B0000000000000000000002 /* ContentView.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = ContentView.swift; sourceTree = \"<group>\"; };\n"

    /// The sample's file references after the fifth.
    static let rest = ["6", "7", "8", "9", "A", "B", "C", "D"].map { "0B000000000000000000000" + $0 }

    /// The ids of the file references, in the order the written text has them.
    static func fileReferenceOrder(_ text: [UInt8]) -> [String] {
        String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard line.contains("isa = PBXFileReference") else { return nil }
            return line.split(separator: " ").first.map { String($0.drop { $0 == "\t" }) }
        }
    }

    static func adding(_ ids: [String], to text: String, removing removed: [String] = []) throws -> [String] {
        var project = try PBXProject(bytes: Array(text.utf8), projectName: "Sample")
        for id in removed { try project.removeObject(ObjectID(id)) }
        for id in ids {
            try project.add(PBXObject(id: ObjectID(id), isa: "PBXFileReference", properties: [
                "isa": "PBXFileReference", "path": .string("\(id).swift"), "sourceTree": "<group>",
            ]))
        }
        return fileReferenceOrder(try project.serialized())
    }

    @Test("ids in increasing order: each added object lands before the first greater id, or last")
    func increasing() throws {
        let order = try Self.adding(["0B00000000000000000000025", "0B0000000000000000000000", "0B000000000000000000000Z"], to: SampleProject.text)
        #expect(order == [
            "0B0000000000000000000000", "0B0000000000000000000001", "0B0000000000000000000002", "0B00000000000000000000025",
            "0B0000000000000000000003", "0B0000000000000000000004", "0B0000000000000000000005",
        ] + Self.rest + ["0B000000000000000000000Z"])
    }

    @Test("ids out of order: before the first greater id in file order, as a scan finds it")
    func outOfOrder() throws {
        let swapped = SampleProject.text.replacingOccurrences(of: Self.first + Self.second, with: Self.second + Self.first)
        let order = try Self.adding(["0B00000000000000000000015", "0B00000000000000000000035"], to: swapped)
        #expect(order == [
            "0B00000000000000000000015", "0B0000000000000000000002", "0B0000000000000000000001", "0B0000000000000000000003",
            "0B00000000000000000000035", "0B0000000000000000000004", "0B0000000000000000000005",
        ] + Self.rest)
    }

    @Test("a removed object is no anchor: the added one goes before the next that stays")
    func besideRemoved() throws {
        let order = try Self.adding(["0B00000000000000000000025"], to: SampleProject.text, removing: ["0B0000000000000000000003"])
        #expect(order == [
            "0B0000000000000000000001", "0B0000000000000000000002", "0B00000000000000000000025",
            "0B0000000000000000000004", "0B0000000000000000000005",
        ] + Self.rest)
    }
}
