import Basics
import PBXProj

extension ScanState {
    // MARK: xcconfig

    /// Every `.xcconfig` in the tree: `#include`/`#include?` paths (relative to the file's
    /// folder) and settings' values (relative to the project folder, `$(SRCROOT)/`-style
    /// prefixes kept). What names a moving file is rewritten (at the file's new place when it
    /// moves too); a folder whose contents change, or an xcconfig outside the project folder,
    /// is a reference the sync cannot fix.
    mutating func scanXCConfig(_ path: String, text: String) {
        let folder = ProjectPath.parent(path)
        let finalPath = index.mapped(path)
        let finalFolder = ProjectPath.parent(finalPath)
        let editable = ProjectPath.isWithin(path, projectPrefix) && ProjectPath.isWithin(finalPath, projectPrefix)
        var lines = Self.lines(text).map(String.init)
        var changes: [String] = []
        for number in lines.indices {
            let line = lines[number]
            var replacements: [(column: Int, length: Int, text: String)] = []
            if let include = Self.include(in: line) {
                let target = ProjectPath.join(folder, include.path)
                let moving = index.moving(target)
                let newTarget = index.mapped(target)
                guard moving != nil || finalPath != path else { continue }
                guard !include.path.hasPrefix("/"), !include.path.hasByte("$") else { continue }
                let rewritten = editable && !newTarget.isEmpty ? ProjectPath.relative(from: finalFolder, to: newTarget) : nil
                if let rewritten, rewritten != include.path { replacements.append((include.column, include.path.count, rewritten)) }
                let shown = moving.map { ($0.shownPath, $0.shownDestination) }
                    ?? (ProjectPath.removingPrefix(projectPrefix, from: path) ?? path, ProjectPath.removingPrefix(projectPrefix, from: finalPath) ?? finalPath)
                add(PathReference(file: path, line: number + 1, column: include.column, kind: .xcconfigInclude, text: include.path,
                                  movingPath: shown.0, destination: shown.1, rewritten: rewritten != nil))
            } else if let setting = Self.setting(in: line) {
                for token in PathTokens.split(Substring(setting.value)) {
                    for hit in hits(token.text, bases: [projectPrefix], bareFolders: Self.isPathSetting(setting.name)) {
                        let column = setting.valueColumn + token.column - 1
                        var fixed = false
                        if editable, !hit.folderContents, !hit.resolvedAfter.isEmpty,
                            let relative = ProjectPath.removingPrefix(projectPrefix, from: hit.resolvedAfter), !relative.isEmpty {
                            let written = hit.written.hasPrefix("/") ? scanner.root + "/" + hit.resolvedAfter : relative
                            replacements.append((column + hit.prefix.count, hit.written.count, written))
                            fixed = true
                        }
                        add(reference(hit, file: path, line: number + 1, column: column, kind: .xcconfigSetting, detail: setting.name, rewritten: fixed))
                    }
                }
            }
            guard !replacements.isEmpty else { continue }
            var characters = Array(line)
            for replacement in replacements.sorted(by: { $0.column > $1.column }) {
                let start = replacement.column - 1
                guard start >= 0, start + replacement.length <= characters.count else { continue }
                characters.replaceSubrange(start..<(start + replacement.length), with: Array(replacement.text))
            }
            lines[number] = String(characters)
            changes.append("\(number + 1): \(line.trimming(" \t\r")) → \(Substring(lines[number]).trimming(" \t\r"))")
        }
        guard !changes.isEmpty, let original = ProjectPath.removingPrefix(projectPrefix, from: path),
            let final = ProjectPath.removingPrefix(projectPrefix, from: finalPath)
        else { return }
        edits.append(PathReferenceEdit(
            path: original, finalPath: final, originalSHA256: SyncJournal.sha256(Array(text.utf8)),
            newText: lines.joined(separator: "\n"), changes: changes))
    }

    /// `#include "path"` / `#include? "path"`: the path and its 1-based column.
    static func include(in line: String) -> (path: String, column: Int)? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("#include") else { return nil }
        guard let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\"") else { return nil }
        let path = String(line[line.index(after: open)..<close])
        guard !path.isEmpty else { return nil }
        return (path, line.distance(from: line.startIndex, to: open) + 2)
    }

    /// `NAME[condition=value] = value // comment`: the name (with its condition), the value
    /// without the comment, and the value's 1-based column.
    static func setting(in line: String) -> (name: String, value: String, valueColumn: Int)? {
        let code = line.firstIndex(ofBytes: "//").map { String(line[..<$0]) } ?? line
        // A condition (`[sdk=iphoneos*]`) has its own `=`: the value starts after the `]`.
        let nameEnd = code.firstIndex(of: "[").flatMap { open in
            code.firstIndex(of: "=").map { $0 > open } == true ? code[open...].firstIndex(of: "]") : nil
        } ?? code.startIndex
        guard let equals = code[nameEnd...].firstIndex(of: "=") else { return nil }
        let name = code[..<equals].trimming(" \t")
        guard !name.isEmpty, name.first.map({ $0.isLetter || $0 == "_" }) == true else { return nil }
        let value = String(code[code.index(after: equals)...])
        return (name, value, code.distance(from: code.startIndex, to: equals) + 2)
    }

    /// Whether a build setting holds paths by its name (`HEADER_SEARCH_PATHS`,
    /// `INFOPLIST_FILE`, `CONFIGURATION_BUILD_DIR`, `SWIFT_INCLUDE_PATHS`...).
    static func isPathSetting(_ name: String) -> Bool {
        let base = name.split(separator: "[", maxSplits: 1).first.map(String.init) ?? name
        return ["PATH", "_DIR", "_FILE", "FOLDER", "_ROOT", "HEADER", "ENTITLEMENTS"].contains { base.containsBytes($0) }
    }

    // MARK: project.pbxproj

    /// The project's build settings that the planner does not rewrite, and its script phases'
    /// text and input/output paths. Lines are the objects' lines in the pbxproj.
    mutating func scanProject(_ project: PBXProject, plan: SyncPlan) {
        let file = ProjectPath.join(projectPrefix, scanner.projectBundle + "/project.pbxproj")
        let rewrittenSettings = Set(plan.edits.filter { $0.key == .buildSetting }.map { "\($0.object) \($0.setting ?? "")" })
        // One line index for every object located (`location(of:)` scans from the start each time).
        let locator = project.objectLocator()
        var owners: [ObjectID: String] = [:]
        var phaseOwners: [ObjectID: String] = [:]
        for target in project.targets {
            for configuration in project.buildConfigurations(of: target.id) { owners[configuration.id] = "target '\(target.name)'" }
            for phase in target.buildPhases { phaseOwners[phase] = target.name }
        }
        for id in project.objectIDs(isa: PBXIsa.buildConfiguration) {
            guard let configuration = project.buildConfiguration(id) else { continue }
            let line = locator.location(of: id)?.line ?? 1
            for entry in configuration.buildSettings where !rewrittenSettings.contains("\(id.rawValue) \(entry.key)") {
                let values: [String]
                switch entry.value {
                case .string(let value): values = [value]
                case .array: values = entry.value.strings ?? []
                default: values = []
                }
                let detail = "\(entry.key) of '\(configuration.name)' of \(owners[id] ?? "the project")"
                for value in values {
                    for token in PathTokens.split(Substring(value)) {
                        for hit in hits(token.text, bases: [projectPrefix], bareFolders: Self.isPathSetting(entry.key)) {
                            add(reference(hit, file: file, line: line, column: 1, kind: .buildSetting, detail: detail))
                        }
                    }
                }
            }
        }
        for object in project.objects(isa: "PBXShellScriptBuildPhase") {
            let line = locator.location(of: object.id)?.line ?? 1
            let name = object.string("name") ?? "Run Script"
            let detail = "'\(name)'" + (phaseOwners[object.id].map { " of target '\($0)'" } ?? "")
            for (number, scriptLine) in Self.lines(object.string("shellScript") ?? "").enumerated() {
                if scriptLine.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") { continue }
                for token in PathTokens.split(scriptLine) {
                    for hit in hits(token.text, bases: unique([projectPrefix, ""])) {
                        add(reference(hit, file: file, line: line, column: 1, kind: .scriptPhase, detail: detail + " (script line \(number + 1))"))
                    }
                }
            }
            for key in ["inputPaths", "outputPaths", "inputFileListPaths", "outputFileListPaths"] {
                for value in object[key]?.strings ?? [] {
                    for hit in hits(value, bases: [projectPrefix], bareFolders: true) {
                        add(reference(hit, file: file, line: line, column: 1, kind: .scriptPhasePath, detail: detail + " \(key)"))
                    }
                }
            }
        }
    }
}
