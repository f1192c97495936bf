extension PBXProject {
    /// The `PBXProject` object (`rootObject`).
    public var projectObject: PBXObject? { rootObjectID.flatMap { object($0) } }

    /// The root of the group tree.
    public var mainGroupID: ObjectID? { projectObject?.reference("mainGroup") }

    /// The group holding the products.
    public var productRefGroupID: ObjectID? { projectObject?.reference("productRefGroup") }

    /// A group-tree member by id (nil for other objects).
    public func fileElement(_ id: ObjectID) -> FileElement? {
        guard let object = object(id) else { return nil }
        return FileElement(object)
    }

    /// Every file reference.
    public var fileReferences: [FileElement] {
        objects(isa: PBXIsa.fileReference).map(FileElement.init)
    }

    /// Every group, variant group and version group.
    public var groups: [FileElement] {
        [PBXIsa.group, PBXIsa.variantGroup, PBXIsa.versionGroup].flatMap { objects(isa: $0) }.map(FileElement.init)
    }

    /// Every synchronized folder (Xcode 16).
    public var synchronizedRootGroups: [SynchronizedRootGroup] {
        objectIDs(isa: PBXIsa.synchronizedRootGroup).compactMap { synchronizedRootGroup($0) }
    }

    /// A synchronized folder by id.
    public func synchronizedRootGroup(_ id: ObjectID) -> SynchronizedRootGroup? {
        guard let object = object(id), object.isa == PBXIsa.synchronizedRootGroup else { return nil }
        return SynchronizedRootGroup(
            element: FileElement(object), exceptions: object.references("exceptions"),
            explicitFileTypes: object["explicitFileTypes"]?.dictionary ?? PBXDictionary(),
            explicitFolders: object["explicitFolders"]?.strings ?? [])
    }

    /// A synchronized folder's exception set by id.
    public func exceptionSet(_ id: ObjectID) -> SynchronizedExceptionSet? {
        guard let object = object(id), PBXIsa.isExceptionSet(object.isa) else { return nil }
        var properties = object.properties
        for key in ["isa", "target", "buildPhase", "membershipExceptions"] { properties[key] = nil }
        return SynchronizedExceptionSet(
            id: id, isa: object.isa, target: object.reference("target"), buildPhase: object.reference("buildPhase"),
            membershipExceptions: object["membershipExceptions"]?.strings ?? [], properties: properties)
    }

    /// The targets in the project's order (then any target object it does not list).
    public var targets: [Target] {
        let listed = projectObject?.references("targets") ?? []
        var result = listed.compactMap { target($0) }
        let known = Set(listed)
        for isa in [PBXIsa.nativeTarget, PBXIsa.aggregateTarget, PBXIsa.legacyTarget] {
            result += objectIDs(isa: isa).filter { !known.contains($0) }.compactMap { target($0) }
        }
        return result
    }

    /// A target by id.
    public func target(_ id: ObjectID) -> Target? {
        guard let object = object(id), PBXIsa.isTarget(object.isa) else { return nil }
        return Target(object)
    }

    /// The first target named `name`.
    public func target(named name: String) -> Target? {
        targets.first { $0.name == name }
    }

    /// A build phase by id.
    public func buildPhase(_ id: ObjectID) -> BuildPhase? {
        guard let object = object(id), PBXIsa.isBuildPhase(object.isa) else { return nil }
        return BuildPhase(id: id, isa: object.isa, name: object.string("name"), files: object.references("files"))
    }

    /// A build file by id.
    public func buildFile(_ id: ObjectID) -> BuildFile? {
        guard let object = object(id), object.isa == PBXIsa.buildFile else { return nil }
        return BuildFile(
            id: id, fileRef: object.reference("fileRef"), productRef: object.reference("productRef"),
            settings: object["settings"]?.dictionary)
    }

    /// A build configuration by id.
    public func buildConfiguration(_ id: ObjectID) -> BuildConfiguration? {
        guard let object = object(id), object.isa == PBXIsa.buildConfiguration else { return nil }
        return BuildConfiguration(object)
    }

    /// A configuration list by id.
    public func configurationList(_ id: ObjectID) -> ConfigurationList? {
        guard let object = object(id), object.isa == PBXIsa.configurationList else { return nil }
        return ConfigurationList(
            id: id, buildConfigurations: object.references("buildConfigurations"),
            defaultConfigurationName: object.string("defaultConfigurationName"))
    }

    /// The build configurations of a target or of the project object, in list order.
    public func buildConfigurations(of owner: ObjectID) -> [BuildConfiguration] {
        guard let list = object(owner)?.reference("buildConfigurationList"), let configurations = configurationList(list)
        else { return [] }
        return configurations.buildConfigurations.compactMap { buildConfiguration($0) }
    }

    /// Every Swift package reference, remote and local.
    public var swiftPackageReferences: [SwiftPackageReference] {
        let remote = objects(isa: "XCRemoteSwiftPackageReference").map {
            SwiftPackageReference(
                id: $0.id, location: .remote(url: $0.string("repositoryURL") ?? "", requirement: $0["requirement"]?.dictionary))
        }
        let local = objects(isa: "XCLocalSwiftPackageReference").map {
            SwiftPackageReference(id: $0.id, location: .local(relativePath: $0.string("relativePath") ?? ""))
        }
        return remote + local
    }

    /// Every Swift package product used by a target.
    public var swiftPackageProducts: [SwiftPackageProduct] {
        objects(isa: "XCSwiftPackageProductDependency").map {
            SwiftPackageProduct(id: $0.id, productName: $0.string("productName") ?? "", package: $0.reference("package"))
        }
    }

    /// A target dependency by id.
    public func targetDependency(_ id: ObjectID) -> TargetDependency? {
        guard let object = object(id), object.isa == "PBXTargetDependency" else { return nil }
        return TargetDependency(
            id: id, target: object.reference("target"), targetProxy: object.reference("targetProxy"),
            productRef: object.reference("productRef"), name: object.string("name"))
    }

    /// A container item proxy by id.
    public func containerItemProxy(_ id: ObjectID) -> ContainerItemProxy? {
        guard let object = object(id), object.isa == "PBXContainerItemProxy" else { return nil }
        return ContainerItemProxy(
            id: id, containerPortal: object.reference("containerPortal"), proxyType: object.string("proxyType"),
            remoteGlobalIDString: object.string("remoteGlobalIDString"), remoteInfo: object.string("remoteInfo"))
    }
}
