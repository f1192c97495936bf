import PBXProj

/// Build files whose file is gone, and files listed twice in one build phase.
public struct DeadBuildFileRule: LintRule {
    public init() {}
    public var id: String { "dead-build-file" }
    public var summary: String { "A build phase lists a build file that is gone, whose file is gone, or a file twice." }
    public var defaultSeverity: LintSeverity { .warning }
    public var isFixable: Bool { true }
    public var examples: [LintExample] {
        [LintExample("a phase with a dead entry, a build file of a removed file and a file twice",
                     objects: ["F = {isa = PBXFileReference; path = A.swift; sourceTree = \"<group>\"; };",
                               "B1 = {isa = PBXBuildFile; fileRef = F; };",
                               "B2 = {isa = PBXBuildFile; fileRef = F; };",
                               "B3 = {isa = PBXBuildFile; fileRef = GONE; };",
                               "P = {isa = PBXSourcesBuildPhase; files = (B1, B2, B3, NOPE, B1); };",
                               "T = {isa = PBXNativeTarget; buildPhases = (P); name = App; };"],
                     mainChildren: ["F"], targets: ["T"], files: ["A.swift"],
                     expected: [
                        "12: build phase 'Sources' of target 'App' lists 'NOPE', which is not an object; remove the entry",
                        "12: build phase 'Sources' of target 'App' lists 'B1' twice; remove the second entry",
                        "10: build file 'B2' in phase 'Sources' of target 'App' adds 'A.swift' again (as 'B1' does); remove it",
                        "11: build file 'B3' in phase 'Sources' of target 'App' refers to 'GONE', which is not an object; remove it",
                     ])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let project = context.project else { return [] }
        var findings: [LintFinding] = []
        for target in project.targets {
            for phaseID in target.buildPhases {
                guard let phase = project.buildPhase(phaseID) else { continue }
                let where_ = "phase '\(phase.displayName)' of target '\(target.name)'"
                var listed = Set<ObjectID>()
                var byFile: [ObjectID: ObjectID] = [:]
                var deferred: [LintFinding] = []
                for id in phase.files {
                    guard listed.insert(id).inserted else {
                        findings.append(finding("build \(where_) lists '\(id)' twice; remove the second entry", at: phaseID, in: context,
                                                fix: .removeFromList(object: phaseID, key: "files", element: id, keepFirst: true)))
                        continue
                    }
                    guard let file = project.buildFile(id) else {
                        findings.append(finding("build \(where_) lists '\(id)', which is not an object; remove the entry", at: phaseID,
                                                in: context, fix: .removeFromList(object: phaseID, key: "files", element: id, keepFirst: false)))
                        continue
                    }
                    guard let ref = file.fileRef else { continue }
                    if !project.contains(ref) {
                        deferred.append(finding("build file '\(id)' in \(where_) refers to '\(ref)', which is not an object; remove it",
                                                at: id, in: context, fix: .removeObject(id)))
                    } else if let earlier = byFile[ref] {
                        let name = project.fileElement(ref)?.displayName ?? ref.rawValue
                        deferred.append(finding("build file '\(id)' in \(where_) adds '\(name)' again (as '\(earlier)' does); remove it",
                                                at: id, in: context, fix: .removeObject(id)))
                    } else {
                        byFile[ref] = id
                    }
                }
                findings += deferred
            }
        }
        return findings
    }
}

extension BuildPhase {
    /// The phase's name, or the name Xcode shows for its kind.
    var displayName: String {
        if let name { return name }
        switch isa {
        case "PBXSourcesBuildPhase": return "Sources"
        case "PBXFrameworksBuildPhase": return "Frameworks"
        case "PBXResourcesBuildPhase": return "Resources"
        case "PBXHeadersBuildPhase": return "Headers"
        case "PBXCopyFilesBuildPhase": return "Copy Files"
        case "PBXShellScriptBuildPhase": return "Run Script"
        default: return isa
        }
    }
}
