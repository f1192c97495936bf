import PBXProj

/// The repository's git submodules that are not checked out (`.gitmodules` lists the path, and
/// the folder is missing or empty: a clone without `--recursive`). A file the project names
/// inside one is not missing from the repository, only not fetched yet: lint says so once per
/// submodule instead of reporting every file. Computed once per context, on the first missing
/// path (a project whose files are all there never reads `.gitmodules`).
struct LintSubmodules: Sendable {
    /// A submodule that is not checked out.
    struct Submodule: Sendable, Hashable {
        /// Its path relative to the project's folder (how references are matched).
        let path: String
        /// Its path as `.gitmodules` writes it (relative to the repository's root).
        let declared: String
    }

    /// The submodules not checked out, by path relative to the project's folder.
    private let absent: [String: Submodule]

    /// At most this many `path` entries of `.gitmodules` are read (real repositories have a few
    /// dozen; the file comes from the checkout).
    static let limit = 4096

    init(_ files: LintFiles) {
        guard let root = files.repositoryRoot, let bytes = files.read(ProjectPath.join(root, ".gitmodules")) else {
            absent = [:]
            return
        }
        var found: [String: Submodule] = [:]
        for declared in Self.paths(in: String(decoding: bytes, as: UTF8.self)).prefix(Self.limit) {
            let path = ProjectPath.join(root, declared)
            guard found[path] == nil else { continue }
            // Missing, empty, or not a folder (a gitlink as a plain entry): not checked out.
            if files.exists(path), let names = files.list(path), !names.isEmpty { continue }
            found[path] = Submodule(path: path, declared: declared)
        }
        absent = found
    }

    /// The submodule not checked out that holds `path` (relative to the project's folder), if any.
    func holding(_ path: String) -> Submodule? {
        guard !absent.isEmpty else { return nil }
        let normalized = ProjectPath.normalize(path)
        if let submodule = absent[normalized] { return submodule }
        for ancestor in ProjectPath.Ancestors(normalized) {
            if let submodule = absent[String(ancestor)] { return submodule }
        }
        return nil
    }

    /// The `path` values of the `[submodule "..."]` sections of a `.gitmodules` text (git's config
    /// format: `key = value`, keys in any case, values optionally quoted, `#` and `;` comments).
    /// Paths that are absolute or leave the repository are left out: git refuses them too.
    static func paths(in text: String) -> [String] {
        var result: [String] = []
        var inSubmodule = false
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                let header = line.dropFirst().prefix { $0 != "]" && $0 != " " && $0 != "\t" && $0 != "\"" }
                inSubmodule = header.lowercased() == "submodule"
                continue
            }
            guard inSubmodule, let equals = line.firstIndex(of: "=") else { continue }
            guard line[..<equals].trimmingWhitespace().lowercased() == "path" else { continue }
            var value = line[line.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            let path = ProjectPath.normalize(String(value))
            guard !path.isEmpty, !ProjectPath.isOutside(path) else { continue }
            result.append(path)
        }
        return result
    }
}

private extension Substring {
    func trimmingWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}

extension LintContext {
    /// The submodules not checked out (computed once, when first asked).
    var submodules: LintSubmodules {
        memo.submodules.get { LintSubmodules(files) }
    }
}
