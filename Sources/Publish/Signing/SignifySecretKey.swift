import Archives
import Basics
import Crypto
import Foundation

/// A signify secret key file as stored: `Ed`, `BK` (bcrypt_pbkdf), the KDF rounds (0: not
/// encrypted), a 16-byte salt, an 8-byte checksum (the start of SHA-512 of the plain secret
/// key), the key number and the 64-byte Ed25519 secret key (seed ‖ public key), XORed with a
/// key derived from the passphrase when rounds > 0.
public struct SignifySecretKey: Sendable, Hashable {
    /// bcrypt_pbkdf rounds; 0 means the key is not encrypted.
    public var rounds: UInt32
    /// The KDF salt.
    public var salt: [UInt8]
    /// SHA-512(secret key)[0..<8], to recognise a wrong passphrase.
    public var checksum: [UInt8]
    /// The key number.
    public var keyNumber: [UInt8]
    /// The secret key, encrypted when `rounds` > 0.
    public var storedKey: [UInt8]
    /// The untrusted comment.
    public var comment: String

    /// The rounds signify uses for new keys.
    public static let defaultRounds: UInt32 = 42

    /// Parses a secret key file's text.
    /// - Throws: `PublishError.malformedKey` naming `source` and the problem.
    public init(text: String, source: KeySource) throws {
        switch SignifyEnvelope.decode(text, length: 104) {
        case .failure(let problem):
            throw PublishError.malformedKey(source: source, problem: problem.text)
        case .success(let (comment, bytes)):
            guard bytes[2..<4].elementsEqual("BK".utf8) else {
                throw PublishError.malformedKey(source: source,
                                                problem: "its key derivation is '\(String(decoding: bytes[2..<4], as: UTF8.self))', not 'BK' (bcrypt_pbkdf)")
            }
            rounds = bytes[4..<8].reduce(0) { $0 << 8 | UInt32($1) }
            salt = Array(bytes[8..<24])
            checksum = Array(bytes[24..<32])
            keyNumber = Array(bytes[32..<40])
            storedKey = Array(bytes[40..<104])
            self.comment = comment
        }
    }

    /// A key file for `pair`, encrypted with `passphrase` (nil or empty: not encrypted).
    public init(pair: SignifyKeyPair, passphrase: [UInt8]?, salt: [UInt8], rounds: UInt32 = defaultRounds, comment: String) {
        let encrypted = !(passphrase ?? []).isEmpty
        self.rounds = encrypted ? rounds : 0
        self.salt = salt
        self.checksum = Array(SHA512.hash(data: pair.secretKey).prefix(8))
        self.keyNumber = pair.keyNumber
        self.comment = comment
        var key = pair.secretKey
        if encrypted, let passphrase,
           let mask = BcryptPBKDF.deriveKey(passphrase: passphrase, salt: salt, rounds: Int(rounds), length: 64) {
            for index in key.indices { key[index] ^= mask[index] }
        }
        self.storedKey = key
    }

    /// True when a passphrase is needed.
    public var isEncrypted: Bool { rounds > 0 }

    /// The file's text.
    public var text: String {
        var writer = ByteWriter()
        writer.append("Ed")
        writer.append("BK")
        writer.uint32BE(rounds)
        writer.append(salt)
        writer.append(checksum)
        writer.append(keyNumber)
        writer.append(storedKey)
        return SignifyEnvelope.encode(comment: comment, bytes: writer.bytes)
    }

    /// The usable key pair.
    /// - Throws: `PublishError.passphraseRequired` when the key is encrypted and no passphrase
    ///   was given, `.wrongPassphrase` when the checksum does not match after decryption,
    ///   `.malformedKey` when the key's two halves disagree.
    public func decrypt(passphrase: [UInt8]?, source: KeySource) throws -> SignifyKeyPair {
        var key = storedKey
        if isEncrypted {
            guard let passphrase, !passphrase.isEmpty else { throw PublishError.passphraseRequired(source: source) }
            guard let mask = BcryptPBKDF.deriveKey(passphrase: passphrase, salt: salt, rounds: Int(rounds), length: 64) else {
                throw PublishError.malformedKey(source: source, problem: "its salt is empty")
            }
            for index in key.indices { key[index] ^= mask[index] }
        }
        guard Array(SHA512.hash(data: key).prefix(8)) == checksum else {
            if isEncrypted { throw PublishError.wrongPassphrase(source: source) }
            throw PublishError.malformedKey(source: source, problem: "its checksum does not match the key")
        }
        return try SignifyKeyPair(secretKey: key, keyNumber: keyNumber, source: source)
    }
}

/// A decrypted Ed25519 key pair with its signify key number.
public struct SignifyKeyPair: Sendable {
    /// The 64-byte secret key: the 32-byte seed, then the public key.
    public let secretKey: [UInt8]
    /// The key number.
    public let keyNumber: [UInt8]

    /// A pair from a 64-byte secret key.
    /// - Throws: `PublishError.malformedKey` when the public half is not the seed's.
    public init(secretKey: [UInt8], keyNumber: [UInt8], source: KeySource) throws {
        guard secretKey.count == 64, keyNumber.count == 8,
              let signingKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: secretKey[0..<32]),
              signingKey.publicKey.rawRepresentation.elementsEqual(secretKey[32..<64])
        else {
            throw PublishError.malformedKey(source: source, problem: "its public half does not belong to its secret half")
        }
        self.secretKey = secretKey
        self.keyNumber = keyNumber
    }

    /// A new random pair; `random` fills a buffer of the given size with random bytes.
    public static func generate(random: (Int) -> [UInt8]) throws -> SignifyKeyPair {
        let seed = random(32)
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        return try SignifyKeyPair(secretKey: seed + Array(key.publicKey.rawRepresentation), keyNumber: random(8),
                                  source: .inline(option: "generated"))
    }

    /// The public key, with `comment`.
    public func publicKey(comment: String) -> SignifyPublicKey {
        SignifyPublicKey(keyNumber: keyNumber, key: Array(secretKey[32..<64]), comment: comment)
    }

    /// The Ed25519 signature of `message`.
    public func sign(_ message: UnsafeRawBufferPointer) throws -> [UInt8] {
        // The key is made anew per call (cheap) because Crypto's key type is not Sendable.
        let signingKey = try Curve25519.Signing.PrivateKey(rawRepresentation: secretKey[0..<32])
        return Array(try signingKey.signature(for: message))
    }
}

/// Makes signify key files: `NAME.pub` and `NAME.sec` texts.
public struct SignifyKeyGenerator: Sendable {
    private let random: @Sendable (Int) -> [UInt8]

    /// A generator drawing from `random` (the system's generator by default).
    public init(random: @escaping @Sendable (Int) -> [UInt8] = SignifyKeyGenerator.systemRandom) {
        self.random = random
    }

    /// The system's cryptographically secure generator.
    public static let systemRandom: @Sendable (Int) -> [UInt8] = { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// A new key pair's files, the secret one encrypted with `passphrase` unless it is nil or
    /// empty. Comments follow signify: "NAME public key" / "NAME secret key".
    public func generate(name: String, passphrase: [UInt8]?, rounds: UInt32 = SignifySecretKey.defaultRounds) throws
        -> (publicKey: SignifyPublicKey, secretKey: SignifySecretKey) {
        let pair = try SignifyKeyPair.generate(random: random)
        let secret = SignifySecretKey(pair: pair, passphrase: passphrase, salt: random(16), rounds: rounds,
                                      comment: "\(name) secret key")
        return (pair.publicKey(comment: "\(name) public key"), secret)
    }
}

/// Writes a new key pair as `NAME.pub` (0644) and `NAME.sec` (0600) into a folder, refusing to
/// replace existing keys unless asked: losing a release key cannot be undone.
public struct SignifyKeyFiles: Sendable {
    private let fileSystem: any FileSystem
    private let streams: any FileStreams
    private let generator: SignifyKeyGenerator

    /// A writer.
    public init(fileSystem: any FileSystem, streams: any FileStreams, generator: SignifyKeyGenerator = SignifyKeyGenerator()) {
        self.fileSystem = fileSystem
        self.streams = streams
        self.generator = generator
    }

    /// Generates and writes the pair; returns the public and secret key paths.
    /// - Throws: `PublishError.keyExists` when a key file exists and `overwrite` is false
    ///   (checked before anything is written), `FileSystemError`.
    public func write(directory: String, name: String, passphrase: [UInt8]?, overwrite: Bool) throws -> (publicKey: String, secretKey: String) {
        let publicPath = directory + "/" + name + ".pub"
        let secretPath = directory + "/" + name + ".sec"
        for path in [publicPath, secretPath] where !overwrite && fileSystem.exists(path) {
            throw PublishError.keyExists(path: path)
        }
        let (publicKey, secretKey) = try generator.generate(name: name, passphrase: passphrase)
        try fileSystem.createDirectory(directory)
        let secret = try streams.createAtomically(secretPath, permissions: 0o600)
        try secret.write(Array(secretKey.text.utf8))
        let pub = try streams.createAtomically(publicPath, permissions: 0o644)
        try pub.write(Array(publicKey.text.utf8))
        try secret.commit()
        try pub.commit()
        return (publicPath, secretPath)
    }
}
