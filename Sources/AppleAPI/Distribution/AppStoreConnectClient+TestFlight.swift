import Foundation

/// A build as TestFlight distribution reads it.
public struct AppStoreConnectBuild: Sendable, Hashable {
    /// The build's id.
    public var id: String
    /// The build number (CFBundleVersion).
    public var buildNumber: String
    /// PROCESSING, FAILED, INVALID or VALID.
    public var processingState: String
    /// The export-compliance answer, when given.
    public var usesNonExemptEncryption: Bool?

    init(_ resource: JSONAPIResource) {
        id = resource.id
        buildNumber = resource.string("version") ?? ""
        processingState = resource.string("processingState") ?? ""
        usesNonExemptEncryption = resource.attributes["usesNonExemptEncryption"]?.bool
    }
}

/// A TestFlight beta group.
public struct BetaGroup: Sendable, Hashable {
    /// The group's id.
    public var id: String
    /// Its name.
    public var name: String
    /// True for internal groups (App Store Connect users; no beta review).
    public var isInternal: Bool

    /// Creates a value.
    public init(id: String, name: String, isInternal: Bool) {
        self.id = id
        self.name = name
        self.isInternal = isInternal
    }
}

/// TestFlight calls (https://developer.apple.com/documentation/appstoreconnectapi/prerelease-versions-and-beta-testers).
extension AppStoreConnectClient {
    /// The roles that may manage TestFlight.
    public static let betaRoles = ["Admin", "App Manager"]

    /// `GET /v1/builds/{id}`.
    public func build(id: String) async throws -> AppStoreConnectBuild {
        let document = try await document(AppStoreConnectRequest(
            .get, "/v1/builds/\(id)", query: [URLQueryItem(name: "fields[builds]", value: "version,processingState,usesNonExemptEncryption")],
            action: "read build \(id)", roles: Self.readRoles))
        guard let resource = document.first else { throw AppStoreDistributionError.unexpectedAnswer(step: "GET /v1/builds/\(id)", problem: "no data") }
        return AppStoreConnectBuild(resource)
    }

    /// The app's build with this build number (of `version` when given), newest first, or nil
    /// (`GET /v1/builds?filter[app]=&filter[version]=&filter[preReleaseVersion.version]=`).
    public func build(appID: String, version: String?, buildNumber: String) async throws -> AppStoreConnectBuild? {
        var query = [URLQueryItem(name: "filter[app]", value: appID), URLQueryItem(name: "filter[version]", value: buildNumber)]
        if let version { query.append(URLQueryItem(name: "filter[preReleaseVersion.version]", value: version)) }
        query += [URLQueryItem(name: "sort", value: "-uploadedDate"),
                  URLQueryItem(name: "fields[builds]", value: "version,processingState,usesNonExemptEncryption")]
        return try await document(AppStoreConnectRequest(.get, "/v1/builds", query: query,
                                                         action: "find build \(buildNumber) of app \(appID)", roles: Self.readRoles))
            .data.first.map(AppStoreConnectBuild.init)
    }

    /// The version (CFBundleShortVersionString) of a build (`GET /v1/builds/{id}/preReleaseVersion`).
    public func version(ofBuild buildID: String) async throws -> String? {
        try await document(AppStoreConnectRequest(
            .get, "/v1/builds/\(buildID)/preReleaseVersion", query: [URLQueryItem(name: "fields[preReleaseVersions]", value: "version")],
            action: "read the version of build \(buildID)", roles: Self.readRoles)).first?.string("version")
    }

    /// Sets the export-compliance answer (`PATCH /v1/builds/{id}` usesNonExemptEncryption).
    public func setUsesNonExemptEncryption(buildID: String, _ value: Bool) async throws {
        _ = try await send(AppStoreConnectRequest(
            .patch, "/v1/builds/\(buildID)",
            body: JSONAPI.document(type: "builds", id: buildID, attributes: ["usesNonExemptEncryption": .bool(value)]),
            action: "set the export compliance of build \(buildID)", roles: Self.betaRoles, retry: .blindly))
    }

    /// The app's beta groups (`GET /v1/betaGroups?filter[app]=`), or those holding `buildID`
    /// (`filter[builds]=`).
    public func betaGroups(appID: String, containing buildID: String? = nil) async throws -> [BetaGroup] {
        var query = [URLQueryItem(name: "filter[app]", value: appID)]
        if let buildID { query.append(URLQueryItem(name: "filter[builds]", value: buildID)) }
        query += [URLQueryItem(name: "fields[betaGroups]", value: "name,isInternalGroup"), URLQueryItem(name: "limit", value: "200")]
        let what = buildID.map { "list the beta groups of build \($0)" } ?? "list the beta groups of app \(appID)"
        return try await all(AppStoreConnectRequest(.get, "/v1/betaGroups", query: query, action: what, roles: Self.readRoles))
            .map { BetaGroup(id: $0.id, name: $0.string("name") ?? "", isInternal: $0.attributes["isInternalGroup"]?.bool ?? false) }
    }

    /// Adds the build to groups (`POST /v1/builds/{id}/relationships/betaGroups`).
    public func addBuild(_ buildID: String, to groups: [BetaGroup]) async throws {
        guard !groups.isEmpty else { return }
        _ = try await send(AppStoreConnectRequest(
            .post, "/v1/builds/\(buildID)/relationships/betaGroups",
            body: JSONAPI.linkage(groups.map { JSONAPIIdentifier(type: "betaGroups", id: $0.id) }),
            action: "add build \(buildID) to the beta groups " + groups.map { "'\($0.name)'" }.joined(separator: ", "),
            roles: Self.betaRoles, retry: .blindly))
    }

    /// The build's "What to Test" texts by locale (`GET /v1/builds/{id}/betaBuildLocalizations`):
    /// locale → (localization id, text).
    public func betaBuildLocalizations(buildID: String) async throws -> [String: (id: String, text: String?)] {
        let resources = try await all(AppStoreConnectRequest(
            .get, "/v1/builds/\(buildID)/betaBuildLocalizations",
            query: [URLQueryItem(name: "fields[betaBuildLocalizations]", value: "locale,whatsNew"), URLQueryItem(name: "limit", value: "200")],
            action: "list the What to Test texts of build \(buildID)", roles: Self.readRoles))
        var result: [String: (id: String, text: String?)] = [:]
        for resource in resources { if let locale = resource.string("locale") { result[locale] = (resource.id, resource.string("whatsNew")) } }
        return result
    }

    /// Creates a "What to Test" text (`POST /v1/betaBuildLocalizations`).
    public func createBetaBuildLocalization(buildID: String, locale: String, text: String) async throws {
        _ = try await send(AppStoreConnectRequest(
            .post, "/v1/betaBuildLocalizations",
            body: JSONAPI.document(type: "betaBuildLocalizations", attributes: ["locale": .string(locale), "whatsNew": .string(text)],
                                   relationships: ["build": JSONAPIIdentifier(type: "builds", id: buildID).json]),
            action: "set What to Test (\(locale)) of build \(buildID)", roles: Self.betaRoles, retry: .blindly))
    }

    /// Changes a "What to Test" text (`PATCH /v1/betaBuildLocalizations/{id}`).
    public func updateBetaBuildLocalization(id: String, locale: String, text: String) async throws {
        _ = try await send(AppStoreConnectRequest(
            .patch, "/v1/betaBuildLocalizations/\(id)",
            body: JSONAPI.document(type: "betaBuildLocalizations", id: id, attributes: ["whatsNew": .string(text)]),
            action: "change What to Test (\(locale))", roles: Self.betaRoles, retry: .blindly))
    }

    /// The build's beta app review submissions' states (`GET /v1/betaAppReviewSubmissions?filter[build]=`).
    public func betaReviewStates(buildID: String) async throws -> [String] {
        try await all(AppStoreConnectRequest(
            .get, "/v1/betaAppReviewSubmissions", query: [URLQueryItem(name: "filter[build]", value: buildID)],
            action: "look up the beta review of build \(buildID)", roles: Self.readRoles)).map { $0.string("betaReviewState") ?? "" }
    }

    /// Submits the build for beta app review (`POST /v1/betaAppReviewSubmissions`); returns the
    /// state. Never retried blindly: `TestFlightDistributor` looks the submission up first.
    public func submitForBetaReview(buildID: String) async throws -> String {
        let answer = try await document(AppStoreConnectRequest(
            .post, "/v1/betaAppReviewSubmissions",
            body: JSONAPI.document(type: "betaAppReviewSubmissions", relationships: ["build": JSONAPIIdentifier(type: "builds", id: buildID).json]),
            action: "submit build \(buildID) for beta app review", roles: Self.betaRoles, retry: .never))
        return answer.first?.string("betaReviewState") ?? "WAITING_FOR_REVIEW"
    }

    /// Tells the build's testers about it (`POST /v1/buildBetaNotifications`). Never retried: a
    /// repeat notifies twice, and Apple offers no way to read past notifications.
    public func notifyBetaTesters(buildID: String) async throws {
        _ = try await send(AppStoreConnectRequest(
            .post, "/v1/buildBetaNotifications",
            body: JSONAPI.document(type: "buildBetaNotifications", relationships: ["build": JSONAPIIdentifier(type: "builds", id: buildID).json]),
            action: "notify the testers of build \(buildID)", roles: Self.betaRoles, retry: .never))
    }
}
