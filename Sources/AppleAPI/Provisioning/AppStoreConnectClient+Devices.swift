import Foundation

/// Listing and changing registered devices (https://developer.apple.com/documentation/appstoreconnectapi/devices).
extension AppStoreConnectClient {
    /// The registered devices, every page, sorted by name (`GET /v1/devices?filter[platform]=&filter[status]=`).
    /// - Parameters:
    ///   - platform: IOS or MAC_OS; nil for all.
    ///   - status: ENABLED or DISABLED; nil for both.
    /// - Throws: `AppStoreConnectError`.
    public func listDevices(platform: String?, status: String?) async throws -> [AppStoreConnectDevice] {
        var query: [URLQueryItem] = []
        if let platform { query.append(URLQueryItem(name: "filter[platform]", value: platform)) }
        if let status { query.append(URLQueryItem(name: "filter[status]", value: status)) }
        query += [URLQueryItem(name: "fields[devices]", value: "name,platform,udid,deviceClass,status,model,addedDate"),
                  URLQueryItem(name: "sort", value: "name"), URLQueryItem(name: "limit", value: "200")]
        let found = try await all(AppStoreConnectRequest(.get, "/v1/devices", query: query, action: "list the registered devices",
                                                         roles: Self.provisioningReadRoles)).map(AppStoreConnectDevice.init)
        return found.filter { (platform == nil || $0.platform == platform) && (status == nil || $0.status == status) }
    }

    /// Renames, enables or disables a registered device (`PATCH /v1/devices/{id}`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/patch-v1-devices-_id_).
    /// - Parameters:
    ///   - name: the new name, or nil to keep it.
    ///   - status: ENABLED or DISABLED, or nil to keep it.
    /// - Throws: `AppStoreConnectProvisioningError.deviceLimitReached` when enabling it would pass
    ///   the team's yearly device limit; otherwise `AppStoreConnectError`.
    public func updateDevice(id: String, udid: String, name: String?, status: String?) async throws -> AppStoreConnectDevice {
        var attributes: [String: JSONValue] = [:]
        if let name { attributes["name"] = .string(name) }
        if let status { attributes["status"] = .string(status) }
        let request = AppStoreConnectRequest(
            .patch, "/v1/devices/\(id)", body: JSONAPI.document(type: "devices", id: id, attributes: attributes),
            action: "change the device \(udid)", roles: Self.provisioningRoles, retry: .blindly)
        do {
            guard let resource = try await document(request).first else {
                throw AppStoreConnectError.unexpectedResponse(action: request.action, problem: "the answer has no device")
            }
            return AppStoreConnectDevice(resource)
        } catch let AppStoreConnectError.refused(_, 409, errors, _) where errors.contains(where: Self.mentionsDeviceLimit) {
            throw Self.deviceError(errors, name: name ?? udid, udid: udid, platform: "")
        } catch let AppStoreConnectError.forbidden(_, _, _, errors) where errors.contains(where: Self.mentionsDeviceLimit) {
            throw Self.deviceError(errors, name: name ?? udid, udid: udid, platform: "")
        }
    }

    /// Apple's answer when the membership year's device limit is reached: "Your development team
    /// has reached the maximum number of registered iPhone devices." (reported publicly as a 403
    /// FORBIDDEN_ERROR through fastlane's register_devices, AtB-AS/mittatb-app#5972).
    static func mentionsDeviceLimit(_ error: AppStoreConnectAPIError) -> Bool {
        let text = ((error.detail ?? "") + " " + (error.title ?? "")).lowercased()
        return text.contains("maximum number of registered")
    }

    /// The error for Apple's refusal to register or enable a device.
    static func deviceError(_ errors: [AppStoreConnectAPIError], name: String, udid: String, platform: String)
        -> AppStoreConnectProvisioningError {
        let detail = errors.compactMap { $0.detail ?? $0.title }.joined(separator: "; ")
        if errors.contains(where: mentionsDeviceLimit) {
            return .deviceLimitReached(name: name, udid: udid, detail: detail)
        }
        return .deviceRefused(udid: udid, detail: detail)
    }
}
