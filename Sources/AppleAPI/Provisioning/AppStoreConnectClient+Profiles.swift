import Foundation

/// Provisioning profiles (https://developer.apple.com/documentation/appstoreconnectapi/profiles).
extension AppStoreConnectClient {
    /// How many linked certificates/devices Apple includes per profile in a list (`limit[devices]`'s
    /// maximum); a profile with that many is read again through its relationship endpoints.
    static let includedLinkLimit = 50

    /// The team's profiles of `type` named `name` (either nil for all), every page, with their
    /// bundle id, certificates and devices (`GET /v1/profiles?filter[profileType]=&filter[name]=
    /// &include=bundleId,certificates,devices`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/get-v1-profiles). Both filters are
    /// applied again exactly. Profiles with more than 50 certificates or devices get the rest from
    /// `GET /v1/profiles/{id}/relationships/devices` (and `/certificates`).
    /// - Throws: `AppStoreConnectError`.
    public func profiles(type: String?, name: String?) async throws -> [AppStoreConnectProfile] {
        var query: [URLQueryItem] = []
        if let type { query.append(URLQueryItem(name: "filter[profileType]", value: type)) }
        if let name { query.append(URLQueryItem(name: "filter[name]", value: name)) }
        query += [
            URLQueryItem(name: "include", value: "bundleId,certificates,devices"),
            URLQueryItem(name: "fields[profiles]", value: "name,platform,profileType,profileState,profileContent,uuid,createdDate,"
                         + "expirationDate,bundleId,certificates,devices"),
            URLQueryItem(name: "fields[bundleIds]", value: "identifier"),
            URLQueryItem(name: "fields[certificates]", value: "serialNumber"),
            URLQueryItem(name: "fields[devices]", value: "udid"),
            URLQueryItem(name: "limit[certificates]", value: String(Self.includedLinkLimit)),
            URLQueryItem(name: "limit[devices]", value: String(Self.includedLinkLimit)),
            URLQueryItem(name: "limit", value: "200"),
        ]
        let what = (["list the"] + [type, name.map { "'\($0)'" }].compactMap { $0 } + ["profiles"]).joined(separator: " ")
        var found = try await all(AppStoreConnectRequest(.get, "/v1/profiles", query: query, action: what,
                                                         roles: Self.provisioningReadRoles)).map(AppStoreConnectProfile.init)
            .filter { (type == nil || $0.profileType == type) && (name == nil || $0.name == name) }
        for index in found.indices {
            if found[index].deviceIDs.count >= Self.includedLinkLimit {
                found[index].deviceIDs = try await linked("devices", ofProfile: found[index].id)
            }
            if found[index].certificateIDs.count >= Self.includedLinkLimit {
                found[index].certificateIDs = try await linked("certificates", ofProfile: found[index].id)
            }
        }
        return found
    }

    /// Creates a profile (`POST /v1/profiles`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/post-v1-profiles).
    /// - Parameters:
    ///   - type: Apple's profile type, e.g. IOS_APP_STORE, IOS_APP_DEVELOPMENT, IOS_APP_ADHOC, MAC_APP_DIRECT.
    ///   - deviceIDs: device resource ids, for development and ad hoc types; leave empty for App
    ///     Store, in-house and Developer ID (the relationship is then not sent).
    /// - Throws: `AppStoreConnectError` (`.refused` 409 when Apple refuses the combination).
    public func createProfile(name: String, type: String, bundleIDResourceID: String, certificateIDs: [String],
                              deviceIDs: [String]) async throws -> AppStoreConnectProfile {
        var relationships: [String: JSONValue] = [
            "bundleId": JSONAPIIdentifier(type: "bundleIds", id: bundleIDResourceID).json,
            "certificates": .array(certificateIDs.map { JSONAPIIdentifier(type: "certificates", id: $0).json }),
        ]
        if !deviceIDs.isEmpty { relationships["devices"] = .array(deviceIDs.map { JSONAPIIdentifier(type: "devices", id: $0).json }) }
        let request = AppStoreConnectRequest(
            .post, "/v1/profiles",
            body: JSONAPI.document(type: "profiles", attributes: ["name": .string(name), "profileType": .string(type)],
                                   relationships: relationships),
            action: "create the \(type) profile '\(name)'", roles: Self.provisioningRoles)
        guard let resource = try await document(request).first else {
            throw AppStoreConnectError.unexpectedResponse(action: request.action, problem: "the answer has no profile")
        }
        var profile = AppStoreConnectProfile(resource)
        profile.bundleIDResourceID = profile.bundleIDResourceID ?? bundleIDResourceID
        if profile.certificateIDs.isEmpty { profile.certificateIDs = certificateIDs }
        if profile.deviceIDs.isEmpty { profile.deviceIDs = deviceIDs }
        return profile
    }

    /// Deletes a profile (`DELETE /v1/profiles/{id}`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/delete-v1-profiles-_id_).
    /// - Throws: `AppStoreConnectError` (`.refused` with 404 when there is no such profile).
    public func deleteProfile(id: String) async throws {
        _ = try await send(AppStoreConnectRequest(.delete, "/v1/profiles/\(id)", action: "delete profile \(id)",
                                                  roles: Self.provisioningRoles))
    }

    /// Every linked id of a profile's to-many relationship (`GET /v1/profiles/{id}/relationships/devices`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/get-v1-profiles-_id_-relationships-devices).
    func linked(_ relationship: String, ofProfile id: String) async throws -> [String] {
        try await all(AppStoreConnectRequest(
            .get, "/v1/profiles/\(id)/relationships/\(relationship)", query: [URLQueryItem(name: "limit", value: "200")],
            action: "list the \(relationship) of profile \(id)", roles: Self.provisioningReadRoles)).map(\.id)
    }
}
