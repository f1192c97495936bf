import Basics
import PropertyList

/// The app target copies a `PrivacyInfo.xcprivacy`, and it declares a reason for each category
/// of required-reason API the app's sources use (ITMS-91053, "Missing API declaration").
///
/// What Slipway cannot decide, and says in docs/preflight.md: code it does not have as source
/// (binary frameworks, XCFrameworks, system libraries), Swift packages' own manifests (their
/// checkouts are not walked), whether a use found in a comment or a string is real, calls made
/// dynamically (`NSClassFromString`, `dlsym`), whether the declared reason fits the use, and the
/// third-party SDKs Apple lists as needing their own manifest and signature (ITMS-91061).
public struct PrivacyManifestRule: PreflightRule {
    public let id = "privacy-manifest"
    public let summary = "The app target has a PrivacyInfo.xcprivacy declaring each required-reason API category its sources use"
    public let citation = "https://developer.apple.com/documentation/bundleresources/describing-use-of-required-reason-api (ITMS-91053)"
    public let needsAppStoreConnect = false

    /// Each category's API names, as Apple's page lists them (Swift and Objective-C spellings).
    static let categories: [(category: String, names: [String])] = [
        ("NSPrivacyAccessedAPICategoryFileTimestamp",
         ["fileModificationDate", "contentModificationDateKey", "creationDateKey",
          "NSFileCreationDate", "NSFileModificationDate", "NSURLContentModificationDateKey", "NSURLCreationDateKey",
          "getattrlist", "getattrlistbulk", "fgetattrlist", "getattrlistat", "fstat", "fstatat", "lstat"]),
        ("NSPrivacyAccessedAPICategorySystemBootTime", ["systemUptime", "mach_absolute_time"]),
        ("NSPrivacyAccessedAPICategoryDiskSpace",
         ["volumeAvailableCapacityKey", "volumeAvailableCapacityForImportantUsageKey", "volumeAvailableCapacityForOpportunisticUsageKey",
          "volumeTotalCapacityKey", "systemFreeSize", "systemSize", "NSFileSystemFreeSize", "NSFileSystemSize",
          "NSURLVolumeAvailableCapacityKey", "NSURLVolumeAvailableCapacityForImportantUsageKey",
          "NSURLVolumeAvailableCapacityForOpportunisticUsageKey", "NSURLVolumeTotalCapacityKey", "statfs", "statvfs", "fstatfs", "fstatvfs"]),
        ("NSPrivacyAccessedAPICategoryActiveKeyboards", ["activeInputModes"]),
        ("NSPrivacyAccessedAPICategoryUserDefaults", ["UserDefaults", "NSUserDefaults", "AppStorage"]),
    ]

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? { context.applicationProblem }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        guard let app = context.mainApplication, let project = context.project else { return [] }
        var unread: [(source: String, reason: String)] = []
        let uses = Self.uses(in: project.files.sources, root: context.options.root, fileSystem: context.fileSystem, unread: &unread)
        var found: [PreflightFinding] = []
        if project.files.truncated {
            found.append(finding(.note, at: .file("."), "the checkout has more than \(project.files.budget) entries; the walk stopped there, and the sources past them were not searched for required-reason APIs",
                                 advice: "check the remaining sources by hand, or run preflight on a smaller checkout"))
        }
        if let first = unread.first {
            found.append(finding(.note, at: .file(first.source),
                                 "\(unread.count) source file\(unread.count == 1 ? "" : "s") could not be searched for required-reason APIs: "
                                 + unread.prefix(5).map { "'\($0.source)' (\($0.reason))" }.joined(separator: "; ") + (unread.count > 5 ? "; …" : ""),
                                 advice: "check them by hand: a source over \(Self.sourceBudget.limit >> 20) MiB, or one that cannot be read, is not searched"))
        }
        guard let manifest = app.privacyManifests.first else {
            guard !uses.isEmpty else {
                found.append(finding(.note, at: .file(project.projectPath),
                                     "'\(app.name)' copies no \(PreflightProject.privacyManifestName), and its sources use none of the required-reason APIs Slipway looks for; binary frameworks, packages and third-party SDKs were not checked",
                                     advice: "add a privacy manifest when the app or an SDK it bundles collects data or uses a required-reason API"))
                return found
            }
            found.append(finding(.error, at: .file(project.projectPath),
                                 "'\(app.name)' copies no \(PreflightProject.privacyManifestName), and its sources use required-reason APIs: "
                                 + uses.map { "\($0.category) (\($0.name) at \($0.place))" }.joined(separator: "; "),
                                 advice: "add PrivacyInfo.xcprivacy to the app target's resources with an NSPrivacyAccessedAPITypes entry and its reason for each category"))
            return found
        }
        let declared: [String: [String]]
        do {
            let bytes = try context.fileSystem.read(context.options.root + "/" + manifest, as: .propertyList)
            let plist = try PropertyListReader().readDictionary(bytes, file: manifest)
            declared = Dictionary((plist["NSPrivacyAccessedAPITypes"]?.array ?? []).compactMap { entry -> (String, [String])? in
                guard let type = entry["NSPrivacyAccessedAPIType"]?.string else { return nil }
                return (type, (entry["NSPrivacyAccessedAPITypeReasons"]?.array ?? []).compactMap(\.string))
            }, uniquingKeysWith: { $0 + $1 })
        } catch {
            return found + [finding(.error, at: .file(manifest), "'\(manifest)' cannot be read: \(error.localizedDescription)",
                                    advice: "make it a property list as Xcode's App Privacy template writes it")]
        }
        for use in uses {
            guard let reasons = declared[use.category] else {
                found.append(finding(.error, at: .place(use.place),
                                     "'\(app.name)' uses \(use.name), a required-reason API (\(use.category)), and '\(manifest)' declares no reason for it",
                                     advice: "add an NSPrivacyAccessedAPITypes entry for \(use.category) with the reason code that fits, to '\(manifest)'"))
                continue
            }
            if reasons.isEmpty {
                found.append(finding(.error, at: .file(manifest), "'\(manifest)' declares \(use.category) without a reason",
                                     advice: "list the reason code (NSPrivacyAccessedAPITypeReasons) that fits the use at \(use.place)"))
            }
        }
        return found
    }

    /// A source file is searched when it is at most this large (a generated one can be megabytes).
    static let sourceBudget = FileBudget("source file", limit: 32 << 20)

    /// The first use of each category in `sources` (relative paths): its category, the name found
    /// and `file:line`; the sources that could not be read (over `sourceBudget`, refused by the
    /// door) are added to `unread` with why.
    static func uses(in sources: [String], root: String, fileSystem: any FileSystem,
                     unread: inout [(source: String, reason: String)]) -> [(category: String, name: String, place: String)] {
        var names: [String: String] = [:]
        for (category, list) in categories { for name in list { names[name] = category } }
        var first: [String: (String, String)] = [:]
        for source in sources where first.count < categories.count {
            let read = Result { try fileSystem.read(root + "/" + source, as: Self.sourceBudget) }
            if case .failure(let error) = read { unread.append((source, error.localizedDescription)) }
            guard case .success(let bytes) = read else { continue }
            var line = 1
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A { line += 1; index += 1; continue }
                guard Self.isIdentifierStart(byte) else { index += 1; continue }
                let start = index
                while index < bytes.count, Self.isIdentifierStart(byte: bytes[index]) || (bytes[index] >= 0x30 && bytes[index] <= 0x39) { index += 1 }
                if index - start >= 5, let category = names[String(decoding: bytes[start..<index], as: UTF8.self)], first[category] == nil {
                    first[category] = (String(decoding: bytes[start..<index], as: UTF8.self), "\(source):\(line)")
                }
            }
        }
        return categories.compactMap { entry in first[entry.category].map { (entry.category, $0.0, $0.1) } }
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool { isIdentifierStart(byte: byte) }
    static func isIdentifierStart(byte: UInt8) -> Bool { (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F }
}
