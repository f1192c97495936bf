import AppleAPI
import Foundation

/// What `signing sync` and `signing nuke` ask of Apple: the certificates, bundle ids, devices and
/// profiles resources of the App Store Connect API. `AppStoreConnectClient` is the one
/// implementation; the protocol keeps the sync's logic readable apart from HTTP.
public protocol SigningPortal: Sendable {
    /// The team's certificates of these types.
    func certificates(types: [String]) async throws -> [AppStoreConnectCertificate]
    /// Creates a certificate of `type` from a PEM certificate signing request.
    func createCertificate(type: String, csrPEM: String) async throws -> AppStoreConnectCertificate
    /// Revokes a certificate.
    func revokeCertificate(id: String) async throws
    /// The bundle ids whose identifier is exactly `identifier`.
    func bundleIDs(identifier: String) async throws -> [AppStoreConnectBundleID]
    /// Registers a bundle id.
    func registerBundleID(identifier: String, name: String, platform: String) async throws -> AppStoreConnectBundleID
    /// The team's devices, of one platform when given.
    func devices(platform: String?, enabledOnly: Bool) async throws -> [AppStoreConnectDevice]
    /// The team's profiles, of one type and name when given.
    func profiles(type: String?, name: String?) async throws -> [AppStoreConnectProfile]
    /// Creates a profile.
    func createProfile(name: String, type: String, bundleIDResourceID: String, certificateIDs: [String],
                       deviceIDs: [String]) async throws -> AppStoreConnectProfile
    /// Deletes a profile.
    func deleteProfile(id: String) async throws
}

extension AppStoreConnectClient: SigningPortal {}
