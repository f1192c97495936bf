import Foundation
import PBXProj

/// What lint makes of each path the project names (a file reference's, a build setting's such as
/// `INFOPLIST_FILE`): a place on disk to check, or why it is not checked (made by `pod install`,
/// a generator or the build; under a build setting Slipway cannot know outside a build; in a
/// submodule that is not checked out). Computed once per context: `missing-file`,
/// `missing-setting-file` and `unchecked-reference` all read it, so they never disagree on a path.
struct LintReferences: Sendable {
    /// Why a missing reference is not an error.
    enum Unchecked: Hashable, Sendable, Comparable {
        /// Under a folder a tool fills (`Pods`, `Carthage/Build`, `DerivedSources`).
        case generatedFolder(String)
        /// Relative to a build setting that names a build folder (`BUILT_PRODUCTS_DIR`, ...).
        case buildFolder(String)
        /// Under a build setting Slipway cannot know.
        case unknownSetting(String)
        /// Missing, and ignored by git: a build's output.
        case ignoredByGit
        /// Inside a git submodule that is not checked out (its path as `.gitmodules` writes it).
        case submodule(String)
    }

    /// Where a path the project names stands.
    enum Status: Sendable {
        /// On disk.
        case present
        /// Missing, and not an error (a note, once per reason).
        case unchecked(Unchecked)
        /// On disk in another case only (`onDisk`: the disk's spelling).
        case caseMismatch(onDisk: String)
        /// Missing: an error.
        case missing
    }

    /// A reference to check: its path (relative to the project's folder, or absolute) and id.
    struct Checked: Sendable {
        let id: ObjectID
        let name: String
        let path: String
    }

    /// The paths not checked for one reason: how many references and build settings, the first
    /// one's object and path.
    struct UncheckedCount: Sendable {
        var references: Int
        var settings: Int
        let first: ObjectID
        let path: String
    }

    /// References whose file must exist and does not, in tree order (first occurrence of each).
    private(set) var missing: [Checked] = []
    /// References whose file exists only in another case (`onDisk`: the disk's spelling), in
    /// tree order: found on a case-insensitive disk, missing on a case-sensitive one.
    private(set) var caseMismatches: [(reference: Checked, onDisk: String)] = []
    /// References (and build settings) not checked, by reason.
    private(set) var unchecked: [Unchecked: UncheckedCount] = [:]
    /// Build settings naming a file that must exist and does not, in configuration order.
    private(set) var missingSettings: [LintSettingFile] = []
    /// Build settings naming a file that exists only in another case (`onDisk`), in configuration order.
    private(set) var settingCaseMismatches: [(setting: LintSettingFile, onDisk: String)] = []
    /// The paths already counted in `unchecked` (a setting naming a referenced file is one file).
    private var uncheckedPaths = Set<String>()

    /// Build settings whose value is the project's folder.
    static let projectFolderSettings: Set<String> = ["SRCROOT", "PROJECT_DIR", "SOURCE_ROOT"]
    /// Build settings naming folders the build makes.
    static let buildFolderSettings: Set<String> = [
        "BUILT_PRODUCTS_DIR", "CONFIGURATION_BUILD_DIR", "TARGET_BUILD_DIR", "DERIVED_FILE_DIR", "DERIVED_SOURCES_DIR",
        "DERIVED_FILES_DIR", "OBJROOT", "SYMROOT", "BUILD_DIR", "BUILD_ROOT", "CONFIGURATION_TEMP_DIR", "TARGET_TEMP_DIR",
        "PROJECT_TEMP_DIR", "SHARED_DERIVED_FILE_DIR",
    ]
    /// Folders a tool fills, as path components: the first that a missing path runs through names it.
    static let generatedFolders: [[String]] = [["Pods"], ["Carthage", "Build"], ["DerivedSources"]]

    init(_ context: LintContext) {
        checkReferences(context)
        checkSettingFiles(context)
    }

    private mutating func checkReferences(_ context: LintContext) {
        guard let tree = context.groupTree else { return }
        let settings = LintReferences.knownSettings(context)
        // SRCROOT and PROJECT_DIR are the folder holding the .xcodeproj with `projectDirPath` applied.
        let base = ProjectPath.normalize(context.project?.projectObject?.string("projectDirPath") ?? "")
        var seen = Set<ObjectID>()
        for node in tree.nodes where node.element.kind == .fileReference {
            guard seen.insert(node.element.id).inserted else { continue }
            let id = node.element.id
            switch node.resolvedPath {
            case .absolute:
                continue
            case .buildSetting(let name, let path):
                if name == "PODS_ROOT" {
                    skip(.generatedFolder("Pods"), id, node.resolvedPath.description)
                } else if LintReferences.projectFolderSettings.contains(name) {
                    classify(id, node, ProjectPath.join(base, path), context)
                }
                // A source tree naming a build folder (BUILT_PRODUCTS_DIR: every target's product)
                // is the build's output by Xcode's own declaration: not a file of the checkout, and
                // no note either (it would stand in nearly every project). Other source trees
                // (SDKROOT, DEVELOPER_DIR) are the machine's, never checked.
            case .relative(let path):
                guard path.contains("$(") || path.contains("${") else {
                    classify(id, node, path, context)
                    continue
                }
                switch LintReferences.expand(path, settings, projectFolder: base) {
                case .success(let expanded) where expanded.hasPrefix("/"):
                    continue
                case .success(let expanded):
                    classify(id, node, expanded, context)
                case .failure(let unknown):
                    let reason: Unchecked = LintReferences.buildFolderSettings.contains(unknown.name)
                        ? .buildFolder(unknown.name) : .unknownSetting(unknown.name)
                    skip(reason, id, path)
                }
            }
        }
    }

    /// Looks a referenced path up once: there, there in another case, not checked (a note), or missing.
    private mutating func classify(_ id: ObjectID, _ node: GroupTree.Node, _ path: String, _ context: LintContext) {
        let reference = Checked(id: id, name: node.element.displayName ?? id.rawValue, path: path)
        switch LintReferences.status(of: path, context) {
        case .present: break
        case .unchecked(let reason): skip(reason, id, path)
        case .caseMismatch(let onDisk): caseMismatches.append((reference, onDisk))
        case .missing: missing.append(reference)
        }
    }

    /// Checks each file a build setting names, as references are checked: a missing file that a
    /// tool makes, that git ignores or that lies in a submodule not checked out joins the same
    /// note as the references (once per file), whatever the setting; a file on disk in another
    /// case is `case-mismatch`'s (unless a reference to it says so already); the rest is missing.
    private mutating func checkSettingFiles(_ context: LintContext) {
        let referencedInAnotherCase = Set(caseMismatches.map(\.reference.path))
        for setting in LintSettingFile.all(context) {
            switch LintReferences.status(of: setting.path, context) {
            case .present: break
            case .unchecked(let reason): skip(reason, setting.configurationID, setting.path, setting: true)
            case .caseMismatch(let onDisk):
                // The reference's finding names the file already: renaming it fixes both.
                if !referencedInAnotherCase.contains(setting.path) { settingCaseMismatches.append((setting, onDisk)) }
            case .missing: missingSettings.append(setting)
            }
        }
    }

    /// Where `path` (relative to the project's folder, or absolute) stands: on disk; under a
    /// folder a tool fills; in a submodule not checked out; on disk in another case; ignored by
    /// git (a build's output); or missing. The one place that decides whether a missing path is
    /// an error.
    static func status(of path: String, _ context: LintContext) -> Status {
        guard !context.files.exists(path) else { return .present }
        let components = path.split(separator: "/").map(String.init)
        if let folder = generatedFolders.first(where: { runs(components, through: $0) }) {
            return .unchecked(.generatedFolder(folder.joined(separator: "/")))
        }
        if let submodule = context.submodules.holding(path) {
            return .unchecked(.submodule(submodule.declared))
        }
        // A file the checkout has in another case is that file, even where an ignore rule
        // (`Frameworks/*`) would also cover the name.
        if let onDisk = CaseMismatchRule.onDisk(path, context.files) {
            return .caseMismatch(onDisk: onDisk)
        }
        if context.files.isIgnored(path) {
            return .unchecked(.ignoredByGit)
        }
        return .missing
    }

    private mutating func skip(_ reason: Unchecked, _ id: ObjectID, _ path: String, setting: Bool = false) {
        if setting, uncheckedPaths.contains(path) { return }
        uncheckedPaths.insert(path)
        if var known = unchecked[reason] {
            if setting { known.settings += 1 } else { known.references += 1 }
            unchecked[reason] = known
        } else {
            unchecked[reason] = UncheckedCount(references: setting ? 0 : 1, settings: setting ? 1 : 0, first: id, path: path)
        }
    }

    private static func runs(_ components: [String], through folder: [String]) -> Bool {
        guard components.count > folder.count else { return false }
        for start in 0...(components.count - folder.count - 1) where Array(components[start..<start + folder.count]) == folder {
            return true
        }
        return false
    }

    /// A setting Slipway cannot know.
    struct UnknownSetting: Error {
        let name: String
    }

    /// The values Slipway knows: the project's folder (marked, as it is absolute in a build),
    /// `PROJECT_NAME`, and the project's own settings that have one value in every configuration.
    static func knownSettings(_ context: LintContext) -> [String: String] {
        var values: [String: String] = [:]
        if let project = context.project, let root = project.rootObjectID {
            let configurations = project.buildConfigurations(of: root)
            var candidates: [String: String] = [:]
            for entry in configurations.first?.buildSettings ?? PBXDictionary() {
                if let value = entry.value.string { candidates[entry.key] = value }
            }
            // A setting that differs between configurations, or that one of them leaves out, is
            // not known outside a build.
            for (key, value) in candidates where configurations.allSatisfy({ $0.buildSettings[key]?.string == value }) {
                values[key] = value
            }
        }
        values["PROJECT_NAME"] = ProjectPath.lastComponent(context.bundlePath).replacingOccurrences(of: ".xcodeproj", with: "")
        for name in projectFolderSettings { values[name] = projectFolderMark }
        return values
    }

    /// Stands for the project's folder in an expanded path.
    static let projectFolderMark = "\u{1}PROJECT_FOLDER\u{1}"

    /// `path` with every `$(NAME)` and `${NAME}` replaced (settings may hold settings, 8 levels
    /// deep); a path holding the project's folder keeps what follows it, as Xcode does with an
    /// absolute value. Fails with the first setting not known.
    static func expand(_ path: String, _ settings: [String: String], projectFolder: String) -> Result<String, UnknownSetting> {
        var text = path
        for _ in 0..<8 {
            guard let (range, name) = firstReference(in: text) else { break }
            guard let value = settings[name] else { return .failure(UnknownSetting(name: name)) }
            text.replaceSubrange(range, with: value)
        }
        if let (_, name) = firstReference(in: text) { return .failure(UnknownSetting(name: name)) }
        if let mark = text.range(of: projectFolderMark, options: .backwards) {
            text = String(text[mark.upperBound...])
            while text.hasPrefix("/") { text.removeFirst() }
            return .success(ProjectPath.join(projectFolder, text))
        }
        return .success(ProjectPath.normalize(text))
    }

    private static func firstReference(in text: String) -> (Range<String.Index>, String)? {
        let starts = [text.firstRange(of: "$("), text.firstRange(of: "${")].compactMap { $0 }
        guard let start = starts.min(by: { $0.lowerBound < $1.lowerBound }) else { return nil }
        let closing: Character = text[text.index(after: start.lowerBound)] == "(" ? ")" : "}"
        guard let end = text[start.upperBound...].firstIndex(of: closing) else { return nil }
        let name = String(text[start.upperBound..<end])
        return (start.lowerBound..<text.index(after: end), name)
    }
}

extension LintContext {
    /// The file references, sorted into checked and not checked (computed once).
    var references: LintReferences {
        memo.references.get { LintReferences(self) }
    }
}
