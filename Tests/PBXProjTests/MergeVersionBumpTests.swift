import Testing
import TestThreads
@testable import PBXProj

/// A version number both sides raised (the most common pbxproj conflict in real histories):
/// the merge keeps the higher one with a note, or, with `.conflict`, leaves a conflict.
@Suite("pbxproj merge: version numbers both sides raised", .dedicatedThreads)
struct MergeVersionBumpTests {
    typealias Edit = MergeTests.Edit

    static func setting(_ key: String, _ value: String, in configuration: ObjectID = SampleProject.appRelease) -> Edit {
        MergeTests.setting(key, value, in: configuration)
    }

    static func requirement(_ value: PBXValue) -> Edit {
        { try $0.modify(SampleProject.remotePackage) { $0["requirement"] = value } }
    }

    static func merge(_ ours: [Edit], _ theirs: [Edit], versions: PBXProjVersionBumps = .higher) throws -> PBXProjMergeResult {
        try PBXProjMerge.merge(
            base: Array(SampleProject.text.utf8), ours: MergeTests.side(ours), theirs: MergeTests.side(theirs), versions: versions)
    }

    @Test("both sides raise CURRENT_PROJECT_VERSION and MARKETING_VERSION: the higher of each is kept, with a note naming all three values")
    func buildAndMarketingVersion() throws {
        let result = try Self.merge(
            [Self.setting("CURRENT_PROJECT_VERSION", "9"), Self.setting("MARKETING_VERSION", "1.10.0")],
            [Self.setting("CURRENT_PROJECT_VERSION", "12"), Self.setting("MARKETING_VERSION", "1.3.0")])
        #expect(result.conflicts.isEmpty)
        #expect(result.bytes == (try MergeTests.side([Self.setting("CURRENT_PROJECT_VERSION", "12"), Self.setting("MARKETING_VERSION", "1.10.0")])))
        #expect(result.versionChoices.map(\.kept) == ["12", "1.10.0"])
        #expect(result.notes.contains(
            #"120000000000000000000004 /* Release */ buildSettings.CURRENT_PROJECT_VERSION: both sides raised "7" (ours "9", theirs "12"); kept the higher, "12" (--versions conflict leaves it a conflict)"#))
    }

    @Test("--versions conflict: the same edits are conflicts, as before")
    func conflictMode() throws {
        let result = try Self.merge(
            [Self.setting("CURRENT_PROJECT_VERSION", "9")], [Self.setting("CURRENT_PROJECT_VERSION", "12")], versions: .conflict)
        #expect(result.conflicts.map(\.keyPath) == [["buildSettings", "CURRENT_PROJECT_VERSION"]])
        #expect(result.versionChoices.isEmpty)
    }

    @Test(
        "no sure order, or no product version: still a conflict",
        arguments: [
            ("CURRENT_PROJECT_VERSION", "9", "5"),  // theirs lowered it
            ("CURRENT_PROJECT_VERSION", "9", "7"),  // theirs kept the base's value: ours is taken
            ("MARKETING_VERSION", "1.3", "1.3.0"),  // equal as numbers, written differently
            ("MARKETING_VERSION", "1.3.0", "1.3.0 beta"),  // not a version number
            ("MARKETING_VERSION", "1.3.0", "$(APP_VERSION)"),
            ("SWIFT_VERSION", "6.0", "5.10"),  // a toolchain choice, not the product's version
            ("DYLIB_COMPATIBILITY_VERSION", "3", "4"),
        ])
    func staysAConflict(key: String, ours: String, theirs: String) throws {
        let result = try Self.merge([Self.setting(key, ours)], [Self.setting(key, theirs)])
        #expect(result.versionChoices.isEmpty)
        if theirs == "7" {
            #expect(result.conflicts.isEmpty)
        } else {
            #expect(result.conflicts.map(\.keyPath) == [["buildSettings", key]])
        }
    }

    @Test("a project's own *VERSION setting raised on both sides keeps the higher; added on both sides with no base value, it conflicts")
    func ownSetting() throws {
        let added = try Self.merge([Self.setting("APP_SHORT_VERSION", "11.4.1")], [Self.setting("APP_SHORT_VERSION", "11.5")])
        #expect(added.conflicts.map(\.keyPath) == [["buildSettings", "APP_SHORT_VERSION"]])
        #expect(added.versionChoices.isEmpty)

        let base = try MergeTests.side([Self.setting("APP_SHORT_VERSION", "11.4")])
        let raised = try PBXProjMerge.merge(
            base: base, ours: MergeTests.side([Self.setting("APP_SHORT_VERSION", "11.4.1")]),
            theirs: MergeTests.side([Self.setting("APP_SHORT_VERSION", "11.5")]))
        #expect(raised.conflicts.isEmpty)
        #expect(raised.versionChoices.map(\.kept) == ["11.5"])
    }

    @Test("both sides move a Swift package's requirement up, of the same kind: the higher is kept; a kind changed on one side conflicts")
    func packageRequirement() throws {
        let exact = { (version: String) -> PBXValue in ["kind": "exactVersion", "version": .string(version)] }
        let base = try MergeTests.side([Self.requirement(exact("138.0.0"))])
        let result = try PBXProjMerge.merge(
            base: base, ours: MergeTests.side([Self.requirement(exact("138.0.0-1"))]),
            theirs: MergeTests.side([Self.requirement(exact("138.1.0"))]))
        // 138.0.0-1 is a pre-release of 138.0.0 (SemVer): below the base, so not raised.
        #expect(result.conflicts.map(\.keyPath) == [["requirement", "version"]])

        let raised = try PBXProjMerge.merge(
            base: base, ours: MergeTests.side([Self.requirement(exact("139.0.0-2"))]),
            theirs: MergeTests.side([Self.requirement(exact("139.0.0-10"))]))
        #expect(raised.conflicts.isEmpty)
        #expect(raised.versionChoices.map(\.kept) == ["139.0.0-10"])
        #expect(raised.versionChoices.map(\.keyPath) == [["requirement", "version"]])

        let upToNext = { (version: String) -> PBXValue in ["kind": "upToNextMajorVersion", "minimumVersion": .string(version)] }
        let kindChanged = try PBXProjMerge.merge(
            base: base, ours: MergeTests.side([Self.requirement(exact("139.0.0"))]),
            theirs: MergeTests.side([Self.requirement(upToNext("140.0.0"))]))
        #expect(kindChanged.conflicts.map(\.keyPath) == [["requirement"]])
        #expect(kindChanged.versionChoices.isEmpty)
    }

    /// Requirements of another kind than the sample's (up to next major from 1.5.0), each
    /// against one that keeps or changes the kind.
    static let kindPairs: [(PBXValue, PBXValue)] = [
        (["branch": "main", "kind": "branch"], ["kind": "upToNextMajorVersion", "minimumVersion": "1.6.0"]),
        (["kind": "revision", "revision": "0123456789abcdef0123456789abcdef01234567"], ["kind": "upToNextMajorVersion", "minimumVersion": "1.6.0"]),
        (["kind": "exactVersion", "version": "1.5.2"], ["kind": "upToNextMajorVersion", "minimumVersion": "1.6.0"]),
        (["branch": "main", "kind": "branch"], ["kind": "revision", "revision": "0123456789abcdef0123456789abcdef01234567"]),
    ]

    @Test(
        "one side changes a package requirement's kind, the other its version: the whole requirement is the conflict, each side whole between the markers",
        arguments: kindPairs)
    func requirementKindAgainstVersion(ours: PBXValue, theirs: PBXValue) throws {
        for (first, second) in [(ours, theirs), (theirs, ours)] {
            let result = try Self.merge([Self.requirement(first)], [Self.requirement(second)])
            #expect(result.conflicts.map(\.keyPath) == [["requirement"]])
            #expect(result.conflicts.first?.ours == first && result.conflicts.first?.theirs == second)
            #expect(result.versionChoices.isEmpty)
            // Taking either side between the markers gives exactly that side's project.
            let text = MergeTests.text(result.bytes)
            #expect(MergeConflictSides.take(.ours, in: text) == MergeTests.text(try MergeTests.side([Self.requirement(first)])))
            #expect(MergeConflictSides.take(.theirs, in: text) == MergeTests.text(try MergeTests.side([Self.requirement(second)])))
            let marked = text.components(separatedBy: "<<<<<<< ours\n").dropFirst().first ?? ""
            #expect(marked.hasPrefix("\t\t\trequirement = {\n"))
            #expect(marked.components(separatedBy: "=======\n").last?.hasPrefix("\t\t\trequirement = {\n") == true)
        }
    }

    @Test("one side changes the kind, the other nothing in the requirement: the changed requirement is taken whole")
    func requirementKindOneSide() throws {
        let branch: PBXValue = ["branch": "main", "kind": "branch"]
        let result = try Self.merge([Self.requirement(branch)], [Self.setting("MARKETING_VERSION", "2.0")])
        #expect(result.conflicts.isEmpty)
        #expect(result.bytes == (try MergeTests.side([Self.requirement(branch), Self.setting("MARKETING_VERSION", "2.0")])))
    }

    @Test("both sides opened the project in a newer Xcode (LastUpgradeCheck): the newer mark is kept")
    func upgradeCheck() throws {
        let mark = { (value: String) -> Edit in
            { try $0.modify(SampleProject.project) { project in
                var attributes = project["attributes"]?.dictionary ?? PBXDictionary()
                attributes["LastUpgradeCheck"] = .string(value)
                project["attributes"] = .dictionary(attributes)
            } }
        }
        let result = try Self.merge([mark("1620")], [mark("2600")])
        #expect(result.conflicts.isEmpty)
        #expect(result.versionChoices.map(\.keyPath) == [["attributes", "LastUpgradeCheck"]])
        #expect(result.versionChoices.map(\.kept) == ["2600"])
    }

    @Test(
        "version order: numbers compare as numbers, missing parts are 0, a pre-release ranks below its release",
        arguments: [
            ("1.9", "1.10", true), ("1.2", "1.2.0", false), ("1.2.0", "1.2", false), ("41", "42", true),
            ("1.0.0-beta", "1.0.0", true), ("1.0.0-2", "1.0.0-10", true), ("1.0.0-rc.1", "1.0.0-beta.2", false),
            ("1.0.0-1", "1.0.0-alpha", true), ("1.0.0-alpha", "1.0.0-alpha.1", true),
        ])
    func order(lower: String, higher: String, expected: Bool) throws {
        let a = try #require(VersionNumbers.Parsed(lower)), b = try #require(VersionNumbers.Parsed(higher))
        #expect((a < b) == expected)
    }

    @Test("what is not a version number", arguments: ["", "1.", ".1", "1..2", "v1.2", "1.2 beta", "1.2.3.4.5.6.7", "1234567890", "1.2-", "1.2-a..b", "$(inherited)"])
    func notAVersion(text: String) {
        #expect(VersionNumbers.Parsed(text) == nil)
    }
}

/// Resolves every conflict of a merged text one way, as a person taking one side would.
enum MergeConflictSides {
    enum Side { case ours, theirs }

    static func take(_ side: Side, in text: String) -> String {
        var result = ""
        var state = 0  // 0 outside, 1 in ours, 2 in theirs
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            switch (line, state) {
            case ("<<<<<<< ours", 0): state = 1
            case ("=======", 1): state = 2
            case (">>>>>>> theirs", 2): state = 0
            default:
                if state == 0 || (state == 1 && side == .ours) || (state == 2 && side == .theirs) { result += line + "\n" }
            }
        }
        return result
    }
}

/// An object deleted on one side whose only change on the other is entries removed from its
/// lists (a group whose files moved away): deleting it keeps both sides' intent.
@Suite("pbxproj merge: deleted on one side, only emptied on the other", .dedicatedThreads)
struct MergeDeleteShrunkTests {
    static let tests: ObjectID = "0A0000000000000000000006"
    static let testFile: ObjectID = "0B000000000000000000000C"

    /// Moves AppTests.swift from the Tests group to the App group.
    static func moveOut(_ project: inout PBXProject) throws {
        try project.modify(tests) { $0["children"] = .array([]) }
        try project.modify(SampleProject.appGroup) { group in
            group["children"] = .array((group["children"]?.array ?? []) + [.string(testFile.rawValue)])
        }
    }

    /// Deletes the Tests group but not the file.
    static func deleteGroup(_ project: inout PBXProject) throws {
        try project.modify(SampleProject.mainGroup) { group in
            group["children"] = .array((group["children"]?.array ?? []).filter { $0.string != tests.rawValue })
        }
        try project.removeObject(tests)
    }

    @Test("a group deleted by one side while the other moved its only file out: clean, in both orders, with a note")
    func deletedWhileEmptied() throws {
        let pairs: [(MergeTests.Edit, MergeTests.Edit)] = [({ try Self.moveOut(&$0) }, { try Self.deleteGroup(&$0) }), ({ try Self.deleteGroup(&$0) }, { try Self.moveOut(&$0) })]
        for (ours, theirs) in pairs {
            let result = try PBXProjMerge.merge(
                base: Array(SampleProject.text.utf8), ours: MergeTests.side([ours]), theirs: MergeTests.side([theirs]))
            #expect(result.conflicts.isEmpty, "\(result.conflicts)")
            let merged = try PBXProject(bytes: result.bytes, projectName: "Sample")
            #expect(!merged.contains(Self.tests))
            #expect(merged.object(SampleProject.appGroup)?.references("children").last == Self.testFile)
            #expect(result.notes.contains { $0.hasPrefix("0A0000000000000000000006 /* Tests */ was deleted by ") && $0.hasSuffix("only removed entries from its lists, so it is deleted") })
        }
    }

    @Test("a group deleted with its file by one side while the other moved the file out: still a delete/reference conflict")
    func deletedWithFileWhileMoved() throws {
        let deleteAll: MergeTests.Edit = { try $0.removeGroup(Self.tests) }
        let result = try PBXProjMerge.merge(
            base: Array(SampleProject.text.utf8), ours: MergeTests.side([{ try Self.moveOut(&$0) }]), theirs: MergeTests.side([deleteAll]))
        #expect(result.conflicts.contains { $0.kind == "delete/reference" })
    }
}
