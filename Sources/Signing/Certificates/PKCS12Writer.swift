import Crypto
import Foundation
import SwiftASN1

/// A signing identity: a certificate and its private key, as a PKCS#12 (`.p12`) file holds them.
///
/// Slipway writes what OpenSSL 3's `openssl pkcs12 -export` writes by default, because that is
/// the form reported to import on current macOS: the certificate in an encrypted-data content
/// and the key in a shrouded key bag, both PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC, 8-byte salts,
/// 2,048 iterations), and an HMAC-SHA256 MAC (8-byte salt). Both bags carry `friendlyName` (what
/// Keychain Access shows) and `localKeyId` (the certificate's SHA-1, pairing key and certificate).
/// See docs/signing.md for what macOS versions accept.
public struct SigningIdentity: Sendable {
    /// The certificate.
    public let certificate: SigningCertificate
    /// Its private key.
    public let key: SigningPrivateKey
    /// The name Keychain Access shows; defaults to the certificate's common name.
    public let friendlyName: String?

    /// Pairs `certificate` with `key`.
    /// - Throws: `SigningCertificateError.keyDoesNotMatchCertificate` naming `keyFile` and
    ///   `certificateFile` when the key is not the certificate's.
    public init(certificate: SigningCertificate, key: SigningPrivateKey, friendlyName: String? = nil,
                keyFile: String = "the private key", certificateFile: String = "the certificate") throws {
        try certificate.checkMatches(key, keyFile: keyFile, certificateFile: certificateFile)
        self.certificate = certificate
        self.key = key
        self.friendlyName = friendlyName ?? certificate.commonName
    }

    /// The identity as a password-protected PKCS#12 file.
    /// - Parameter iterations: PBKDF2 and MAC iterations (OpenSSL's default, 2,048, unless a
    ///   test needs fewer).
    /// - Throws: `SigningCertificateError.encodingFailed`.
    public func pkcs12(password: String, iterations: Int = 2048) throws -> [UInt8] {
        do {
            let localKeyID = Array(Insecure.SHA1.hash(data: certificate.der))
            let attributes = try bagAttributes(localKeyID: localKeyID)
            let certBag = try DER.Serializer.encode { coder in
                try coder.sequence { coder in
                    try coder.sequence { coder in
                        try coder.serialize(PKCS12OID.certBag)
                        try coder.explicit(0) { coder in
                            try coder.sequence { coder in
                                try coder.serialize(PKCS12OID.x509Certificate)
                                try coder.explicit(0) { coder in try coder.octetString(certificate.der) }
                            }
                        }
                        coder.setOf(encoded: attributes)
                    }
                }
            }
            let keyPBE = PKCS12Crypto.PBES2.random(iterations: iterations)
            let encryptedKey = try keyPBE.encrypt(try key.pkcs8DER, password: password)
            let keyBag = try DER.Serializer.encode { coder in
                try coder.sequence { coder in
                    try coder.sequence { coder in
                        try coder.serialize(PKCS12OID.shroudedKeyBag)
                        try coder.explicit(0) { coder in
                            try coder.sequence { coder in
                                try keyPBE.serialize(into: &coder)
                                try coder.octetString(encryptedKey)
                            }
                        }
                        coder.setOf(encoded: attributes)
                    }
                }
            }
            let certPBE = PKCS12Crypto.PBES2.random(iterations: iterations)
            let encryptedCerts = try certPBE.encrypt(certBag, password: password)
            let authSafe = try DER.Serializer.encode { coder in
                try coder.sequence { coder in
                    try encryptedDataContent(encryptedCerts, pbe: certPBE, into: &coder)
                    try dataContent(keyBag, into: &coder)
                }
            }
            return try pfx(authSafe: authSafe, password: password, iterations: iterations)
        } catch let error as SigningCertificateError {
            throw error
        } catch {
            throw SigningCertificateError.encodingFailed(subject: "a PKCS#12 file", detail: "\(error)")
        }
    }

    private func bagAttributes(localKeyID: [UInt8]) throws -> [[UInt8]] {
        var attributes = [try DER.Serializer.encode { coder in
            try coder.sequence { coder in
                try coder.serialize(PKCS12OID.localKeyID)
                coder.setOf(encoded: [try DER.Serializer.encode { try $0.octetString(localKeyID) }])
            }
        }]
        if let friendlyName {
            attributes.append(try DER.Serializer.encode { coder in
                try coder.sequence { coder in
                    try coder.serialize(PKCS12OID.friendlyName)
                    coder.setOf(encoded: [try DER.Serializer.encode { try $0.serialize(ASN1BMPString(contentBytes: ArraySlice(PKCS12Crypto.bmpBytes(friendlyName)))) }])
                }
            })
        }
        return attributes
    }

    private func dataContent(_ content: [UInt8], into coder: inout DER.Serializer) throws {
        try coder.sequence { coder in
            try coder.serialize(PKCS12OID.data)
            try coder.explicit(0) { try $0.octetString(content) }
        }
    }

    private func encryptedDataContent(_ ciphertext: [UInt8], pbe: PKCS12Crypto.PBES2,
                                      into coder: inout DER.Serializer) throws {
        try coder.sequence { coder in
            try coder.serialize(PKCS12OID.encryptedData)
            try coder.explicit(0) { coder in
                try coder.sequence { coder in
                    try coder.serialize(0)
                    try coder.sequence { coder in
                        try coder.serialize(PKCS12OID.data)
                        try pbe.serialize(into: &coder)
                        // encryptedContent [0] IMPLICIT OCTET STRING
                        coder.appendPrimitiveNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) {
                            $0 += ciphertext
                        }
                    }
                }
            }
        }
    }

    private func pfx(authSafe: [UInt8], password: String, iterations: Int) throws -> [UInt8] {
        let macSalt = PKCS12Crypto.randomBytes(8)
        let macKey = PKCS12Crypto.deriveKey(password: PKCS12Crypto.bmpPassword(password), salt: macSalt, id: 3,
                                            iterations: iterations, count: 32, hash: .sha256)
        let mac = PKCS12Crypto.MACHash.sha256.hmac(key: macKey, data: authSafe)
        return try DER.Serializer.encode { coder in
            try coder.sequence { coder in
                try coder.serialize(3)
                try dataContent(authSafe, into: &coder)
                try coder.sequence { coder in
                    try coder.sequence { coder in
                        try coder.algorithm(PKCS12OID.sha256)
                        try coder.octetString(mac)
                    }
                    try coder.octetString(macSalt)
                    try coder.serialize(iterations)
                }
            }
        }
    }
}
