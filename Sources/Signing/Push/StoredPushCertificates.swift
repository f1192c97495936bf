import Foundation

/// A push certificate a storage holds: `push/<environment>/<bundle id>.p12`, encrypted like every
/// other file. fastlane match has no such folder (it keeps code signing identities only), so a
/// match storage with push certificates still works with match, which ignores `push/`.
public struct StoredPushCertificate: Sendable {
    /// Its path in the storage.
    public let path: String
    /// The certificate and key.
    public let push: PushCertificate
}

/// Where push certificates live in the storage layout.
public enum PushStorageLayout {
    /// The folder, beside match's `certs/` and `profiles/`.
    public static let folder = "push"

    /// `push/<sandbox|production|both>/<bundle id>.p12`.
    public static func path(bundleID: String, environment: PushCertificate.Environment) -> String {
        "\(folder)/\(environment.rawValue)/\(bundleID).p12"
    }

    /// The bundle id and environment of a path in the layout, or nil.
    public static func entry(for path: String) -> (bundleID: String, environment: PushCertificate.Environment)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0] == folder, let environment = PushCertificate.Environment(rawValue: parts[1]),
              parts[2].hasSuffix(".p12"), parts[2].count > 4 else { return nil }
        return (String(parts[2].dropLast(4)), environment)
    }
}

extension EncryptedSigningStorage {
    /// Stores `push` (re-exported as a .p12 with an empty password: the storage's encryption
    /// protects it, as match does with its .p12s) and returns its path. The caller saves.
    /// - Throws: `PushCredentialError.notAPushCertificate` (no bundle id), `.malformedTopic`,
    ///   `SigningStorageError` (read-only, write failed).
    public func addPushCertificate(_ push: PushCertificate, file: String) async throws -> String {
        guard let bundleID = push.bundleID ?? push.topics.first?.name else {
            throw PushCredentialError.notAPushCertificate(file: file, commonName: push.certificate.commonName ?? "no common name")
        }
        try APNsTopic.check(bundleID)
        let path = PushStorageLayout.path(bundleID: bundleID, environment: push.environment)
        try await write(path, try push.identity.pkcs12(password: ""))
        return path
    }

    /// Deletes the push certificate of `bundleID` (in `environment`, or every one when nil);
    /// returns the paths deleted. The caller saves.
    /// - Throws: `SigningStorageError.fileNotFound` when there is none.
    public func removePushCertificates(bundleID: String, environment: PushCertificate.Environment?) async throws -> [String] {
        let paths = try await list().filter {
            guard let entry = PushStorageLayout.entry(for: $0) else { return false }
            return entry.bundleID == bundleID && (environment == nil || entry.environment == environment)
        }
        guard !paths.isEmpty else {
            let wanted = environment.map { PushStorageLayout.path(bundleID: bundleID, environment: $0) }
                ?? "\(PushStorageLayout.folder)/*/\(bundleID).p12"
            throw SigningStorageError.fileNotFound(path: wanted, storage: storage.displayName)
        }
        for path in paths { try await delete(path) }
        return paths
    }

    /// The push certificates under `push/`, read and decrypted, sorted by path.
    /// - Throws: `SigningStorageError`, `SigningCertificateError`, `PushCredentialError`.
    public func storedPushCertificates(files: [String]? = nil) async throws -> [StoredPushCertificate] {
        let listing: [String]
        if let files { listing = files } else { listing = try await list() }
        var found: [StoredPushCertificate] = []
        for path in listing.sorted() where PushStorageLayout.entry(for: path) != nil {
            let identity = try SigningIdentity(pkcs12: try await read(path), password: "", file: fileName(path))
            found.append(StoredPushCertificate(path: path, push: try PushCertificate(identity: identity, file: fileName(path))))
        }
        return found
    }
}
