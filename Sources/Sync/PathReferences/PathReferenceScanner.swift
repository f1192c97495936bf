import Basics
import PBXProj

/// Finds every place in the repository that names a path a sync is about to move (or a folder
/// whose contents a move changes), before anything moves: the files tools read by path
/// (xcconfigs, `Package.swift`, tool configurations, Makefiles, scripts, CI and fastlane files,
/// schemes, test plans, `.gitignore`/`.gitattributes`) and the pbxproj's own build settings and
/// script phases that the planner does not rewrite. A pure function of the file system's
/// contents, the project and the plan.
///
/// Every file is read through the door (`read(_:as:)` with its kind's budget); a file that
/// cannot be read is named, never skipped in silence. Folders that are build output or other
/// people's code (`.git`, `.build`, `DerivedData`, `Pods`, `Carthage/Checkouts`,
/// `node_modules`) are not entered and symbolic links are never followed. The work is bounded
/// (`Limits`) and a scan that reaches a bound says so.
public struct PathReferenceScanner: Sendable {
    /// Bounds of one scan.
    public struct Limits: Sendable {
        /// Folder entries looked at.
        public var entries: Int
        /// Files read.
        public var files: Int
        /// References kept.
        public var references: Int

        /// The defaults: far above a real app's repository.
        public init(entries: Int = 500_000, files: Int = 20_000, references: Int = 10_000) {
            self.entries = entries
            self.files = files
            self.references = references
        }
    }

    /// Folder names never entered.
    static let skippedFolders: Set<String> = [".git", ".build", "DerivedData", "Pods", "node_modules", SyncJournal.trashFolderName]

    let fileSystem: any FileSystem
    /// The folder scanned (absolute): the git working tree holding the project, or the project folder.
    let root: String
    /// The project folder relative to `root`.
    let projectPrefix: String
    /// The `.xcodeproj` folder's name.
    let projectBundle: String
    let limits: Limits

    /// A scanner of `root` for the project whose folder is `projectPrefix` inside it.
    public init(fileSystem: any FileSystem, root: String, projectPrefix: String, projectBundle: String, limits: Limits = Limits()) {
        self.fileSystem = fileSystem
        self.root = root
        self.projectPrefix = projectPrefix
        self.projectBundle = projectBundle
        self.limits = limits
    }

    /// The places that name what `plan` moves; xcconfig references come with the edits that fix them.
    public func scan(plan: SyncPlan, project: PBXProject) -> PathReferenceScan {
        var scan = PathReferenceScan(root: root)
        let index = MoveIndex(moves: plan.moves, projectPrefix: projectPrefix)
        guard !index.isEmpty else { return scan }
        var state = ScanState(scanner: self, index: index, limits: limits)
        state.findByPlace()
        let files = walk(state: &state)
        for (path, kind) in files {
            guard state.filesRead < limits.files else {
                state.limitReached = "it reached its bound of \(limits.files) files read; the rest were not read"
                break
            }
            state.scanFile(path, kind: kind)
        }
        state.scanProject(project, plan: plan)
        scan.references = Array(Set(state.references)).sorted()
        scan.unread = state.unread.sorted()
        scan.limitReached = state.limitReached
        scan.edits = state.edits.sorted { $0.path < $1.path }
        return scan
    }

    /// The files of the kinds read, in path order (relative to `root`).
    private func walk(state: inout ScanState) -> [(String, FileKindToScan)] {
        var found: [(String, FileKindToScan)] = []
        var folders = [""]
        var visited = 0
        while let folder = folders.popLast() {
            let absolute = folder.isEmpty ? root : root + "/" + folder
            guard let entries = try? fileSystem.kinds(ofDirectory: absolute) else {
                if !folder.isEmpty { state.unread.append(UnreadReferenceFile(file: folder + "/", reason: "the folder cannot be listed")) }
                continue
            }
            for (name, kind) in entries {
                visited += 1
                guard visited <= limits.entries else {
                    state.limitReached = "it reached its bound of \(limits.entries) folder entries; the rest were not looked at"
                    return found.sorted { $0.0 < $1.0 }
                }
                let path = folder.isEmpty ? name : folder + "/" + name
                switch kind {
                case .directory?:
                    if Self.skippedFolders.contains(name) || path.hasSuffix("Carthage/Checkouts") { continue }
                    folders.append(path)
                case .file?:
                    if let fileKind = FileKindToScan.of(path: path, name: name) { found.append((path, fileKind)) }
                case .symbolicLink?:
                    if FileKindToScan.of(path: path, name: name) != nil {
                        state.unread.append(UnreadReferenceFile(file: path, reason: "a symbolic link; links are not followed"))
                    }
                default:
                    continue
                }
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }
}

/// The kinds of files read, found by name and place.
enum FileKindToScan: Equatable {
    case xcconfig, packageManifest, gitPattern
    case lines(PathReference.Kind)
    /// An extensionless file in `scripts/` or `bin/`: a script when it starts with `#!`.
    case maybeScript

    static let fastlaneNames: Set<String> = [
        "Fastfile", "Appfile", "Matchfile", "Pluginfile", "Scanfile", "Gymfile", "Snapfile", "Deliverfile", "Precheckfile",
    ]

    static func of(path: String, name: String) -> FileKindToScan? {
        let lower = name.lowercased()
        let folder = ProjectPath.parent(path)
        if lower.hasSuffix(".xcconfig") { return .xcconfig }
        if name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift")) { return .packageManifest }
        if name == ".gitignore" || name == ".gitattributes" { return .gitPattern }
        if name == ".swiftlint.yml" || name == ".swiftlint.yaml" { return .lines(.swiftLint) }
        if lower == "swiftgen.yml" || lower == "swiftgen.yaml" { return .lines(.swiftGen) }
        if name == "Podfile" { return .lines(.podfile) }
        if name == "Cartfile" || name == "Cartfile.private" { return .lines(.cartfile) }
        if name == "project.yml" || name == "project.yaml" { return .lines(.xcodeGen) }
        if ["Makefile", "makefile", "GNUmakefile"].contains(name) || lower.hasSuffix(".mk") { return .lines(.makefile) }
        if lower.hasSuffix(".sh") || lower.hasSuffix(".bash") || lower.hasSuffix(".zsh") { return .lines(.shellScript) }
        if isContinuousIntegration(path: path, name: name, folder: folder) { return .lines(.continuousIntegration) }
        if fastlaneNames.contains(name) { return .lines(.fastlane) }
        if lower.hasSuffix(".xcscheme") { return .lines(.scheme) }
        if lower.hasSuffix(".xctestplan") { return .lines(.testPlan) }
        let last = ProjectPath.lastComponent(folder)
        if (last == "scripts" || last == "bin" || last == "Scripts"), !name.hasByte("."), !name.hasPrefix(".") { return .maybeScript }
        return nil
    }

    private static func isContinuousIntegration(path: String, name: String, folder: String) -> Bool {
        let yaml = name.hasSuffix(".yml") || name.hasSuffix(".yaml")
        if yaml && (folder == ".github/workflows" || folder.hasSuffix("/.github/workflows")) { return true }
        if name == ".gitlab-ci.yml" || name == "bitrise.yml" || name == ".travis.yml" { return true }
        if name == "config.yml" && (folder == ".circleci" || folder.hasSuffix("/.circleci")) { return true }
        return path.hasPrefix(".buildkite/") || path.containsBytes("/.buildkite/")
    }

    /// The read budget of the kind.
    var budget: FileBudget {
        switch self {
        case .xcconfig, .lines(.scheme), .lines(.testPlan): return .buildSettings
        default: return .configuration
        }
    }
}
