import Testing
import TestThreads
@testable import PBXProj

/// Randomised merges: two independent sequences of edits (add file, move group, change setting,
/// add target) applied to one base; merging the two sides must equal applying both sequences,
/// our side's first (and, with the sides swapped, theirs first).
@Suite("pbxproj merge, randomised", .dedicatedThreads)
struct MergeRandomTests {
    /// A deterministic generator (SplitMix64), so a failing seed can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One side's share of the project: the groups it may add to and move, the settings it may
    /// change, the names it gives.
    struct Share {
        let label: String
        let groups: [ObjectID]
        let settings: [String]
    }

    /// The sample project with eight extra groups under the main group, each holding a file.
    static func base() throws -> (PBXProject, [ObjectID]) {
        var project = try PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")
        var groups: [ObjectID] = []
        for index in 0..<8 {
            let group = try project.addGroup(path: "G\(index)", to: SampleProject.mainGroup)
            try project.addFileReference(path: "F\(index).swift", lastKnownFileType: "sourcecode.swift", to: group)
            groups.append(group)
        }
        return (try PBXProject(bytes: project.canonicalSerialized(), projectName: "Sample"), groups)
    }

    typealias Edit = (inout PBXProject) throws -> Void

    /// A random sequence of edits confined to `share`.
    static func edits(_ share: Share, count: Int, using generator: inout Generator) -> [Edit] {
        (0..<count).map { step in
            let name = "\(share.label)\(step)"
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                let group = share.groups.randomElement(using: &generator) ?? SampleProject.appGroup
                return { try $0.addFileReference(path: "\(name).swift", lastKnownFileType: "sourcecode.swift", to: group) }
            case 1:
                let moved = share.groups.randomElement(using: &generator) ?? SampleProject.appGroup
                let into = share.groups.randomElement(using: &generator) ?? SampleProject.appGroup
                return { try moveGroup(moved, into: into, in: &$0) }
            case 2:
                let key = share.settings.randomElement(using: &generator) ?? "\(share.label)_SETTING"
                let configuration = [SampleProject.appDebug, SampleProject.appRelease, SampleProject.projectDebug]
                    .randomElement(using: &generator) ?? SampleProject.appDebug
                return { try $0.setBuildSetting(key, to: .string(name), in: configuration) }
            default:
                return { try addTarget(name, in: &$0) }
            }
        }
    }

    /// Moves `group` into `destination` unless that would put a group inside itself.
    static func moveGroup(_ group: ObjectID, into destination: ObjectID, in project: inout PBXProject) throws {
        var cursor: ObjectID? = destination
        while let current = cursor {
            if current == group { return }
            cursor = project.objectIDs(isa: "PBXGroup").first { project.object($0)?.references("children").contains(current) == true }
        }
        guard let parent = project.objectIDs(isa: "PBXGroup").first(where: { project.object($0)?.references("children").contains(group) == true }),
            parent != destination,
            let children = project.object(destination)?.references("children")
        else { return }
        try project.setChildren(of: parent, to: (project.object(parent)?.references("children") ?? []).filter { $0 != group })
        try project.setChildren(of: destination, to: children + [group])
    }

    /// Adds a native target without phases and lists it in the project.
    static func addTarget(_ name: String, in project: inout PBXProject) throws {
        let id = project.makeObjectID(seed: "target/\(name)")
        try project.add(PBXObject(id: id, isa: "PBXNativeTarget", properties: [
            "buildPhases": [], "name": .string(name), "productName": .string(name),
            "productType": "com.apple.product-type.framework",
        ]))
        guard let root = project.rootObjectID else { return }
        try project.modify(root) { $0["targets"] = .array(($0["targets"]?.array ?? []) + [.string(id.rawValue)]) }
    }

    static func apply(_ edits: [Edit], to project: PBXProject) throws -> PBXProject {
        var project = project
        for edit in edits { try edit(&project) }
        return project
    }

    @Test("independent random edit sequences merge to both sequences applied", arguments: 0..<40)
    func independentEdits(seed: Int) throws {
        var generator = Generator(state: UInt64(seed) &* 7919 &+ 17)
        let (base, groups) = try Self.base()
        let ourShare = Share(label: "Ours", groups: Array(groups[0..<4]), settings: ["SWIFT_VERSION", "OURS_FLAG", "ENABLE_BITCODE"])
        let theirShare = Share(label: "Theirs", groups: Array(groups[4..<8]), settings: ["MARKETING_VERSION", "THEIRS_FLAG", "SDKROOT"])
        let ourEdits = Self.edits(ourShare, count: Int.random(in: 1...8, using: &generator), using: &generator)
        let theirEdits = Self.edits(theirShare, count: Int.random(in: 1...8, using: &generator), using: &generator)
        let baseBytes = try base.canonicalSerialized()
        let ours = try Self.apply(ourEdits, to: base).canonicalSerialized()
        let theirs = try Self.apply(theirEdits, to: base).canonicalSerialized()
        let oursFirst = try Self.apply(theirEdits, to: Self.apply(ourEdits, to: base)).canonicalSerialized()
        let theirsFirst = try Self.apply(ourEdits, to: Self.apply(theirEdits, to: base)).canonicalSerialized()

        let merged = try PBXProjMerge.merge(base: baseBytes, ours: ours, theirs: theirs)
        #expect(merged.conflicts.isEmpty, "seed \(seed): \(merged.conflicts)")
        #expect(merged.bytes == oursFirst, "seed \(seed)")
        let swapped = try PBXProjMerge.merge(base: baseBytes, ours: theirs, theirs: ours)
        #expect(swapped.conflicts.isEmpty, "seed \(seed)")
        #expect(swapped.bytes == theirsFirst, "seed \(seed)")
    }

    @Test("random edits to the same setting on both sides conflict on exactly those entries", arguments: 0..<10)
    func overlappingSettings(seed: Int) throws {
        var generator = Generator(state: UInt64(seed) &+ 99)
        let (base, _) = try Self.base()
        let configurations = [SampleProject.appDebug, SampleProject.appRelease, SampleProject.projectDebug]
        let chosen = configurations.filter { _ in Bool.random(using: &generator) }
        let touched = chosen.isEmpty ? [SampleProject.appDebug] : chosen
        var ours = base, theirs = base
        for configuration in touched {
            try ours.setBuildSetting("SWIFT_VERSION", to: "6.0", in: configuration)
            try theirs.setBuildSetting("SWIFT_VERSION", to: "5.9", in: configuration)
        }
        let merged = try PBXProjMerge.merge(base: base.canonicalSerialized(), ours: ours.canonicalSerialized(), theirs: theirs.canonicalSerialized())
        #expect(Set(merged.conflicts.compactMap(\.objectID)) == Set(touched))
        let text = String(decoding: merged.bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "<<<<<<< ours\n").count == touched.count + 1)
    }

    @Test("the dangling-reference check's missing ids, found once per merge through our table, equal those found through all three tables", arguments: 0..<24)
    func missingIDsThroughOurTable(seed: Int) throws {
        var generator = Generator(state: UInt64(seed) &* 104_729 &+ 38)
        let (base, groups) = try Self.base()
        let files = base.fileReferences.map(\.id)
        let ourShare = Share(label: "Ours", groups: Array(groups[0..<4]), settings: ["SWIFT_VERSION"])
        let theirShare = Share(label: "Theirs", groups: Array(groups[4..<8]), settings: ["MARKETING_VERSION"])
        var ours = try Self.apply(Self.edits(ourShare, count: Int.random(in: 1...6, using: &generator), using: &generator), to: base)
        var theirs = try Self.apply(Self.edits(theirShare, count: Int.random(in: 1...6, using: &generator), using: &generator), to: base)
        // Deletions on both sides, some of them of what the other side refers to anew (a group
        // one side moves, a file the other side removes): what makes ids go missing.
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            if let file = files.randomElement(using: &generator), ours.contains(file) { try ours.removeFileReference(file) }
        }
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            if let file = files.randomElement(using: &generator), theirs.contains(file) { try theirs.removeFileReference(file) }
        }
        if Bool.random(using: &generator), let group = groups.randomElement(using: &generator), ours.contains(group) {
            try ours.removeObject(group)
        }
        // Read back as the driver reads them: one table per version, the edits in the text.
        let read = { (project: PBXProject) in try PBXProject(bytes: project.serialized(), projectName: "Sample") }
        var merger = GraphMerger(base: try read(base), ours: try read(ours), theirs: try read(theirs))
        try merger.run()
        #expect(merger.idsOutsideOurTable != nil)
        var general = merger
        general.idsOutsideOurTable = nil
        for project in [merger.resolvedOurs, merger.resolvedTheirs, merger.ours, merger.theirs, merger.base] {
            #expect(merger.missingIDs(in: project) == general.missingIDs(in: project), "seed \(seed)")
        }
        // And on resolutions the merge's own checks never see: every object of ours removed in turn.
        for id in merger.ours.objectIDs.prefix(40) {
            var resolution = merger.resolvedOurs
            guard resolution.contains(id) else { continue }
            try resolution.removeObject(id)
            #expect(merger.missingIDs(in: resolution) == general.missingIDs(in: resolution), "seed \(seed), \(id)")
        }
    }
}
