import Foundation

/// Bundle ids (https://developer.apple.com/documentation/appstoreconnectapi/bundle-ids) and devices
/// (https://developer.apple.com/documentation/appstoreconnectapi/devices).
extension AppStoreConnectClient {
    /// The registered bundle ids whose identifier is exactly `identifier`
    /// (`GET /v1/bundleIds?filter[identifier]=`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/get-v1-bundleids). Apple's filter
    /// also matches identifiers that merely contain it, so the answer is filtered again.
    /// - Throws: `AppStoreConnectError`.
    public func bundleIDs(identifier: String) async throws -> [AppStoreConnectBundleID] {
        let request = AppStoreConnectRequest(
            .get, "/v1/bundleIds",
            query: [URLQueryItem(name: "filter[identifier]", value: identifier),
                    URLQueryItem(name: "fields[bundleIds]", value: "name,platform,identifier,seedId"),
                    URLQueryItem(name: "limit", value: "200")],
            action: "look up the bundle id '\(identifier)'", roles: Self.provisioningReadRoles)
        return try await all(request).map(AppStoreConnectBundleID.init).filter { $0.identifier == identifier }
    }

    /// Registers a bundle id (`POST /v1/bundleIds`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/post-v1-bundleids).
    /// - Parameters:
    ///   - name: the App ID's name: letters, digits and spaces only (checked before sending).
    ///   - platform: IOS, MAC_OS or UNIVERSAL.
    /// - Throws: `AppStoreConnectProvisioningError.invalidBundleIDName` (nothing sent),
    ///   `.bundleIDAlreadyRegistered` for Apple's 409 about the identifier; otherwise `AppStoreConnectError`.
    public func registerBundleID(identifier: String, name: String, platform: String) async throws -> AppStoreConnectBundleID {
        guard AppStoreConnectProvisioningError.isValidBundleIDName(name) else {
            throw AppStoreConnectProvisioningError.invalidBundleIDName(name: name, identifier: identifier)
        }
        let request = AppStoreConnectRequest(
            .post, "/v1/bundleIds",
            body: JSONAPI.document(type: "bundleIds", attributes: ["identifier": .string(identifier), "name": .string(name),
                                                                   "platform": .string(platform)]),
            action: "register the bundle id '\(identifier)'", roles: Self.provisioningRoles)
        do {
            guard let resource = try await document(request).first else {
                throw AppStoreConnectError.unexpectedResponse(action: request.action, problem: "the answer has no bundle id")
            }
            return AppStoreConnectBundleID(resource)
        } catch let AppStoreConnectError.refused(_, 409, errors, _) where errors.contains(where: Self.mentionsIdentifierTaken) {
            throw AppStoreConnectProvisioningError.bundleIDAlreadyRegistered(
                identifier: identifier, detail: errors.compactMap { $0.detail ?? $0.title }.joined(separator: "; "))
        }
    }

    /// The registered devices, every page (`GET /v1/devices?filter[platform]=&filter[status]=ENABLED`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/get-v1-devices).
    /// - Parameters:
    ///   - platform: IOS, MAC_OS or UNIVERSAL; nil for all.
    ///   - enabledOnly: leave out DISABLED devices.
    /// - Throws: `AppStoreConnectError`.
    public func devices(platform: String?, enabledOnly: Bool) async throws -> [AppStoreConnectDevice] {
        var query: [URLQueryItem] = []
        if let platform { query.append(URLQueryItem(name: "filter[platform]", value: platform)) }
        if enabledOnly { query.append(URLQueryItem(name: "filter[status]", value: "ENABLED")) }
        query += [URLQueryItem(name: "fields[devices]", value: "name,platform,udid,deviceClass,status,model,addedDate"),
                  URLQueryItem(name: "limit", value: "200")]
        let found = try await all(AppStoreConnectRequest(.get, "/v1/devices", query: query, action: "list the registered devices",
                                                         roles: Self.provisioningReadRoles)).map(AppStoreConnectDevice.init)
        return found.filter { (platform == nil || $0.platform == platform) && (!enabledOnly || $0.status == "ENABLED") }
    }

    /// Registers a device (`POST /v1/devices`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/post-v1-devices).
    /// - Parameter platform: IOS or MAC_OS.
    /// - Throws: `AppStoreConnectProvisioningError.deviceLimitReached` when the team has registered as
    ///   many devices of the kind as Apple allows this membership year (Apple answers 403 or 409),
    ///   `.deviceRefused` for Apple's other 409s (a UDID registered already or not valid); otherwise
    ///   `AppStoreConnectError`.
    public func registerDevice(name: String, udid: String, platform: String) async throws -> AppStoreConnectDevice {
        let request = AppStoreConnectRequest(
            .post, "/v1/devices",
            body: JSONAPI.document(type: "devices", attributes: ["name": .string(name), "udid": .string(udid), "platform": .string(platform)]),
            action: "register the device '\(name)' (\(udid))", roles: Self.provisioningRoles)
        do {
            guard let resource = try await document(request).first else {
                throw AppStoreConnectError.unexpectedResponse(action: request.action, problem: "the answer has no device")
            }
            return AppStoreConnectDevice(resource)
        } catch let AppStoreConnectError.refused(_, 409, errors, _) {
            throw Self.deviceError(errors, name: name, udid: udid, platform: platform)
        } catch let AppStoreConnectError.forbidden(_, _, _, errors) where errors.contains(where: Self.mentionsDeviceLimit) {
            throw Self.deviceError(errors, name: name, udid: udid, platform: platform)
        }
    }

    /// Apple's 409 about an identifier in use: "An App ID with Identifier '...' is not available."
    static func mentionsIdentifierTaken(_ error: AppStoreConnectAPIError) -> Bool {
        let text = (error.detail ?? "").lowercased()
        return text.contains("identifier") && (text.contains("not available") || text.contains("already"))
    }
}
