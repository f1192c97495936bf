import Foundation

/// An app info (the `appInfos` resource: what an app shares across its versions, among them the
/// localized name, subtitle and privacy policy URL).
public struct AppStoreAppInfo: Sendable, Hashable {
    /// Its id.
    public var id: String
    /// `state` (or the older `appStoreState`), e.g. PREPARE_FOR_SUBMISSION.
    public var state: String

    /// The states in which the app info's texts can be changed (Apple's `AppInfo.state` values
    /// before review; READY_FOR_DISTRIBUTION, ACCEPTED and the rest are locked).
    public static let editableStates: Set<String> = ["PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "DEVELOPER_REJECTED", "REJECTED"]

    /// True while its texts can be changed.
    public var isEditable: Bool { Self.editableStates.contains(state) }

    init(_ resource: JSONAPIResource) {
        id = resource.id
        state = resource.string("state") ?? resource.string("appStoreState") ?? ""
    }
}

/// The texts of one locale of an app info or an App Store version.
public struct ListingLocalization: Sendable, Hashable {
    /// The localization's id.
    public var id: String
    /// The locale, e.g. `en-US`.
    public var locale: String
    /// The texts it holds (fields without a value are absent).
    public var texts: [ListingField: String]

    init(_ resource: JSONAPIResource, fields: [ListingField]) {
        id = resource.id
        locale = resource.string("locale") ?? ""
        var texts: [ListingField: String] = [:]
        for field in fields { if let text = resource.string(field.attribute) { texts[field] = text } }
        self.texts = texts
    }
}

/// The App Store listing's texts: app infos and their localizations
/// (https://developer.apple.com/documentation/appstoreconnectapi/app-info-localizations), and the
/// full texts of App Store version localizations.
extension AppStoreConnectClient {
    /// The app's app infos (`GET /v1/apps/{id}/appInfos`).
    /// - Throws: `AppStoreConnectError`.
    public func appInfos(appID: String) async throws -> [AppStoreAppInfo] {
        try await all(AppStoreConnectRequest(
            .get, "/v1/apps/\(appID)/appInfos",
            query: [URLQueryItem(name: "fields[appInfos]", value: "state,appStoreState"), URLQueryItem(name: "limit", value: "50")],
            action: "list the app infos of app \(appID)", roles: Self.readRoles)).map(AppStoreAppInfo.init)
    }

    /// The app's App Store versions on `platform` (every state; `GET /v1/apps/{id}/appStoreVersions`).
    /// - Throws: `AppStoreConnectError`.
    public func appStoreVersions(appID: String, platform: String) async throws -> [AppStoreVersion] {
        try await all(AppStoreConnectRequest(
            .get, "/v1/apps/\(appID)/appStoreVersions",
            query: [URLQueryItem(name: "filter[platform]", value: platform), URLQueryItem(name: "fields[appStoreVersions]", value: Self.versionFields),
                    URLQueryItem(name: "limit", value: "200")],
            action: "list the App Store versions of app \(appID) (\(platform))", roles: Self.readRoles)).map(AppStoreVersion.init)
    }

    /// An app info's localizations (`GET /v1/appInfos/{id}/appInfoLocalizations`).
    /// - Throws: `AppStoreConnectError`.
    public func appInfoLocalizations(appInfoID: String) async throws -> [ListingLocalization] {
        let fields = ListingField.fields(of: .appInfo)
        return try await all(AppStoreConnectRequest(
            .get, "/v1/appInfos/\(appInfoID)/appInfoLocalizations",
            query: [URLQueryItem(name: "fields[appInfoLocalizations]", value: (["locale"] + fields.map(\.attribute)).joined(separator: ",")),
                    URLQueryItem(name: "limit", value: "200")],
            action: "list the localizations of app info \(appInfoID)", roles: Self.readRoles)).map { ListingLocalization($0, fields: fields) }
    }

    /// Adds a locale to an app info (`POST /v1/appInfoLocalizations`; `name` is required).
    /// - Throws: `AppStoreConnectError`, `AppStoreDistributionError.unexpectedAnswer`.
    public func createAppInfoLocalization(appInfoID: String, locale: String, texts: [ListingField: String]) async throws -> String {
        let made = try await document(AppStoreConnectRequest(
            .post, "/v1/appInfoLocalizations",
            body: JSONAPI.document(type: "appInfoLocalizations", attributes: Self.attributes(texts).merging(["locale": .string(locale)]) { $1 },
                                   relationships: ["appInfo": JSONAPIIdentifier(type: "appInfos", id: appInfoID).json]),
            action: "add the \(locale) name and subtitle", roles: Self.releaseRoles, retry: .blindly))
        guard let id = made.first?.id else {
            throw AppStoreDistributionError.unexpectedAnswer(step: "POST /v1/appInfoLocalizations", problem: "no data")
        }
        return id
    }

    /// Changes an app info localization's texts (`PATCH /v1/appInfoLocalizations/{id}`; an empty
    /// text is sent as null, which clears it).
    /// - Throws: `AppStoreConnectError`.
    public func updateAppInfoLocalization(id: String, locale: String, texts: [ListingField: String]) async throws {
        _ = try await send(AppStoreConnectRequest(
            .patch, "/v1/appInfoLocalizations/\(id)",
            body: JSONAPI.document(type: "appInfoLocalizations", id: id, attributes: Self.attributes(texts)),
            action: "change the \(locale) name, subtitle or privacy URL", roles: Self.releaseRoles, retry: .blindly))
    }

    /// A version's localizations with every listing text
    /// (`GET /v1/appStoreVersions/{id}/appStoreVersionLocalizations`).
    /// - Throws: `AppStoreConnectError`.
    public func versionListingLocalizations(versionID: String) async throws -> [ListingLocalization] {
        let fields = ListingField.fields(of: .version)
        return try await all(AppStoreConnectRequest(
            .get, "/v1/appStoreVersions/\(versionID)/appStoreVersionLocalizations",
            query: [URLQueryItem(name: "fields[appStoreVersionLocalizations]", value: (["locale"] + fields.map(\.attribute)).joined(separator: ",")),
                    URLQueryItem(name: "limit", value: "200")],
            action: "list the localizations of App Store version \(versionID)", roles: Self.readRoles)).map { ListingLocalization($0, fields: fields) }
    }

    /// Adds a locale to a version with these attributes (`POST /v1/appStoreVersionLocalizations`); returns its id.
    /// - Throws: `AppStoreConnectError`, `AppStoreDistributionError.unexpectedAnswer`.
    @discardableResult
    public func createVersionLocalization(versionID: String, locale: String, attributes: [String: JSONValue], action: String) async throws -> String {
        let made = try await document(AppStoreConnectRequest(
            .post, "/v1/appStoreVersionLocalizations",
            body: JSONAPI.document(type: "appStoreVersionLocalizations", attributes: attributes.merging(["locale": .string(locale)]) { $1 },
                                   relationships: ["appStoreVersion": JSONAPIIdentifier(type: "appStoreVersions", id: versionID).json]),
            action: action, roles: Self.releaseRoles, retry: .blindly))
        guard let id = made.first?.id else {
            throw AppStoreDistributionError.unexpectedAnswer(step: "POST /v1/appStoreVersionLocalizations", problem: "no data")
        }
        return id
    }

    /// Changes a version localization's attributes (`PATCH /v1/appStoreVersionLocalizations/{id}`).
    /// - Throws: `AppStoreConnectError`.
    public func updateVersionLocalization(id: String, attributes: [String: JSONValue], action: String) async throws {
        _ = try await send(AppStoreConnectRequest(
            .patch, "/v1/appStoreVersionLocalizations/\(id)",
            body: JSONAPI.document(type: "appStoreVersionLocalizations", id: id, attributes: attributes),
            action: action, roles: Self.releaseRoles, retry: .blindly))
    }

    /// Sets a version's copyright (`PATCH /v1/appStoreVersions/{id}`).
    /// - Throws: `AppStoreConnectError`.
    public func setCopyright(versionID: String, _ copyright: String) async throws {
        _ = try await send(AppStoreConnectRequest(
            .patch, "/v1/appStoreVersions/\(versionID)",
            body: JSONAPI.document(type: "appStoreVersions", id: versionID, attributes: ["copyright": copyright.isEmpty ? .null : .string(copyright)]),
            action: "set the copyright of App Store version \(versionID)", roles: Self.releaseRoles, retry: .blindly))
    }

    /// The attributes for `texts`: empty texts as null (clears them).
    static func attributes(_ texts: [ListingField: String]) -> [String: JSONValue] {
        var attributes: [String: JSONValue] = [:]
        for (field, text) in texts { attributes[field.attribute] = text.isEmpty ? .null : .string(text) }
        return attributes
    }
}
