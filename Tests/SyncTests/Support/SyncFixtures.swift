import Basics
import Crypto
import Foundation
import PBXProj
import Sync
import TestSupport

/// A corpus project rebuilt on disk: its tree list as files whose content is their own path,
/// the real pbxproj at its place, and the files it references outside its folder.
final class CorpusTree: @unchecked Sendable {
    let entry: PBXProjCorpusEntry
    let directory: TemporaryDirectory
    /// The folder holding the `.xcodeproj` (two levels below the temporary directory, so that
    /// `../../x` references have somewhere to be).
    let root: String
    let bundle: String

    var projectPath: String { root + "/" + bundle }
    var pbxprojPath: String { projectPath + "/project.pbxproj" }

    init(_ entry: PBXProjCorpusEntry, git: Bool) throws {
        self.entry = entry
        directory = try TemporaryDirectory(prefix: "sync-corpus")
        root = directory.path + "/outer/inner/project"
        let components = entry.repositoryPath.split(separator: "/")
        bundle = components.count >= 2 ? String(components[components.count - 2]) : entry.projectName + ".xcodeproj"
        let manager = FileManager.default
        try manager.createDirectory(atPath: root, withIntermediateDirectories: true)
        var folders: Set<String> = [root]
        for path in try entry.treePaths().sorted() where !path.isEmpty {
            try Self.fastWrite(root, path, folders: &folders)
        }
        for (path, status) in try entry.outsidePaths() {
            let full = root + "/" + path
            if status == "exists-dir" {
                try manager.createDirectory(atPath: full, withIntermediateDirectories: true)
            } else if status == "exists" {
                try Self.write(full, contents: path)
            }
        }
        try manager.createDirectory(atPath: projectPath, withIntermediateDirectories: true)
        try Data(try entry.bytes()).write(to: URL(fileURLWithPath: pbxprojPath))
        if git {
            try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: root)
            try GitFixture.run(["add", "-A"], in: root)
            try GitFixture.run(["commit", "--quiet", "-m", "corpus tree"], in: root)
        }
    }

    /// Writes `root/path` (content: `path`), creating folders once each.
    private static func fastWrite(_ root: String, _ path: String, folders: inout Set<String>) throws {
        var missing: [String] = []
        var folder = (root + "/" + path as NSString).deletingLastPathComponent
        while !folders.contains(folder) {
            missing.append(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        for folder in missing.reversed() {
            if mkdir(folder, 0o755) != 0 && errno != EEXIST { throw FileSystemError.from(errno: errno, path: folder, operation: "create") }
            folders.insert(folder)
        }
        let file = root + "/" + path
        if folders.contains(file) { return }
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            if errno == EISDIR { return }
            throw FileSystemError.from(errno: errno, path: file, operation: "write")
        }
        defer { close(descriptor) }
        let bytes = Array((path + "\n").utf8)
        _ = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
    }

    static func write(_ path: String, contents: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        try manager.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data((contents + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Every corpus entry, or nil (with a printed note) when the corpus is absent.
    static func entries(for test: String) throws -> [PBXProjCorpusEntry]? {
        guard let directory = Corpus.pbxprojDirectory else {
            print("SKIPPED \(test): the pbxproj corpus (../shared/corpus/pbxproj or $SLIPWAY_CORPUS) is not here")
            return nil
        }
        return try PBXProjCorpusManifest.entries(in: directory)
    }
}

/// Every file, folder and link under a folder with a digest of its content: two snapshots are
/// equal when the trees are byte for byte the same.
struct TreeSnapshot: Equatable, CustomStringConvertible {
    var entries: [String: String]

    init(_ folder: String, skipping: Set<String> = [".git"]) {
        var entries: [String: String] = [:]
        var pending = [""]
        let fileSystem = LocalFileSystem()
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? folder : folder + "/" + relative
            for name in (try? fileSystem.contents(ofDirectory: path)) ?? [] where !skipping.contains(name) {
                let child = relative.isEmpty ? name : relative + "/" + name
                let full = folder + "/" + child
                switch fileSystem.kind(of: full) {
                case .directory?:
                    entries[child + "/"] = "dir"
                    pending.append(child)
                case .symbolicLink?:
                    entries[child] = "link:" + (fileSystem.destinationOfSymbolicLink(full) ?? "?")
                default:
                    entries[child] = SyncJournal.sha256((try? fileSystem.read(full)) ?? [])
                }
            }
        }
        self.entries = entries
    }

    /// The multiset of file contents (digests with counts).
    var contents: [String: Int] {
        var result: [String: Int] = [:]
        for (path, digest) in entries where !path.hasSuffix("/") { result[digest, default: 0] += 1 }
        return result
    }

    var description: String {
        entries.keys.sorted().prefix(40).joined(separator: "\n")
    }

    /// What differs, for failure messages.
    func difference(from other: TreeSnapshot) -> String {
        let gone = Set(other.entries.keys).subtracting(entries.keys).sorted().prefix(10)
        let new = Set(entries.keys).subtracting(other.entries.keys).sorted().prefix(10)
        let changed = entries.keys.filter { other.entries[$0] != nil && other.entries[$0] != entries[$0] }.sorted().prefix(10)
        return "missing: \(Array(gone)) added: \(Array(new)) changed: \(Array(changed))"
    }
}

/// A file system that fails on purpose: the Nth write (atomic write or append) with "no space
/// left", or moves out of one folder with "permission denied", as a full disk or a read-only
/// folder would. Everything else goes to the real file system.
final class FaultyFileSystem: FileSystem, @unchecked Sendable {
    private let base = LocalFileSystem()
    private let lock = NSLock()
    private var writes = 0
    /// The 1-based write that fails (nil: none).
    var failingWrite: Int?
    /// Moves from inside this folder fail (nil: none).
    var readOnlyFolder: String?

    init(failingWrite: Int? = nil, readOnlyFolder: String? = nil) {
        self.failingWrite = failingWrite
        self.readOnlyFolder = readOnlyFolder
    }

    var writeCount: Int { lock.withLock { writes } }

    private func countWrite(_ path: String) throws {
        let number = lock.withLock { () -> Int in
            writes += 1
            return writes
        }
        if number == failingWrite { throw FileSystemError.from(errno: ENOSPC, path: path, operation: "write") }
    }

    private func checkFolder(_ path: String, operation: String) throws {
        guard let readOnlyFolder, path.hasPrefix(readOnlyFolder + "/") else { return }
        throw FileSystemError.from(errno: EACCES, path: path, operation: operation)
    }

    func read(_ path: String) throws -> [UInt8] { try base.read(path) }
    func writeAtomically(_ bytes: [UInt8], to path: String, permissions: Int?) throws {
        try countWrite(path)
        try checkFolder(path, operation: "write")
        try base.writeAtomically(bytes, to: path, permissions: permissions)
    }
    func createDirectory(_ path: String, permissions: Int?) throws {
        try checkFolder(path, operation: "create the directory")
        try base.createDirectory(path, permissions: permissions)
    }
    func copyItem(_ source: String, to destination: String) throws {
        try checkFolder(destination, operation: "copy")
        try base.copyItem(source, to: destination)
    }
    var currentDirectoryPath: String { base.currentDirectoryPath }
    func contents(ofDirectory path: String) throws -> [String] { try base.contents(ofDirectory: path) }
    func move(_ source: String, to destination: String) throws {
        try checkFolder(source, operation: "move")
        try checkFolder(destination, operation: "move")
        try base.move(source, to: destination)
    }
    func remove(_ path: String) throws { try base.remove(path) }
    func kind(of path: String) -> FileKind? { base.kind(of: path) }
    func isExecutable(_ path: String) -> Bool { base.isExecutable(path) }
    func moveWithoutReplacing(_ source: String, to destination: String) throws {
        try checkFolder(source, operation: "move")
        try checkFolder(destination, operation: "move")
        try base.moveWithoutReplacing(source, to: destination)
    }
    func removeEmptyDirectory(_ path: String) throws { try base.removeEmptyDirectory(path) }
    func destinationOfSymbolicLink(_ path: String) -> String? { base.destinationOfSymbolicLink(path) }
    func synchronizeDirectory(_ path: String) throws { try base.synchronizeDirectory(path) }
    func append(_ bytes: [UInt8], to path: String, synchronize: Bool) throws {
        try countWrite(path)
        try base.append(bytes, to: path, synchronize: synchronize)
    }
}

/// `git status --porcelain` lines of a folder's repository.
func porcelainStatus(_ folder: String) throws -> [String] {
    try GitFixture.run(["status", "--porcelain", "--untracked-files=all"], in: folder)
        .split(separator: "\n").map(String.init)
}

/// The bytes of a file (empty when missing).
func fileBytes(_ path: String) -> [UInt8] {
    (try? LocalFileSystem().read(path)) ?? []
}

/// A small generated project (see `SyntheticXcodeProject`) in a fresh folder, committed to git
/// unless `git` is false.
struct SyntheticRepository {
    let directory: TemporaryDirectory
    /// The user's state folder for this test (`XDG_STATE_HOME`): Slipway's key, and the sync
    /// journal of a project without git.
    let stateHome: TemporaryDirectory
    let bundle: String
    var root: String { directory.path }
    var pbxprojPath: String { bundle + "/project.pbxproj" }
    /// An environment whose user state folder is `stateHome`.
    var environment: Environment { Environment(["XDG_STATE_HOME": stateHome.path]) }
    /// The same, for the built binary.
    var binaryEnvironment: [String: String?] { ["XDG_STATE_HOME": stateHome.path] }
    /// Where a sync of this project keeps its journal (in `.git`, or in `stateHome` without git).
    var syncState: SyncState {
        let git = FileManager.default.fileExists(atPath: root + "/.git") ? root + "/.git" : nil
        return SyncState(root: root, projectBundle: "App.xcodeproj", gitDirectory: git, environment: environment)
    }

    init(files: Int = 12, groups: Int = 3, git: Bool = true) throws {
        directory = try TemporaryDirectory(prefix: "sync-synthetic")
        stateHome = try TemporaryDirectory(prefix: "sync-state-home")
        bundle = try SyntheticXcodeProject.write(files: files, groups: groups, in: directory.path)
        if git {
            try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: directory.path)
            try GitFixture.run(["add", "-A"], in: directory.path)
            try GitFixture.run(["commit", "--quiet", "-m", "synthetic"], in: directory.path)
        }
    }

    /// The working tree (without `.git`) and the git index, byte for byte.
    func state() -> (tree: TreeSnapshot, index: [UInt8]) {
        (TreeSnapshot(root), fileBytes(root + "/.git/index"))
    }
}
