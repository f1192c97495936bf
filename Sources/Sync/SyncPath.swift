/// Lexical path arithmetic on paths relative to the folder that holds the `.xcodeproj` (no disk
/// access): `.` and `..` collapsed, duplicate slashes removed, a leading `..` kept for paths
/// outside that folder. The empty string is the folder itself.
enum SyncPath {
    /// `path` with `.`/`..` collapsed and no empty components.
    static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if component == "..", absolute, parts.isEmpty {
                continue
            } else {
                parts.append(component)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : joined
    }

    /// `base/component`, normalized; an absolute component replaces the base.
    static func join(_ base: String, _ component: String) -> String {
        if component.hasPrefix("/") { return normalize(component) }
        if component.isEmpty { return base }
        if base.isEmpty { return normalize(component) }
        return normalize(base + "/" + component)
    }

    /// The folder holding `path` ("" for a top-level entry).
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component.
    static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Whether a relative path leaves the project folder.
    static func isOutside(_ path: String) -> Bool {
        path == ".." || path.hasPrefix("../") || path.hasPrefix("/")
    }

    /// Whether `path` is `ancestor` or lies below it.
    static func isWithin(_ path: String, _ ancestor: String) -> Bool {
        if ancestor.isEmpty { return !isOutside(path) }
        return path == ancestor || (path.hasPrefix(ancestor) && path.utf8.dropFirst(ancestor.utf8.count).first == UInt8(ascii: "/"))
    }

    /// The proper ancestors of `path`, nearest first, down to (not including) "".
    static func ancestors(_ path: String) -> [String] {
        var result: [String] = []
        var current = parent(path)
        while !current.isEmpty && current != "/" {
            result.append(current)
            current = parent(current)
        }
        return result
    }

    /// The path that leads from folder `from` to `to` (both normalized, relative to the same
    /// folder): "" when they are equal, `../x` when `to` is a sibling, and so on. Nil when the
    /// way up from `from` would have to climb out of a `..` (the names there are unknown).
    static func relative(from: String, to: String) -> String? {
        let source = from.split(separator: "/", omittingEmptySubsequences: true)
        let target = to.split(separator: "/", omittingEmptySubsequences: true)
        var common = 0
        while common < source.count, common < target.count, source[common] == target[common] { common += 1 }
        if source[common...].contains("..") { return nil }
        let ups = Array(repeating: Substring(".."), count: source.count - common)
        return (ups + target[common...]).joined(separator: "/")
    }

    /// `path` without a leading `base/` (nil when it is not below `base`).
    static func removingPrefix(_ base: String, from path: String) -> String? {
        if base.isEmpty { return path }
        if path == base { return "" }
        guard isWithin(path, base) else { return nil }
        return String(path.dropFirst(base.count + 1))
    }
}
