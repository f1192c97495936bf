import PBXProj

/// References by absolute path, or leaving the repository.
public struct AbsolutePathRule: LintRule {
    public init() {}
    public var id: String { "absolute-path" }
    public var summary: String {
        "A reference uses an absolute path or a path leading out of the repository (it breaks on other machines); not the system's own frameworks and libraries (/System/Library, /usr/lib, /usr/include), which every Mac has, and a group's children only when they set the absolute path themselves."
    }
    public var defaultSeverity: LintSeverity { .warning }
    public var examples: [LintExample] {
        [LintExample("an absolute path and one leaving the repository",
                     objects: ["A = {isa = PBXFileReference; path = /Users/me/Secret.swift; sourceTree = \"<absolute>\"; };",
                               "B = {isa = PBXFileReference; path = ../../Other/Shared.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A", "B"],
                     expected: ["8: 'Secret.swift' has the absolute path '/Users/me/Secret.swift'; make it relative to its group",
                                "9: 'Shared.swift' points at '../../Other/Shared.swift', outside the repository; move the file into it"]),
         LintExample("a system framework, and a group with an absolute path: one finding, for the group",
                     objects: ["A = {isa = PBXFileReference; path = /System/Library/Frameworks/Cocoa.framework; sourceTree = \"<absolute>\"; };",
                               "G = {isa = PBXGroup; children = (C); path = /tmp/QS; sourceTree = \"<absolute>\"; };",
                               "C = {isa = PBXFileReference; path = Plugin.m; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A", "G"],
                     expected: ["9: 'QS' has the absolute path '/tmp/QS'; make it relative to its group"])]
    }

    /// Where the system's own frameworks, libraries and headers live: on every Mac, so an
    /// absolute reference to them does not break elsewhere.
    static let systemPrefixes = ["/System/Library/", "/usr/lib/", "/usr/include/"]

    /// Whether a path relative to the project's folder climbs above the repository's root
    /// (`root`: `""`, `..`, `../..` from the project's folder).
    static func leavesRepository(_ path: String, root: String) -> Bool {
        let climbs = path.split(separator: "/").prefix { $0 == ".." }.count
        return climbs > root.split(separator: "/").filter { $0 == ".." }.count
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let tree = context.groupTree else { return [] }
        var seen = Set<ObjectID>()
        var findings: [LintFinding] = []
        for node in tree.nodes.dropFirst() {
            switch node.resolvedPath {
            case .buildSetting: continue
            case .relative(let path): if !path.hasPrefix("..") { continue }
            case .absolute: break
            }
            guard seen.insert(node.element.id).inserted else { continue }
            let element = node.element
            let name = element.path.map(ProjectPath.lastComponent) ?? element.name ?? element.id.rawValue
            switch node.resolvedPath {
            case .absolute(let path):
                let ownPath = element.sourceTree == "<absolute>" || element.path?.hasPrefix("/") == true
                guard ownPath, !Self.systemPrefixes.contains(where: { path.hasPrefix($0) }) else { continue }
                findings.append(finding("'\(name)' has the absolute path '\(path)'; make it relative to its group",
                                        at: element.id, in: context, subject: path))
            case .relative(let path):
                guard let root = context.files.repositoryRoot, Self.leavesRepository(path, root: root) else { continue }
                findings.append(finding("'\(name)' points at '\(path)', outside the repository; move the file into it",
                                        at: element.id, in: context, subject: path))
            case .buildSetting:
                continue
            }
        }
        return findings
    }
}
