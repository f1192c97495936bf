import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// Reading a version of a project with another version beside it (`PropertyListParser.parse(_:like:)`,
/// which takes the nodes of objects whose text is the same from the other) against reading it on
/// its own: the same nodes, node for node, and the same error, on every readable corpus project
/// and random changes of it (lines changed, dropped, repeated or moved; objects of another
/// project; a text cut short).
@Suite("pbxproj reading beside another version, against reading alone", .dedicatedThreads)
struct ParseLikeTests {
    typealias Generator = MergeRandomTests.Generator

    static func outcome(_ bytes: [UInt8], like reference: PBXProject?) -> String {
        do {
            let tree = try reference.map { try PropertyListParser.parse(bytes, like: ($0.tree, $0.table)) } ?? PropertyListParser.parse(bytes)
            return tree.nodes.map { "\($0.start),\($0.end),\($0.link),\($0.kind),\($0.flags)" }.joined(separator: ";")
        } catch {
            return "error: \(error)"
        }
    }

    /// A project read beside another, or alone: its error, or what its object table finds for
    /// each id and for every fifth string (ids, references and strings no object has).
    static func tableOutcome(_ bytes: [UInt8], like reference: PBXProject?) -> String {
        do {
            let project = try PBXProject(bytes: bytes, projectName: "Project", like: reference)
            let (tree, table) = (project.tree, project.table)
            var found = table.entries.map { "\(table.find(node: Int($0.key), in: tree) ?? -1)" }
            for node in stride(from: 0, to: tree.nodes.count, by: 5) where tree.isString(node) {
                found.append("\(table.find(node: node, in: tree) ?? -1)")
            }
            return "\(table.entries.count): " + found.joined(separator: ",")
        } catch {
            return "error: \(error)"
        }
    }

    @Test("the same nodes and the same errors", arguments: 0..<4)
    func sameTree(round: Int) throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "ParseLikeTests") else { return }
        var generator = Generator(state: UInt64(round) &* 0x2545_F491_4F6C_DD1D &+ 99)
        var compared = 0, errors = 0
        let others = entries.compactMap { try? PBXProject(bytes: $0.bytes(), projectName: $0.projectName) }
        for entry in entries {
            let bytes = try entry.bytes()
            guard let reference = try? PBXProject(bytes: bytes, projectName: entry.projectName) else { continue }
            var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var variants: [[UInt8]] = [bytes]
            for _ in 0..<4 {
                var changed = lines
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    let index = Int.random(in: 0..<changed.count, using: &generator)
                    switch Int.random(in: 0..<6, using: &generator) {
                    case 0: changed[index] += " x = y;"
                    case 1: changed.remove(at: index)
                    case 2: changed.insert(changed[index], at: index)
                    case 3: changed.swapAt(index, Int.random(in: 0..<changed.count, using: &generator))
                    case 4: changed[index] = changed[index].replacingOccurrences(of: "=", with: "= \"q\" ;")
                    default: changed[index] = changed[index].uppercased()
                    }
                }
                variants.append(Array(changed.joined(separator: "\n").utf8))
            }
            variants.append(Array(bytes.prefix(Int.random(in: 1..<bytes.count, using: &generator))))
            lines.shuffle(using: &generator)
            variants.append(Array(lines.prefix(lines.count / 2).joined(separator: "\n").utf8))
            let stranger = others.randomElement(using: &generator)
            for variant in variants {
                for like in [reference, stranger].compactMap({ $0 }) {
                    let alone = Self.outcome(variant, like: nil), beside = Self.outcome(variant, like: like)
                    #expect(alone == beside, "\(entry.baseName), round \(round)")
                    // The table indexed through the other version's finds what a whole index finds.
                    #expect(Self.tableOutcome(variant, like: nil) == Self.tableOutcome(variant, like: like), "\(entry.baseName), round \(round)")
                    compared += 1
                    if alone.hasPrefix("error") { errors += 1 }
                }
            }
            // And a project read beside another is the project read alone.
            if let other = stranger, let alone = try? PBXProject(bytes: bytes, projectName: entry.projectName) {
                let beside = try PBXProject(bytes: bytes, projectName: entry.projectName, like: other)
                #expect(try beside.serialized() == alone.serialized() && beside.objectIDs == alone.objectIDs)
            }
        }
        #expect(compared > entries.count * 8)
        #expect(errors > 0 && errors < compared)
    }

    @Test("objects laid out by hand (space before ';', quoted ids, escapes) read the same beside themselves")
    func handLayout() throws {
        let text = """
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 46;
              objects = {
                A1 = { isa = PBXGroup ; children = ( ) ; } ;
                "B 2" = {isa = PBXFileReference; path = "a\\"b";};
                'C3' = {isa = PBXFileReference; path = c;};
                D4 = {isa = PBXGroup; children = (A1, "B 2", C3,); };
              } ;
              rootObject = D4;
            }
            """
        let bytes = Array(text.utf8)
        let reference = try PBXProject(bytes: bytes, projectName: "Hand")
        for variant in [bytes, Array(text.replacingOccurrences(of: "path = c;", with: "path = d;").utf8),
                        Array(text.replacingOccurrences(of: "A1 = { isa = PBXGroup ;", with: "A1 = { isa = PBXGroup;").utf8)] {
            #expect(Self.outcome(variant, like: reference) == Self.outcome(variant, like: nil))
        }
    }
}
