import Foundation

/// One path that a file of the repository names (or that a tool finds by its place), resolved
/// against the tree and found on disk. Paths are relative to the tree's root.
struct NamedPath: Hashable, Codable {
    /// The file that names it (`(located by tools)` for a file a tool finds by its own place).
    var namer: String
    /// The 1-based line in the namer (0 when not known).
    var line: Int
    /// The file kind that names it (`xcconfig`, `Package.swift`, `workflow`, ...).
    var kind: String
    /// The path, relative to the tree's root.
    var path: String
    /// True when the path is a folder: the files inside it are recorded too.
    var isFolder: Bool

    static let locatedByTools = "(located by tools)"
}

/// Collects every path named by the files that tools read by path, independently of Slipway's
/// own scanner: the xcconfig chain, pbxproj build settings and script phases (in
/// `SyncTreesProjects`), Package.swift, SwiftLint/SwiftGen/Podfile/Cartfile/project.yml,
/// Makefiles, shell scripts, CI files, fastlane files, schemes, test plans, workspaces and
/// `.gitignore`/`.gitattributes`. A candidate counts only when it exists on disk, so that the
/// count is of paths a tool really uses; the files a tool finds by their own place (the root's
/// dotfiles, README/LICENSE/CHANGELOG, fastlane, ci_scripts, Package.swift, Makefiles, ...) are
/// named by `(located by tools)`.
struct SyncTreesPathCollector {
    /// The tree's root (absolute).
    let root: String
    /// The folders holding an `.xcodeproj`, relative to the root ("" for the root): `$(SRCROOT)`.
    let projectFolders: [String]

    /// Folders never entered: dependency managers' and build tools' output, and git's own.
    static let skippedFolders: Set<String> = ["Pods", "Carthage", "build", "DerivedData", ".build", "node_modules", ".git", ".swiftpm"]

    /// Every file of the tree (relative paths, sorted), skipping `skippedFolders`.
    static func files(under root: String) -> [String] {
        var result: [String] = []
        let manager = FileManager.default
        func walk(_ relative: String) {
            let absolute = relative.isEmpty ? root : root + "/" + relative
            guard let names = try? manager.contentsOfDirectory(atPath: absolute) else { return }
            for name in names.sorted() {
                let path = relative.isEmpty ? name : relative + "/" + name
                var isDirectory: ObjCBool = false
                let full = root + "/" + path
                if let attributes = try? manager.attributesOfItem(atPath: full), attributes[.type] as? FileAttributeType == .typeSymbolicLink {
                    result.append(path)
                    continue
                }
                guard manager.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    if skippedFolders.contains(name) { continue }
                    walk(path)
                } else {
                    result.append(path)
                }
            }
        }
        walk("")
        return result
    }

    /// Collects the named paths from `files` (the tree's listing).
    func collect(files: [String]) -> [NamedPath] {
        var result: [NamedPath] = []
        for file in files {
            result += locatedByTools(file)
            guard let kind = Self.kind(of: file) else { continue }
            guard let text = read(file) else { continue }
            result += paths(in: text, of: file, kind: kind)
        }
        return Array(Set(result)).sorted { ($0.namer, $0.line, $0.path) < ($1.namer, $1.line, $1.path) }
    }

    // MARK: - Kinds

    /// The kind of a file that names paths, or nil.
    static func kind(of file: String) -> String? {
        let name = (file as NSString).lastPathComponent
        let components = file.split(separator: "/").map(String.init)
        let ext = (name as NSString).pathExtension.lowercased()
        if ext == "xcconfig" { return "xcconfig" }
        if name == "Package.swift" || (name.hasPrefix("Package@swift") && ext == "swift") { return "Package.swift" }
        if name.hasPrefix(".swiftlint") && (ext == "yml" || ext == "yaml") { return "swiftlint" }
        if name == "swiftgen.yml" || name == ".swiftgen.yml" || name == "swiftgen.yaml" { return "swiftgen" }
        if ["Podfile", "Cartfile", "Cartfile.private", "Mintfile", "project.yml", "project.yaml"].contains(name) { return "dependencies" }
        if ["Makefile", "GNUmakefile", "makefile"].contains(name) || ext == "mk" { return "Makefile" }
        if components.first == ".github" && (ext == "yml" || ext == "yaml") { return "CI" }
        if [".gitlab-ci.yml", "bitrise.yml", "codemagic.yaml", ".travis.yml", "Jenkinsfile"].contains(name)
            || components.first == ".buildkite" || components.first == ".circleci" || components.contains("ci_scripts") { return "CI" }
        if components.contains("fastlane") { return "fastlane" }
        if ["sh", "bash", "zsh", "command"].contains(ext) { return "script" }
        if ext == "xcscheme" { return "scheme" }
        if ext == "xctestplan" { return "test plan" }
        if name == "contents.xcworkspacedata" { return "workspace" }
        if [".gitignore", ".gitattributes"].contains(name) { return "gitignore" }
        if name == ".gitmodules" { return "submodules" }
        return nil
    }

    /// Files a tool finds by their own place: moving them breaks that tool whoever names them.
    func locatedByTools(_ file: String) -> [NamedPath] {
        let components = file.split(separator: "/").map(String.init)
        guard let first = components.first, let name = components.last else { return [] }
        let rootNames = ["README", "LICENSE", "LICENCE", "COPYING", "CHANGELOG"]
        let anywhere: Set<String> = ["Package.swift", "Package.resolved", "Podfile", "Podfile.lock", "Cartfile", "Cartfile.resolved",
                                     "Cartfile.private", "Gemfile", "Gemfile.lock", "Makefile", "project.yml", "swiftgen.yml",
                                     ".swiftlint.yml", ".swiftformat", "Mintfile", "Brewfile", "Dangerfile", "Dangerfile.swift",
                                     ".gitignore", ".gitattributes", ".gitmodules", ".ruby-version", ".xcode-version", ".swift-version"]
        let located = (components.count > 1 && first.hasPrefix("."))               // inside a root dot-folder
            || (components.count == 1 && (first.hasPrefix(".") || rootNames.contains { name.uppercased().hasPrefix($0) }))
            || anywhere.contains(name)
            || components.dropLast().contains("fastlane") || components.dropLast().contains("ci_scripts")
        guard located, !components.contains(where: { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }) else { return [] }
        return [NamedPath(namer: NamedPath.locatedByTools, line: 0, kind: "located by tools", path: file, isFolder: false)]
    }

    // MARK: - Reading

    private func read(_ file: String) -> String? {
        let full = root + "/" + file
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: full),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? Int, size <= 4_000_000,
              let data = FileManager.default.contents(atPath: full) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private func paths(in text: String, of file: String, kind: String) -> [NamedPath] {
        let folder = (file as NSString).deletingLastPathComponent
        let lines = text.components(separatedBy: "\n")
        var result: [NamedPath] = []
        func add(_ candidates: [String], line: Int, bases: [String], plain: Bool = false) {
            for candidate in candidates {
                for path in resolve(candidate, bases: bases, plain: plain) {
                    result.append(NamedPath(namer: file, line: line, kind: kind, path: path.path, isFolder: path.isFolder))
                }
            }
        }
        switch kind {
        case "Package.swift":
            result += packagePaths(lines, file: file)
        case "xcconfig":
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("#include") {
                    add(Self.quoted(trimmed), line: index + 1, bases: [folder])
                    continue
                }
                guard !trimmed.hasPrefix("//"), let equals = trimmed.firstIndex(of: "=") else { continue }
                let key = String(trimmed[..<equals]).trimmingCharacters(in: .whitespaces)
                let value = String(trimmed[trimmed.index(after: equals)...]).components(separatedBy: "//").first ?? ""
                add(Self.settingTokens(key: key, value: value), line: index + 1, bases: projectFolders + [folder])
            }
        case "swiftlint", "swiftgen":
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.hasPrefix("#") else { continue }
                var value = trimmed.hasPrefix("- ") ? String(trimmed.dropFirst(2)) : trimmed
                if let colon = value.range(of: ": ") { value = String(value[colon.upperBound...]) } else if value.hasSuffix(":") { continue }
                add(Self.words(value), line: index + 1, bases: [folder, ""], plain: true)
            }
        case "scheme", "test plan", "workspace":
            let container = Self.containerFolder(of: file)
            for (index, line) in lines.enumerated() {
                for value in Self.quoted(line) {
                    var candidate = value
                    for prefix in ["container:", "group:", "absolute:"] where candidate.hasPrefix(prefix) { candidate = String(candidate.dropFirst(prefix.count)) }
                    guard candidate.contains("/") || candidate.contains(".") else { continue }
                    add([candidate], line: index + 1, bases: [container, folder])
                }
            }
        case "gitignore":
            for (index, line) in lines.enumerated() {
                var pattern = line.trimmingCharacters(in: .whitespaces)
                guard !pattern.isEmpty, !pattern.hasPrefix("#") else { continue }
                if pattern.hasPrefix("!") { pattern.removeFirst() }
                if file.hasSuffix(".gitattributes") { pattern = String(pattern.split(separator: " ").first ?? "") }
                let inner = pattern.hasSuffix("/") ? String(pattern.dropLast()) : pattern
                guard inner.contains("/") else { continue }  // a bare name matches anywhere: it names no one path
                add([inner.hasPrefix("/") ? String(inner.dropFirst()) : inner], line: index + 1, bases: [folder])
            }
        case "submodules":
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("path") , let equals = trimmed.firstIndex(of: "=") else { continue }
                add([String(trimmed[trimmed.index(after: equals)...]).trimmingCharacters(in: .whitespaces)], line: index + 1, bases: [folder], plain: true)
            }
        default:  // Makefiles, scripts, CI, fastlane, Podfile/Cartfile/project.yml: words that look like paths
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.hasPrefix("#"), !trimmed.hasPrefix("//") else { continue }
                var bases = [folder, ""] + projectFolders
                if kind == "fastlane" { bases.append((folder as NSString).deletingLastPathComponent) }
                add(Self.words(trimmed).filter { $0.count < 300 }, line: index + 1, bases: bases)
            }
        }
        return result
    }

    /// The folder a scheme's or test plan's `container:` is relative to: the one holding the
    /// `.xcodeproj` or `.xcworkspace` it sits in (else its own folder).
    static func containerFolder(of file: String) -> String {
        let components = file.split(separator: "/").map(String.init)
        if let index = components.lastIndex(where: { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }) {
            return components[..<index].joined(separator: "/")
        }
        return (file as NSString).deletingLastPathComponent
    }

    // MARK: - Package.swift

    /// `path:`, `publicHeadersPath:`, `exclude:`, `sources:`, `resources:` and header search
    /// paths, each resolved against its target's folder; plus every target's folder, its
    /// `include` (the default public headers) and the package's own folder, whose files must stay.
    private func packagePaths(_ lines: [String], file: String) -> [NamedPath] {
        let package = (file as NSString).deletingLastPathComponent
        var result = package.isEmpty ? [] : [NamedPath(namer: file, line: 0, kind: "Package.swift folder", path: package, isFolder: true)]
        var targetFolder: String?
        var targetIsTest = false
        var listKey: String?
        var depth = 0
        func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : (b.isEmpty ? a : a + "/" + b) }
        func record(_ candidate: String, line: Int, base: String, kind: String = "Package.swift") {
            for path in resolve(candidate, bases: [base], plain: true) {
                result.append(NamedPath(namer: file, line: line, kind: kind, path: path.path, isFolder: path.isFolder))
            }
        }
        func addTarget(line: Int) {
            guard let folder = targetFolder else { return }
            record(folder, line: line, base: package, kind: "Package.swift target folder")
            record(join(folder, "include"), line: line, base: package, kind: "Package.swift publicHeadersPath (default)")
        }
        for (index, raw) in lines.enumerated() {
            let line = raw.components(separatedBy: "//").first ?? raw
            for kind in [".target(", ".testTarget(", ".executableTarget(", ".macro(", ".plugin(", ".systemLibrary("] where line.contains(kind) {
                targetFolder = nil
                targetIsTest = kind == ".testTarget("
            }
            if let name = Self.literal(after: "name:", in: line), targetFolder == nil, line.contains("name:"), !line.contains(".product(") {
                targetFolder = (targetIsTest ? "Tests/" : "Sources/") + name
                addTarget(line: index + 1)
            }
            if let path = Self.literal(after: "path:", in: line) {
                if line.contains(".package(") {
                    record(path, line: index + 1, base: package)
                } else {
                    targetFolder = path
                    addTarget(line: index + 1)
                }
            }
            let base = join(package, targetFolder ?? "")
            if let headers = Self.literal(after: "publicHeadersPath:", in: line) { record(headers, line: index + 1, base: base) }
            if let header = Self.literal(after: ".headerSearchPath(", in: line) { record(header, line: index + 1, base: base) }
            for key in ["exclude:", "sources:", "resources:"] where line.contains(key) { listKey = key; depth = 0 }
            if listKey != nil {
                for value in Self.quoted(line) where !line.contains("name:") { record(value, line: index + 1, base: base) }
                depth += line.filter { $0 == "[" }.count - line.filter { $0 == "]" }.count
                if depth <= 0 { listKey = nil }
            }
        }
        return result
    }

    // MARK: - Tokens

    /// The string literal after `key` on the line (`path: "Sources/Kit"` → `Sources/Kit`).
    static func literal(after key: String, in line: String) -> String? {
        guard let range = line.range(of: key) else { return nil }
        return quoted(String(line[range.upperBound...])).first
    }

    /// The double-quoted strings of a line.
    static func quoted(_ line: String) -> [String] {
        let parts = line.split(separator: "\"", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }
    }

    /// A build setting's value words that may be paths: every word of a setting whose name says
    /// it holds a path or file, else words with a `/` or an extension.
    static func settingTokens(key: String, value: String) -> [String] {
        let name = key.split(separator: "[").first.map(String.init) ?? key
        let pathLike = ["FILE", "PATH", "PATHS", "DIR", "HEADER", "ENTITLEMENTS", "MODULEMAP", "PLIST", "ROOT"].contains { name.hasSuffix($0) }
            || name.contains("FILE")
        return words(value).filter { pathLike || $0.contains("/") || looksLikeFile($0) }
    }

    /// The words of a line, and also its quoted strings and the whole trimmed line, so that a
    /// path with a space (`Supporting Files/Info.plist`) is a candidate too.
    static func words(_ line: String) -> [String] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let singles = trimmed.split(separator: "'", omittingEmptySubsequences: false)
        let singleQuoted = stride(from: 1, to: max(1, singles.count - 1), by: 2).map { String(singles[$0]) }
        let unescaped = trimmed.replacingOccurrences(of: "\\ ", with: " ")
        return tokens(line) + quoted(line) + singleQuoted + [trimmed, unescaped].filter { !$0.contains("\"") && !$0.contains("'") }
    }

    /// `name.ext` with a short alphabetic extension.
    static func looksLikeFile(_ word: String) -> Bool {
        guard let dot = word.lastIndex(of: "."), dot != word.startIndex else { return false }
        let ext = word[word.index(after: dot)...]
        return (1...12).contains(ext.count) && ext.allSatisfy { $0.isLetter || $0.isNumber } && ext.contains { $0.isLetter }
    }

    /// The words of a line, split on blanks, quotes and shell/YAML/Ruby punctuation.
    static func tokens(_ line: String) -> [String] {
        let separators = Set(" \t\"'`(),;=<>|&[]{}")
        return line.split(whereSeparator: { separators.contains($0) }).map(String.init).filter { !$0.isEmpty && !$0.contains("://") }
    }

    /// A resolved candidate.
    struct Resolved: Hashable { var path: String; var isFolder: Bool }

    /// The existing paths a candidate names, against each base (relative to the root). Known
    /// variables for the project folder are replaced; a candidate with another variable, an
    /// absolute one, or one leaving the tree names nothing. A glob names the folder before its
    /// first wildcard. `plain`: bare names (no `/`, no extension) count too.
    func resolve(_ candidate: String, bases: [String], plain: Bool = false) -> [Resolved] {
        var word = candidate.trimmingCharacters(in: CharacterSet(charactersIn: " \t:"))
        guard !word.isEmpty, !word.hasPrefix("-"), !word.hasPrefix("@") else { return [] }
        var fromProject = false
        for variable in ["$(SRCROOT)", "${SRCROOT}", "$SRCROOT", "$(PROJECT_DIR)", "${PROJECT_DIR}", "$PROJECT_DIR", "$(SOURCE_ROOT)", "${SOURCE_ROOT}"]
        where word.hasPrefix(variable) {
            word = String(word.dropFirst(variable.count))
            if word.hasPrefix("/") { word.removeFirst() }
            fromProject = true
        }
        for variable in ["${GITHUB_WORKSPACE}", "$GITHUB_WORKSPACE", "$(CURDIR)", "${CURDIR}", "$(PWD)", "${PWD}", "$PWD", "${{ github.workspace }}"]
        where word.hasPrefix(variable) {
            word = String(word.dropFirst(variable.count))
            if word.hasPrefix("/") { word.removeFirst() }
        }
        guard !word.contains("$"), !word.hasPrefix("/"), !word.hasPrefix("~") else { return [] }
        if let wildcard = word.firstIndex(where: { "*?[".contains($0) }) {
            let prefix = word[..<wildcard]
            guard let slash = prefix.lastIndex(of: "/") else { return [] }
            word = String(prefix[..<slash])
        }
        while word.hasSuffix("/") { word.removeLast() }
        if word.hasPrefix("./") { word.removeFirst(2) }
        guard !word.isEmpty || fromProject else { return [] }
        guard plain || fromProject || word.contains("/") || Self.looksLikeFile(word) else { return [] }
        var found: Set<Resolved> = []
        for base in (fromProject ? projectFolders : bases) {
            guard let path = Self.normalized(base.isEmpty ? word : (word.isEmpty ? base : base + "/" + word)), !path.isEmpty else { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory) {
                found.insert(Resolved(path: path, isFolder: isDirectory.boolValue))
            }
        }
        return Array(found)
    }

    /// `a/./b/../c` → `a/c`; nil when it leaves the root.
    static func normalized(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}
