import Basics
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A path found by a pattern: absolute, and as the user would write it.
public struct MatchedPath: Sendable, Hashable, Comparable {
    /// The absolute path.
    public var path: String
    /// The path relative to the directory the pattern was expanded in (or absolute, when the
    /// pattern was absolute).
    public var relative: String
    /// What it is.
    public var kind: FileKind

    /// Creates a value.
    public init(path: String, relative: String, kind: FileKind) {
        self.path = path
        self.relative = relative
        self.kind = kind
    }

    /// The last path component.
    public var name: String { (path as NSString).lastPathComponent }

    public static func < (lhs: MatchedPath, rhs: MatchedPath) -> Bool { lhs.path < rhs.path }
}

/// Expands file patterns the way a shell does: `*`, `?` and `[...]` within one path component
/// (a leading `.` only matched explicitly), and `**` for any number of folders. Patterns are
/// relative to a directory unless they start with `/`.
public struct FileGlob: Sendable {
    private let fileSystem: any FileSystem

    /// A glob over `fileSystem`.
    public init(fileSystem: any FileSystem) {
        self.fileSystem = fileSystem
    }

    /// The files (and, when `includeDirectories`, folders) that `patterns` match under
    /// `directory`, sorted and without duplicates.
    /// - Throws: `PublishError.noMatch` naming the first pattern that matches nothing;
    ///   `PublishError.notAFile` for a literal path naming a folder when folders are not wanted.
    public func expand(_ patterns: [String], in directory: String, includeDirectories: Bool = false) throws -> [MatchedPath] {
        var found = Set<MatchedPath>()
        for pattern in patterns {
            let matches = try expand(pattern, in: directory, includeDirectories: includeDirectories)
            found.formUnion(matches)
        }
        return found.sorted()
    }

    private func expand(_ pattern: String, in directory: String, includeDirectories: Bool) throws -> [MatchedPath] {
        let absolute = pattern.hasPrefix("/")
        let components = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            .filter { $0 != "." }
        var results: [(path: String, relative: String)] = []
        walk(components[...], path: absolute ? "" : directory, relative: absolute ? "" : nil, into: &results)
        var matches: [MatchedPath] = []
        for result in results {
            guard let kind = fileSystem.kind(of: result.path) else { continue }
            let resolvedKind = kind == .symbolicLink && fileSystem.isDirectory(result.path) ? FileKind.directory : kind
            if resolvedKind == .directory && !includeDirectories {
                if !Self.hasWildcard(pattern) { throw PublishError.notAFile(path: pattern) }
                continue
            }
            matches.append(MatchedPath(path: result.path.isEmpty ? "/" : result.path, relative: result.relative,
                                       kind: resolvedKind))
        }
        guard !matches.isEmpty else { throw PublishError.noMatch(pattern: pattern) }
        return matches
    }

    /// Depth-first over the pattern's components; `relative` is nil until the first component.
    private func walk(_ components: ArraySlice<String>, path: String, relative: String?,
                      into results: inout [(path: String, relative: String)]) {
        guard let component = components.first else {
            results.append((path, relative ?? "."))
            return
        }
        let rest = components.dropFirst()
        func join(_ name: String) -> (String, String) {
            (path + "/" + name, relative.map { $0.isEmpty ? "/" + name : $0 + "/" + name } ?? name)
        }
        if component == "**" {
            walk(rest, path: path, relative: relative, into: &results)
            for name in children(of: path) where !name.hasPrefix(".") && fileSystem.isDirectory(path + "/" + name) {
                let (childPath, childRelative) = join(name)
                walk(components, path: childPath, relative: childRelative, into: &results)
            }
        } else if Self.hasWildcard(component) {
            for name in children(of: path) where Self.matches(name, component) {
                let (childPath, childRelative) = join(name)
                walk(rest, path: childPath, relative: childRelative, into: &results)
            }
        } else if component == ".." || fileSystem.exists(path + "/" + component) {
            let (childPath, childRelative) = join(component)
            walk(rest, path: childPath, relative: childRelative, into: &results)
        }
    }

    private func children(of path: String) -> [String] {
        (try? fileSystem.contents(ofDirectory: path.isEmpty ? "/" : path)) ?? []
    }

    /// True when `text` has a character a shell would expand.
    static func hasWildcard(_ text: String) -> Bool {
        text.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }

    /// fnmatch(3) with FNM_PERIOD: `*` does not match a leading dot.
    static func matches(_ name: String, _ pattern: String) -> Bool {
        fnmatch(pattern, name, FNM_PERIOD) == 0
    }
}
