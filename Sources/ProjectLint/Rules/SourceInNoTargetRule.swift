import PBXProj

/// Source files that no target compiles.
public struct SourceInNoTargetRule: LintRule {
    public init() {}
    public var id: String { "source-in-no-target" }
    public var summary: String {
        "A source file (Swift, Objective-C, C, C++, Metal) is in no target's build phases; not a Swift package manifest (Package.swift, Package@swift-*.swift), which SwiftPM reads and no target compiles, nor a file in a folder below the project's that holds another .xcodeproj (that project builds it), nor a file inside a synchronized folder (Xcode 16: the folder and its exception sets say which targets build it) or inside a git submodule that is not checked out."
    }
    public var defaultSeverity: LintSeverity { .warning }
    public var examples: [LintExample] {
        [LintExample("a Swift file no target builds",
                     objects: ["F = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Used.swift; sourceTree = \"<group>\"; };",
                               "G = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Stray.swift; sourceTree = \"<group>\"; };",
                               "H = {isa = PBXFileReference; path = Header.h; sourceTree = \"<group>\"; };",
                               "M = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Package.swift; sourceTree = \"<group>\"; };",
                               "N = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Demo/Sources/Demo.swift; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXBuildFile; fileRef = F; };",
                               "P = {isa = PBXSourcesBuildPhase; files = (B); };",
                               "T = {isa = PBXNativeTarget; buildPhases = (P); name = App; };"],
                     mainChildren: ["F", "G", "H", "M", "N"], targets: ["T"],
                     files: ["Used.swift", "Stray.swift", "Header.h", "Package.swift", "Demo/Sources/Demo.swift", "Demo/Demo.xcodeproj/project.pbxproj"],
                     expected: ["9: 'Stray.swift' is in no target; add it to one or remove it"])]
    }

    static let sourceExtensions: Set<String> = ["swift", "m", "mm", "c", "cc", "cpp", "cxx", "c++", "metal", "s"]

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let project = context.project, let tree = context.groupTree else { return [] }
        var built = Set<ObjectID>()
        for id in project.objectIDs(isa: PBXIsa.buildFile) {
            if let ref = project.object(id)?.reference("fileRef") { built.insert(ref) }
        }
        var seen = Set<ObjectID>()
        var findings: [LintFinding] = []
        var holdsProject: [String: Bool] = [:]
        let synchronized = context.synchronizedFolders
        /// Whether a folder between the file and the project's folder holds another project.
        func builtByAnotherProject(_ resolved: ResolvedPath) -> Bool {
            guard case .relative(let path) = resolved, !ProjectPath.isOutside(path) else { return false }
            for ancestor in ProjectPath.ancestors(path) where !ancestor.isEmpty {
                if let known = holdsProject[ancestor] {
                    if known { return true }
                    continue
                }
                let found = context.files.list(ancestor)?.contains { $0.hasSuffix(".xcodeproj") } ?? false
                holdsProject[ancestor] = found
                if found { return true }
            }
            return false
        }
        for node in tree.nodes where node.element.kind == .fileReference && !built.contains(node.element.id) {
            let element = node.element
            guard isSource(element), seen.insert(element.id).inserted, !builtByAnotherProject(node.resolvedPath) else { continue }
            // In a synchronized folder, the folder puts the file in targets; in a submodule not
            // checked out, whether its own project builds the file cannot be known.
            if case .relative(let path) = node.resolvedPath, synchronized.contains(path) || context.submodules.holding(path) != nil {
                continue
            }
            let name = element.displayName ?? element.id.rawValue
            findings.append(finding("'\(name)' is in no target; add it to one or remove it", at: element.id, in: context,
                                    subject: node.resolvedPath.description))
        }
        return findings
    }

    private func isSource(_ element: FileElement) -> Bool {
        let name = ProjectPath.lastComponent(element.path ?? element.name ?? "")
        if name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift")) { return false }
        if let type = element.fileType {
            return type.hasPrefix("sourcecode.") && !type.hasSuffix(".h") && type != "sourcecode.module-map"
                && SourceInNoTargetRule.sourceExtensions.contains(Self.extensionOf(element.path ?? element.name ?? ""))
        }
        return SourceInNoTargetRule.sourceExtensions.contains(Self.extensionOf(element.path ?? element.name ?? ""))
    }

    static func extensionOf(_ path: String) -> String {
        let name = ProjectPath.lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }
}
