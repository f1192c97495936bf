import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// SIMULATION — not GitHub. A local folder is the STAND-IN FOR GITHUB'S ARTIFACT STORE: one
// sub-folder per artifact name. What it copies follows actions/upload-artifact@v4 and
// download-artifact@v4 as their READMEs and @actions/artifact's `findFilesToUpload` describe:
// names are unique per run (a second upload fails unless `overwrite: true`, or the job is being
// re-run and replaces its own); multi-line `path` with globs and `!` exclusions; hidden files
// left out unless `include-hidden-files: true`; the artifact's root is the least common ancestor
// of the patterns' search paths (so `path: dist/` stores `dist`'s contents without `dist/`).

/// The stand-in for GitHub's artifact store.
struct ArtifactStore {
    /// Who uploaded an artifact.
    struct Record {
        var job: String
        var attempt: Int
        var files: [String]
    }

    /// The folder holding one sub-folder per artifact.
    let root: String
    private(set) var records: [String: Record] = [:]

    init(root: String) throws {
        self.root = root
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    static let forbiddenNameCharacters: Set<Character> = ["\"", ":", "<", ">", "|", "*", "?", "\r", "\n", "\\", "/"]

    /// Uploads `files` (absolute paths under `base`) as `name`; returns a failure message or nil.
    mutating func upload(name: String, files: [String], base: String, job: String, attempt: Int, overwrite: Bool) throws -> String? {
        if name.isEmpty || name.contains(where: Self.forbiddenNameCharacters.contains) {
            return "The artifact name is not valid: '\(name)'. Contains the following character: one of \" : < > | * ? \\r \\n \\ /"
        }
        if let existing = records[name], !overwrite, !(existing.job == job && existing.attempt < attempt) {
            return "Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run (artifact '\(name)' was uploaded by job '\(existing.job)')"
        }
        let folder = root + "/" + name
        try? FileManager.default.removeItem(atPath: folder)
        var stored: [String] = []
        for file in files {
            let relative = String(file.dropFirst(base == "/" ? 1 : base.count + 1))
            let target = folder + "/" + relative
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: file, toPath: target)
            stored.append(relative)
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        records[name] = Record(job: job, attempt: attempt, files: stored)
        return nil
    }

    /// The artifact names matching a glob `pattern` (all when nil), sorted.
    func names(matching pattern: String?) -> [String] {
        records.keys.filter { name in pattern.map { fnmatch($0, name, 0) == 0 } ?? true }.sorted()
    }

    /// Copies artifact `name` into `destination` (overwriting files); false when there is none.
    func download(_ name: String, into destination: String) throws -> Bool {
        guard let record = records[name] else { return false }
        for relative in record.files {
            let target = destination + "/" + relative
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: root + "/" + name + "/" + relative, toPath: target)
        }
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        return true
    }
}

/// Glob patterns as @actions/glob reads them: `*`, `?`, `[...]` within a segment, `**` for any
/// number of segments, a leading `!` to exclude, `~` for the home folder, implicit descendants
/// (a pattern that names a folder matches everything in it).
struct WorkflowGlob {
    struct Pattern {
        var negate: Bool
        var segments: [String]
        /// The literal folder (or file) before the first segment with a wildcard.
        var searchPath: String
    }

    let patterns: [Pattern]

    /// Reads one pattern per non-empty line; relative ones are taken from `base`.
    init(_ text: String, base: String, home: String) {
        patterns = text.split(whereSeparator: \.isNewline).compactMap { line in
            var pattern = line.trimmingCharacters(in: .whitespaces)
            guard !pattern.isEmpty, !pattern.hasPrefix("#") else { return nil }
            let negate = pattern.hasPrefix("!")
            if negate { pattern.removeFirst() }
            if pattern == "~" || pattern.hasPrefix("~/") { pattern = home + pattern.dropFirst() }
            if !pattern.hasPrefix("/") { pattern = base + "/" + pattern }
            let segments = Self.normalized(pattern)
            let literal = segments.prefix { !$0.contains(where: "*?[".contains) }
            return Pattern(negate: negate, segments: segments, searchPath: "/" + literal.joined(separator: "/"))
        }
    }

    /// Path segments with `.` and `..` resolved.
    static func normalized(_ path: String) -> [String] {
        var result: [String] = []
        for segment in path.split(separator: "/") where segment != "." {
            if segment == ".." { _ = result.popLast() } else { result.append(String(segment)) }
        }
        return result
    }

    /// The include patterns' search paths, without those inside another.
    var searchPaths: [String] {
        let all = Set(patterns.filter { !$0.negate }.map(\.searchPath)).sorted()
        return all.filter { path in !all.contains { $0 != path && (path.hasPrefix($0 + "/") || $0 == "/") } }
    }

    /// Every file the patterns match (sorted absolute paths), and the artifact root.
    func files(includeHidden: Bool) -> (files: [String], root: String) {
        var found: Set<String> = []
        for searchPath in searchPaths {
            let isHidden = (searchPath as NSString).lastPathComponent.hasPrefix(".")
            if !includeHidden && isHidden { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: searchPath, isDirectory: &isDirectory) else { continue }
            let candidates: [String]
            if isDirectory.boolValue {
                let walker = FileManager.default.enumerator(atPath: searchPath)
                candidates = (walker?.allObjects as? [String] ?? [])
                    .filter { includeHidden || !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
                    .map { searchPath + "/" + $0 }
            } else {
                candidates = [searchPath]
            }
            for file in candidates where matches(file) {
                var fileIsDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: file, isDirectory: &fileIsDirectory), !fileIsDirectory.boolValue {
                    found.insert(file)
                }
            }
        }
        let files = found.sorted()
        let paths = searchPaths
        if paths.count > 1 { return (files, Self.commonAncestor(paths)) }
        if files.count == 1, paths.first == files.first { return (files, (files[0] as NSString).deletingLastPathComponent) }
        return (files, paths.first ?? "/")
    }

    /// True when an include pattern matches `path` (or a folder above it) and no exclusion does.
    func matches(_ path: String) -> Bool {
        let segments = Self.normalized(path)
        var included = false
        for pattern in patterns where Self.match(pattern.segments + ["**"], segments[...]) {
            included = !pattern.negate
        }
        return included
    }

    static func match(_ pattern: [String], _ path: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        let rest = Array(pattern.dropFirst())
        if first == "**" {
            if match(rest, path) { return true }
            return !path.isEmpty && match(pattern, path.dropFirst())
        }
        guard let segment = path.first, fnmatch(first, segment, 0) == 0 else { return false }
        return match(rest, path.dropFirst())
    }

    static func commonAncestor(_ paths: [String]) -> String {
        var common = normalized(paths[0])
        for path in paths.dropFirst() {
            let segments = normalized(path)
            common = Array(zip(common, segments).prefix { $0 == $1 }.map(\.0))
        }
        return "/" + common.joined(separator: "/")
    }
}
