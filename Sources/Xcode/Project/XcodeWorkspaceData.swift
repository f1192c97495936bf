/// The projects a workspace's `contents.xcworkspacedata` lists, with their locations resolved.
public enum XcodeWorkspaceData {
    /// The `.xcodeproj` paths the workspace refers to, in document order. `workspace` is the
    /// `.xcworkspace` path; `group:` locations are relative to their enclosing groups (then to
    /// the workspace's folder), `container:` and `self:` to the workspace's folder, `absolute:`
    /// stand alone; `developer:` references (inside Xcode) are left out.
    ///
    /// - Throws: `XcodeProjectError.malformedXML` naming the file, line and column.
    public static func projects(xml bytes: [UInt8], path: String, workspace: String) throws -> [String] {
        let folder = parentDirectory(of: workspace)
        var groups: [String?] = []
        var projects: [String] = []
        for event in try XMLEvents.read(bytes, path: path) {
            switch (event.name, event.isStart) {
            case ("Group", true):
                let base = groups.last.flatMap { $0 } ?? folder
                groups.append(event.attributes["location"].flatMap { resolve($0, base: base, folder: folder) } ?? base)
            case ("Group", false):
                _ = groups.popLast()
            case ("FileRef", true):
                let base = groups.last.flatMap { $0 } ?? folder
                if let location = event.attributes["location"], let resolved = resolve(location, base: base, folder: folder),
                   resolved.hasSuffix(".xcodeproj") {
                    projects.append(resolved)
                }
            default:
                break
            }
        }
        return projects
    }

    static func resolve(_ location: String, base: String, folder: String) -> String? {
        guard let colon = location.firstIndex(of: ":") else { return join(base, location) }
        let kind = location[..<colon], rest = String(location[location.index(after: colon)...])
        switch kind {
        case "group": return join(base, rest)
        case "container", "self": return join(folder, rest)
        case "absolute": return normalize(rest)
        default: return nil
        }
    }

    static func join(_ base: String, _ relative: String) -> String {
        if relative.hasPrefix("/") { return normalize(relative) }
        if relative.isEmpty { return normalize(base) }
        return normalize(base == "." ? relative : base + "/" + relative)
    }

    /// Drops `.` and empty components and folds `..` where it can.
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if part == "..", parts.isEmpty, path.hasPrefix("/") { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        if path.hasPrefix("/") { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    static func parentDirectory(of path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return "." }
        let parent = parts.dropLast().joined(separator: "/")
        return parent.isEmpty ? "/" : parent
    }
}
