import Foundation

/// The projects a workspace lists in `contents.xcworkspacedata`:
/// `<FileRef location = "group:App/App.xcodeproj">`, inside nested `<Group location = "…">`s.
enum XcodeWorkspaceContents {
    /// The `.xcodeproj` paths the workspace at `workspace` (an `.xcworkspace` folder) lists,
    /// resolved as Xcode does: `group:` relative to the enclosing group's folder (the
    /// workspace's folder at the top), `container:` relative to the workspace's folder,
    /// `absolute:` as is; `self:` (a project's own embedded workspace) is the project.
    static func projects(_ text: String, workspace: String) -> [String] {
        let container = parent(of: workspace)
        var folders: [String] = [container]
        var result: [String] = []
        var seen = Set<String>()
        for tag in tags(in: text) {
            if tag.closing {
                if tag.name == "Group", folders.count > 1 { folders.removeLast() }
                continue
            }
            let resolved = tag.location.flatMap { resolve($0, group: folders.last ?? container, container: container,
                                                           workspace: workspace) }
            if tag.name == "Group" && !tag.selfClosing {
                folders.append(resolved ?? folders.last ?? container)
            } else if tag.name == "FileRef", let path = resolved, path.hasSuffix(".xcodeproj"), seen.insert(path).inserted {
                result.append(path)
            }
        }
        return result
    }

    private struct Tag {
        var name: String
        var closing: Bool
        var selfClosing: Bool
        var location: String?
    }

    private static func tags(in text: String) -> [Tag] {
        var tags: [Tag] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let body = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            let closing = body.hasPrefix("/")
            let name = String((closing ? body.dropFirst() : body).prefix { $0.isLetter })
            guard name == "Group" || name == "FileRef" else { continue }
            tags.append(Tag(name: name, closing: closing, selfClosing: body.hasSuffix("/"), location: attribute("location", in: body)))
        }
        return tags
    }

    /// The value of attribute `name` (`name = "value"`), skipping the text inside other values.
    private static func attribute(_ name: String, in body: Substring) -> String? {
        var rest = body.drop { $0.isLetter || $0 == "/" }
        while true {
            rest = rest.drop { $0.isWhitespace }
            let key = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ":" }
            guard !key.isEmpty else { return nil }
            rest = rest.dropFirst(key.count).drop { $0.isWhitespace }
            guard rest.first == "=" else { return nil }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
            let inside = rest.dropFirst().prefix { $0 != quote }
            rest = rest.dropFirst(inside.count + 2)
            if key == name {
                return inside.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                    .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&amp;", with: "&")
            }
        }
    }

    private static func resolve(_ location: String, group: String, container: String, workspace: String) -> String? {
        guard let colon = location.firstIndex(of: ":") else { return nil }
        let kind = location[..<colon]
        let path = String(location[location.index(after: colon)...])
        switch kind {
        case "group": return join(group, path)
        case "container": return join(container, path)
        case "absolute": return path
        case "self": return workspace.hasSuffix("/project.xcworkspace") ? parent(of: workspace) : nil
        default: return nil
        }
    }

    /// `base/path` with `.` and `..` components folded.
    static func join(_ base: String, _ path: String) -> String {
        if path.isEmpty { return base }
        var parts = base.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for component in path.split(separator: "/") {
            if component == "." { continue }
            if component == "..", let last = parts.last, !last.isEmpty, last != ".." {
                parts.removeLast()
            } else {
                parts.append(String(component))
            }
        }
        return parts.joined(separator: "/")
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }
}
