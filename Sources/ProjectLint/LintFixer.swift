import PBXProj

/// Applies the safe fixes of lint findings as minimal edits through the lossless writer.
public enum LintFixer {
    /// The outcome of fixing.
    public struct Result: Sendable {
        /// The file's new bytes (equal to the old ones when nothing was fixed).
        public let bytes: [UInt8]
        /// The findings whose fixes were applied.
        public let fixed: [LintFinding]
        /// About how many lines change.
        public let changedLineCount: Int
    }

    /// Applies every fix among `findings` to `project` and writes it: edits only the objects
    /// concerned, unless a `canonicalFormat` fix asks for the whole file in Xcode's form.
    /// - Throws: `PBXProjError` when an edit fails.
    public static func apply(_ findings: [LintFinding], to original: PBXProject) throws -> Result {
        var project = original
        var removed = Set<ObjectID>()
        var fixed: [LintFinding] = []
        var canonical = false
        for finding in findings {
            guard let fix = finding.fix else { continue }
            switch fix {
            case .removeObject(let id):
                guard project.contains(id) else { continue }
                removed.insert(id)
            case .removeFromList(let object, let key, let element, let keepFirst):
                guard project.contains(object) else { continue }
                try project.modify(object) { object in
                    var kept = false
                    let items = (object[key]?.array ?? []).filter { item in
                        guard item.string == element.rawValue else { return true }
                        defer { kept = true }
                        return keepFirst && !kept
                    }
                    object[key] = .array(items)
                }
            case .mergeReference(let duplicate, let into):
                guard project.contains(duplicate), project.contains(into) else { continue }
                for id in project.objectIDs(isa: PBXIsa.buildFile) where project.object(id)?.reference("fileRef") == duplicate {
                    try project.modify(id) { $0["fileRef"] = .string(into.rawValue) }
                }
                removed.insert(duplicate)
            case .sortChildren(let group):
                guard let element = project.fileElement(group) else { continue }
                let sorted = UnsortedChildrenRule.sorted(element.children.compactMap { project.fileElement($0) }).map(\.id)
                let missing = element.children.filter { project.fileElement($0) == nil }
                try project.setChildren(of: group, to: sorted + missing)
            case .canonicalFormat:
                canonical = true
            }
            fixed.append(finding)
        }
        if !removed.isEmpty { try remove(removed, from: &project) }
        let bytes = canonical ? try project.canonicalSerialized() : try project.serialized()
        return Result(bytes: bytes, fixed: fixed,
                      changedLineCount: LineDifference.changedLineCount(original.originalBytes, bytes))
    }

    /// Fixes until lint finds nothing fixable: applies the fixes among `report`'s findings, lints
    /// the result again with the fixable rules of `rules` that `configuration` enables, and
    /// repeats, at most `maxRounds` times, because one fix can leave work for another (merging a
    /// duplicate reference leaves two build files of one file in a phase; removing a build file
    /// can leave its file reference to no one). One `--fix` therefore leaves nothing to fix.
    /// - Throws: `PBXProjError` when an edit fails.
    public static func applyUntilClean(_ report: LintReport, context: LintContext, configuration: LintConfiguration,
                                       rules: [any LintRule] = LintRegistry.all, maxRounds: Int = 8) throws -> Result {
        guard let original = context.project else { return Result(bytes: context.bytes, fixed: [], changedLineCount: 0) }
        let fixable = rules.filter(\.isFixable)
        var project = original
        var findings = report.findings
        var fixed: [LintFinding] = []
        var bytes = original.originalBytes
        for _ in 0..<maxRounds {
            let result = try apply(findings, to: project)
            guard !result.fixed.isEmpty, result.bytes != bytes else { break }
            fixed += result.fixed
            bytes = result.bytes
            let next = LintContext(bytes: bytes, projectName: original.projectName, pbxprojPath: context.pbxprojPath, files: context.files)
            guard let nextProject = next.project else { break }
            project = nextProject
            findings = LintEngine.run(next, configuration: configuration, rules: fixable).findings
        }
        return Result(bytes: bytes, fixed: fixed, changedLineCount: LineDifference.changedLineCount(original.originalBytes, bytes))
    }

    /// Removes objects and every list entry naming them.
    private static func remove(_ ids: Set<ObjectID>, from project: inout PBXProject) throws {
        for id in project.objectIDs where !ids.contains(id) {
            guard let object = project.object(id) else { continue }
            var changed = object
            for entry in object.properties where PBXProject.referenceListKeys.contains(entry.key) {
                guard let items = entry.value.array else { continue }
                let kept = items.filter { $0.string.map { !ids.contains(ObjectID($0)) } ?? true }
                if kept.count != items.count { changed[entry.key] = .array(kept) }
            }
            if changed != object { try project.update(changed) }
        }
        for id in ids where project.contains(id) { try project.removeObject(id) }
    }
}

extension PBXProject {
    /// Keys whose value is a list of object ids.
    static let referenceListKeys: Set<String> = [
        "children", "files", "buildPhases", "buildRules", "dependencies", "targets", "buildConfigurations",
        "packageProductDependencies", "packageReferences", "fileSystemSynchronizedGroups", "exceptions",
    ]
}
