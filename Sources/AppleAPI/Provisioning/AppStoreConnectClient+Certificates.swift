import Foundation

/// Certificates (https://developer.apple.com/documentation/appstoreconnectapi/certificates).
extension AppStoreConnectClient {
    /// The roles that may create and delete certificates, bundle ids, devices and profiles. Apple's
    /// "Certificates, Identifiers & Profiles" access: Admin, or App Manager with that permission.
    public static let provisioningRoles = ["Admin", "App Manager"]
    /// The roles that may list them (Developer keys can read).
    public static let provisioningReadRoles = ["Admin", "App Manager", "Developer"]

    static let certificateFields = "name,certificateType,displayName,serialNumber,platform,expirationDate,certificateContent"

    /// The team's certificates of `types` (all types when empty), every page
    /// (`GET /v1/certificates?filter[certificateType]=`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/get-v1-certificates).
    /// Revoked certificates are not listed by Apple.
    /// - Throws: `AppStoreConnectError`.
    public func certificates(types: [String]) async throws -> [AppStoreConnectCertificate] {
        var query: [URLQueryItem] = []
        if !types.isEmpty { query.append(URLQueryItem(name: "filter[certificateType]", value: types.joined(separator: ","))) }
        query += [URLQueryItem(name: "fields[certificates]", value: Self.certificateFields), URLQueryItem(name: "limit", value: "200")]
        let what = types.isEmpty ? "list the certificates" : "list the \(types.joined(separator: ", ")) certificates"
        let found = try await all(AppStoreConnectRequest(.get, "/v1/certificates", query: query, action: what,
                                                         roles: Self.provisioningReadRoles)).map(AppStoreConnectCertificate.init)
        return types.isEmpty ? found : found.filter { types.contains($0.certificateType) }
    }

    /// Asks Apple for a certificate of `type` for the key of a PKCS#10 request (`POST /v1/certificates`
    /// with `csrContent` and `certificateType`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/post-v1-certificates).
    /// - Parameter csrPEM: the request as PEM (`SigningRequest.pem`).
    /// - Throws: `AppStoreConnectProvisioningError.certificateLimitReached` when Apple answers 409
    ///   that the team has as many of the type as allowed; otherwise `AppStoreConnectError`.
    public func createCertificate(type: String, csrPEM: String) async throws -> AppStoreConnectCertificate {
        let request = AppStoreConnectRequest(
            .post, "/v1/certificates",
            body: JSONAPI.document(type: "certificates", attributes: ["certificateType": .string(type), "csrContent": .string(csrPEM)]),
            action: "create a \(type) certificate", roles: Self.provisioningRoles)
        do {
            guard let resource = try await document(request).first else {
                throw AppStoreConnectError.unexpectedResponse(action: request.action, problem: "the answer has no certificate")
            }
            return AppStoreConnectCertificate(resource)
        } catch let AppStoreConnectError.refused(_, 409, errors, _) where Self.isCertificateLimit(errors) {
            let detail = errors.compactMap { $0.detail ?? $0.title }.joined(separator: "; ")
            throw AppStoreConnectProvisioningError.certificateLimitReached(type: type, detail: detail)
        }
    }

    /// Revokes a certificate (`DELETE /v1/certificates/{id}`,
    /// https://developer.apple.com/documentation/appstoreconnectapi/delete-v1-certificates-_id_). Apple
    /// marks every profile that included it INVALID.
    /// - Throws: `AppStoreConnectError` (`.refused` with 404 when there is no such certificate).
    public func revokeCertificate(id: String) async throws {
        _ = try await send(AppStoreConnectRequest(.delete, "/v1/certificates/\(id)", action: "revoke certificate \(id)",
                                                  roles: Self.provisioningRoles))
    }

    /// Apple's answers when the team has reached a type's maximum: "You already have a current ...
    /// certificate or a pending certificate request." (and, in older answers, "... reached the
    /// maximum number of ... certificates").
    static func isCertificateLimit(_ errors: [AppStoreConnectAPIError]) -> Bool {
        errors.contains { error in
            let text = ((error.detail ?? "") + " " + (error.title ?? "")).lowercased()
            return text.contains("already have a current") || text.contains("maximum number")
        }
    }
}
