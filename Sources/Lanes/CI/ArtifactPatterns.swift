import Basics
import Foundation

/// Matches a step's `artifacts:` globs against the project: `*` and `?` within one path
/// segment (bracket classes too), `**` across any number of folders (never into `.git`). A
/// pattern may name a folder (an `.xcarchive`, say), which then counts as one match.
enum ArtifactPatterns {
    /// The paths (relative to `root`, sorted) that `pattern` matches.
    static func matches(_ pattern: String, in root: String, fileSystem: any FileSystem) -> [String] {
        let segments = pattern.split(separator: "/").map(String.init).filter { $0 != "." }
        guard !segments.isEmpty else { return [] }
        var found = Set<String>()
        walk(segments[...], relative: "", root: root, fileSystem: fileSystem, into: &found)
        return found.sorted()
    }

    /// The `patterns` that match nothing, and every path the others match (sorted).
    static func check(_ patterns: [String], in root: String, fileSystem: any FileSystem) -> (unmatched: [String], paths: [String]) {
        var unmatched: [String] = []
        var paths = Set<String>()
        for pattern in patterns {
            let matched = matches(pattern, in: root, fileSystem: fileSystem)
            if matched.isEmpty { unmatched.append(pattern) }
            paths.formUnion(matched)
        }
        return (unmatched, paths.sorted())
    }

    private static func walk(_ segments: ArraySlice<String>, relative: String, root: String,
                             fileSystem: any FileSystem, into found: inout Set<String>) {
        guard let segment = segments.first else {
            if !relative.isEmpty { found.insert(relative) }
            return
        }
        let rest = segments.dropFirst()
        let folder = relative.isEmpty ? root : root + "/" + relative
        func join(_ name: String) -> String { relative.isEmpty ? name : relative + "/" + name }
        if segment == "**" {
            walk(rest, relative: relative, root: root, fileSystem: fileSystem, into: &found)
            for name in (try? fileSystem.contents(ofDirectory: folder)) ?? [] where name != ".git" {
                if fileSystem.kind(of: folder + "/" + name) == .directory {
                    walk(segments, relative: join(name), root: root, fileSystem: fileSystem, into: &found)
                }
            }
            return
        }
        if !hasWildcard(segment) {
            let path = join(segment)
            guard let kind = fileSystem.kind(of: root + "/" + path) else { return }
            if rest.isEmpty || kind == .directory {
                walk(rest, relative: path, root: root, fileSystem: fileSystem, into: &found)
            }
            return
        }
        for name in (try? fileSystem.contents(ofDirectory: folder)) ?? [] where fnmatch(segment, name, 0) == 0 {
            let path = join(name)
            if rest.isEmpty || fileSystem.kind(of: root + "/" + path) == .directory {
                walk(rest, relative: path, root: root, fileSystem: fileSystem, into: &found)
            }
        }
    }

    private static func hasWildcard(_ segment: String) -> Bool {
        segment.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }
}
