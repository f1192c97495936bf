import Basics
import Foundation
import PBXProj

/// The git submodules around a project folder, from the `.gitmodules` of the repository that
/// holds it: `slipway sync` moves nothing into, out of or within them.
enum SyncSubmodules {
    /// The submodules' paths relative to `root` (the folder holding the `.xcodeproj`), found in
    /// the `.gitmodules` beside the nearest `.git` at or above `root`. Submodules outside `root`
    /// are left out (nothing there moves anyway). An unreadable or absent file gives none: the
    /// checked-out submodules are still found by their own `.git` in the listing.
    static func paths(root: String, fileSystem: any FileSystem) -> [String] {
        var repository = ProjectPath.normalize(root)
        var prefix = ""
        while fileSystem.kind(of: repository + "/.git") == nil {
            let parent = ProjectPath.parent(repository)
            guard !parent.isEmpty, parent != repository, parent != "/" else { return [] }
            prefix = prefix.isEmpty ? ProjectPath.lastComponent(repository) : ProjectPath.lastComponent(repository) + "/" + prefix
            repository = parent
        }
        let door = ProjectFiles(root: repository, fileSystem: fileSystem)
        guard let text = try? door.readText(".gitmodules", as: .configuration) else { return [] }
        return parse(text).compactMap { path in
            if prefix.isEmpty { return path }
            guard ProjectPath.isWithin(path, prefix) else { return nil }
            return path == prefix ? "" : String(path.dropFirst(prefix.count + 1))
        }
    }

    /// The `path = ...` values of a `.gitmodules` file (git's config syntax: optional quotes,
    /// `#`/`;` comments), normalized.
    static func parse(_ text: String) -> [String] {
        var paths: [String] = []
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), !line.hasPrefix(";"), !line.hasPrefix("["),
                let equals = line.firstIndex(of: "=") else { continue }
            guard line[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "path" else { continue }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            let normalized = ProjectPath.normalize(value)
            if !normalized.isEmpty, !normalized.hasPrefix("/"), !ProjectPath.isOutside(normalized) { paths.append(normalized) }
        }
        return paths
    }
}
