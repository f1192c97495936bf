import Basics
import Git
import PBXProj
import Sync

/// What lint may know of the files next to a project: whether a path exists, and a few small
/// files' text (schemes). Paths are relative to the folder holding the `.xcodeproj` (they may
/// start with `../`) or absolute.
public struct LintFiles: Sendable {
    /// Whether something (file or folder) is at `path`.
    public let exists: @Sendable (String) -> Bool
    /// The names in a folder (nil when it is not one).
    public let list: @Sendable (String) -> [String]?
    /// A file's bytes (nil when it cannot be read).
    public let read: @Sendable (String) -> [UInt8]?
    /// The repository's root relative to the project's folder (`""`, `..`, `../..`), when known.
    public let repositoryRoot: String?
    /// The project's folder listed recursively, as `slipway sync` sees it (nil: unknown).
    public let listing: @Sendable () -> DirectoryListing?
    /// Whether git ignores a path (relative to the project's folder): a build's output, never
    /// a file of the checkout.
    public let isIgnored: @Sendable (String) -> Bool

    /// Files as a closure set.
    public init(exists: @escaping @Sendable (String) -> Bool, list: @escaping @Sendable (String) -> [String]?,
                read: @escaping @Sendable (String) -> [UInt8]?, repositoryRoot: String?,
                listing: @escaping @Sendable () -> DirectoryListing? = { nil },
                isIgnored: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.exists = exists
        self.list = list
        self.read = read
        self.repositoryRoot = repositoryRoot
        self.listing = listing
        self.isIgnored = isIgnored
    }

    /// The files on disk under `projectDirectory` (the folder holding the `.xcodeproj`); the
    /// repository root is the nearest folder upwards holding `.git`, whose ignore rules say
    /// which paths are the build's (through libgit2; only read).
    public static func disk(_ fileSystem: any FileSystem, projectDirectory: String) -> LintFiles {
        @Sendable func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : ProjectPath.normalize(path.isEmpty ? projectDirectory : projectDirectory + "/" + path)
        }
        var root: String?
        var relative = ""
        var folder = ProjectPath.normalize(projectDirectory)
        for _ in 0..<64 {
            if fileSystem.exists(folder + "/.git") { root = relative; break }
            guard folder != "/", !folder.isEmpty else { break }
            folder = ProjectPath.parent(folder)
            if folder.isEmpty { folder = "/" }
            relative = relative.isEmpty ? ".." : relative + "/.."
        }
        // The folder is scanned once (the sync rules need it anyway), and a path inside it is
        // looked up in the scan instead of asking the disk for each of thousands of references.
        // What the scan does not hold (outside paths, unlisted folders such as `.build`, paths
        // through a link, and missing files) is still asked of the disk.
        let scan = LintOnce<DirectoryListing?>()
        let repository = LintOnce<GitRepository?>()
        let inRepository = root != nil
        @Sendable func scanned() -> DirectoryListing? {
            scan.get { try? DirectoryListing.scan(root: projectDirectory, fileSystem: fileSystem, details: false) }
        }
        return LintFiles(
            exists: { path in
                let relative = ProjectPath.normalize(path)
                if !relative.isEmpty, !ProjectPath.isOutside(relative), scanned()?.entry(relative) != nil { return true }
                return fileSystem.exists(absolute(path))
            },
            list: { fileSystem.isDirectory(absolute($0)) ? try? fileSystem.contents(ofDirectory: absolute($0)) : nil },
            read: { try? fileSystem.read(absolute($0), as: .buildSettings) },
            repositoryRoot: root,
            listing: { scanned() },
            isIgnored: { path in
                guard inRepository, let repository = repository.get({ try? GitRepository.discover(from: absolute("")) }),
                    let top = repository.workingDirectory,
                    let inside = ProjectPath.removingPrefix(ProjectPath.normalize(top), from: absolute(path))
                else { return false }
                // A missing path may be a folder the build makes (an `.xcframework`, a folder
                // reference): `build/` or `Library/` ignore it only as a folder, which git cannot
                // tell of a path that is not there.
                return repository.isIgnored(inside) || (!inside.isEmpty && repository.isIgnored(inside + "/"))
            })
    }

    /// Files from a list of relative paths (folders are implied by the files in them); `texts`
    /// gives the bytes of some of them (they exist too). `repositoryRoot` is the repository's
    /// root relative to the project's folder (`""`: the project's folder).
    public static func listed(_ paths: some Sequence<String>, texts: [String: [UInt8]] = [:], repositoryRoot: String = "") -> LintFiles {
        let given = Array(paths) + Array(texts.keys)
        var all = Set<String>(minimumCapacity: given.count * 2)
        all.insert("")
        var children: [String: Set<String>] = [:]
        children.reserveCapacity(given.count / 4 + 1)
        for path in given {
            var current = ProjectPath.normalize(path)
            while !current.isEmpty {
                let parent = ProjectPath.parent(current)
                children[parent, default: []].insert(ProjectPath.lastComponent(current))
                if !all.insert(current).inserted { break }
                current = parent
            }
        }
        let known = all
        let folders = children
        let inside = known.filter { !$0.isEmpty && !ProjectPath.isOutside($0) }
        // The tree does not change: its listing is built once, however many lint runs read it.
        let listing = LintOnce<DirectoryListing>()
        return LintFiles(
            exists: { known.contains(ProjectPath.normalize($0)) },
            list: { folders[ProjectPath.normalize($0)].map { $0.sorted() } },
            read: { texts[ProjectPath.normalize($0)] },
            repositoryRoot: repositoryRoot,
            listing: {
                listing.get {
                    DirectoryListing(root: "/listed", entries: inside.map {
                        DirectoryListing.Entry(path: $0, kind: folders[$0] == nil ? .file : .directory)
                    })
                }
            })
    }
}
