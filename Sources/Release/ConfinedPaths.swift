import Basics
import PBXProj

/// Resolves checkout paths through a `FileSystem` (symbolic links followed, `.`/`..` applied)
/// and tells whether they stay inside one root folder: the trust boundary for files a version
/// stamp reads and writes because the project says so (xcconfig files and their includes).
struct ConfinedPaths: Sendable {
    let fileSystem: any FileSystem
    /// The root as given (absolute), for messages.
    let root: String
    /// The root with its links resolved.
    let realRoot: String

    init(fileSystem: any FileSystem, root: String) {
        self.fileSystem = fileSystem
        self.root = ProjectPath.normalize(root)
        realRoot = Self.realPath(of: root, in: fileSystem) ?? ProjectPath.normalize(root)
    }

    /// `path` (absolute) with every symbolic link along it followed, as `realpath(3)` does but
    /// through the injected file system; a missing tail is kept as written. Nil when links loop
    /// (more than 40 in a row, the kernel's limit).
    static func realPath(of path: String, in fileSystem: any FileSystem) -> String? {
        var pending = Array(ProjectPath.normalize(path).split(separator: "/").map(String.init).reversed())
        var current: [String] = []
        var links = 0
        while let component = pending.popLast() {
            if component == "." || component.isEmpty { continue }
            if component == ".." {
                if !current.isEmpty { current.removeLast() }
                continue
            }
            let candidate = "/" + (current + [component]).joined(separator: "/")
            guard fileSystem.kind(of: candidate) == .symbolicLink, let target = fileSystem.destinationOfSymbolicLink(candidate) else {
                current.append(component)
                continue
            }
            links += 1
            guard links <= 40, !target.isEmpty else { return nil }
            if target.hasPrefix("/") { current = [] }
            pending += target.split(separator: "/").map(String.init).reversed()
        }
        return "/" + current.joined(separator: "/")
    }

    /// The real path of `path` when it is inside the root, else nil.
    func confined(_ path: String) -> String? {
        guard let real = Self.realPath(of: path, in: fileSystem) else { return nil }
        return contains(real) ? real : nil
    }

    /// True when the real path `real` is the root or inside it.
    func contains(_ real: String) -> Bool {
        real == realRoot || real.hasPrefix(realRoot == "/" ? "/" : realRoot + "/")
    }

    /// `path` relative to the root when it is inside (links resolved), else `path` itself.
    func display(_ path: String) -> String {
        let real = Self.realPath(of: path, in: fileSystem) ?? path
        if real == realRoot { return "." }
        if contains(real) { return String(real.dropFirst(realRoot == "/" ? 1 : realRoot.count + 1)) }
        if path.hasPrefix(root + "/") { return String(path.dropFirst(root.count + 1)) }
        return path
    }
}
