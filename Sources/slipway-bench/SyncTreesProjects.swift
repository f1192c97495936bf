import Foundation
import PBXProj

/// What the checker reads from each `.xcodeproj` of a tree, by its own walk of the group tree
/// (not Slipway's sync planner): every file reference, group and synchronized folder with a
/// path that resolves on disk, and the paths named by build settings and script phases
/// (script text, input and output paths and file lists) and local package references.
enum SyncTreesProjects {
    /// The `.xcodeproj` bundles of a tree (relative paths), skipping dependency managers' and
    /// build folders and projects inside other bundles.
    static func projects(in files: [String]) -> [String] {
        var result: Set<String> = []
        for file in files where file.hasSuffix(".xcodeproj/project.pbxproj") {
            let bundle = (file as NSString).deletingLastPathComponent
            let components = bundle.split(separator: "/")
            if components.dropLast().contains(where: { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }) { continue }
            result.insert(bundle)
        }
        return result.sorted()
    }

    /// A parsed project, or nil when it cannot be read.
    static func load(_ bundle: String, root: String) -> PBXProject? {
        guard let data = FileManager.default.contents(atPath: root + "/" + bundle + "/project.pbxproj") else { return nil }
        let name = ((bundle as NSString).lastPathComponent as NSString).deletingPathExtension
        return try? PBXProject(bytes: Array(data), projectName: name)
    }

    /// Object id → path (relative to the root) of every group-tree element with a path that
    /// exists on disk.
    static func resolvedReferences(_ project: PBXProject, bundle: String, root: String) -> [String: String] {
        let folder = (bundle as NSString).deletingLastPathComponent
        var result: [String: String] = [:]
        var visited: Set<ObjectID> = []
        func visit(_ id: ObjectID, parent: String) {
            guard visited.insert(id).inserted, let element = project.fileElement(id) else { return }
            var here: String?
            switch element.sourceTree ?? "<group>" {
            case "<group>": here = element.path.map { join(parent, $0) } ?? parent
            case "SOURCE_ROOT": here = element.path.map { join(folder, $0) } ?? folder
            default: here = nil  // absolute, SDK, built products, developer dir: not the tree's
            }
            guard let path = here.flatMap(SyncTreesPathCollector.normalized) else { return }
            if element.path != nil, !path.isEmpty, FileManager.default.fileExists(atPath: root + "/" + path) { result[id.rawValue] = path }
            for child in element.children { visit(child, parent: path) }
        }
        let projectRoot = project.projectObject?.string("projectDirPath").flatMap { $0.isEmpty ? nil : join(folder, $0) } ?? folder
        if let main = project.mainGroupID { visit(main, parent: projectRoot) }
        return result
    }

    /// The paths that build settings, script phases and local package references name.
    static func namedPaths(_ project: PBXProject, bundle: String, collector: SyncTreesPathCollector) -> [NamedPath] {
        let folder = (bundle as NSString).deletingLastPathComponent
        let pbxproj = bundle + "/project.pbxproj"
        var result: [NamedPath] = []
        func add(_ words: [String], line: Int, kind: String, plain: Bool = false) {
            for word in words {
                for path in collector.resolve(word, bases: [folder], plain: plain) {
                    result.append(NamedPath(namer: pbxproj, line: line, kind: kind, path: path.path, isFolder: path.isFolder))
                }
            }
        }
        for id in project.objectIDs(isa: PBXIsa.buildConfiguration) {
            guard let configuration = project.buildConfiguration(id) else { continue }
            let line = project.location(of: id)?.line ?? 0
            for entry in configuration.buildSettings {
                let values = entry.value.strings ?? entry.value.string.map { [$0] } ?? []
                for value in values {
                    add(SyncTreesPathCollector.settingTokens(key: entry.key, value: value), line: line, kind: "pbxproj build setting")
                }
            }
        }
        for id in project.objectIDs(isa: "PBXShellScriptBuildPhase") {
            guard let phase = project.object(id) else { continue }
            let line = project.location(of: id)?.line ?? 0
            for key in ["inputPaths", "outputPaths", "inputFileListPaths", "outputFileListPaths"] {
                add(phase[key]?.strings ?? [], line: line, kind: "pbxproj script phase")
            }
            for scriptLine in (phase.string("shellScript") ?? "").components(separatedBy: "\n") {
                let trimmed = scriptLine.trimmingCharacters(in: .whitespaces)
                guard !trimmed.hasPrefix("#") else { continue }
                add(SyncTreesPathCollector.words(trimmed).filter { $0.count < 300 }, line: line, kind: "pbxproj script phase")
            }
        }
        for reference in project.swiftPackageReferences {
            if case .local(let relativePath) = reference.location {
                add([relativePath], line: project.location(of: reference.id)?.line ?? 0, kind: "pbxproj local package", plain: true)
            }
        }
        return result
    }

    private static func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "/" + b }
}
