/// A project reduced to what a semantic diff compares: the group tree, targets with their build
/// phases, dependencies, package products, synchronized folders and build rules, the exception
/// sets of synchronized folders, build settings per configuration and Swift packages. Object
/// order, quoting, comments and whitespace are gone; ids are kept only to match objects between
/// two snapshots.
public struct ProjectSnapshot: Hashable, Sendable {
    /// One member of the group tree (its first occurrence).
    public struct Element: Hashable, Sendable {
        /// The object's id.
        public let id: ObjectID
        /// True for groups and synchronized folders; false for files, variant and version groups.
        public let isGroup: Bool
        /// What Xcode shows: the name, else the path's last component.
        public let name: String
        /// Display names from below the main group down to this element, `/`-separated.
        public let treePath: String
        /// The parent group's id; nil for members of the main group.
        public let parent: ObjectID?
        /// Where the element points on disk (`ResolvedPath`'s description).
        public let location: String
        /// The element's own `path` and `sourceTree`, to tell a changed path from an inherited one.
        public let ownPath: String?
        /// The element's own `sourceTree`.
        public let sourceTree: String?
    }

    /// One entry of a build phase: a file (by element id) or a Swift package product.
    public enum PhaseItem: Hashable, Sendable {
        /// A build file whose `fileRef` is this object.
        case file(ObjectID)
        /// A build file whose `productRef` is a package product of this name.
        case product(String)
    }

    /// One build phase of a target.
    public struct Phase: Hashable, Sendable {
        /// The phase's id.
        public let id: ObjectID
        /// `Sources`, `Frameworks`, `Resources`, ... or the phase's own name.
        public let label: String
        /// The phase's entries in order.
        public let items: [PhaseItem]
        /// What the phase does besides its files (copy destination, script, inputs, outputs), by key.
        public let details: [String: String]
        /// Per-file settings (`COMPILER_FLAGS`, `ATTRIBUTES`) of its files that have any, by element id.
        public let fileSettings: [ObjectID: String]
    }

    /// One target.
    public struct Target: Hashable, Sendable {
        /// The target's id.
        public let id: ObjectID
        /// The target's name.
        public let name: String
        /// `productType` (native targets) or the isa (aggregate and legacy targets).
        public let kind: String
        /// `productName`, when set.
        public let productName: String?
        /// The build phases in order.
        public let phases: [Phase]
        /// The configurations in list order.
        public let configurations: [Configuration]
        /// What the target depends on, in file order.
        public let dependencies: [Dependency]
        /// The Swift package products it links, as `Product (package location)`.
        public let packageProducts: [String]
        /// The synchronized folders whose files it builds (element ids).
        public let synchronizedFolders: [ObjectID]
        /// Its build rules, one line each.
        public let buildRules: [String]
    }

    /// One build configuration.
    public struct Configuration: Hashable, Sendable {
        /// `Debug`, `Release`, ...
        public let name: String
        /// Each setting's value as text (lists space-separated, items with spaces quoted).
        public let settings: [String: String]
        /// The `.xcconfig` the settings are based on (its place in the group tree), if any.
        public let baseConfiguration: String?
    }

    /// One Swift package reference.
    public struct Package: Hashable, Sendable {
        /// The repository URL or `local:` followed by the relative path.
        public let location: String
        /// The version requirement in words (empty for local packages).
        public let requirement: String
    }

    /// The project's name.
    public let projectName: String
    /// Group-tree members in preorder (the main group left out).
    public let elements: [Element]
    /// Targets in the project's order.
    public let targets: [Target]
    /// The project's own configurations.
    public let projectConfigurations: [Configuration]
    /// Swift packages in file order.
    public let packages: [Package]
    /// The exception sets of synchronized folders.
    public let exceptionSets: [ExceptionSet]
    /// Positions in `elements` by id.
    let elementIndex: [ObjectID: Int]

    /// The element with `id`, if it is in the group tree.
    public func element(_ id: ObjectID) -> Element? { elementIndex[id].map { elements[$0] } }
}

extension ProjectSnapshot {
    /// Reduces `project` to its semantic content.
    ///
    /// - Throws: what `PBXProject.groupTree()` throws (no main group, a cycle).
    public init(_ project: PBXProject) throws {
        projectName = project.projectName
        let tree = try project.groupTree()
        var elements: [Element] = []
        var index: [ObjectID: Int] = [:]
        var treePaths = [String](repeating: "", count: tree.nodes.count)
        for (position, node) in tree.nodes.enumerated() {
            guard let parent = node.parent else { continue }
            let element = node.element
            let name = element.name ?? element.path.map(ProjectSnapshot.lastComponent) ?? ""
            let parentPath = treePaths[parent]
            treePaths[position] = parentPath.isEmpty ? name : parentPath + "/" + name
            guard index[element.id] == nil else { continue }
            let isGroup = element.kind == .group || element.kind == .synchronizedRootGroup
            index[element.id] = elements.count
            elements.append(Element(
                id: element.id, isGroup: isGroup, name: name, treePath: treePaths[position],
                parent: parent == 0 ? nil : tree.nodes[parent].element.id,
                location: node.resolvedPath.description.isEmpty ? "." : node.resolvedPath.description,
                ownPath: element.path, sourceTree: element.sourceTree))
        }
        self.elements = elements
        elementIndex = index
        targets = ProjectSnapshot.targets(of: project, elements: elements, index: index)
        var phaseOwners: [ObjectID: (target: ObjectID, label: String)] = [:]
        for target in targets {
            for phase in target.phases { phaseOwners[phase.id] = (target.id, phase.label) }
        }
        exceptionSets = ProjectSnapshot.exceptionSets(of: project, phaseLabels: phaseOwners)
        projectConfigurations = project.rootObjectID.map {
            ProjectSnapshot.configurations(of: $0, in: project, elements: elements, index: index)
        } ?? []
        packages = project.swiftPackageReferences.map { reference in
            switch reference.location {
            case .remote(let url, let requirement):
                return Package(location: url, requirement: requirement.map(ProjectSnapshot.describe) ?? "")
            case .local(let path):
                return Package(location: "local:" + path, requirement: "")
            }
        }
    }

    private static func targets(of project: PBXProject, elements: [Element], index: [ObjectID: Int]) -> [Target] {
        let described = packageProducts(of: project)
        var productNames: [ObjectID: String] = [:]
        for product in project.swiftPackageProducts { productNames[product.id] = product.productName }
        return project.targets.map { target in
            // Each phase object decoded once: its files list can hold thousands of entries.
            let phases = target.buildPhases.compactMap { project.object($0) }.filter { PBXIsa.isBuildPhase($0.isa) }.map { object in
                let phase = BuildPhase(id: object.id, isa: object.isa, name: object.string("name"), files: object.references("files"))
                let files = phase.files.compactMap { project.buildFile($0) }
                var settings: [ObjectID: String] = [:]
                for file in files {
                    if let reference = file.fileRef, let values = file.settings, !values.entries.isEmpty {
                        settings[reference] = render(.dictionary(values))
                    }
                }
                return Phase(id: phase.id, label: label(of: phase), items: files.compactMap { file -> PhaseItem? in
                    if let reference = file.fileRef { return .file(reference) }
                    return file.productRef.map { .product(productNames[$0] ?? $0.rawValue) }
                }, details: details(of: object), fileSettings: settings)
            }
            let targetObject = project.object(target.id)
            return Target(
                id: target.id, name: target.name, kind: target.productType ?? target.isa,
                productName: targetObject?.string("productName"), phases: phases,
                configurations: configurations(of: target.id, in: project, elements: elements, index: index),
                dependencies: dependencies(of: target, in: project, products: productNames),
                packageProducts: target.packageProductDependencies.map { described[$0] ?? $0.rawValue },
                synchronizedFolders: target.fileSystemSynchronizedGroups, buildRules: buildRules(of: targetObject, in: project))
        }
    }

    private static func configurations(
        of owner: ObjectID, in project: PBXProject, elements: [Element], index: [ObjectID: Int]
    ) -> [Configuration] {
        project.buildConfigurations(of: owner).map { configuration in
            var settings: [String: String] = [:]
            for entry in configuration.buildSettings { settings[entry.key] = render(entry.value) }
            var base = configuration.baseConfigurationReference.map { id in index[id].map { elements[$0].treePath } ?? id.rawValue }
            if base == nil, let anchor = configuration.baseConfigurationReferenceAnchor {
                let folder = index[anchor].map { elements[$0].treePath } ?? anchor.rawValue
                base = folder + "/" + (configuration.baseConfigurationReferenceRelativePath ?? "")
            }
            return Configuration(name: configuration.name, settings: settings, baseConfiguration: base)
        }
    }

    /// A phase's label: its own name, else its isa without `PBX` and `BuildPhase`.
    static func label(of phase: BuildPhase) -> String {
        if let name = phase.name, !name.isEmpty { return name }
        var isa = Substring(phase.isa)
        if isa.hasPrefix("PBX") { isa = isa.dropFirst(3) }
        if isa.hasSuffix("BuildPhase") { isa = isa.dropLast(10) }
        switch isa {
        case "CopyFiles": return "Copy Files"
        case "ShellScript": return "Run Script"
        default: return String(isa)
        }
    }

    /// A setting's value as one line: strings as they are, lists space-separated.
    static func render(_ value: PBXValue) -> String {
        switch value {
        case .string(let text):
            return text
        case .array(let items):
            return items.map { item in
                let text = render(item)
                return text.contains(" ") && !text.hasPrefix("\"") ? "\"" + text + "\"" : text
            }.joined(separator: " ")
        case .data(let bytes):
            return "<" + bytes.map { String($0, radix: 16) }.joined() + ">"
        case .dictionary(let dictionary):
            return "{" + dictionary.entries.sorted { $0.key < $1.key }
                .map { "\($0.key) = \(render($0.value))" }.joined(separator: "; ") + "}"
        }
    }

    /// A package requirement in words: `up to next major from 1.2.0`, `exactly 2.0.0`, ...
    static func describe(_ requirement: PBXDictionary) -> String {
        let kind = requirement["kind"]?.string ?? ""
        let minimum = requirement["minimumVersion"]?.string ?? "?"
        switch kind {
        case "upToNextMajorVersion": return "up to next major from \(minimum)"
        case "upToNextMinorVersion": return "up to next minor from \(minimum)"
        case "exactVersion": return "exactly \(requirement["version"]?.string ?? "?")"
        case "versionRange": return "\(minimum)..<\(requirement["maximumVersion"]?.string ?? "?")"
        case "branch": return "branch \(requirement["branch"]?.string ?? "?")"
        case "revision": return "revision \(requirement["revision"]?.string ?? "?")"
        default: return render(.dictionary(requirement))
        }
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
