import Foundation
@testable import Signing
import TestSupport

/// Helpers shared by the storage tests.
enum StorageTestSupport {
    /// Cheap scrypt parameters for tests.
    static let fast = ScryptParameters(logN: 10, r: 8, p: 1)
    static let certificate = Array("certificate DER bytes".utf8)
    static let key = Array("pkcs12 bytes".utf8) + [0, 255]
    static let profile = Array("<plist>profile</plist>".utf8)
    static let certPath = SigningLayout.certificatePath(kind: .distribution, id: "ABC123")
    static let keyPath = SigningLayout.privateKeyPath(kind: .distribution, id: "ABC123")
    static let profilePath = SigningLayout.profilePath(kind: .appStore, bundleID: "com.example.app")

    /// Writes the three files of one signing identity and saves.
    static func writeIdentity(_ store: EncryptedSigningStorage) async throws {
        try await store.write(certPath, certificate)
        try await store.write(keyPath, key)
        try await store.write(profilePath, profile)
        try await store.save(message: "Add distribution certificate ABC123 and com.example.app's App Store profile")
    }

    /// Every file under `root` with its bytes: compared before and after to prove nothing changed.
    static func snapshot(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: root)
        while let path = walker?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: root + "/" + path) { files[path] = data }
        }
        return files
    }
}
