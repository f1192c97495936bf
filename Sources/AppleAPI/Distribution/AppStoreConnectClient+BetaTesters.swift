import Foundation

/// A TestFlight tester (https://developer.apple.com/documentation/appstoreconnectapi/betatester).
public struct BetaTester: Sendable, Hashable {
    /// The tester's id.
    public var id: String
    /// The email address the invitation went to.
    public var email: String
    /// First name, when known.
    public var firstName: String?
    /// Last name, when known.
    public var lastName: String?
    /// EMAIL or PUBLIC_LINK.
    public var inviteType: String?
    /// NOT_INVITED, INVITED, ACCEPTED, INSTALLED or REVOKED.
    public var state: String?
    /// The beta groups it is in (of every app, when the answer included them).
    public var groupIDs: [String]

    /// Creates a value.
    public init(id: String, email: String, firstName: String? = nil, lastName: String? = nil, inviteType: String? = nil,
                state: String? = nil, groupIDs: [String] = []) {
        self.id = id
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.inviteType = inviteType
        self.state = state
        self.groupIDs = groupIDs
    }

    init(_ resource: JSONAPIResource) {
        self.init(id: resource.id, email: resource.string("email") ?? "", firstName: resource.string("firstName"),
                  lastName: resource.string("lastName"), inviteType: resource.string("inviteType"), state: resource.string("state"),
                  groupIDs: resource.related("betaGroups").map(\.id))
    }
}

/// A beta group's public link settings (https://developer.apple.com/documentation/appstoreconnectapi/betagroup).
public struct BetaGroupPublicLink: Sendable, Hashable {
    /// The group's id.
    public var groupID: String
    /// Its name.
    public var name: String
    /// True for internal groups (no public link).
    public var isInternal: Bool
    /// Whether anyone with the link may join.
    public var enabled: Bool
    /// The link, e.g. `https://testflight.apple.com/join/AbCd1234`, once Apple made one.
    public var url: String?
    /// Whether `limit` applies.
    public var limitEnabled: Bool
    /// How many testers may join through the link.
    public var limit: Int?

    init(_ resource: JSONAPIResource) {
        groupID = resource.id
        name = resource.string("name") ?? ""
        isInternal = resource.attributes["isInternalGroup"]?.bool ?? false
        enabled = resource.attributes["publicLinkEnabled"]?.bool ?? false
        url = resource.string("publicLink")
        limitEnabled = resource.attributes["publicLinkLimitEnabled"]?.bool ?? false
        limit = resource.attributes["publicLinkLimit"]?.int.map(Int.init)
    }
}

/// TestFlight testers and groups' public links
/// (https://developer.apple.com/documentation/appstoreconnectapi/beta-testers,
/// https://developer.apple.com/documentation/appstoreconnectapi/beta-groups).
extension AppStoreConnectClient {
    /// The bounds of `publicLinkLimit`: TestFlight takes up to 10,000 external testers per app.
    public static let publicLinkLimits = 1...10_000

    static let testerFields = "firstName,lastName,email,inviteType,state,betaGroups"

    /// The app's testers (`GET /v1/betaTesters?filter[apps]=&include=betaGroups`), of one group when
    /// given (`filter[betaGroups]`), with one email when given (`filter[email]`). Without `appID`,
    /// the account's testers with that email.
    public func betaTesters(appID: String?, groupID: String? = nil, email: String? = nil) async throws -> [BetaTester] {
        var query: [URLQueryItem] = []
        if let appID { query.append(URLQueryItem(name: "filter[apps]", value: appID)) }
        if let groupID { query.append(URLQueryItem(name: "filter[betaGroups]", value: groupID)) }
        if let email { query.append(URLQueryItem(name: "filter[email]", value: email)) }
        query += [URLQueryItem(name: "fields[betaTesters]", value: Self.testerFields), URLQueryItem(name: "include", value: "betaGroups"),
                  URLQueryItem(name: "fields[betaGroups]", value: "name"), URLQueryItem(name: "limit[betaGroups]", value: String(Self.includedGroupLimit)),
                  URLQueryItem(name: "limit", value: "200")]
        let what = email != nil ? "look up a tester" : groupID.map { "list the testers of beta group \($0)" }
            ?? "list the testers of app \(appID ?? "")"
        var testers = try await all(AppStoreConnectRequest(.get, "/v1/betaTesters", query: query, action: what, roles: Self.readRoles))
            .map(BetaTester.init)
            .filter { tester in email.map { tester.email.caseInsensitiveCompare($0) == .orderedSame } ?? true }
        // A list includes at most 50 linked groups per tester: read the rest rather than miss them.
        for index in testers.indices where testers[index].groupIDs.count >= Self.includedGroupLimit {
            testers[index].groupIDs = try await all(AppStoreConnectRequest(
                .get, "/v1/betaTesters/\(testers[index].id)/relationships/betaGroups", query: [URLQueryItem(name: "limit", value: "200")],
                action: "list the beta groups of tester \(testers[index].id)", roles: Self.readRoles)).map(\.id)
        }
        return testers
    }

    /// How many linked groups a tester list includes per tester (`limit[betaGroups]`'s maximum).
    static let includedGroupLimit = 50

    /// Invites a new tester into groups (`POST /v1/betaTesters` with the betaGroups relationship).
    /// Never retried blindly: a repeat could invite twice; callers look testers up first.
    public func createBetaTester(email: String, firstName: String?, lastName: String?, groupIDs: [String]) async throws -> BetaTester {
        var attributes: [String: JSONValue] = ["email": .string(email)]
        if let firstName, !firstName.isEmpty { attributes["firstName"] = .string(firstName) }
        if let lastName, !lastName.isEmpty { attributes["lastName"] = .string(lastName) }
        let request = AppStoreConnectRequest(
            .post, "/v1/betaTesters",
            body: JSONAPI.document(type: "betaTesters", attributes: attributes,
                                   relationships: ["betaGroups": .array(groupIDs.map { JSONAPIIdentifier(type: "betaGroups", id: $0).json })]),
            action: "invite a tester", roles: Self.betaRoles, retry: .never)
        guard let resource = try await document(request).first else {
            throw AppStoreConnectError.unexpectedResponse(action: request.action, problem: "the answer has no tester")
        }
        return BetaTester(resource)
    }

    /// Adds existing testers to a group (`POST /v1/betaGroups/{id}/relationships/betaTesters`).
    public func addBetaTesters(_ testerIDs: [String], toGroup group: BetaGroup) async throws {
        guard !testerIDs.isEmpty else { return }
        _ = try await send(AppStoreConnectRequest(
            .post, "/v1/betaGroups/\(group.id)/relationships/betaTesters",
            body: JSONAPI.linkage(testerIDs.map { JSONAPIIdentifier(type: "betaTesters", id: $0) }),
            action: "add testers to the beta group '\(group.name)'", roles: Self.betaRoles, retry: .blindly))
    }

    /// Removes testers from a group (`DELETE /v1/betaGroups/{id}/relationships/betaTesters`).
    public func removeBetaTesters(_ testerIDs: [String], fromGroup group: BetaGroup) async throws {
        guard !testerIDs.isEmpty else { return }
        _ = try await send(AppStoreConnectRequest(
            .delete, "/v1/betaGroups/\(group.id)/relationships/betaTesters",
            body: JSONAPI.linkage(testerIDs.map { JSONAPIIdentifier(type: "betaTesters", id: $0) }),
            action: "remove testers from the beta group '\(group.name)'", roles: Self.betaRoles, retry: .blindly))
    }

    /// Removes testers from an app and all its groups (`DELETE /v1/apps/{id}/relationships/betaTesters`).
    public func removeBetaTesters(_ testerIDs: [String], fromApp appID: String) async throws {
        guard !testerIDs.isEmpty else { return }
        _ = try await send(AppStoreConnectRequest(
            .delete, "/v1/apps/\(appID)/relationships/betaTesters",
            body: JSONAPI.linkage(testerIDs.map { JSONAPIIdentifier(type: "betaTesters", id: $0) }),
            action: "remove testers from app \(appID)", roles: Self.betaRoles, retry: .blindly))
    }

    /// A group's public link settings (`GET /v1/betaGroups/{id}`).
    public func publicLink(ofGroup groupID: String) async throws -> BetaGroupPublicLink {
        let request = AppStoreConnectRequest(
            .get, "/v1/betaGroups/\(groupID)",
            query: [URLQueryItem(name: "fields[betaGroups]", value: "name,isInternalGroup,publicLinkEnabled,publicLink,publicLinkLimitEnabled,publicLinkLimit")],
            action: "read the beta group \(groupID)", roles: Self.readRoles)
        guard let resource = try await document(request).first else {
            throw AppStoreConnectError.unexpectedResponse(action: request.action, problem: "the answer has no beta group")
        }
        return BetaGroupPublicLink(resource)
    }

    /// Brings a group's public link to these settings (nil leaves a setting as it is): reads the
    /// link, and sends only the settings that differ; when none does, nothing is sent and the
    /// link is returned as read.
    /// - Throws: `AppStoreConnectError`.
    public func setPublicLink(ofGroup group: BetaGroup, enabled: Bool?, limitEnabled: Bool?, limit: Int?) async throws -> BetaGroupPublicLink {
        let current = try await publicLink(ofGroup: group.id)
        let enabled = enabled == current.enabled ? nil : enabled
        let limitEnabled = limitEnabled == current.limitEnabled ? nil : limitEnabled
        let limit = limit == current.limit ? nil : limit
        guard enabled != nil || limitEnabled != nil || limit != nil else { return current }
        return try await updatePublicLink(ofGroup: group, enabled: enabled, limitEnabled: limitEnabled, limit: limit)
    }

    /// Turns a group's public link on or off and sets its limit (`PATCH /v1/betaGroups/{id}`);
    /// nil leaves a setting as it is.
    public func updatePublicLink(ofGroup group: BetaGroup, enabled: Bool?, limitEnabled: Bool?, limit: Int?) async throws
        -> BetaGroupPublicLink {
        var attributes: [String: JSONValue] = [:]
        if let enabled { attributes["publicLinkEnabled"] = .bool(enabled) }
        if let limitEnabled { attributes["publicLinkLimitEnabled"] = .bool(limitEnabled) }
        if let limit { attributes["publicLinkLimit"] = .int(Int64(limit)) }
        let request = AppStoreConnectRequest(
            .patch, "/v1/betaGroups/\(group.id)", body: JSONAPI.document(type: "betaGroups", id: group.id, attributes: attributes),
            action: "change the public link of the beta group '\(group.name)'", roles: Self.betaRoles, retry: .blindly)
        guard let resource = try await document(request).first else {
            throw AppStoreConnectError.unexpectedResponse(action: request.action, problem: "the answer has no beta group")
        }
        return BetaGroupPublicLink(resource)
    }
}
