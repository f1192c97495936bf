/// Which generation of Xcode's `/* comment */` wording a file uses.
public enum CommentDialect: Sendable, Hashable {
    /// Xcode 3 to 16: a build configuration is named by its name ("Debug"), an exception set by
    /// its isa.
    case classic
    /// Xcode 26: "Debug configuration for PBXNativeTarget \"App\"" and
    /// "Exceptions for \"App\" folder in \"App\" target".
    case xcode26
}

/// Derives the `/* comment */` Xcode writes after each object id, from the objects themselves.
///
/// Rules (found by reading Xcode-written files of objectVersion 45 to 110):
/// - files, groups, variant/version groups, synchronized folders, reference proxies, build
///   configurations, targets and anything else with a name: `name`, else `path`, else no comment;
/// - a build phase: its `name`, else its kind ("Sources", "Frameworks", "CopyFiles", ...);
/// - a build file: "<file or package product> in <phase>", with "(null)" for a missing part;
/// - `PBXProject`: "Project object"; a configuration list:
///   `Build configuration list for <owner isa> "<owner name>"` (the project's name is the
///   `.xcodeproj` folder's name);
/// - proxies, dependencies and build rules: their isa;
/// - Swift packages: `XCRemoteSwiftPackageReference "<repository name>"`,
///   `XCLocalSwiftPackageReference "<relative path>"`, and a product's name without `plugin:`.
struct CommentDeriver {
    let tree: SyntaxTree
    let table: ObjectTable
    let projectName: String
    let dialect: CommentDialect
    /// Per isa of the table, how its objects' comments are made (worked out once per isa, not
    /// per object).
    private let kinds: [Kind]

    /// How the comment of an object of one isa is made.
    private enum Kind {
        case buildFile, configurationList, buildConfiguration, exceptionSet
        /// A build phase: its name, else this.
        case phase(String)
        /// Named by this, its isa.
        case isa(String)
        case project, remotePackage, localPackage, productDependency
        /// Its `name`, else its `path`.
        case named

        init(_ isa: String) {
            if let phase = CommentDeriver.defaultPhaseNames[isa] {
                self = .phase(phase)
            } else if CommentDeriver.isaComments.contains(isa) {
                self = .isa(isa)
            } else {
                switch isa {
                case "PBXProject": self = .project
                case "XCRemoteSwiftPackageReference": self = .remotePackage
                case "XCLocalSwiftPackageReference": self = .localPackage
                case "XCSwiftPackageProductDependency": self = .productDependency
                case "PBXBuildFile": self = .buildFile
                case "XCConfigurationList": self = .configurationList
                case "XCBuildConfiguration": self = .buildConfiguration
                default:
                    self = isa.hasPrefix("PBXFileSystemSynchronized") && isa.hasSuffix("ExceptionSet") ? .exceptionSet : .named
                }
            }
        }
    }

    init(tree: SyntaxTree, table: ObjectTable, projectName: String, dialect: CommentDialect) {
        self.tree = tree
        self.table = table
        self.projectName = projectName
        self.dialect = dialect
        kinds = table.isaNames.map(Kind.init)
    }

    private static let defaultPhaseNames: [String: String] = [
        "PBXSourcesBuildPhase": "Sources", "PBXFrameworksBuildPhase": "Frameworks",
        "PBXResourcesBuildPhase": "Resources", "PBXHeadersBuildPhase": "Headers",
        "PBXCopyFilesBuildPhase": "CopyFiles", "PBXShellScriptBuildPhase": "ShellScript",
        "PBXRezBuildPhase": "Rez", "PBXAppleScriptBuildPhase": "AppleScript",
        "PBXJavaArchiveBuildPhase": "JavaArchive",
    ]
    private static let isaComments: Set<String> = ["PBXTargetDependency", "PBXContainerItemProxy", "PBXBuildRule"]

    /// The comment for every object, indexed like `table.entries`.
    func deriveAll() -> [String?] {
        deriveAll { _, _ in nil }
    }

    /// The comment for every object, taking `known(index, maps)` where it gives one (a comment
    /// known to be what this derivation would give: see `CanonicalSplice.comments`).
    func deriveAll(known: (_ index: Int, _ maps: ReverseMaps) -> String??) -> [String?] {
        deriveAll(maps: ReverseMaps(tree: tree, table: table, dialect: dialect), known: known)
    }

    /// `deriveAll(known:)` with the reverse maps given (this tree's, however they were made).
    func deriveAll(maps: ReverseMaps, known: (_ index: Int, _ maps: ReverseMaps) -> String??) -> [String?] {
        var names = [String??](repeating: nil, count: table.entries.count)
        var result = [String?](repeating: nil, count: table.entries.count)
        for index in table.entries.indices {
            if let comment = known(index, maps) {
                result[index] = comment
            } else {
                result[index] = comment(index, maps: maps, names: &names).map(CommentDeriver.sanitized)
            }
        }
        return result
    }

    /// Whether comments of objects of `isa` name other objects or who contains them (build
    /// files, configuration lists, and in Xcode 26's wording build configurations and exception
    /// sets); every other object's comment comes from its own values.
    static func dependsOnOthers(isa: String, dialect: CommentDialect) -> Bool {
        switch isa {
        case "PBXBuildFile", "XCConfigurationList": return true
        case "XCBuildConfiguration": return dialect == .xcode26
        default: return isa.hasPrefix("PBXFileSystemSynchronized") && isa.hasSuffix("ExceptionSet") && dialect == .xcode26
        }
    }

    /// A comment cannot contain its own terminator; a name (or isa, in a section comment) with
    /// `*/` in it is written with `* /` so the file still reads.
    static func sanitized(_ text: String) -> String {
        var text = text
        let terminated = text.withUTF8 { bytes -> Bool in
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                if bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/") { return true }
                index += 1
            }
            return false
        }
        return terminated ? text.replacing("*/", with: "* /") : text
    }

    private func comment(_ index: Int, maps: ReverseMaps, names: inout [String??]) -> String? {
        let isaIndex = Int(table.entries[index].isa)
        switch kinds[isaIndex] {
        case .buildFile:
            let object = Int(table.entries[index].value)
            let target = (tree.lookup("fileRef", in: object) ?? tree.lookup("productRef", in: object))
                .flatMap { table.find(node: $0, in: tree) }
            let file = target.flatMap { name($0, names: &names) } ?? "(null)"
            let phase = maps.phaseOfBuildFile[index] >= 0
                ? name(Int(maps.phaseOfBuildFile[index]), names: &names) ?? "(null)" : "(null)"
            return "\(file) in \(phase)"
        case .configurationList:
            guard maps.ownerOfList[index] >= 0 else { return nil }
            return "Build configuration list for \(ownerDescription(Int(maps.ownerOfList[index]), names: &names))"
        case .buildConfiguration where dialect == .xcode26:
            let own = name(index, names: &names) ?? "(null)"
            let list = maps.listOfConfiguration[index]
            guard list >= 0, maps.ownerOfList[Int(list)] >= 0 else { return own }
            return "\(own) configuration for \(ownerDescription(Int(maps.ownerOfList[Int(list)]), names: &names))"
        case .exceptionSet:
            return dialect == .classic ? table.isaNames[isaIndex] : exceptionSetComment(index, maps: maps, names: &names)
        default:
            return name(index, names: &names)
        }
    }

    private func ownerDescription(_ owner: Int, names: inout [String??]) -> String {
        let isa = table.isa(owner)
        let ownerName = isa == "PBXProject" ? projectName : (name(owner, names: &names) ?? "(null)")
        return "\(isa) \"\(ownerName)\""
    }

    private func exceptionSetComment(_ index: Int, maps: ReverseMaps, names: inout [String??]) -> String {
        let object = Int(table.entries[index].value)
        let group = maps.groupOfExceptionSet[index]
        let folder = group >= 0 ? name(Int(group), names: &names) ?? "(null)" : "(null)"
        if let targetNode = tree.lookup("target", in: object) {
            let target = table.find(node: targetNode, in: tree).flatMap { name($0, names: &names) } ?? "(null)"
            return "Exceptions for \"\(folder)\" folder in \"\(target)\" target"
        }
        let phase = tree.lookup("buildPhase", in: object).flatMap { table.find(node: $0, in: tree) }
        let phaseName = phase.flatMap { name($0, names: &names) } ?? "(null)"
        let target = phase.map { Int(maps.targetOfPhase[$0]) }.flatMap { $0 >= 0 ? name($0, names: &names) : nil }
        return "Exceptions for \"\(folder)\" folder in \"\(phaseName)\" phase from \"\(target ?? "(null)")\" target"
    }

    /// The display name of an object: what its id's comment says wherever it is referenced,
    /// apart from build files and configuration lists, whose comments are composite.
    private func name(_ index: Int, names: inout [String??]) -> String? {
        if let cached = names[index] { return cached }
        let computed = computeName(index)
        names[index] = .some(computed)
        return computed
    }

    private func computeName(_ index: Int) -> String? {
        displayName(ofDictionary: Int(table.entries[index].value), kind: kinds[Int(table.entries[index].isa)])
    }

    /// The display name of the object whose dictionary is node `object` and whose isa is `isa`
    /// (from its own values only).
    func displayName(ofDictionary object: Int, isa: String) -> String? {
        displayName(ofDictionary: object, kind: Kind(isa))
    }

    private func displayName(ofDictionary object: Int, kind: Kind) -> String? {
        // Only string values name things; a list or dictionary where a name belongs gives none.
        func string(_ key: StaticString) -> String? {
            tree.lookup(key, in: object).flatMap { tree.isString($0) ? tree.string($0) : nil }
        }
        switch kind {
        case .phase(let phase):
            return string("name") ?? phase
        case .isa(let isa):
            return isa
        case .project:
            return "Project object"
        case .remotePackage:
            return "XCRemoteSwiftPackageReference \"\(Self.repositoryName(string("repositoryURL") ?? ""))\""
        case .localPackage:
            return "XCLocalSwiftPackageReference \"\(string("relativePath") ?? "")\""
        case .productDependency:
            guard let product = string("productName") else { return nil }
            return product.hasPrefix("plugin:") ? String(product.dropFirst(7)) : product
        case .buildFile, .configurationList, .buildConfiguration, .exceptionSet, .named:
            return string("name") ?? string("path")
        }
    }

    /// The last path component of a repository URL without `.git`: what Xcode shows as the
    /// package's name.
    static func repositoryName(_ url: String) -> String {
        var trimmed = Substring(url)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        var last = trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        if last.hasSuffix(".git") { last = String(last.dropLast(4)) }
        return last
    }
}

/// Who contains whom, for the comments that name a container.
struct ReverseMaps: Sendable {
    var phaseOfBuildFile: [Int32]
    var ownerOfList: [Int32]
    var listOfConfiguration: [Int32]
    var groupOfExceptionSet: [Int32]
    var targetOfPhase: [Int32]

    init(tree: SyntaxTree, table: ObjectTable, dialect: CommentDialect) {
        let count = table.entries.count
        phaseOfBuildFile = [Int32](repeating: -1, count: count)
        ownerOfList = [Int32](repeating: -1, count: count)
        listOfConfiguration = [Int32](repeating: -1, count: count)
        groupOfExceptionSet = [Int32](repeating: -1, count: count)
        targetOfPhase = [Int32](repeating: -1, count: count)
        fill(tree: tree, table: table, dialect: dialect) { _ in true }
    }

    /// The maps of an edited tree, made from the maps of the tree it edits (`original`, of
    /// `edited.original`'s table) instead of resolving every listed id again: a child whose id
    /// is not in `recompute` has the same owners, listing it under the same keys, with the same
    /// isas and ids (see `CanonicalSplice.touchedIDs`), so the same owner, now at its new
    /// entry (an owner that went would have changed the listing: the child is in `recompute`);
    /// the others (`recompute` may hold more) are found anew among every owner's lists,
    /// resolving only the ids that may be theirs. Nil when a listed id has escapes (not among
    /// the strings `recompute` is made of): the caller makes the maps whole.
    init?(edited: EditedTree, original: ReverseMaps, recompute: HashedStrings, dialect: CommentDialect) {
        let tree = edited.tree, table = edited.table
        let count = table.entries.count
        var moved = [Int32](repeating: -1, count: edited.original.entries.count)
        var fresh = [Bool](repeating: false, count: count)
        for index in 0..<count {
            let from = edited.source(of: index)
            if from >= 0 { moved[from] = Int32(index) }
            fresh[index] = from < 0 || tree.withContent(Int(table.entries[index].key)) { recompute.mayContain($0) }
        }
        func carried(_ map: [Int32]) -> [Int32] {
            var result = [Int32](repeating: -1, count: count)
            for index in 0..<count where !fresh[index] {
                let owner = map[edited.source(of: index)]
                result[index] = owner >= 0 ? moved[Int(owner)] : -1
            }
            return result
        }
        phaseOfBuildFile = carried(original.phaseOfBuildFile)
        ownerOfList = carried(original.ownerOfList)
        listOfConfiguration = carried(original.listOfConfiguration)
        groupOfExceptionSet = carried(original.groupOfExceptionSet)
        targetOfPhase = carried(original.targetOfPhase)
        var escaped = false
        fill(tree: tree, table: table, dialect: dialect, only: { fresh[$0] }) { node in
            let info = tree.nodes[node]
            if info.kind == .quoted && info.flags & SyntaxNode.hasEscapes != 0 {
                escaped = true
                return false
            }
            return !tree.isString(node) || tree.withContent(node) { recompute.mayContain($0) }
        }
        if escaped { return nil }
    }

    /// Sets each map from the objects that list others: the build files a phase lists in
    /// `files`, each object's `buildConfigurationList`, and in Xcode 26's wording the
    /// configurations, exception sets and phases a list, a group or a target lists. Where two
    /// objects list the same one, the first in Xcode's order wins. `only`: the children whose
    /// entry is set; `mayList`: whether a listed node is resolved at all (a cheap filter).
    private mutating func fill(
        tree: SyntaxTree, table: ObjectTable, dialect: CommentDialect, only: (Int) -> Bool = { _ in true },
        mayList: (_ node: Int) -> Bool
    ) {
        func claim(_ node: Int, by owner: Int, into map: inout [Int32]) {
            guard mayList(node), let found = table.find(node: node, in: tree), only(found) else { return }
            if map[found] < 0 || ReverseMaps.precedes(owner, Int(map[found]), tree: tree, table: table) {
                map[found] = Int32(owner)
            }
        }
        func claimAll(_ array: Int, by owner: Int, into map: inout [Int32]) {
            guard tree.nodes[array].kind == .array else { return }
            for child in tree.children(array) { claim(child, by: owner, into: &map) }
        }
        let isPhase = table.isaNames.map { $0.hasSuffix("BuildPhase") }
        for (index, entry) in table.entries.enumerated() {
            let object = Int(entry.value)
            if isPhase[Int(entry.isa)], let files = tree.lookup("files", in: object) {
                claimAll(files, by: index, into: &phaseOfBuildFile)
            }
            if let list = tree.lookup("buildConfigurationList", in: object) {
                claim(list, by: index, into: &ownerOfList)
            }
            guard dialect == .xcode26 else { continue }
            if let configurations = tree.lookup("buildConfigurations", in: object) {
                claimAll(configurations, by: index, into: &listOfConfiguration)
            }
            if let exceptions = tree.lookup("exceptions", in: object) {
                claimAll(exceptions, by: index, into: &groupOfExceptionSet)
            }
            if let phases = tree.lookup("buildPhases", in: object) {
                claimAll(phases, by: index, into: &targetOfPhase)
            }
        }
    }

    /// Xcode's order of objects (isa, then id). When two objects claim the same child (a build
    /// file listed by two phases, say), the first in this order wins, so the comment does not
    /// depend on where the objects sit in the file and the canonical form is stable.
    static func precedes(_ a: Int, _ b: Int, tree: SyntaxTree, table: ObjectTable) -> Bool {
        let left = table.entries[a], right = table.entries[b]
        if left.isa != right.isa {
            return table.isaNames[Int(left.isa)].utf8.lexicographicallyPrecedes(table.isaNames[Int(right.isa)].utf8)
        }
        return tree.withContent(Int(left.key)) { x in tree.withContent(Int(right.key)) { y in x.lexicographicallyPrecedes(y) } }
    }
}
