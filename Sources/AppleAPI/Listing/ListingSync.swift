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
    /// Push to the version on the App Store (deliver's `edit_live`) instead of the editable one:
    /// only promotional text may change there.
    public var live: Bool

    /// Options.
    public init(platform: String = "IOS", version: String? = nil, createVersion: Bool = false, locales: Set<String>? = nil, dryRun: Bool = false,
                live: Bool = false) {
        self.platform = platform
        self.version = version
        self.createVersion = createVersion
        self.locales = locales
        self.dryRun = dryRun
        self.live = live
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
    /// True when the version is the one on the App Store: only promotional text was sent.
    public var live = false
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
        try await send(try await plan(Self.check(folder: folder, options: options), app: app, options: options))
    }

    /// Reads App Store Connect and plans every write of `contents` (checked by `check`), sending
    /// nothing: a locale that cannot be written, or a text the live version does not take, stops
    /// here.
    /// - Throws: `AppStoreListingError`, `AppStoreConnectError`.
    public func plan(_ contents: ListingFolder.Contents, app: AppStoreConnectApp, options: ListingOptions) async throws -> ListingPushPlan {
        // nil: a dry run of --create-version, whose version does not exist yet.
        let (version, created) = try await editableVersion(app: app, options: options)
        var remote = RemoteListing(app: app, versionID: version?.id ?? "", versionString: version?.versionString ?? options.version ?? "",
                                   versionState: version?.state ?? "", copyright: version?.copyright)
        if let version { remote.versionLocalizations = try await client.versionListingLocalizations(versionID: version.id) }
        remote.infos = try await client.appInfos(appID: app.id)
        if let shown = remote.editableInfo ?? remote.infos.first {
            remote.infoLocalizations = try await client.appInfoLocalizations(appInfoID: shown.id)
        }
        var (result, writes) = try planWrites(contents, remote: remote, options: options)
        result.versionCreated = created
        return ListingPushPlan(result: result, versionState: remote.versionState, writes: writes)
    }

    /// Sends `plan`'s writes in order (none in a dry run); returns the result with the version
    /// localizations as they now are.
    /// - Throws: `AppStoreConnectError`.
    public func send(_ plan: ListingPushPlan) async throws -> ListingPushResult {
        var result = plan.result
        guard !result.dryRun else { return result }
        for write in plan.writes { try await write() }
        if result.changes.contains(where: { $0.field?.resource == .version }) {
            for localization in try await client.versionListingLocalizations(versionID: result.versionID) {
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

    /// The version to write: the live one with `options.live`; `options.version` (created when
    /// asked and absent; the live one takes promotional text only), else the platform's one
    /// editable version; nil in a dry run that would create it.
    /// - Throws: `AppStoreListingError.versionNotFound`, `.versionNotEditable`, `.noEditableVersion`, `.noLiveVersion`.
    func editableVersion(app: AppStoreConnectApp, options: ListingOptions) async throws -> (AppStoreVersion?, Bool) {
        let name = "'\(app.name)' (\(app.bundleID))"
        let versions = try await client.appStoreVersions(appID: app.id, platform: options.platform)
        if options.live {
            guard let live = versions.first(where: Self.isLive) else {
                throw AppStoreListingError.noLiveVersion(app: name, platform: options.platform, states: Self.states(versions))
            }
            return (live, false)
        }
        guard let wanted = options.version else {
            guard let editable = versions.first(where: \.isEditable) else {
                throw AppStoreListingError.noEditableVersion(app: name, platform: options.platform, states: Self.states(versions))
            }
            return (editable, false)
        }
        if let found = versions.first(where: { $0.versionString == wanted }) {
            guard found.isEditable || Self.isLive(found) else {
                throw AppStoreListingError.versionNotEditable(version: wanted, platform: options.platform, state: found.state)
            }
            return (found, false)
        }
        guard options.createVersion else { throw AppStoreListingError.versionNotFound(app: name, version: wanted, platform: options.platform) }
        if options.dryRun { return (nil, true) }
        return (try await client.createAppStoreVersion(appID: app.id, version: wanted, platform: options.platform, releaseType: nil, earliestReleaseDate: nil), true)
    }

    /// The states of a version on the App Store (`appVersionState`, and the older `appStoreState`).
    static let liveStates: Set<String> = ["READY_FOR_DISTRIBUTION", "READY_FOR_SALE"]

    /// True for the version on the App Store, whose promotional text can change without a new
    /// submission (App Store Connect Help, "Platform version information").
    static func isLive(_ version: AppStoreVersion) -> Bool { liveStates.contains(version.state) }

    /// "version state" of every version, newest first (by version number), for the errors that
    /// name them.
    static func states(_ versions: [AppStoreVersion]) -> [String] {
        versions.sorted { newer($0.versionString, than: $1.versionString) }.map { "\($0.versionString) \($0.state)" }
    }

    /// Compares dotted version numbers part by part (2.10 is newer than 2.9); a part that is not
    /// a number compares as text.
    static func newer(_ lhs: String, than rhs: String) -> Bool {
        let left = lhs.split(separator: "."), right = rhs.split(separator: ".")
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? String(left[index]) : "0", r = index < right.count ? String(right[index]) : "0"
            if l == r { continue }
            if let a = Int(l), let b = Int(r) { return a > b }
            return l > r
        }
        return false
    }
}

/// A push worked out and not yet sent: what it will report, and its requests in order.
public struct ListingPushPlan: Sendable {
    /// What the push reports (in a dry run: would send).
    public var result: ListingPushResult
    /// The version's state ("" when a dry run would create it).
    public var versionState: String
    let writes: [ListingSync.Write]
}
