import Foundation
import PBXProj
import Sync

/// A small hand-described project, written as pbxproj text, for planner tests.
struct MiniProject {
    /// One member of the group tree.
    indirect enum Node {
        case group(_ name: String?, path: String? = nil, sourceTree: String = "<group>", _ children: [Node])
        case file(_ path: String, name: String? = nil, sourceTree: String = "<group>", type: String = "sourcecode.swift", label: String? = nil)
        /// The file labelled `label` again (one object listed by two groups).
        case same(_ label: String)
        case variant(_ name: String, path: String? = nil, _ children: [Node])
        case version(_ path: String, _ children: [Node])
        case synchronized(_ path: String, exceptions: [String] = [])
    }

    var children: [Node]
    /// Build settings of the target's Debug configuration.
    var settings: [String: String] = [:]
    /// Local Swift packages (relative paths).
    var localPackages: [String] = []
    /// The file references (by `path`) the target builds; nil: every file reference and model.
    var built: Set<String>? = nil

    private final class Writer {
        var counter = 0
        var objects: [String] = []
        var labels: [String: String] = [:]
        /// File references and version groups written so far, with their paths.
        var files: [(id: String, path: String)] = []
        func next() -> String {
            counter += 1
            return String(format: "AA%022X", counter)
        }
    }

    /// The project's objects, with ids `AA000...1`, `AA000...2`, ... in tree order.
    func text() -> String {
        let writer = Writer()
        let main = writer.next()
        let childIDs = children.map { write($0, writer) }
        let products = writer.next()
        writer.objects.append("\t\t\(products) /* Products */ = {isa = PBXGroup; children = (); name = Products; sourceTree = \"<group>\"; };")
        writer.objects.append("\t\t\(main) = {isa = PBXGroup; children = (\(childIDs.map { $0 + "," }.joined(separator: " ")) \(products),); sourceTree = \"<group>\"; };")
        var buildFiles: [String] = []
        for file in writer.files where built?.contains(file.path) ?? true {
            let id = writer.next()
            buildFiles.append(id)
            writer.objects.append("\t\t\(id) = {isa = PBXBuildFile; fileRef = \(file.id); };")
        }
        let phase = writer.next()
        writer.objects.append("\t\t\(phase) = {isa = PBXSourcesBuildPhase; files = (\(buildFiles.map { $0 + "," }.joined(separator: " "))); };")
        let configuration = writer.next(), list = writer.next(), target = writer.next(), project = writer.next()
        let settingsText = settings.sorted { $0.key < $1.key }.map { "\($0.key) = \"\($0.value)\";" }.joined(separator: " ")
        writer.objects.append("\t\t\(configuration) /* Debug */ = {isa = XCBuildConfiguration; buildSettings = {\(settingsText)}; name = Debug; };")
        writer.objects.append("\t\t\(list) = {isa = XCConfigurationList; buildConfigurations = (\(configuration),); };")
        writer.objects.append("\t\t\(target) /* App */ = {isa = PBXNativeTarget; buildConfigurationList = \(list); buildPhases = (\(phase),); name = App; };")
        var packages: [String] = []
        for path in localPackages {
            let id = writer.next()
            packages.append(id)
            writer.objects.append("\t\t\(id) = {isa = XCLocalSwiftPackageReference; relativePath = \"\(path)\"; };")
        }
        let packageList = packages.isEmpty ? "" : " packageReferences = (\(packages.map { $0 + "," }.joined(separator: " ")));"
        writer.objects.append("\t\t\(project) /* Project object */ = {isa = PBXProject; mainGroup = \(main); productRefGroup = \(products);\(packageList) projectDirPath = \"\"; targets = (\(target),); };")
        return "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 77;\n\tobjects = {\n"
            + writer.objects.joined(separator: "\n") + "\n\t};\n\trootObject = \(project);\n}\n"
    }

    private func write(_ node: Node, _ writer: Writer) -> String {
        if case .same(let label) = node { return writer.labels[label] ?? "MISSING" }
        let id = writer.next()
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        switch node {
        case .group(let name, let path, let sourceTree, let children):
            let ids = children.map { write($0, writer) }
            var keys = "isa = PBXGroup; children = (\(ids.map { $0 + "," }.joined(separator: " ")));"
            if let name { keys += " name = \(quoted(name));" }
            if let path { keys += " path = \(quoted(path));" }
            writer.objects.append("\t\t\(id) = {\(keys) sourceTree = \(quoted(sourceTree)); };")
        case .same:
            break
        case .file(let path, let name, let sourceTree, let type, let label):
            if let label { writer.labels[label] = id }
            writer.files.append((id, path))
            let nameText = name.map { " name = \(quoted($0));" } ?? ""
            writer.objects.append("\t\t\(id) = {isa = PBXFileReference; lastKnownFileType = \(type);\(nameText) path = \(quoted(path)); sourceTree = \(quoted(sourceTree)); };")
        case .variant(let name, let path, let children):
            let ids = children.map { write($0, writer) }
            let pathText = path.map { " path = \(quoted($0));" } ?? ""
            writer.objects.append("\t\t\(id) = {isa = PBXVariantGroup; children = (\(ids.map { $0 + "," }.joined(separator: " "))); name = \(quoted(name));\(pathText) sourceTree = \"<group>\"; };")
        case .version(let path, let children):
            let ids = children.map { write($0, writer) }
            writer.files.append((id, path))
            writer.objects.append("\t\t\(id) = {isa = XCVersionGroup; children = (\(ids.map { $0 + "," }.joined(separator: " "))); path = \(quoted(path)); sourceTree = \"<group>\"; versionGroupType = wrapper.xcdatamodel; };")
        case .synchronized(let path, let exceptions):
            var exceptionIDs: [String] = []
            if !exceptions.isEmpty {
                let exception = writer.next()
                exceptionIDs.append(exception)
                writer.objects.append("\t\t\(exception) = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (\(exceptions.map { quoted($0) + "," }.joined(separator: " "))); };")
            }
            writer.objects.append("\t\t\(id) = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (\(exceptionIDs.map { $0 + "," }.joined(separator: " "))); path = \(quoted(path)); sourceTree = \"<group>\"; };")
        }
        return id
    }

    /// The parsed project.
    func project() throws -> PBXProject {
        try PBXProject(bytes: Array(text().utf8), projectName: "App")
    }

    /// Options for the planner tests: name-only groups get folders (`--groups-without-path
    /// folder`), which most of them are about; tests of the default pass `SyncOptions()`.
    static let folderOptions = SyncOptions(groupsWithoutPath: .folder)

    /// Plans this project against a listing of `files` (folders implied; a trailing `/` makes
    /// an empty folder).
    func plan(files: [String], caseSensitive: Bool = true, options: SyncOptions = MiniProject.folderOptions,
              links: [String: String] = [:]) throws -> SyncPlan {
        var entries = files.map { path in
            path.hasSuffix("/")
                ? DirectoryListing.Entry(path: String(path.dropLast()), kind: .directory)
                : DirectoryListing.Entry(path: path, kind: .file)
        }
        entries += links.map { DirectoryListing.Entry(path: $0.key, kind: .symbolicLink, linkDestination: $0.value) }
        entries.append(DirectoryListing.Entry(path: "App.xcodeproj/project.pbxproj", kind: .file))
        let listing = DirectoryListing(root: "/project", isCaseSensitive: caseSensitive, entries: entries)
        return try SyncPlanner.plan(project: try project(), listing: listing, options: options, projectBundle: "App.xcodeproj")
    }
}

extension SyncPlan {
    /// `source → destination` of every move, for short assertions.
    var moveList: [String] { moves.map { "\($0.source) → \($0.destination)" } }

    /// The new value of `key` for the object shown as `subject`, if edited.
    func edit(_ key: PBXProjEdit.Key, of subject: String) -> PBXProjEdit? {
        edits.first { $0.key == key && $0.subject == subject }
    }
}
