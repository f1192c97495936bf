/// A problem found by `PBXProject.validate()`.
public struct PBXProjDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious it is.
    public enum Severity: String, Hashable, Sendable {
        /// Xcode opens the project anyway (and usually drops the offending entry on save).
        case warning
        /// The project is damaged: Xcode refuses it or misbehaves.
        case error
    }

    /// How serious it is.
    public let severity: Severity
    /// Where in the file, when the problem has a place.
    public let location: SourceLocation?
    /// The object the problem is in.
    public let objectID: ObjectID?
    /// What is wrong and what to do.
    public let message: String

    /// `line:column: severity: message`.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message)"
    }
}

extension PBXProject {
    /// Keys whose value is one object id.
    static let singleReferenceKeys: Set<String> = [
        "fileRef", "productRef", "buildConfigurationList", "mainGroup", "productRefGroup", "productReference",
        "target", "targetProxy", "containerPortal", "remoteRef", "baseConfigurationReference",
        "baseConfigurationReferenceAnchor", "package", "buildPhase", "ProductGroup", "ProjectRef",
    ]
    /// Keys whose value is a list of object ids.
    static let listReferenceKeys: Set<String> = [
        "children", "files", "buildPhases", "buildRules", "dependencies", "targets", "buildConfigurations",
        "packageProductDependencies", "packageReferences", "fileSystemSynchronizedGroups", "exceptions",
    ]

    /// Checks what the syntax cannot: references to objects that do not exist (a warning: real
    /// projects carry such leftovers of merges and Xcode opens them), a missing root object and
    /// cycles in the group tree (errors).
    public func validate() -> [PBXProjDiagnostic] {
        var diagnostics: [PBXProjDiagnostic] = []
        guard let root = rootObjectID, contains(root) else {
            let found = rootObjectID?.rawValue ?? ""
            return [PBXProjDiagnostic(
                severity: .error, location: rootLocation, objectID: nil,
                message: "'rootObject' names '\(found)', which is not an object; the file is damaged")]
        }
        var lines: LineIndex?
        for id in objectIDs {
            guard let object = object(id) else { continue }
            checkReferences(in: object, lines: &lines, into: &diagnostics)
        }
        do {
            _ = try groupTree()
        } catch let error as PBXProjError {
            diagnostics.append(PBXProjDiagnostic(severity: .error, location: error.location, objectID: nil, message: error.message))
        } catch {
            diagnostics.append(PBXProjDiagnostic(severity: .error, location: nil, objectID: nil, message: "\(error)"))
        }
        return diagnostics
    }

    private func checkReferences(in object: PBXObject, lines: inout LineIndex?, into diagnostics: inout [PBXProjDiagnostic]) {
        for entry in object.properties {
            if PBXProject.singleReferenceKeys.contains(entry.key), let id = entry.value.string {
                checkReference(id, key: entry.key, in: object, index: nil, lines: &lines, into: &diagnostics)
            } else if PBXProject.listReferenceKeys.contains(entry.key), let list = entry.value.array {
                for (index, element) in list.enumerated() {
                    if let id = element.string {
                        checkReference(id, key: entry.key, in: object, index: index, lines: &lines, into: &diagnostics)
                    }
                }
            } else if entry.key == "projectReferences", let list = entry.value.array {
                for case .dictionary(let reference) in list {
                    for inner in reference {
                        if let id = inner.value.string, !contains(ObjectID(id)) {
                            diagnostics.append(dangling(id, key: "projectReferences.\(inner.key)", in: object, index: nil, lines: &lines))
                        }
                    }
                }
            }
        }
    }

    private func checkReference(
        _ id: String, key: String, in object: PBXObject, index: Int?, lines: inout LineIndex?,
        into diagnostics: inout [PBXProjDiagnostic]
    ) {
        guard !contains(ObjectID(id)) else { return }
        diagnostics.append(dangling(id, key: key, in: object, index: index, lines: &lines))
    }

    private func dangling(_ id: String, key: String, in object: PBXObject, index: Int?, lines: inout LineIndex?) -> PBXProjDiagnostic {
        let index = referenceOffset(in: object.id, key: key, index: index)
        if index != nil && lines == nil { lines = LineIndex(tree.bytes) }
        return PBXProjDiagnostic(
            severity: .warning, location: index.flatMap { lines?.location(of: $0) }, objectID: object.id,
            message: "'\(key)' of \(object.isa) '\(object.id)' refers to '\(id)', which is not an object; remove the entry (Xcode drops it when it saves)")
    }

    /// The offset of a reference inside an object as read (nil for edited objects).
    private func referenceOffset(in id: ObjectID, key: String, index: Int?) -> Int? {
        guard changes.objects[id] == nil, let entry = table.find(id.rawValue, in: tree) else { return nil }
        let body = Int(table.entries[entry].value)
        guard let value = tree.lookup(key, in: body) else { return Int(tree.nodes[Int(table.entries[entry].key)].start) }
        if let index, tree.nodes[value].kind == .array,
            let child = tree.children(value).dropFirst(index).first(where: { _ in true }) {
            return Int(tree.nodes[child].start)
        }
        return Int(tree.nodes[value].start)
    }

    private var rootLocation: SourceLocation? {
        tree.lookup("rootObject", in: 0).map { tree.location(ofNode: $0) }
    }
}
