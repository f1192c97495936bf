import Basics
import Foundation

/// Which listing to work on, and how.
public struct ListingOptions: Sendable, Hashable {
    /// IOS, MAC_OS, TV_OS or VISION_OS.
    public var platform: String
    /// The version string; nil: the platform's editable version.
    public var version: String?
    /// Create `version` when the app does not have it.
    public var createVersion: Bool
    /// Only these locales; nil: every locale.
    public var locales: Set<String>?
    /// Plan only: send (or write) nothing.
    public var dryRun: Bool

    /// Options.
    public init(platform: String = "IOS", version: String? = nil, createVersion: Bool = false, locales: Set<String>? = nil, dryRun: Bool = false) {
        self.platform = platform
        self.version = version
        self.createVersion = createVersion
        self.locales = locales
        self.dryRun = dryRun
    }
}

/// One text that a push sends (or would send).
public struct ListingChange: Sendable, Hashable {
    /// `new` (nothing on App Store Connect) or `changed`.
    public enum Kind: String, Sendable { case new, changed }
    /// The locale; nil for the copyright.
    public var locale: String?
    /// The field; nil for the copyright.
    public var field: ListingField?
    /// new or changed.
    public var kind: Kind
    /// Characters on App Store Connect before.
    public var before: Int
    /// Characters sent.
    public var after: Int

    /// A change.
    public init(locale: String?, field: ListingField?, kind: Kind, before: Int, after: Int) {
        self.locale = locale
        self.field = field
        self.kind = kind
        self.before = before
        self.after = after
    }
}

/// What a push did (or, in a dry run, would do).
public struct ListingPushResult: Sendable, Hashable {
    /// The App Store version's id and version string.
    public var versionID: String
    public var versionString: String
    /// True when the version was created by this push.
    public var versionCreated = false
    /// The texts sent, by locale then field order.
    public var changes: [ListingChange] = []
    /// Locales with nothing to send.
    public var unchangedLocales: [String] = []
    /// Texts equal on both sides.
    public var unchangedTexts = 0
    /// The files not sent.
    public var unsent: [ListingUnsentFile] = []
    /// locale → the version localization's id (for the screenshot sync); in a dry run, locales
    /// that would be created are absent.
    public var versionLocalizationIDs: [String: String] = [:]
    /// True for a dry run (nothing was sent).
    public var dryRun = false
}

/// Pushes a metadata folder to App Store Connect and pulls it back: name, subtitle and privacy
/// URL to the app info's localizations, the other texts to the App Store version's, the
/// copyright to the version. Limits are checked before anything is sent; a push sends only the
/// texts whose meaning differs (see `ListingFolder`) and leaves texts the folder does not have
/// alone.
public struct ListingSync: Sendable {
    let client: AppStoreConnectClient
    let fileSystem: any FileSystem

    /// A sync over `client`, reading and writing through `fileSystem`.
    public init(client: AppStoreConnectClient, fileSystem: any FileSystem) {
        self.client = client
        self.fileSystem = fileSystem
    }

    /// Reads and checks the folder offline: locales, UTF-8, every limit.
    /// - Throws: `AppStoreListingError` (every limit violation at once), `FileSystemError`.
    public static func check(folder: ListingFolder, options: ListingOptions) throws -> ListingFolder.Contents {
        try checkLocales(options.locales)
        let contents = try folder.read(only: options.locales)
        let violations = ListingLimits.violations(in: contents, locales: Array(contents.locales.keys))
        if !violations.isEmpty { throw AppStoreListingError.invalidTexts(violations) }
        return contents
    }

    static func checkLocales(_ locales: Set<String>?) throws {
        for code in (locales ?? []).sorted() where !AppStoreLocales.isAccepted(code) {
            throw AppStoreListingError.unknownLocale(code, suggestions: AppStoreLocales.suggestions(for: code))
        }
    }

    /// Pushes `folder` to `app`'s listing: checks it offline, reads App Store Connect, plans
    /// every write (so a locale that cannot be written stops the push before anything is sent),
    /// then sends them in order (none in a dry run).
    /// - Throws: `AppStoreListingError`, `AppStoreConnectError`, `FileSystemError`.
    public func push(folder: ListingFolder, app: AppStoreConnectApp, options: ListingOptions) async throws -> ListingPushResult {
        let contents = try Self.check(folder: folder, options: options)
        // nil: a dry run of --create-version, whose version does not exist yet.
        let (version, created) = try await editableVersion(app: app, options: options)
        var remote = RemoteListing(app: app, versionID: version?.id ?? "",
                                   versionString: version?.versionString ?? options.version ?? "", copyright: version?.copyright)
        if let version { remote.versionLocalizations = try await client.versionListingLocalizations(versionID: version.id) }
        remote.infos = try await client.appInfos(appID: app.id)
        if let shown = remote.editableInfo ?? remote.infos.first {
            remote.infoLocalizations = try await client.appInfoLocalizations(appInfoID: shown.id)
        }
        var (result, writes) = try plan(contents, remote: remote, options: options)
        result.versionCreated = created
        guard !options.dryRun else { return result }
        for write in writes { try await write() }
        if result.changes.contains(where: { $0.field?.resource == .version }) {
            for localization in try await client.versionListingLocalizations(versionID: remote.versionID) {
                result.versionLocalizationIDs[localization.locale] = localization.id
            }
        }
        return result
    }

    /// The texts of `resource` to send: the changes, the texts (only those that differ) and how
    /// many were the same. Fields the folder does not have are left alone.
    static func compare(_ local: [ListingField: String], _ remote: ListingLocalization?, resource: ListingField.Resource,
                        locale: String) -> ([ListingChange], [ListingField: String], Int) {
        var changes: [ListingChange] = [], sent: [ListingField: String] = [:], same = 0
        for field in ListingField.fields(of: resource) {
            guard let text = local[field] else { continue }
            let before = ListingFolder.meaning(remote?.texts[field] ?? "")
            if before == text, remote != nil || text.isEmpty {
                same += 1
                continue
            }
            sent[field] = text
            changes.append(ListingChange(locale: locale, field: field, kind: before.isEmpty ? .new : .changed, before: before.count, after: text.count))
        }
        return (changes, sent, same)
    }

    /// The version to write: `options.version` (created when asked and absent), else the
    /// platform's one editable version; nil in a dry run that would create it.
    /// - Throws: `AppStoreListingError.versionNotFound`, `.versionNotEditable`, `.noEditableVersion`.
    func editableVersion(app: AppStoreConnectApp, options: ListingOptions) async throws -> (AppStoreVersion?, Bool) {
        let name = "'\(app.name)' (\(app.bundleID))"
        let versions = try await client.appStoreVersions(appID: app.id, platform: options.platform)
        guard let wanted = options.version else {
            guard let editable = versions.first(where: \.isEditable) else {
                throw AppStoreListingError.noEditableVersion(app: name, platform: options.platform,
                                                             states: versions.map { "\($0.versionString) \($0.state)" })
            }
            return (editable, false)
        }
        if let found = versions.first(where: { $0.versionString == wanted }) {
            guard found.isEditable else { throw AppStoreListingError.versionNotEditable(version: wanted, platform: options.platform, state: found.state) }
            return (found, false)
        }
        guard options.createVersion else { throw AppStoreListingError.versionNotFound(app: name, version: wanted, platform: options.platform) }
        if options.dryRun { return (nil, true) }
        return (try await client.createAppStoreVersion(appID: app.id, version: wanted, platform: options.platform, releaseType: nil, earliestReleaseDate: nil), true)
    }
}
