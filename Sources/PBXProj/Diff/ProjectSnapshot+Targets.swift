/// What a snapshot keeps of a target beyond its phases and settings: dependencies, package
/// products, synchronized folders, build rules, phase attributes; and the exception sets of
/// synchronized folders.
extension ProjectSnapshot {
    /// What a target depends on.
    public enum Dependency: Hashable, Sendable {
        /// A target of this project (by id).
        case target(ObjectID)
        /// A target of another project referenced by this one: the project's name and the target's.
        case remote(project: String, target: String)
        /// A Swift package product (a plugin, say) depended on through a target dependency.
        case product(String)
    }

    /// Files of a synchronized folder listed as exceptions for one target or one build phase.
    public struct ExceptionSet: Hashable, Sendable {
        /// The synchronized folder's id.
        public let folder: ObjectID
        /// The target the exceptions are for (the phase's target for phase exception sets).
        public let target: ObjectID?
        /// The build phase's label, for `PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet`.
        public let phase: String?
        /// Relative paths excepted from membership, then other attributes as `key path: value`.
        public let entries: [String]
    }

    /// A target's dependencies in file order.
    static func dependencies(of target: PBXProj.Target, in project: PBXProject, products: [ObjectID: String]) -> [Dependency] {
        target.dependencies.compactMap { id -> Dependency? in
            guard let dependency = project.targetDependency(id) else { return nil }
            if let product = dependency.productRef { return .product(products[product] ?? product.rawValue) }
            if let target = dependency.target { return .target(target) }
            guard let proxy = dependency.targetProxy.flatMap({ project.containerItemProxy($0) }) else {
                return dependency.name.map { .remote(project: "an unknown project", target: $0) }
            }
            if proxy.containerPortal == project.rootObjectID, let remote = proxy.remoteGlobalIDString {
                return .target(ObjectID(remote))
            }
            let portal = proxy.containerPortal.flatMap { project.fileElement($0) }
            let name = portal.flatMap { $0.name ?? $0.path.map(lastComponent) } ?? "an unknown project"
            return .remote(project: name, target: proxy.remoteInfo ?? dependency.name ?? proxy.remoteGlobalIDString ?? "?")
        }
    }

    /// Package products by id, described as `Product (package location)`.
    static func packageProducts(of project: PBXProject) -> [ObjectID: String] {
        var locations: [ObjectID: String] = [:]
        for reference in project.swiftPackageReferences {
            switch reference.location {
            case .remote(let url, _): locations[reference.id] = url
            case .local(let path): locations[reference.id] = "local:" + path
            }
        }
        var result: [ObjectID: String] = [:]
        for product in project.swiftPackageProducts {
            let location = product.package.flatMap { locations[$0] }
            result[product.id] = product.productName + (location.map { " (\($0))" } ?? "")
        }
        return result
    }

    /// A target's build rules, each as one line: name, files, compiler, script, outputs.
    static func buildRules(of target: PBXObject?, in project: PBXProject) -> [String] {
        (target?.references("buildRules") ?? []).compactMap { project.object($0) }.map { rule in
            var parts = ["files " + (rule.string("filePatterns") ?? rule.string("fileType") ?? "?")]
            if let compiler = rule.string("compilerSpec") { parts.append("using " + compiler) }
            if let script = rule.string("script"), !script.isEmpty { parts.append("script " + oneLine(script)) }
            if let outputs = rule["outputFiles"], !render(outputs).isEmpty { parts.append("outputs " + render(outputs)) }
            let name = rule.string("name").map { $0 + ": " } ?? ""
            return name + parts.joined(separator: "; ")
        }
    }

    /// Keys of a build phase that change what it does, besides its files.
    private static let phaseKeys = [
        "dstPath", "shellPath", "shellScript", "inputPaths", "outputPaths", "inputFileListPaths",
        "outputFileListPaths", "dependencyFile", "alwaysOutOfDate", "showEnvVarsInLog", "runOnlyForDeploymentPostprocessing",
    ]

    /// A phase's attributes that are not its files: the copy destination, the script and its
    /// inputs and outputs, "install builds only". Empty values and Xcode's defaults are left out.
    static func details(of object: PBXObject) -> [String: String] {
        var details: [String: String] = [:]
        for key in phaseKeys {
            guard let value = object[key].map(render).map(oneLine), !value.isEmpty else { continue }
            if key == "runOnlyForDeploymentPostprocessing" && value == "0" { continue }
            details[key] = value
        }
        if let spec = object.string("dstSubfolderSpec") {
            details["dstSubfolderSpec"] = subfolders[spec].map { "\($0) (\(spec))" } ?? spec
        }
        if let subfolder = object.string("dstSubfolder") { details["dstSubfolder"] = subfolder }
        return details
    }

    /// Xcode's names for a copy-files phase's `dstSubfolderSpec`.
    private static let subfolders = [
        "0": "Absolute Path", "1": "Wrapper", "6": "Executables", "7": "Resources", "10": "Frameworks",
        "11": "Shared Frameworks", "12": "Shared Support", "13": "PlugIns", "15": "Java Resources", "16": "Products Directory",
    ]

    /// The exception sets of every synchronized folder.
    static func exceptionSets(of project: PBXProject, phaseLabels: [ObjectID: (target: ObjectID, label: String)]) -> [ExceptionSet] {
        project.synchronizedRootGroups.flatMap { folder in
            folder.exceptions.compactMap { project.exceptionSet($0) }.map { set in
                var entries = set.membershipExceptions
                for entry in set.properties.entries.sorted(by: { $0.key < $1.key }) {
                    if let dictionary = entry.value.dictionary {
                        entries += dictionary.entries.map { "\(entry.key) \($0.key): \(render($0.value))" }
                    } else {
                        entries.append("\(entry.key): \(render(entry.value))")
                    }
                }
                let owner = set.buildPhase.flatMap { phaseLabels[$0] }
                return ExceptionSet(folder: folder.element.id, target: set.target ?? owner?.target, phase: owner?.label, entries: entries)
            }
        }
    }

    /// Text on one line: line breaks and tabs written as `\n`, `\r` and `\t` (backslashes as they are).
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        var result = ""
        for character in text {
            switch character {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\r\n": result += "\\r\\n"
            case "\t": result += "\\t"
            default: result.append(character)
            }
        }
        return result
    }
}
