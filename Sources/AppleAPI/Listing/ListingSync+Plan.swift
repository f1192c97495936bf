import Foundation

/// What a push found on App Store Connect.
struct RemoteListing {
    let app: AppStoreConnectApp
    /// The version written ("" in a dry run that would create it).
    let versionID: String
    let versionString: String
    /// Its state ("" in a dry run that would create it).
    let versionState: String
    let copyright: String?
    var versionLocalizations: [ListingLocalization] = []
    var infoLocalizations: [ListingLocalization] = []
    var infos: [AppStoreAppInfo] = []

    /// The app info whose texts can change.
    var editableInfo: AppStoreAppInfo? { infos.first(where: \.isEditable) }

    /// True when the version written is the one on the App Store.
    var isLive: Bool { ListingSync.liveStates.contains(versionState) }

    func localization(_ resource: ListingField.Resource, _ locale: String) -> ListingLocalization? {
        (resource == .appInfo ? infoLocalizations : versionLocalizations).first { $0.locale == locale }
    }
}

extension ListingSync {
    typealias Write = @Sendable () async throws -> Void

    /// The push's result and its writes, in order: per locale the app info's texts, then the
    /// version's; the copyright last. Locales: the folder's, and with `default/` also those App
    /// Store Connect has.
    ///
    /// On the live version only promotional text of a locale it has may change (App Store Connect
    /// Help: promotional text "can be updated at any time" without a new submission); any other
    /// change stops the push with every such text named.
    /// - Throws: `AppStoreListingError.liveVersionChanges`, `.noEditableAppInfo`, `.nameRequired`, before any write.
    func planWrites(_ contents: ListingFolder.Contents, remote: RemoteListing, options: ListingOptions) throws -> (ListingPushResult, [Write]) {
        var result = ListingPushResult(versionID: remote.versionID, versionString: remote.versionString, unsent: contents.unsent,
                                       dryRun: options.dryRun)
        result.live = remote.isLive
        var locales = Set(contents.locales.keys)
        if !contents.defaults.isEmpty {
            locales.formUnion((remote.versionLocalizations + remote.infoLocalizations).map(\.locale).filter { options.locales?.contains($0) ?? true })
        }
        for localization in remote.versionLocalizations { result.versionLocalizationIDs[localization.locale] = localization.id }
        var writes: [Write] = []
        for locale in locales.sorted() {
            var changedHere = false
            for resource in [ListingField.Resource.appInfo, .version] {
                let existing = remote.localization(resource, locale)
                let (changes, sent, same) = Self.compare(contents.effective(locale), existing, resource: resource, locale: locale)
                result.unchangedTexts += same
                guard !sent.isEmpty else { continue }
                changedHere = true
                result.changes += changes
                // Refused below, with every other change the live version does not take.
                if remote.isLive, resource == .appInfo || existing == nil { continue }
                writes.append(try write(sent, resource: resource, locale: locale, existing: existing, remote: remote))
            }
            if !changedHere { result.unchangedLocales.append(locale) }
        }
        if let copyright = contents.copyright {
            let before = ListingFolder.meaning(remote.copyright ?? "")
            if copyright != before {
                result.changes.append(ListingChange(locale: nil, field: nil, kind: before.isEmpty ? .new : .changed, before: before.count, after: copyright.count))
                let client = self.client, versionID = remote.versionID
                writes.append { try await client.setCopyright(versionID: versionID, copyright) }
            } else {
                result.unchangedTexts += 1
            }
        }
        if remote.isLive {
            let refused = result.changes.filter { change in
                change.field != .promotionalText || change.locale.flatMap { remote.localization(.version, $0) } == nil
            }
            if !refused.isEmpty {
                throw AppStoreListingError.liveVersionChanges(version: remote.versionString, platform: options.platform, state: remote.versionState,
                                                              changes: refused.map { change in
                    guard let locale = change.locale, let field = change.field else { return "copyright.txt" }
                    let file = locale + "/" + field.fileName
                    return field == .promotionalText ? file + " (a locale the version does not have)" : file
                })
            }
        }
        return (result, writes)
    }

    /// The request that sends `sent`: a PATCH of the existing localization, or a POST of a new
    /// one (with its non-empty texts; an app info localization needs a name).
    private func write(_ sent: [ListingField: String], resource: ListingField.Resource, locale: String, existing: ListingLocalization?,
                       remote: RemoteListing) throws -> Write {
        let client = self.client, versionID = remote.versionID, versionString = remote.versionString
        let filled = sent.filter { !$0.value.isEmpty }
        switch (resource, existing) {
        case (.appInfo, _):
            guard let info = remote.editableInfo else {
                throw AppStoreListingError.noEditableAppInfo(app: "'\(remote.app.name)' (\(remote.app.bundleID))", states: remote.infos.map(\.state))
            }
            if let existing { return { try await client.updateAppInfoLocalization(id: existing.id, locale: locale, texts: sent) } }
            guard filled[.name] != nil else { throw AppStoreListingError.nameRequired(locale: locale) }
            return { _ = try await client.createAppInfoLocalization(appInfoID: info.id, locale: locale, texts: filled) }
        case let (.version, existing?):
            return { try await client.updateVersionLocalization(id: existing.id, attributes: AppStoreConnectClient.attributes(sent),
                                                                action: "change the \(locale) texts of App Store version \(versionString)") }
        case (.version, nil):
            return { _ = try await client.createVersionLocalization(versionID: versionID, locale: locale, attributes: AppStoreConnectClient.attributes(filled),
                                                                    action: "add the \(locale) texts of App Store version \(versionString)") }
        }
    }
}
