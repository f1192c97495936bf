import Foundation

/// `slipway-signing.json`, unencrypted at the root of a Slipway-format storage: which format the
/// files use and the KDF parameters and salt new files are written with. `version` is read first
/// and unknown versions are refused.
public struct SigningManifest: Codable, Sendable, Equatable {
    /// The manifest's own version (1).
    public var version: Int
    /// The file format, `slipway-v1`.
    public var format: String
    /// `scrypt`.
    public var kdf: String
    /// scrypt's parameters for new files.
    public var scrypt: ScryptParameters
    /// The salt for new files, base64.
    public var salt: String

    /// A manifest for a new storage.
    public init(scrypt: ScryptParameters, salt: [UInt8]) {
        self.version = 1
        self.format = "slipway-v1"
        self.kdf = "scrypt"
        self.scrypt = scrypt
        self.salt = Data(salt).base64EncodedString()
    }

    /// The manifest's JSON, keys sorted, with a final newline.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array(try encoder.encode(self)) + [0x0A]
    }

    /// Reads a manifest of `storage`.
    /// - Throws: `SigningStorageError.invalidManifest` for bad JSON, an unknown version or format.
    public static func decode(_ bytes: [UInt8], storage: String) throws -> SigningManifest {
        struct Versioned: Decodable { let version: Int }
        let data = Data(bytes)
        guard let versioned = try? JSONDecoder().decode(Versioned.self, from: data) else {
            throw SigningStorageError.invalidManifest(storage: storage, detail: "it is not JSON with a numeric 'version'")
        }
        guard versioned.version == 1 else {
            throw SigningStorageError.invalidManifest(
                storage: storage, detail: "version \(versioned.version) is newer than this Slipway reads (1); upgrade Slipway")
        }
        let manifest: SigningManifest
        do {
            manifest = try JSONDecoder().decode(SigningManifest.self, from: data)
        } catch {
            throw SigningStorageError.invalidManifest(storage: storage, detail: "a field is missing or has the wrong type (\(error))")
        }
        guard manifest.format == "slipway-v1", manifest.kdf == "scrypt" else {
            throw SigningStorageError.invalidManifest(
                storage: storage, detail: "format '\(manifest.format)' with KDF '\(manifest.kdf)'; this Slipway knows 'slipway-v1' with 'scrypt'")
        }
        guard let salt = Data(base64Encoded: manifest.salt), salt.count == 16 else {
            throw SigningStorageError.invalidManifest(storage: storage, detail: "'salt' is not 16 bytes of base64")
        }
        return manifest
    }

    /// The salt's bytes (checked by `decode`).
    public var saltBytes: [UInt8] { Array(Data(base64Encoded: salt) ?? Data()) }
}
