/// Lexical path arithmetic on project paths, usually relative to the folder that holds the
/// `.xcodeproj` (no disk access): `.` and `..` collapsed, duplicate slashes removed, a leading `..` kept for paths
/// outside that folder. The empty string is the folder itself.
///
/// Everything works on UTF-8 bytes (a `/` is never part of another character), and the common
/// case — a path that is already normal — is recognised in one scan without allocating.
public enum ProjectPath {
    public static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")

    /// `path` with `.`/`..` collapsed and no empty components.
    public static func normalize(_ path: String) -> String {
        if isNormal(path) { return path }
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

    /// Whether `normalize` would return `path` unchanged: no empty or `.` component, no `..`
    /// after a real component (or at the start of an absolute path), no trailing slash.
    public static func isNormal(_ path: String) -> Bool {
        let bytes = path.utf8
        guard var index = bytes.indices.first else { return true }
        let absolute = bytes[index] == slash
        if absolute {
            index = bytes.index(after: index)
            if index == bytes.endIndex { return true }
        }
        var componentStart = index
        var sawName = false
        while true {
            let atEnd = index == bytes.endIndex
            if atEnd || bytes[index] == slash {
                let length = bytes.distance(from: componentStart, to: index)
                if length == 0 { return false }
                if length == 1 && bytes[componentStart] == dot { return false }
                let isParent = length == 2 && bytes[componentStart] == dot && bytes[bytes.index(after: componentStart)] == dot
                if isParent && (sawName || absolute) { return false }
                if !isParent { sawName = true }
                if atEnd { return true }
                componentStart = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
    }

    /// `path` without its first `count` bytes.
    private static func dropping(_ count: Int, from path: String) -> String {
        String(path[path.utf8.index(path.startIndex, offsetBy: count)...])
    }

    /// `base/component`, normalized; an absolute component replaces the base.
    public static func join(_ base: String, _ component: String) -> String {
        if component.hasPrefix("/") { return normalize(component) }
        if component.isEmpty { return base }
        if base.isEmpty { return normalize(component) }
        if isNormal(component) && isNormal(base) && !component.hasPrefix("..") { return base + "/" + component }
        return normalize(base + "/" + component)
    }

    /// The folder holding `path` ("" for a top-level entry).
    public static func parent(_ path: String) -> String {
        guard let slashIndex = path.utf8.lastIndex(of: slash) else { return "" }
        return slashIndex == path.startIndex ? "/" : String(path[..<slashIndex])
    }

    /// The last component.
    public static func lastComponent(_ path: String) -> String {
        guard let slashIndex = path.utf8.lastIndex(of: slash) else { return path }
        return String(path[path.utf8.index(after: slashIndex)...])
    }

    /// Whether a relative path leaves the project folder.
    public static func isOutside(_ path: String) -> Bool {
        path == ".." || path.hasPrefix("../") || path.hasPrefix("/")
    }

    /// Whether `path` is `ancestor` or lies below it.
    public static func isWithin(_ path: String, _ ancestor: String) -> Bool {
        if ancestor.isEmpty { return !isOutside(path) }
        return path == ancestor || (path.hasPrefix(ancestor) && path.utf8.dropFirst(ancestor.utf8.count).first == slash)
    }

    /// The proper ancestors of a path, nearest first, down to (not including) "", without
    /// allocating an array.
    public struct Ancestors: Sequence, IteratorProtocol {
        let path: String
        var end: String.Index

        /// The ancestors of `path`.
        public init(_ path: String) {
            self.path = path
            end = path.endIndex
        }

        public mutating func next() -> Substring? {
            guard let slashIndex = path.utf8[..<end].lastIndex(of: ProjectPath.slash), slashIndex != path.startIndex else { return nil }
            end = slashIndex
            return path[..<slashIndex]
        }
    }

    /// The proper ancestors of `path`, nearest first, down to (not including) "".
    public static func ancestors(_ path: String) -> [String] {
        Ancestors(path).map(String.init)
    }

    /// Whether a component of `path` is an `.xcodeproj` or `.xcworkspace` bundle.
    public static func hasProjectBundleComponent(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        var end = bytes.count
        while end > 0 {
            var start = end
            while start > 0 && bytes[start - 1] != slash { start -= 1 }
            if endsWith(bytes, start, end, xcodeproj) || endsWith(bytes, start, end, xcworkspace) { return true }
            end = start - 1
        }
        return false
    }

    private static let xcodeproj = Array(".xcodeproj".utf8)
    private static let xcworkspace = Array(".xcworkspace".utf8)

    private static func endsWith(_ bytes: [UInt8], _ start: Int, _ end: Int, _ suffix: [UInt8]) -> Bool {
        guard end - start >= suffix.count else { return false }
        return bytes[(end - suffix.count)..<end].elementsEqual(suffix)
    }

    /// The path that leads from folder `from` to `to` (both normalized, relative to the same
    /// folder): "" when they are equal, `../x` when `to` is a sibling, and so on. Nil when the
    /// way up from `from` would have to climb out of a `..` (the names there are unknown).
    public static func relative(from: String, to: String) -> String? {
        if from.isEmpty { return to }
        if to == from { return "" }
        if isWithin(to, from) && !from.hasPrefix("..") { return dropping(from.utf8.count + 1, from: to) }
        let source = from.split(separator: "/", omittingEmptySubsequences: true)
        let target = to.split(separator: "/", omittingEmptySubsequences: true)
        var common = 0
        while common < source.count, common < target.count, source[common] == target[common] { common += 1 }
        if source[common...].contains("..") { return nil }
        let ups = Array(repeating: Substring(".."), count: source.count - common)
        return (ups + target[common...]).joined(separator: "/")
    }

    /// `path` without a leading `base/` (nil when it is not below `base`).
    public static func removingPrefix(_ base: String, from path: String) -> String? {
        if base.isEmpty { return path }
        if path == base { return "" }
        guard isWithin(path, base) else { return nil }
        return dropping(base.utf8.count + 1, from: path)
    }
}
