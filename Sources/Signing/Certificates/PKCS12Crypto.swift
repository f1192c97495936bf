import Crypto
import _CryptoExtras
import Foundation
import SwiftASN1

/// The object identifiers of PKCS#12 (RFC 7292), PKCS#5 (RFC 8018) and PKCS#9 that Slipway uses.
enum PKCS12OID {
    static let data: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
    static let encryptedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 6]
    static let keyBag: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 12, 10, 1, 1]
    static let shroudedKeyBag: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 12, 10, 1, 2]
    static let certBag: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 12, 10, 1, 3]
    static let x509Certificate: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 22, 1]
    static let friendlyName: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 20]
    static let localKeyID: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 21]
    static let pbes2: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 5, 13]
    static let pbkdf2: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 5, 12]
    static let hmacWithSHA1: ASN1ObjectIdentifier = [1, 2, 840, 113549, 2, 7]
    static let hmacWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 113549, 2, 9]
    static let aes128CBC: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 2]
    static let aes192CBC: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 22]
    static let aes256CBC: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 42]
    static let sha1: ASN1ObjectIdentifier = [1, 3, 14, 3, 2, 26]
    static let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]

    /// Names for the legacy algorithms Slipway refuses, so the error can say which one it met.
    static let legacyNames: [ASN1ObjectIdentifier: String] = [
        [1, 2, 840, 113549, 1, 12, 1, 1]: "pbeWithSHAAnd128BitRC4",
        [1, 2, 840, 113549, 1, 12, 1, 2]: "pbeWithSHAAnd40BitRC4",
        [1, 2, 840, 113549, 1, 12, 1, 3]: "pbeWithSHAAnd3-KeyTripleDES-CBC",
        [1, 2, 840, 113549, 1, 12, 1, 4]: "pbeWithSHAAnd2-KeyTripleDES-CBC",
        [1, 2, 840, 113549, 1, 12, 1, 5]: "pbeWithSHAAnd128BitRC2-CBC",
        [1, 2, 840, 113549, 1, 12, 1, 6]: "pbeWithSHAAnd40BitRC2-CBC",
    ]
}

/// The password-based cryptography of PKCS#12.
enum PKCS12Crypto {
    /// The hash of a MAC: SHA-256 (what Slipway writes and OpenSSL 3 writes) or SHA-1 (older files).
    enum MACHash {
        case sha1, sha256

        var outputSize: Int { self == .sha1 ? 20 : 32 }

        func hash(_ data: [UInt8]) -> [UInt8] {
            self == .sha1 ? Array(Insecure.SHA1.hash(data: data)) : Array(SHA256.hash(data: data))
        }

        func hmac(key: [UInt8], data: [UInt8]) -> [UInt8] {
            let key = SymmetricKey(data: key)
            return self == .sha1 ? Array(HMAC<Insecure.SHA1>.authenticationCode(for: data, using: key))
                : Array(HMAC<SHA256>.authenticationCode(for: data, using: key))
        }
    }

    /// The password as PKCS#12's MAC key derivation takes it: a BMPString (UTF-16 big-endian)
    /// with a two-byte terminator.
    static func bmpPassword(_ password: String) -> [UInt8] {
        bmpBytes(password) + [0, 0]
    }

    /// UTF-16 big-endian, as a BMPString holds text.
    static func bmpBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for unit in text.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        return bytes
    }

    /// The text of a BMPString's bytes, or nil when they are not UTF-16.
    static func string(bmp bytes: [UInt8]) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        // Typed step by step: the one-expression form took the type checker 350 ms (docs/performance.md).
        let units: [UInt16] = stride(from: 0, to: bytes.count, by: 2).map { (index: Int) -> UInt16 in
            let high = UInt16(bytes[index]) << 8
            return high | UInt16(bytes[index + 1])
        }
        return String(validating: units, as: UTF16.self)
    }

    /// RFC 7292 appendix B.2: derives `count` bytes for purpose `id` (3 = MAC key).
    static func deriveKey(password: [UInt8], salt: [UInt8], id: UInt8, iterations: Int, count: Int,
                          hash: MACHash) -> [UInt8] {
        let v = 64
        let u = hash.outputSize
        func stretch(_ input: [UInt8]) -> [UInt8] {
            guard !input.isEmpty else { return [] }
            let length = v * ((input.count + v - 1) / v)
            return (0..<length).map { input[$0 % input.count] }
        }
        var i = stretch(salt) + stretch(password)
        let d = [UInt8](repeating: id, count: v)
        var output: [UInt8] = []
        while output.count < count {
            var a = hash.hash(d + i)
            for _ in 1..<max(iterations, 1) { a = hash.hash(a) }
            output += a
            let b = (0..<v).map { a[$0 % u] }
            for block in stride(from: 0, to: i.count, by: v) {
                var carry: UInt16 = 1
                for index in stride(from: v - 1, through: 0, by: -1) {
                    let sum = UInt16(i[block + index]) + UInt16(b[index]) + carry
                    i[block + index] = UInt8(sum & 0xFF)
                    carry = sum >> 8
                }
            }
        }
        return Array(output.prefix(count))
    }

    /// PBES2 parameters: PBKDF2 with an HMAC and AES-CBC.
    struct PBES2: Equatable {
        var salt: [UInt8]
        var iterations: Int
        var prfIsSHA256: Bool
        var keyLength: Int
        var iv: [UInt8]

        /// New random parameters with AES-256-CBC and HMAC-SHA256, 8-byte salt as OpenSSL writes.
        static func random(iterations: Int) -> PBES2 {
            PBES2(salt: randomBytes(8), iterations: iterations, prfIsSHA256: true, keyLength: 32, iv: randomBytes(16))
        }

        func key(password: String) throws -> SymmetricKey {
            try KDF.Insecure.PBKDF2.deriveKey(
                from: Array(password.utf8), salt: salt, using: prfIsSHA256 ? .sha256 : .insecureSHA1,
                outputByteCount: keyLength, unsafeUncheckedRounds: iterations)
        }

        func encrypt(_ plaintext: [UInt8], password: String) throws -> [UInt8] {
            Array(try AES._CBC.encrypt(plaintext, using: try key(password: password), iv: AES._CBC.IV(ivBytes: iv)))
        }

        func decrypt(_ ciphertext: [UInt8], password: String) throws -> [UInt8] {
            Array(try AES._CBC.decrypt(ciphertext, using: try key(password: password), iv: AES._CBC.IV(ivBytes: iv)))
        }

        /// The AlgorithmIdentifier: pbes2 { pbkdf2 { salt, iterations, prf }, aes-CBC { iv } }.
        func serialize(into coder: inout DER.Serializer) throws {
            try coder.sequence { coder in
                try coder.serialize(PKCS12OID.pbes2)
                try coder.sequence { coder in
                    try coder.sequence { coder in
                        try coder.serialize(PKCS12OID.pbkdf2)
                        try coder.sequence { coder in
                            try coder.octetString(salt)
                            try coder.serialize(iterations)
                            try coder.algorithm(prfIsSHA256 ? PKCS12OID.hmacWithSHA256 : PKCS12OID.hmacWithSHA1)
                        }
                    }
                    try coder.sequence { coder in
                        try coder.serialize(keyLength == 16 ? PKCS12OID.aes128CBC
                            : keyLength == 24 ? PKCS12OID.aes192CBC : PKCS12OID.aes256CBC)
                        try coder.octetString(iv)
                    }
                }
            }
        }

        /// Reads an AlgorithmIdentifier; `file` names the file when the algorithm is not PBES2.
        init(algorithm node: ASN1Node, file: String) throws {
            let parts = try DERNodes.children(node, .sequence, "the encryption algorithm")
            let oid = try DERNodes.oid(try DERNodes.child(parts, 0, "the encryption algorithm"), "the encryption algorithm")
            guard oid == PKCS12OID.pbes2 else {
                throw SigningCertificateError.unsupportedPKCS12Algorithm(
                    file: file, algorithm: PKCS12OID.legacyNames[oid] ?? "the algorithm \(oid)")
            }
            let params = try DERNodes.children(try DERNodes.child(parts, 1, "PBES2 parameters"), .sequence, "PBES2 parameters")
            let kdf = try DERNodes.children(try DERNodes.child(params, 0, "the PBES2 KDF"), .sequence, "the PBES2 KDF")
            guard try DERNodes.oid(try DERNodes.child(kdf, 0, "the KDF"), "the KDF") == PKCS12OID.pbkdf2 else {
                throw SigningCertificateError.unsupportedPKCS12Algorithm(file: file, algorithm: "a PBES2 KDF other than PBKDF2")
            }
            let kdfParams = try DERNodes.children(try DERNodes.child(kdf, 1, "PBKDF2 parameters"), .sequence, "PBKDF2 parameters")
            salt = try DERNodes.octets(try DERNodes.child(kdfParams, 0, "the PBKDF2 salt"), .octetString, "the PBKDF2 salt")
            iterations = try DERNodes.integer(try DERNodes.child(kdfParams, 1, "the PBKDF2 iterations"), "the PBKDF2 iterations")
            prfIsSHA256 = false
            var declaredKeyLength: Int?
            for extra in kdfParams.dropFirst(2) {
                if extra.identifier == .integer {
                    declaredKeyLength = try DERNodes.integer(extra, "the PBKDF2 key length")
                } else {
                    let prf = try DERNodes.oid(try DERNodes.child(try DERNodes.children(extra, .sequence, "the PRF"), 0, "the PRF"), "the PRF")
                    guard prf == PKCS12OID.hmacWithSHA256 || prf == PKCS12OID.hmacWithSHA1 else {
                        throw SigningCertificateError.unsupportedPKCS12Algorithm(file: file, algorithm: "the PBKDF2 PRF \(prf)")
                    }
                    prfIsSHA256 = prf == PKCS12OID.hmacWithSHA256
                }
            }
            let cipher = try DERNodes.children(try DERNodes.child(params, 1, "the PBES2 cipher"), .sequence, "the PBES2 cipher")
            let cipherOID = try DERNodes.oid(try DERNodes.child(cipher, 0, "the cipher"), "the cipher")
            let sizes: [ASN1ObjectIdentifier: Int] = [PKCS12OID.aes128CBC: 16, PKCS12OID.aes192CBC: 24, PKCS12OID.aes256CBC: 32]
            guard let size = sizes[cipherOID] else {
                throw SigningCertificateError.unsupportedPKCS12Algorithm(file: file, algorithm: "the PBES2 cipher \(cipherOID)")
            }
            keyLength = declaredKeyLength ?? size
            iv = try DERNodes.octets(try DERNodes.child(cipher, 1, "the AES IV"), .octetString, "the AES IV")
            guard iv.count == 16, keyLength == size, iterations > 0, iterations <= 10_000_000 else {
                throw DERNodes.Malformed(description: "the PBES2 parameters are out of range")
            }
        }

        init(salt: [UInt8], iterations: Int, prfIsSHA256: Bool, keyLength: Int, iv: [UInt8]) {
            self.salt = salt
            self.iterations = iterations
            self.prfIsSHA256 = prfIsSHA256
            self.keyLength = keyLength
            self.iv = iv
        }
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
