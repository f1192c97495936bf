import Basics
import PBXProj

/// One token that names a moving path.
struct PathHit {
    /// The token's path part (without its prefix), as written.
    let written: String
    /// The prefix kept in front of it (`$(SRCROOT)/`, `./`).
    let prefix: String
    /// What the token resolved to (relative to the folder scanned).
    let resolved: String
    /// Where that is after the moves (relative to the folder scanned).
    let resolvedAfter: String
    let shownPath: String
    let shownDestination: String
    let folderContents: Bool
}

/// The work of one scan: what was found so far.
struct ScanState {
    let scanner: PathReferenceScanner
    let index: MoveIndex
    let limits: PathReferenceScanner.Limits
    var references: [PathReference] = []
    var unread: [UnreadReferenceFile] = []
    var edits: [PathReferenceEdit] = []
    var filesRead = 0
    var limitReached: String?

    init(scanner: PathReferenceScanner, index: MoveIndex, limits: PathReferenceScanner.Limits) {
        self.scanner = scanner
        self.index = index
        self.limits = limits
    }

    var projectPrefix: String { scanner.projectPrefix }

    mutating func add(_ reference: PathReference) {
        guard references.count < limits.references else {
            limitReached = "it reached its bound of \(limits.references) references; the rest were not looked for"
            return
        }
        references.append(reference)
    }

    // MARK: Resolving

    /// The hits of one token: resolved against each of `bases` (relative to the folder
    /// scanned); a project-prefixed token only against the project folder. `folders`: also a
    /// folder that a move takes something out of (or puts something into); `globs`: a pattern
    /// whose matches a move changes. A folder is taken from a one-word token (`Sources`) only
    /// with `bareFolders` (where the place holds paths: a path setting, a SwiftLint list): in a
    /// script, a scheme or a product name, `RxCocoa` is a name, not the folder.
    func hits(_ token: String, bases: [String], folders: Bool = true, bareFolders: Bool = false, globs: Bool = false) -> [PathHit] {
        guard let (prefix, path, projectRelative) = PathTokens.path(of: token) else { return [] }
        // Most words name nothing that moves: answered before joining and looking up.
        if !path.hasPrefix("/"), !PathTokens.hasWildcard(path), !index.mayName(path, bases: projectRelative ? [projectPrefix] : bases) {
            return []
        }
        var candidates: [String] = []
        if path.hasPrefix("/") {
            let absolute = ProjectPath.normalize(path)
            guard let relative = ProjectPath.removingPrefix(scanner.root, from: absolute) else { return [] }
            candidates = [relative]
        } else {
            for base in projectRelative ? [projectPrefix] : bases {
                let joined = ProjectPath.join(base, path)
                if !ProjectPath.isOutside(joined), !candidates.contains(joined) { candidates.append(joined) }
            }
        }
        if PathTokens.hasWildcard(path) {
            guard globs else { return [] }
            for candidate in candidates {
                let patternParts = PathGlob.components(candidate)
                if let entry = index.changingGlobMatch(patternParts) {
                    return [PathHit(written: path, prefix: prefix, resolved: candidate, resolvedAfter: candidate, shownPath: entry.shownSource,
                                    shownDestination: entry.shownDestination, folderContents: true)]
                }
            }
            return []
        }
        for candidate in candidates {
            if let found = index.moving(candidate) {
                return [PathHit(written: path, prefix: prefix, resolved: candidate, resolvedAfter: found.destination,
                                shownPath: found.shownPath, shownDestination: found.shownDestination, folderContents: false)]
            }
        }
        guard folders, bareFolders || !prefix.isEmpty || path.hasByte("/") else { return [] }
        for candidate in candidates where !candidate.isEmpty && !ProjectPath.isWithin(projectPrefix, candidate) {
            guard let entry = index.changingContents(of: candidate),
                scanner.fileSystem.kind(of: scanner.root + "/" + candidate) == .directory
            else { continue }
            return [PathHit(written: path, prefix: prefix, resolved: candidate, resolvedAfter: candidate, shownPath: entry.shownSource,
                            shownDestination: entry.shownDestination, folderContents: true)]
        }
        return []
    }

    func reference(_ hit: PathHit, file: String, line: Int, column: Int, kind: PathReference.Kind, detail: String? = nil,
                   rewritten: Bool = false) -> PathReference {
        PathReference(file: file, line: line, column: column, kind: kind, detail: detail, text: hit.prefix + hit.written,
                      movingPath: hit.shownPath, destination: hit.shownDestination, folderContents: hit.folderContents, rewritten: rewritten)
    }

    // MARK: Files

    /// Reads a file through the door, naming it when it cannot be read.
    mutating func read(_ path: String, budget: FileBudget) -> String? {
        filesRead += 1
        do {
            return try scanner.fileSystem.readText(scanner.root + "/" + path, as: budget)
        } catch {
            unread.append(UnreadReferenceFile(file: path, reason: errorText(error)))
            return nil
        }
    }

    /// An extensionless file of a scripts or bin folder, when it is a script (it starts with
    /// `#!`); a binary or data file is not one and is not searched. A script that is not UTF-8
    /// (a Latin-1 Perl script) is searched byte for byte when every moving path is ASCII, which
    /// any ASCII-compatible encoding writes alike; otherwise it is named as not read.
    mutating func readScript(_ path: String, budget: FileBudget) -> String? {
        filesRead += 1
        let bytes: [UInt8]
        do {
            bytes = try scanner.fileSystem.read(scanner.root + "/" + path, as: budget)
        } catch {
            unread.append(UnreadReferenceFile(file: path, reason: errorText(error)))
            return nil
        }
        guard bytes.starts(with: [UInt8(ascii: "#"), UInt8(ascii: "!")]) else { return nil }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        guard index.movesAreASCII else {
            unread.append(UnreadReferenceFile(file: path, reason: "a script that is not UTF-8, and some moving paths are not ASCII, "
                + "so their names cannot be looked for in its encoding"))
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    mutating func scanFile(_ path: String, kind: FileKindToScan) {
        switch kind {
        case .xcconfig:
            guard let text = read(path, budget: kind.budget) else { return }
            scanXCConfig(path, text: text)
        case .packageManifest:
            guard let text = read(path, budget: kind.budget) else { return }
            scanPackageManifest(path, text: text)
        case .gitPattern:
            guard let text = read(path, budget: kind.budget) else { return }
            scanGitPatterns(path, text: text)
        case .maybeScript:
            guard let text = readScript(path, budget: kind.budget) else { return }
            scanLines(path, text: text, kind: .shellScript)
        case .lines(let referenceKind):
            guard let text = read(path, budget: kind.budget) else { return }
            scanLines(path, text: text, kind: referenceKind)
        }
    }

    /// The lines of `text`, split on the byte `\n` (a `\r` before it is left to the line, where
    /// it separates words): Character-wise splitting would read `\r\n` as one character and a
    /// CRLF file as one line.
    static func lines(_ text: String) -> [Substring] {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// Any file read line by line: every word that resolves (against the file's folder, the
    /// project folder and the folder scanned) to a moving path. Comment lines (`#`) are skipped
    /// in the files that have them.
    mutating func scanLines(_ path: String, text: String, kind: PathReference.Kind) {
        let bases = unique([ProjectPath.parent(path), projectPrefix, ""])
        let hashComments = kind != .scheme && kind != .testPlan
        let globs = [.swiftLint, .swiftGen, .xcodeGen].contains(kind)
        let bareFolders = globs
        for (number, written) in Self.lines(text).enumerated() {
            if hashComments, written.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") { continue }
            // A test plan is JSON, which Xcode writes with `\/` for `/`.
            let line = kind == .testPlan && written.contains("\\/") ? Substring(written.replacingOccurrences(of: "\\/", with: "/")) : written
            for token in PathTokens.split(line) {
                for hit in hits(token.text, bases: bases, bareFolders: bareFolders, globs: globs) {
                    add(reference(hit, file: path, line: number + 1, column: token.column, kind: kind))
                }
            }
        }
    }

    func unique(_ bases: [String]) -> [String] {
        var seen: [String] = []
        for base in bases where !seen.contains(base) { seen.append(base) }
        return seen
    }

    // MARK: Package.swift

    /// String literals of `path:`, `publicHeadersPath:`, `exclude:`, `sources:`, `resources:`
    /// (`.process`/`.copy`), resolved against the package folder and the folder of the target
    /// being declared (`path:`, else `Sources/<name>` and `Tests/<name>`).
    mutating func scanPackageManifest(_ path: String, text: String) {
        let package = ProjectPath.parent(path)
        var name: String?
        var targetPath: String?
        var inList = false
        let keys = ["path:", "publicHeadersPath:", "exclude:", "sources:", "resources:", ".process(", ".copy("]
        for (number, line) in Self.lines(text).enumerated() {
            let code = line.firstIndex(ofBytes: "//").map { line[..<$0] } ?? line
            if code.containsBytes(".target(") || code.containsBytes(".testTarget(") || code.containsBytes(".executableTarget(")
                || code.containsBytes(".systemLibrary(") || code.containsBytes(".plugin(") || code.containsBytes(".macro(") {
                name = nil
                targetPath = nil
            }
            let literals = Self.stringLiterals(code)
            if let offset = Self.argument("name:", in: code), let literal = literals.first(where: { $0.offset >= offset }) {
                name = literal.text
            }
            if let offset = Self.argument("path:", in: code), let literal = literals.first(where: { $0.offset >= offset }) {
                targetPath = literal.text
            }
            let keyed = keys.contains { code.containsBytes($0) }
            guard keyed || inList else { continue }
            if keyed, code.hasByte("["), !code.hasByte("]") { inList = true } else if inList, code.hasByte("]") { inList = false }
            var bases = [package]
            if let targetPath { bases.append(ProjectPath.join(package, targetPath)) }
            if let name { bases += [ProjectPath.join(package, "Sources/" + name), ProjectPath.join(package, "Tests/" + name)] }
            for literal in literals {
                for hit in hits(literal.text, bases: unique(bases), bareFolders: true, globs: true) {
                    add(reference(hit, file: path, line: number + 1, column: literal.offset + 1, kind: .packageManifest))
                }
            }
        }
    }

    /// The character offset just after the argument label `label` (not the end of a longer
    /// label such as `publicHeadersPath:` for `path:`).
    static func argument(_ label: String, in code: Substring) -> Int? {
        var searchStart = code.startIndex
        while let found = code.firstIndex(ofBytes: label, from: searchStart) {
            let end = code.utf8.index(found, offsetBy: label.utf8.count)
            let before = found == code.startIndex ? nil : code[code.index(before: found)]
            if before.map({ !$0.isLetter && !$0.isNumber && $0 != "_" }) ?? true {
                return code.distance(from: code.startIndex, to: end)
            }
            searchStart = end
        }
        return nil
    }

    /// The `"..."` literals of a line of Swift, with their 0-based character offsets.
    static func stringLiterals(_ line: Substring) -> [(text: String, offset: Int)] {
        var result: [(String, Int)] = []
        var current: String?
        var start = 0
        var escaped = false
        for (offset, character) in line.enumerated() {
            if var text = current {
                if escaped {
                    escaped = false
                    text.append(character)
                    current = text
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    result.append((text, start))
                    current = nil
                } else {
                    text.append(character)
                    current = text
                }
            } else if character == "\"" {
                current = ""
                start = offset + 1
            }
        }
        return result
    }

    // MARK: .gitignore, .gitattributes

    /// A pattern that matched a moving path and not its destination (or the reverse) changes
    /// what applies to it.
    mutating func scanGitPatterns(_ path: String, text: String) {
        let folderParts = PathGlob.components(ProjectPath.parent(path))
        let attributes = path.hasSuffix(".gitattributes")
        for (number, line) in Self.lines(text).enumerated() {
            let trimmed = line.trimming(" \t\r")
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            var pattern = attributes ? String(trimmed.split(separator: " ").first ?? "") : trimmed
            if pattern.hasPrefix("!") { pattern.removeFirst() }
            if pattern.hasPrefix("\\") { pattern.removeFirst() }
            guard !pattern.isEmpty else { continue }
            let column = (line.firstIndex { $0 != " " && $0 != "\t" }).map { line.distance(from: line.startIndex, to: $0) + 1 } ?? 1
            guard let gitPattern = PathGlob.GitPattern(pattern) else { continue }
            if let entry = index.changingMatch({ gitPattern.matches(folder: folderParts, path: $0) }) {
                let detail = attributes ? "(.gitattributes)" : "(.gitignore)"
                add(PathReference(file: path, line: number + 1, column: column, kind: .gitPattern, detail: detail, text: trimmed,
                                  movingPath: entry.shownSource, destination: entry.shownDestination, folderContents: false))
            }
        }
    }

    // MARK: Found by their place

    /// Files tools find by their place (not by a path written anywhere): moving one breaks the
    /// tool, whatever the files around say.
    mutating func findByPlace() {
        for entry in index.entries {
            let name = ProjectPath.lastComponent(entry.source)
            let byKind = FileKindToScan.of(path: entry.source, name: name)
            let placed: Bool
            switch byKind {
            case .lines(.swiftLint)?, .lines(.swiftGen)?, .lines(.podfile)?, .lines(.cartfile)?, .lines(.xcodeGen)?, .lines(.makefile)?,
                 .lines(.continuousIntegration)?, .lines(.fastlane)?, .gitPattern?, .packageManifest?:
                placed = true
            default:
                placed = Self.placedNames.contains(name)
            }
            guard placed else { continue }
            add(PathReference(file: entry.source, line: 1, column: 1, kind: .foundByPlace, text: entry.shownSource,
                              movingPath: entry.shownSource, destination: entry.shownDestination))
        }
    }

    /// Other files and folders found by their place.
    static let placedNames: Set<String> = [
        ".github", ".circleci", ".buildkite", "fastlane", ".swiftformat", ".swift-version", ".ruby-version", ".xcode-version",
        ".editorconfig", ".periphery.yml", ".jazzy.yaml", ".slather.yml", ".codecov.yml", "codecov.yml", "Gemfile", "Brewfile",
        "Mintfile", "Dangerfile", "Dangerfile.swift", ".swiftlint.yml", "Package.resolved", ".gitmodules", ".gitlab-ci.yml",
    ]
}

extension StringProtocol {
    /// The text without the leading and trailing `characters`.
    func trimming(_ characters: String) -> String {
        let set = Set(characters)
        guard let first = firstIndex(where: { !set.contains($0) }), let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
