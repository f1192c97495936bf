import Basics
import Foundation

/// What a pull wrote (or, in a dry run, would write).
public struct ListingPullResult: Sendable, Hashable {
    /// The App Store version read.
    public var versionID: String
    public var versionString: String
    /// Its state, e.g. READY_FOR_DISTRIBUTION.
    public var versionState: String
    /// The files written, relative to the folder.
    public var written: [String] = []
    /// The locales pulled.
    public var locales: [String] = []
    /// Files of the folder Slipway does not own (left as they are).
    public var unsent: [ListingUnsentFile] = []
    /// locale → version localization id (for the screenshot sync).
    public var versionLocalizationIDs: [String: String] = [:]
    /// Locales App Store Connect named that are not App Store locales (`AppStoreLocales`):
    /// nothing was written or read for them, since a locale names a folder.
    public var ignoredLocales: [String] = []
    /// True for a dry run (nothing was written).
    public var dryRun = false
}

extension ListingSync {
    /// Writes `app`'s listing into `folder`: every text of every locale (of `options.locales`)
    /// and the copyright, only where the folder's meaning differs; nothing is deleted.
    /// - Throws: `AppStoreListingError`, `AppStoreConnectError`, `FileSystemError`.
    public func pull(folder: ListingFolder, app: AppStoreConnectApp, options: ListingOptions) async throws -> ListingPullResult {
        try Self.checkLocales(options.locales)
        let current = fileSystem.isDirectory(folder.path) ? try folder.read(only: options.locales) : ListingFolder.Contents()
        let version = try await readableVersion(app: app, options: options)
        let infos = try await client.appInfos(appID: app.id)
        let versionLocalizations = try await client.versionListingLocalizations(versionID: version.id)
        var remote = versionLocalizations
        var result = ListingPullResult(versionID: version.id, versionString: version.versionString, versionState: version.state,
                                       unsent: current.unsent, dryRun: options.dryRun)
        var infoLocalizations: [ListingLocalization] = []
        if let info = infos.first(where: \.isEditable) ?? infos.first {
            infoLocalizations = try await client.appInfoLocalizations(appInfoID: info.id)
            remote += infoLocalizations
        }
        // A locale from the answer names a folder: only Apple's own codes may ("../../x" would
        // write outside the metadata folder). An unknown one is skipped and reported, not an
        // error, so that a locale Apple adds before Slipway lists it does not stop every pull.
        result.ignoredLocales = Array(Set(remote.map(\.locale).filter { !AppStoreLocales.isAccepted($0) })).sorted()
        remote.removeAll { !AppStoreLocales.isAccepted($0.locale) }
        for localization in versionLocalizations where AppStoreLocales.isAccepted(localization.locale) {
            result.versionLocalizationIDs[localization.locale] = localization.id
        }
        var texts = ListingTexts(copyright: version.copyright ?? "")
        for localization in remote where options.locales?.contains(localization.locale) ?? true {
            texts.locales[localization.locale, default: [:]].merge(localization.texts.mapValues(ListingFolder.meaning)) { $1 }
        }
        // A locale only the version has (a push of its version texts or screenshots alone adds
        // just that) gets no name.txt: an empty one would read as clearing the name on the next push.
        texts.withoutAppInfo = Set(texts.locales.keys).subtracting(infoLocalizations.map(\.locale))
        result.locales = texts.locales.keys.sorted()
        result.written = try folder.write(texts, over: current, dryRun: options.dryRun)
        return result
    }

    /// The version to read: the one on the App Store with `options.live`, `options.version`,
    /// else the editable one, else the one on the App Store.
    func readableVersion(app: AppStoreConnectApp, options: ListingOptions) async throws -> AppStoreVersion {
        let name = "'\(app.name)' (\(app.bundleID))"
        let versions = try await client.appStoreVersions(appID: app.id, platform: options.platform)
        if options.live {
            guard let live = versions.first(where: Self.isLive) else {
                throw AppStoreListingError.noLiveVersion(app: name, platform: options.platform, states: Self.states(versions))
            }
            return live
        }
        if let wanted = options.version {
            guard let found = versions.first(where: { $0.versionString == wanted }) else {
                throw AppStoreListingError.versionNotFound(app: name, version: wanted, platform: options.platform)
            }
            return found
        }
        guard let found = versions.first(where: \.isEditable) ?? versions.first(where: Self.isLive) else {
            throw AppStoreListingError.noEditableVersion(app: name, platform: options.platform, states: Self.states(versions))
        }
        return found
    }
}
