import _CryptoExtras
import Foundation
import SwiftASN1
import X509

/// An RSA private key for a signing certificate: made fresh for a certificate signing request,
/// stored in a PKCS#12 file, or read from PEM/DER.
public struct SigningPrivateKey: Sendable {
    /// The key itself.
    public let rsa: _RSA.Signing.PrivateKey

    /// Wraps an existing RSA key.
    public init(_ rsa: _RSA.Signing.PrivateKey) {
        self.rsa = rsa
    }

    /// A new RSA 2048 key: the size Apple's Certificate Assistant makes and the portal accepts.
    /// - Throws: `SigningCertificateError.encodingFailed` if the crypto library fails.
    public static func generate() throws -> SigningPrivateKey {
        do {
            return SigningPrivateKey(try _RSA.Signing.PrivateKey(keySize: .bits2048))
        } catch {
            throw SigningCertificateError.encodingFailed(subject: "an RSA 2048 private key", detail: "\(error)")
        }
    }

    /// Reads a PKCS#8 or PKCS#1 RSA key, PEM or DER; `file` names it in errors.
    /// - Throws: `SigningCertificateError.notAPrivateKey`.
    public init(bytes: [UInt8], file: String) throws {
        do {
            if let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN") {
                rsa = try _RSA.Signing.PrivateKey(pemRepresentation: text)
            } else {
                rsa = try _RSA.Signing.PrivateKey(derRepresentation: bytes)
            }
        } catch {
            throw SigningCertificateError.notAPrivateKey(file: file, detail: "\(error)")
        }
    }

    /// The key as PKCS#8 PrivateKeyInfo (DER), what a PKCS#12 key bag holds.
    public var pkcs8DER: [UInt8] {
        get throws {
            do {
                return try PEMDocument(pemString: rsa.pkcs8PEMRepresentation).derBytes
            } catch {
                throw SigningCertificateError.encodingFailed(subject: "the key's PKCS#8 form", detail: "\(error)")
            }
        }
    }

    /// The key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public var pkcs8PEM: String { rsa.pkcs8PEMRepresentation }

    /// The public half, as certificates carry it.
    public var publicKey: Certificate.PublicKey { Certificate.PublicKey(rsa.publicKey) }

    /// The key size in bits.
    public var keySizeInBits: Int { rsa.keySizeInBits }
}
