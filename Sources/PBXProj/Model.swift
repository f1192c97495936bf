/// The class names (`isa`) the typed model knows, and how they group.
public enum PBXIsa {
    /// A file (or folder reference).
    public static let fileReference = "PBXFileReference"
    /// A group.
    public static let group = "PBXGroup"
    /// A localized file: one child per language (`.lproj`).
    public static let variantGroup = "PBXVariantGroup"
    /// A versioned model (`.xcdatamodeld`).
    public static let versionGroup = "XCVersionGroup"
    /// An Xcode 16 folder whose files are the folder's contents.
    public static let synchronizedRootGroup = "PBXFileSystemSynchronizedRootGroup"
    /// A product of another project referenced by this one.
    public static let referenceProxy = "PBXReferenceProxy"
    /// The build settings of one configuration.
    public static let buildConfiguration = "XCBuildConfiguration"
    /// The configurations of a target or of the project.
    public static let configurationList = "XCConfigurationList"
    /// One file in one build phase.
    public static let buildFile = "PBXBuildFile"
    /// A target that builds a product.
    public static let nativeTarget = "PBXNativeTarget"
    /// A target that only groups others and runs scripts.
    public static let aggregateTarget = "PBXAggregateTarget"
    /// A target that runs an external build tool.
    public static let legacyTarget = "PBXLegacyTarget"
    /// The project object (`rootObject`).
    public static let project = "PBXProject"

    /// Whether objects of `isa` have `children` and form the group tree.
    public static func isGroupLike(_ isa: String) -> Bool {
        isa == group || isa == variantGroup || isa == versionGroup
    }

    /// Whether `isa` is a build phase.
    public static func isBuildPhase(_ isa: String) -> Bool { isa.hasSuffix("BuildPhase") }

    /// Whether `isa` is a target.
    public static func isTarget(_ isa: String) -> Bool {
        isa == nativeTarget || isa == aggregateTarget || isa == legacyTarget
    }

    /// Whether `isa` is one of Xcode 16's synchronized-folder exception sets.
    public static func isExceptionSet(_ isa: String) -> Bool {
        isa.hasPrefix("PBXFileSystemSynchronized") && isa.hasSuffix("ExceptionSet")
    }
}

/// A member of the group tree: a group, variant or version group, synchronized folder, file
/// reference or reference proxy.
public struct FileElement: Hashable, Sendable {
    /// What kind of element it is.
    public enum Kind: Hashable, Sendable {
        /// `PBXFileReference`, `PBXGroup`, `PBXVariantGroup`, `XCVersionGroup`,
        /// `PBXFileSystemSynchronizedRootGroup` and `PBXReferenceProxy`.
        case fileReference, group, variantGroup, versionGroup, synchronizedRootGroup, referenceProxy
        /// Any other isa found in a children list.
        case other(String)
    }

    /// The object's id.
    public let id: ObjectID
    /// The object's isa.
    public let isa: String
    /// The kind, from the isa.
    public let kind: Kind
    /// `name`, when set (Xcode shows it instead of the path).
    public let name: String?
    /// `path`, when set.
    public let path: String?
    /// `sourceTree` (`<group>`, `SOURCE_ROOT`, `<absolute>`, `BUILT_PRODUCTS_DIR`, ...).
    public let sourceTree: String?
    /// The children of a group (empty for files).
    public let children: [ObjectID]
    /// `lastKnownFileType` or `explicitFileType`.
    public let fileType: String?

    /// What Xcode shows: the name, else the path.
    public var displayName: String? { name ?? path }

    init(_ object: PBXObject) {
        id = object.id
        isa = object.isa
        switch object.isa {
        case PBXIsa.fileReference: kind = .fileReference
        case PBXIsa.group: kind = .group
        case PBXIsa.variantGroup: kind = .variantGroup
        case PBXIsa.versionGroup: kind = .versionGroup
        case PBXIsa.synchronizedRootGroup: kind = .synchronizedRootGroup
        case PBXIsa.referenceProxy: kind = .referenceProxy
        default: kind = .other(object.isa)
        }
        name = object.string("name")
        path = object.string("path")
        sourceTree = object.string("sourceTree")
        children = object.references("children")
        fileType = object.string("lastKnownFileType") ?? object.string("explicitFileType") ?? object.string("fileType")
    }
}

/// An Xcode 16 synchronized folder and what it lists explicitly.
public struct SynchronizedRootGroup: Hashable, Sendable {
    /// The group as a tree member.
    public let element: FileElement
    /// The exception sets (`PBXFileSystemSynchronizedBuildFileExceptionSet`, ...).
    public let exceptions: [ObjectID]
    /// Relative paths with an explicit file type.
    public let explicitFileTypes: PBXDictionary
    /// Relative paths treated as folders.
    public let explicitFolders: [String]
}

/// Files of a synchronized folder that are excluded from a target or build phase, or given
/// attributes.
public struct SynchronizedExceptionSet: Hashable, Sendable {
    /// The object's id.
    public let id: ObjectID
    /// The object's isa.
    public let isa: String
    /// The target the exceptions are for (build-file exception sets).
    public let target: ObjectID?
    /// The build phase the exceptions are for (membership exception sets).
    public let buildPhase: ObjectID?
    /// Relative paths excluded from (or added to) membership.
    public let membershipExceptions: [String]
    /// Every other key (attributes, headers visibility, compiler flags...).
    public let properties: PBXDictionary
}

/// A target: native, aggregate or legacy.
public struct Target: Hashable, Sendable {
    /// The object's id.
    public let id: ObjectID
    /// `PBXNativeTarget`, `PBXAggregateTarget` or `PBXLegacyTarget`.
    public let isa: String
    /// The target's name.
    public let name: String
    /// `productType`, for native targets.
    public let productType: String?
    /// The target's configuration list.
    public let buildConfigurationList: ObjectID?
    /// Build phases in order.
    public let buildPhases: [ObjectID]
    /// Target dependencies.
    public let dependencies: [ObjectID]
    /// Swift package products the target links.
    public let packageProductDependencies: [ObjectID]
    /// Synchronized folders whose files the target builds.
    public let fileSystemSynchronizedGroups: [ObjectID]
    /// The product's file reference.
    public let productReference: ObjectID?

    init(_ object: PBXObject) {
        id = object.id
        isa = object.isa
        name = object.string("name") ?? ""
        productType = object.string("productType")
        buildConfigurationList = object.reference("buildConfigurationList")
        buildPhases = object.references("buildPhases")
        dependencies = object.references("dependencies")
        packageProductDependencies = object.references("packageProductDependencies")
        fileSystemSynchronizedGroups = object.references("fileSystemSynchronizedGroups")
        productReference = object.reference("productReference")
    }
}

/// A build phase: sources, frameworks, resources, headers, copy files, scripts.
public struct BuildPhase: Hashable, Sendable {
    /// The object's id.
    public let id: ObjectID
    /// The phase's isa (`PBXSourcesBuildPhase`, ...).
    public let isa: String
    /// The phase's own name (copy-files and script phases), if any.
    public let name: String?
    /// The build files in order.
    public let files: [ObjectID]
}

/// One file (or package product) in one build phase.
public struct BuildFile: Hashable, Sendable {
    /// The object's id.
    public let id: ObjectID
    /// The file reference built.
    public let fileRef: ObjectID?
    /// The Swift package product built.
    public let productRef: ObjectID?
    /// Per-file settings (`ATTRIBUTES`, `COMPILER_FLAGS`).
    public let settings: PBXDictionary?
}

/// One build configuration: its name, settings and base `.xcconfig`.
public struct BuildConfiguration: Hashable, Sendable {
    /// The object's id.
    public let id: ObjectID
    /// `Debug`, `Release`, ...
    public let name: String
    /// The build settings.
    public let buildSettings: PBXDictionary
    /// The `.xcconfig` file reference the settings are based on.
    public let baseConfigurationReference: ObjectID?
    /// Xcode 16: the synchronized folder holding the base `.xcconfig`.
    public let baseConfigurationReferenceAnchor: ObjectID?
    /// Xcode 16: the base `.xcconfig`'s path inside that folder.
    public let baseConfigurationReferenceRelativePath: String?

    init(_ object: PBXObject) {
        id = object.id
        name = object.string("name") ?? ""
        buildSettings = object["buildSettings"]?.dictionary ?? PBXDictionary()
        baseConfigurationReference = object.reference("baseConfigurationReference")
        baseConfigurationReferenceAnchor = object.reference("baseConfigurationReferenceAnchor")
        baseConfigurationReferenceRelativePath = object.string("baseConfigurationReferenceRelativePath")
    }
}

/// A list of build configurations with its default.
public struct ConfigurationList: Hashable, Sendable {
    /// The object's id.
    public let id: ObjectID
    /// The configurations in order.
    public let buildConfigurations: [ObjectID]
    /// `defaultConfigurationName`.
    public let defaultConfigurationName: String?
}

/// A Swift package the project depends on.
public struct SwiftPackageReference: Hashable, Sendable {
    /// Where the package comes from.
    public enum Location: Hashable, Sendable {
        /// `XCRemoteSwiftPackageReference`: a repository URL and version requirement.
        case remote(url: String, requirement: PBXDictionary?)
        /// `XCLocalSwiftPackageReference`: a folder relative to the project.
        case local(relativePath: String)
    }

    /// The object's id.
    public let id: ObjectID
    /// Where the package comes from.
    public let location: Location
}

/// A product of a Swift package that a target uses.
public struct SwiftPackageProduct: Hashable, Sendable {
    /// The object's id.
    public let id: ObjectID
    /// The product's name (`plugin:` prefixed for build-tool plugins).
    public let productName: String
    /// The package reference, absent for products of local packages found by path.
    public let package: ObjectID?
}

/// A dependency of one target on another, possibly in another project.
public struct TargetDependency: Hashable, Sendable {
    /// The object's id.
    public let id: ObjectID
    /// The target depended on, when in this project.
    public let target: ObjectID?
    /// The container proxy describing the dependency.
    public let targetProxy: ObjectID?
    /// A package product depended on.
    public let productRef: ObjectID?
    /// The dependency's name, when set.
    public let name: String?
}

/// A pointer to an object in this or another project file.
public struct ContainerItemProxy: Hashable, Sendable {
    /// The object's id.
    public let id: ObjectID
    /// The project (or file reference to another project) holding the object.
    public let containerPortal: ObjectID?
    /// `1` for a target, `2` for a product reference.
    public let proxyType: String?
    /// The object's id inside its own project.
    public let remoteGlobalIDString: String?
    /// The object's name.
    public let remoteInfo: String?
}
