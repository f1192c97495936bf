import Foundation

/// An App Store version (the `appStoreVersions` resource's attributes Slipway reads).
public struct AppStoreVersion: Sendable, Hashable {
    /// Its id.
    public var id: String
    /// The version string, e.g. `1.4.0`.
    public var versionString: String
    /// IOS, MAC_OS, TV_OS or VISION_OS.
    public var platform: String
    /// `appVersionState` (or the older `appStoreState`), e.g. PREPARE_FOR_SUBMISSION.
    public var state: String
    /// MANUAL, AFTER_APPROVAL or SCHEDULED.
    public var releaseType: String?
    /// For SCHEDULED: the earliest release date (ISO 8601).
    public var earliestReleaseDate: String?
    /// The copyright line (`copyright`), when read.
    public var copyright: String?

    /// True while the version's metadata and build can still be changed.
    public var isEditable: Bool { Self.editableStates.contains(state) }

    /// The states in which App Store Connect lets a version be edited.
    public static let editableStates: Set<String> = [
        "PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "DEVELOPER_REJECTED", "REJECTED", "METADATA_REJECTED", "INVALID_BINARY",
    ]

    init(_ resource: JSONAPIResource) {
        id = resource.id
        versionString = resource.string("versionString") ?? ""
        platform = resource.string("platform") ?? ""
        state = resource.string("appVersionState") ?? resource.string("appStoreState") ?? ""
        releaseType = resource.string("releaseType")
        earliestReleaseDate = resource.string("earliestReleaseDate")
        copyright = resource.string("copyright")
    }
}

/// App Store versions, their localizations and phased release
/// (https://developer.apple.com/documentation/appstoreconnectapi/app-store-versions).
extension AppStoreConnectClient {
    /// The roles that may edit and submit App Store versions.
    public static let releaseRoles = ["Admin", "App Manager"]

    static let versionFields = "versionString,platform,appVersionState,releaseType,earliestReleaseDate,copyright"

    /// The app's versions with this version string on `platform`.
    public func appStoreVersions(appID: String, version: String, platform: String) async throws -> [AppStoreVersion] {
        try await all(AppStoreConnectRequest(
            .get, "/v1/apps/\(appID)/appStoreVersions",
            query: [URLQueryItem(name: "filter[versionString]", value: version), URLQueryItem(name: "filter[platform]", value: platform),
                    URLQueryItem(name: "fields[appStoreVersions]", value: Self.versionFields)],
            action: "look up App Store version \(version) (\(platform))", roles: Self.readRoles)).map(AppStoreVersion.init)
    }

    /// Creates a version (`POST /v1/appStoreVersions`).
    public func createAppStoreVersion(appID: String, version: String, platform: String, releaseType: String?,
                                      earliestReleaseDate: String?) async throws -> AppStoreVersion {
        var attributes: [String: JSONValue] = ["versionString": .string(version), "platform": .string(platform)]
        if let releaseType { attributes["releaseType"] = .string(releaseType) }
        if let earliestReleaseDate { attributes["earliestReleaseDate"] = .string(earliestReleaseDate) }
        let made = try await document(AppStoreConnectRequest(
            .post, "/v1/appStoreVersions",
            body: JSONAPI.document(type: "appStoreVersions", attributes: attributes, relationships: ["app": JSONAPIIdentifier(type: "apps", id: appID).json]),
            action: "create App Store version \(version) (\(platform))", roles: Self.releaseRoles, retry: .blindly))
        guard let resource = made.first else {
            throw AppStoreDistributionError.unexpectedAnswer(step: "POST /v1/appStoreVersions", problem: "no data")
        }
        return AppStoreVersion(resource)
    }

    /// Changes the release type (`PATCH /v1/appStoreVersions/{id}`).
    public func setReleaseType(versionID: String, _ releaseType: String, earliestReleaseDate: String?) async throws {
        _ = try await send(AppStoreConnectRequest(
            .patch, "/v1/appStoreVersions/\(versionID)",
            body: JSONAPI.document(type: "appStoreVersions", id: versionID,
                                   attributes: ["releaseType": .string(releaseType), "earliestReleaseDate": earliestReleaseDate.map(JSONValue.string) ?? .null]),
            action: "set the release type of App Store version \(versionID)", roles: Self.releaseRoles, retry: .blindly))
    }

    /// The build attached to a version, or nil (`GET /v1/appStoreVersions/{id}/relationships/build`;
    /// none reads as `data: null` or, as Apple's OpenAPI document has it, a 404).
    public func attachedBuildID(versionID: String) async throws -> String? {
        do {
            return try await document(AppStoreConnectRequest(
                .get, "/v1/appStoreVersions/\(versionID)/relationships/build",
                action: "read the build of App Store version \(versionID)", roles: Self.readRoles)).first?.id
        } catch let error as AppStoreConnectError where error.status == 404 {
            return nil
        }
    }

    /// Attaches a build (`PATCH /v1/appStoreVersions/{id}/relationships/build`).
    public func attachBuild(_ buildID: String, toVersion versionID: String) async throws {
        _ = try await send(AppStoreConnectRequest(
            .patch, "/v1/appStoreVersions/\(versionID)/relationships/build",
            body: JSONAPI.linkage(JSONAPIIdentifier(type: "builds", id: buildID)),
            action: "attach build \(buildID) to App Store version \(versionID)", roles: Self.releaseRoles, retry: .blindly))
    }

    /// The version's "What's New" texts by locale: locale → (localization id, text).
    public func versionLocalizations(versionID: String) async throws -> [String: (id: String, text: String?)] {
        let resources = try await all(AppStoreConnectRequest(
            .get, "/v1/appStoreVersions/\(versionID)/appStoreVersionLocalizations",
            query: [URLQueryItem(name: "fields[appStoreVersionLocalizations]", value: "locale,whatsNew"), URLQueryItem(name: "limit", value: "200")],
            action: "list the localizations of App Store version \(versionID)", roles: Self.readRoles))
        var result: [String: (id: String, text: String?)] = [:]
        for resource in resources { if let locale = resource.string("locale") { result[locale] = (resource.id, resource.string("whatsNew")) } }
        return result
    }

    /// Creates a localization with "What's New" (`POST /v1/appStoreVersionLocalizations`).
    public func createVersionLocalization(versionID: String, locale: String, whatsNew: String) async throws {
        _ = try await createVersionLocalization(versionID: versionID, locale: locale, attributes: ["whatsNew": .string(whatsNew)],
                                                action: "add the \(locale) release notes")
    }

    /// Changes "What's New" (`PATCH /v1/appStoreVersionLocalizations/{id}`).
    public func updateVersionLocalization(id: String, locale: String, whatsNew: String) async throws {
        try await updateVersionLocalization(id: id, attributes: ["whatsNew": .string(whatsNew)], action: "change the \(locale) release notes")
    }

    /// The version's phased release (id, state), or nil
    /// (`GET /v1/appStoreVersions/{id}/appStoreVersionPhasedRelease`; `data: null` or 404 when none).
    public func phasedRelease(versionID: String) async throws -> (id: String, state: String)? {
        do {
            let found = try await document(AppStoreConnectRequest(
                .get, "/v1/appStoreVersions/\(versionID)/appStoreVersionPhasedRelease",
                action: "read the phased release of App Store version \(versionID)", roles: Self.readRoles)).first
            return found.map { ($0.id, $0.string("phasedReleaseState") ?? "") }
        } catch let error as AppStoreConnectError where error.status == 404 {
            return nil
        }
    }

    /// Turns phased release on (`POST /v1/appStoreVersionPhasedReleases`, state INACTIVE until release).
    public func createPhasedRelease(versionID: String) async throws {
        _ = try await send(AppStoreConnectRequest(
            .post, "/v1/appStoreVersionPhasedReleases",
            body: JSONAPI.document(type: "appStoreVersionPhasedReleases", attributes: ["phasedReleaseState": "INACTIVE"],
                                   relationships: ["appStoreVersion": JSONAPIIdentifier(type: "appStoreVersions", id: versionID).json]),
            action: "turn on phased release for App Store version \(versionID)", roles: Self.releaseRoles, retry: .blindly))
    }

    /// Turns phased release off before release (`DELETE /v1/appStoreVersionPhasedReleases/{id}`).
    public func deletePhasedRelease(id: String) async throws {
        _ = try await send(AppStoreConnectRequest(.delete, "/v1/appStoreVersionPhasedReleases/\(id)",
                                                  action: "turn off phased release \(id)", roles: Self.releaseRoles, retry: .blindly))
    }
}
