import Foundation
import PropertyList
import Testing
import TestSupport
import TestThreads

/// The budgeted property-list reader: what Foundation writes reads the same; DAG bombs, deep
/// nesting, large expansions and every kind of lying binary plist are exact errors.
@Suite(.dedicatedThreads) struct PropertyListReaderTests {
    let reader = PropertyListReader()

    func message(_ bytes: [UInt8], limits: PropertyListLimits = .standard) -> String? {
        do {
            _ = try PropertyListReader(limits: limits).read(bytes, file: "Info.plist")
            return nil
        } catch {
            return error.localizedDescription
        }
    }

    func malformed(_ reason: String) -> String {
        "'Info.plist' is not a readable property list: \(reason). Fix or recreate the file."
    }

    func overBudget(_ limit: String) -> String {
        "'Info.plist' exceeds slipway's property-list budget: \(limit). "
            + "The file may be hostile (a small file that expands to a huge one); slipway stopped reading it. Check where it came from."
    }

    @Test func readsWhatFoundationWritesInBothFormats() throws {
        let date = Date(timeIntervalSince1970: 1_709_210_096)
        let plist: [String: Any] = [
            "s": "héllo ☺ <&>", "i": -5, "big": 1 << 40, "r": 1.25, "t": true, "f": false, "d": date,
            "data": Data([0, 1, 2]), "a": ["a", "a", [1, ["x": "y"]] as [Any]] as [Any], "e": [String: Any](), "ea": [Any](),
        ]
        let expected = PropertyListValue.dictionary([
            "s": .string("héllo ☺ <&>"), "i": .integer(-5), "big": .integer(1 << 40), "r": .real(1.25), "t": .bool(true),
            "f": .bool(false), "d": .date(date), "data": .data([0, 1, 2]),
            "a": .array([.string("a"), .string("a"), .array([.integer(1), .dictionary(["x": .string("y")])])]),
            "e": .dictionary([:]), "ea": .array([]),
        ])
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let bytes = try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
            #expect(try reader.read(Array(bytes), file: "Info.plist") == expected, "\(format)")
        }
    }

    @Test func xmlEntitiesCDATAAndCommentsAreRead() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><!-- a comment --><dict>
              <key>a &amp; b</key><string>&lt;&#x263A;&#65;<![CDATA[<raw & kept>]]></string>
              <key>n</key><integer>0x1F</integer><key>e</key><string/>
              <key>when</key><date>2024-02-29T12:34:56Z</date><key>bytes</key><data> AAEC
              </data>
            </dict></plist>
            """
        #expect(try reader.read(Array(xml.utf8), file: "Info.plist") == .dictionary([
            "a & b": .string("<☺A<raw & kept>"), "n": .integer(31), "e": .string(""),
            "when": .date(Date(timeIntervalSince1970: 1_709_210_096)), "bytes": .data([0, 1, 2]),
        ]))
    }

    @Test func aSmallSharedStructureReadsExpanded() throws {
        let bytes = HostileArchive.dagBombPlist(levels: 3, fan: 2)
        let value = try reader.read(bytes, file: "Info.plist")
        let leaf = PropertyListValue.array([.integer(0), .integer(0)])
        #expect(value["bomb"] == .array([.array([leaf, leaf]), .array([leaf, leaf])]))
        #expect(value["CFBundleIdentifier"] == .string("com.example.app"))
    }

    @Test func theDAGBombIsRefusedByTheObjectBudget() {
        let bytes = HostileArchive.dagBombPlist()
        #expect(bytes.count < 300)
        #expect(message(bytes) == overBudget("it expands to more than 1000000 values (each shared reference counted every time it is used)"))
    }

    @Test func everyBoundOfTheBudgetIsEnforced() {
        let small = PropertyListLimits(maxInputBytes: 1_000, maxObjects: 100, maxDepth: 3, maxExpandedBytes: 64)
        #expect(message(HostileArchive.dagBombPlist(levels: 4, fan: 1), limits: small)
            == overBudget("it nests arrays and dictionaries more than 3 levels deep"))
        // One 10-byte data object referenced 8 times: 80 bytes once expanded.
        let data: [UInt8] = [0x4A] + Array(repeating: 7, count: 10)
        #expect(message(HostileArchive.binaryPlist([data, [0xA8, 0, 0, 0, 0, 0, 0, 0, 0]], top: 1), limits: small)
            == overBudget("its strings and data expand to more than 64 bytes (each shared reference counted every time it is used)"))
        #expect(message(Array(repeating: 0x20, count: 1_001), limits: small) == overBudget("it is 1001 bytes, more than the 1000 bytes allowed"))
        let deep = String(repeating: "<array>", count: 600) + String(repeating: "</array>", count: 600)
        #expect(message(Array(("<plist>" + deep + "</plist>").utf8)) == overBudget("it nests arrays and dictionaries more than 512 levels deep"))
        let many = "<plist><array>" + String(repeating: "<true/>", count: 101) + "</array></plist>"
        #expect(message(Array(many.utf8), limits: small) == overBudget("it expands to more than 100 values (each shared reference counted every time it is used)"))
    }

    @Test func lyingBinaryPlistsGetExactErrors() {
        let cycle = HostileArchive.binaryPlist([[0xA1, 1], [0xA1, 0]], top: 0)
        #expect(message(cycle) == malformed("object 0 contains itself (a reference cycle)"))
        #expect(message(HostileArchive.binaryPlist([[0xA1, 9]], top: 0)) == malformed("object 0 refers to object 9, but there are only 1"))
        // A data object claiming 2^64 - 1 bytes (its length an 8-byte integer).
        let huge: [UInt8] = [0x4F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(message(HostileArchive.binaryPlist([huge], top: 0)) == malformed("an object claims 18446744073709551615 elements"))
        let manyElements: [UInt8] = [0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(message(HostileArchive.binaryPlist([manyElements], top: 0))
            == malformed("object 0 claims 9223372036854775807 elements, more than the file holds"))
        var badTrailer = HostileArchive.binaryPlist([[0x08]], top: 0)
        for index in (badTrailer.count - 24)..<(badTrailer.count - 16) { badTrailer[index] = 0xFF }  // 2^64 - 1 objects
        #expect(message(badTrailer) == malformed("its trailer's object count or offset table lies outside the file"))
        var badOffset = HostileArchive.binaryPlist([[0x08]], top: 0)
        badOffset[badOffset.count - 33] = 0xF0  // the offset table's only entry
        #expect(message(badOffset) == malformed("object 0 lies at offset 240, outside the object area"))
        var badTop = HostileArchive.binaryPlist([[0x08]], top: 0)
        badTop[badTop.count - 9] = 5
        #expect(message(badTop) == malformed("its top object 5 is not one of its 1 objects"))
        #expect(message(Array("bplist00".utf8) + [0x08]) == malformed("the binary property list is cut short"))
        #expect(message(HostileArchive.binaryPlist([[0xD1, 1, 1], [0x10, 1]], top: 0))
            == malformed("a dictionary (object 0) has a key that is not a string"))
    }

    @Test func badXMLGetsExactErrors() {
        let bomb = """
            <?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>
            <plist><string>&b;</string></plist>
            """
        #expect(message(Array(bomb.utf8)) == malformed("its DOCTYPE defines entities (an internal subset), which property lists never need"))
        #expect(message(Array("<plist><string>&b;</string></plist>".utf8)) == malformed("'&b;' is not an entity property lists know"))
        #expect(message(Array("<plist><integer>18446744073709551615</integer></plist>".utf8))
            == malformed("'18446744073709551615' is not a 64-bit integer"))
        #expect(message(Array("<plist><dict><key>a</key></dict></plist>".utf8)) == malformed("the key 'a' has no value"))
        #expect(message(Array("<plist><array>".utf8)) == malformed("it ends before its elements are closed"))
        #expect(message(Array("{ a = b; }".utf8)) == malformed("it is neither an XML nor a binary property list"))
    }
}
