import PBXProj
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The plan's moves, indexed by path for the scanner. Paths are relative to the folder scanned.
struct MoveIndex {
    struct Entry {
        /// Relative to the folder scanned.
        let source: String
        let destination: String
        /// As shown: relative to the project folder.
        let shownSource: String
        let shownDestination: String
    }

    private(set) var entries: [Entry] = []
    /// Each entry's source and destination split into components once (the glob checks run
    /// for every pattern against every move).
    private var sourceParts: [[String]] = []
    private var destinationParts: [[String]] = []
    /// The entries by the first component of their source or destination: a pattern whose
    /// first component is not `**` can only match an entry through it.
    private var byFirstComponent: [String: [Int]] = [:]
    private var bySource: [String: Int] = [:]
    private var sourcesBelow: [String: [Int]] = [:]
    private var destinationsBelow: [String: Set<Int>] = [:]
    /// For each folder, the first move with exactly one end inside it (computed once).
    private var changing: [String: Int] = [:]
    /// `NameHash`es of every move's last source component and of every changing folder's last
    /// component: a path can only name a move (or a changing folder) through one of them.
    private var names: Set<UInt64> = []
    private var namesAreASCII = true

    /// Whether every move's source and destination is ASCII (then a file in any
    /// ASCII-compatible encoding names them with the same bytes).
    var movesAreASCII: Bool {
        entries.allSatisfy { $0.source.utf8.allSatisfy { $0 < 0x80 } && $0.destination.utf8.allSatisfy { $0 < 0x80 } }
    }

    /// `projectPrefix`: the project folder relative to the folder scanned ("" when the same).
    init(moves: [SyncMove], projectPrefix: String) {
        for move in moves {
            let source = ProjectPath.join(projectPrefix, move.source)
            let pruned = move.reason == .pruned
            let destination = pruned ? "" : ProjectPath.join(projectPrefix, move.destination)
            guard !ProjectPath.isOutside(source) else { continue }
            let index = entries.count
            entries.append(Entry(source: source, destination: destination, shownSource: move.source,
                                 shownDestination: pruned ? "nowhere (deleted by --prune)" : move.destination))
            bySource[source] = index
            sourceParts.append(PathGlob.components(source))
            destinationParts.append(PathGlob.components(destination))
            for first in Set([sourceParts[index].first, destinationParts[index].first].compactMap { $0 }) {
                byFirstComponent[first, default: []].append(index)
            }
            for folder in ProjectPath.Ancestors(source) { sourcesBelow[String(folder), default: []].append(index) }
            sourcesBelow["", default: []].append(index)
            guard !pruned else { continue }
            for folder in ProjectPath.Ancestors(destination) { destinationsBelow[String(folder), default: []].insert(index) }
            destinationsBelow["", default: []].insert(index)
        }
        for (folder, indexes) in sourcesBelow {
            let below = destinationsBelow[folder] ?? []
            if let first = indexes.first(where: { !below.contains($0) }) { changing[folder] = first }
        }
        for (folder, indexes) in destinationsBelow where changing[folder] == nil {
            let sources = Set(sourcesBelow[folder] ?? [])
            if let first = indexes.sorted().first(where: { !sources.contains($0) }) { changing[folder] = first }
        }
        sourcesBelow = [:]
        destinationsBelow = [:]
        let lasts = entries.map(\.source) + changing.keys.filter { !$0.isEmpty }
        // Swift compares strings by canonical equivalence (a Kelvin sign equals `K`): with a
        // non-ASCII name no byte hash can answer, and every word gets the full check.
        namesAreASCII = lasts.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
        for path in lasts { names.insert(NameHash.lastComponent(path)) }
    }

    /// False only when no path made of `path` below any of `bases` can be a moving path, lie
    /// inside one, or be a changing folder: each of those has, among its components, the last
    /// component of a move's source or of a changing folder, and (without `..`) the components
    /// of `base/path` are those of `base` and of `path`. A hash collision only means the full
    /// check runs; a `..` component, which removes a component, always runs it.
    func mayName(_ path: String, bases: [String]) -> Bool {
        if names.isEmpty { return false }
        guard namesAreASCII else { return true }
        return NameHash.anyComponent(of: path, in: names) || bases.contains { NameHash.anyComponent(of: $0, in: names) }
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The move that takes `path` (itself or a folder holding it), and where `path` goes.
    func moving(_ path: String) -> (entry: Entry, shownPath: String, shownDestination: String, destination: String)? {
        if let index = bySource[path] {
            let entry = entries[index]
            return (entry, entry.shownSource, entry.shownDestination, entry.destination)
        }
        for folder in ProjectPath.Ancestors(path) {
            guard let index = bySource[String(folder)] else { continue }
            let entry = entries[index]
            let rest = String(path.dropFirst(folder.count + 1))
            let pruned = entry.destination.isEmpty
            return (entry, ProjectPath.join(entry.shownSource, rest),
                    pruned ? entry.shownDestination : ProjectPath.join(entry.shownDestination, rest),
                    pruned ? "" : ProjectPath.join(entry.destination, rest))
        }
        return nil
    }

    /// Where `path` is after the moves (itself when it does not move).
    func mapped(_ path: String) -> String {
        guard let found = moving(path), !found.destination.isEmpty else { return path }
        return found.destination
    }

    /// A move that takes something out of `folder` or into it (exactly one of its ends inside).
    func changingContents(of folder: String) -> Entry? {
        changing[folder].map { entries[$0] }
    }

    /// The first move whose membership in the pattern changes: `matches(source) !=
    /// matches(destination)`; `matches` gets each end split into components.
    func changingMatch(_ matches: ([String]) -> Bool) -> Entry? {
        changingMatch(among: entries.indices, matches)
    }

    private func changingMatch<Indexes: Sequence<Int>>(among indexes: Indexes, _ matches: ([String]) -> Bool) -> Entry? {
        for index in indexes {
            let entry = entries[index]
            if matches(sourceParts[index]) != (entry.destination.isEmpty ? false : matches(destinationParts[index])) { return entry }
        }
        return nil
    }

    /// `changingMatch` for a glob pattern (components) matched with `PathGlob.matchesOrInside`:
    /// only the entries whose first component the pattern's first one matches are tried.
    func changingGlobMatch(_ patternParts: [String]) -> Entry? {
        guard let first = patternParts.first else { return nil }
        let matches = { (parts: [String]) in PathGlob.matchesOrInside(patternParts, parts) }
        guard first != "**" else { return changingMatch(among: entries.indices, matches) }
        var indexes: [Int] = []
        for (component, entryIndexes) in byFirstComponent where PathGlob.componentMatches(first, component) {
            indexes += entryIndexes
        }
        return changingMatch(among: Set(indexes).sorted(), matches)
    }
}

/// FNV-1a hashes of path components' bytes, for `MoveIndex.mayName`'s early answer.
enum NameHash {
    static func of<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    static func lastComponent(_ path: String) -> UInt64 {
        let utf8 = Substring(path).utf8
        let start = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        return of(utf8[start...])
    }

    /// Whether a component of `path` is `..`, is not ASCII (Swift's string equality could
    /// still find it equal to a name) or hashes into `names`.
    static func anyComponent(of path: String, in names: Set<UInt64>) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                defer { start = index + 1 }
                let component = bytes[start..<index]
                guard !component.isEmpty else { continue }
                if component.elementsEqual("..".utf8) || component.contains(where: { $0 >= 0x80 }) || names.contains(of(component)) { return true }
            }
            return false
        }
    }
}

/// One word of a line that may be a path.
struct PathToken: Equatable {
    /// The word as written (a `$(SRCROOT)/` prefix included).
    let text: String
    /// 1-based column of its first character.
    let column: Int
}

enum PathTokens {
    static let separators: Set<Character> = [" ", "\t", "\r", "\"", "'", "`", "=", ",", ":", "(", ")", "[", "]", "{", "}", ";", "<", ">", "|", "&"]

    /// `separators` as a table by byte: every separator is ASCII, so a line is split on its
    /// UTF-8 bytes (a multi-byte character never holds one).
    static let separatorBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for character in separators { for byte in String(character).utf8 { table[Int(byte)] = true } }
        return table
    }()

    /// The words of `line`: split on blanks, quotes, `=`, `,`, `:`, brackets and shell operators,
    /// except inside `$(...)` / `${...}` (a build setting reference stays one word). Columns
    /// count Unicode scalars. The work is done on the line's bytes, each word made a String once.
    static func split(_ line: Substring) -> [PathToken] {
        let utf8 = line.utf8
        var tokens: [PathToken] = []
        var start: Substring.UTF8View.Index?
        var startColumn = 0
        var column = 0
        var depth = 0
        var closing = UInt8(ascii: ")")
        var previous = UInt8(ascii: " ")
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte & 0xC0 != 0x80 { column += 1 }
            if depth > 0 {
                if byte == closing { depth -= 1 }
            } else if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{"), previous == UInt8(ascii: "$") {
                closing = byte == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
                depth = 1
            } else if separatorBytes[Int(byte)] {
                if let first = start { tokens.append(PathToken(text: String(Substring(utf8[first..<index])), column: startColumn)) }
                start = nil
            }
            if start == nil, depth > 0 || !separatorBytes[Int(byte)] {
                start = index
                startColumn = column
            }
            previous = byte
            index = utf8.index(after: index)
        }
        if let first = start { tokens.append(PathToken(text: String(Substring(utf8[first..<utf8.endIndex])), column: startColumn)) }
        return tokens + quoted(line)
    }

    /// The contents of `"..."` and `'...'` that hold a separator (`"My App/Info.plist"`), as
    /// one more word each: a quoted path may have blanks.
    static func quoted(_ line: Substring) -> [PathToken] {
        let utf8 = line.utf8
        var tokens: [PathToken] = []
        var quote: UInt8?
        var contentStart = utf8.startIndex
        var startColumn = 0
        var column = 0
        var holdsSeparator = false
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte & 0xC0 != 0x80 { column += 1 }
            if let open = quote {
                if byte == open {
                    if holdsSeparator { tokens.append(PathToken(text: String(Substring(utf8[contentStart..<index])), column: startColumn)) }
                    quote = nil
                } else if separatorBytes[Int(byte)] {
                    holdsSeparator = true
                }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
                contentStart = utf8.index(after: index)
                startColumn = column + 1
                holdsSeparator = false
            }
            index = utf8.index(after: index)
        }
        return tokens
    }

    /// Prefixes that mean "the project folder".
    static let projectPrefixes = [
        "$(SRCROOT)/", "${SRCROOT}/", "$SRCROOT/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/", "$PROJECT_DIR/",
        "$(SOURCE_ROOT)/", "${SOURCE_ROOT}/", "$SOURCE_ROOT/",
    ]

    /// The token without its project prefix (and `./`, a trailing `/`): (prefix, path,
    /// whether the prefix names the project folder). Nil for what cannot be a path here
    /// (another variable, a URL, an option, nothing).
    static func path(of token: String) -> (prefix: String, path: String, projectRelative: Bool)? {
        var prefix = ""
        var rest = Substring(token)
        var projectRelative = false
        let dollar = UInt8(ascii: "$"), dot = UInt8(ascii: "."), slash = UInt8(ascii: "/")
        if rest.utf8.first == dollar, let found = projectPrefixes.first(where: { rest.utf8.starts(with: $0.utf8) }) {
            prefix = found
            rest = rest.dropFirst(found.count)
            projectRelative = true
        }
        while rest.utf8.starts(with: [dot, slash]) {
            prefix += "./"
            rest = rest.dropFirst(2)
        }
        while rest.utf8.last == slash { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.utf8.elementsEqual([dot]), !rest.hasByte("$"), !rest.containsBytes("://"),
            rest.utf8.first != UInt8(ascii: "-"), !rest.hasByte("\\"), rest.utf8.count < 1024
        else { return nil }
        return (prefix, String(rest), projectRelative)
    }

    static func hasWildcard(_ text: String) -> Bool { text.hasByte("*") || text.hasByte("?") }
}

/// `.gitignore`-style matching of slash-separated patterns: `*`, `?` within a component,
/// `**` for any number of folders.
enum PathGlob {
    /// A slash-separated path's components (empty ones dropped).
    static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    /// Whether one pattern component matches one name: `fnmatch` when it has a special
    /// character, else plain equality (what `fnmatch` gives then, without its cost).
    static func componentMatches(_ pattern: String, _ name: String) -> Bool {
        pattern.utf8.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "\\") }
            ? fnmatch(pattern, name, 0) == 0 : pattern == name
    }

    /// Whether `pattern` (components) matches `path` exactly.
    static func matches(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>, budget: inout Int) -> Bool {
        budget -= 1
        guard budget > 0 else { return false }
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            var remaining = path
            while true {
                if matches(rest, remaining, budget: &budget) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
            }
        }
        guard let name = path.first, componentMatches(first, name) else { return false }
        return matches(pattern.dropFirst(), path.dropFirst(), budget: &budget)
    }

    /// Whether `pattern` matches `path` or one of the folders holding it (what is inside a
    /// matched folder is matched too); both already split into components.
    static func matchesOrInside(_ patternParts: [String], _ parts: [String]) -> Bool {
        var budget = 10_000
        // Without `**` a pattern matches only paths of its own length.
        if !patternParts.contains("**") {
            return patternParts.count <= parts.count && matches(patternParts[...], parts[0..<patternParts.count], budget: &budget)
        }
        for length in stride(from: parts.count, through: 1, by: -1) where matches(patternParts[...], parts[0..<length], budget: &budget) {
            return true
        }
        return false
    }

    /// One `.gitignore`/`.gitattributes` pattern, read once and matched against many paths, by
    /// git's rules: a pattern with a `/` (not only at its end) is anchored to its file's folder;
    /// one without matches a name at any depth; a trailing `/` matches folders only (their
    /// contents here).
    struct GitPattern {
        let parts: [String]
        let folderOnly: Bool
        let anchored: Bool

        init?(_ rawPattern: String) {
            var pattern = Substring(rawPattern)
            folderOnly = pattern.hasSuffix("/")
            while pattern.hasSuffix("/") { pattern = pattern.dropLast() }
            guard !pattern.isEmpty else { return nil }
            anchored = pattern.dropLast().contains("/")
            while pattern.hasPrefix("/") { pattern = pattern.dropFirst() }
            parts = anchored ? PathGlob.components(String(pattern)) : [String(pattern)]
        }

        /// `folder` and `path` as components, relative to the folder scanned.
        func matches(folder: [String], path: [String]) -> Bool {
            guard path.count > folder.count, path.starts(with: folder) else { return false }
            let relative = path[folder.count...]
            // A folder-only pattern matches only folders: the proper ancestors of the path.
            let longest = folderOnly ? relative.count - 1 : relative.count
            guard longest >= 1 else { return false }
            var budget = 10_000
            for length in 1...longest {
                let prefix = relative.prefix(length)
                if anchored {
                    if PathGlob.matches(parts[...], prefix, budget: &budget) { return true }
                } else if PathGlob.componentMatches(parts[0], prefix.last!) {
                    return true
                }
            }
            return false
        }
    }

}

extension StringProtocol {
    /// Whether the ASCII character occurs (a byte search: Foundation's `contains` of a string
    /// goes through `range(of:)`, which dominated the scan's profile).
    func hasByte(_ character: Unicode.Scalar) -> Bool {
        utf8.contains(UInt8(character.value))
    }

    /// Whether `needle`'s UTF-8 bytes occur in this text (a byte search).
    func containsBytes(_ needle: String) -> Bool {
        firstIndex(ofBytes: needle) != nil
    }

    /// Where `needle`'s UTF-8 bytes first occur at or after `start` (a byte search, not
    /// Foundation's `range(of:)`); an ASCII needle's index is a character boundary.
    func firstIndex(ofBytes needle: String, from start: Index? = nil) -> Index? {
        let text = utf8
        guard let first = needle.utf8.first else { return start ?? text.startIndex }
        var start = start ?? text.startIndex
        while let found = text[start...].firstIndex(of: first) {
            if text[found...].starts(with: needle.utf8) { return found }
            start = text.index(after: found)
        }
        return nil
    }
}
