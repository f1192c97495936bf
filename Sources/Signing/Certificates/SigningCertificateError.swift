import Foundation

/// What reading or writing certificates, keys, PKCS#12 files and provisioning profiles throws.
/// Each case names the file (or the value's role) and `errorDescription` says what to do. No
/// case carries a password or key material.
public enum SigningCertificateError: Error, Equatable, Sendable {
    /// `file` is neither a DER nor a PEM X.509 certificate.
    case notACertificate(file: String, detail: String)
    /// `file` is not a private key Slipway reads (PKCS#8 or PKCS#1 RSA, PEM or DER).
    case notAPrivateKey(file: String, detail: String)
    /// The private key in `keyFile` is not the key of the certificate in `certificateFile`.
    case keyDoesNotMatchCertificate(keyFile: String, certificateFile: String)
    /// The password does not open the PKCS#12 file `file` (its MAC did not verify).
    case wrongPKCS12Password(file: String)
    /// `file` is not a PKCS#12 file Slipway reads; `detail` says what was found.
    case unreadablePKCS12(file: String, detail: String)
    /// `file` uses an encryption `algorithm` Slipway does not implement.
    case unsupportedPKCS12Algorithm(file: String, algorithm: String)
    /// `file` asks for more work than one PKCS#12 file may cost (`PKCS12Limits`); `detail` says what.
    case pkcs12OverBudget(file: String, detail: String)
    /// `file` holds no certificate, or no private key, or several of either.
    case incompletePKCS12(file: String, detail: String)
    /// `file` is not a CMS SignedData envelope (a `.mobileprovision` file).
    case notAProvisioningProfile(file: String, detail: String)
    /// `file`'s CMS envelope holds content that is not a property list Slipway can read.
    case unreadableProfileContent(file: String, detail: String)
    /// Making a key, request or file failed in the crypto library.
    case encodingFailed(subject: String, detail: String)
}

extension SigningCertificateError: LocalizedError {
    /// A message that names the subject and says what to do.
    public var errorDescription: String? {
        switch self {
        case let .notACertificate(file, detail):
            return "'\(file)' is not an X.509 certificate (\(detail)). "
                + "Give a .cer (DER) or .pem certificate, as downloaded from the Apple Developer portal."
        case let .notAPrivateKey(file, detail):
            return "'\(file)' is not an RSA private key Slipway reads (\(detail)). "
                + "Give the PKCS#8 or PKCS#1 key (PEM or DER) that was made with the certificate signing request."
        case let .keyDoesNotMatchCertificate(keyFile, certificateFile):
            return "The private key '\(keyFile)' does not belong to the certificate '\(certificateFile)': their public keys differ. "
                + "Use the key that made the certificate's signing request, or create a new certificate for this key."
        case let .wrongPKCS12Password(file):
            return "The password does not open '\(file)' (its integrity check failed). "
                + "Check the PKCS#12 password; if it is right, the file is damaged: export it again."
        case let .unreadablePKCS12(file, detail):
            return "'\(file)' is not a PKCS#12 (.p12) file Slipway reads (\(detail)). Export the certificate and key again as .p12."
        case let .unsupportedPKCS12Algorithm(file, algorithm):
            return "'\(file)' is encrypted with \(algorithm), which Slipway does not read. Re-export it with AES-256-CBC and "
                + "PBKDF2 (the default of OpenSSL 3 and of recent macOS): 'openssl pkcs12 -in OLD.p12 -legacy -nodes | "
                + "openssl pkcs12 -export -out NEW.p12'."
        case let .pkcs12OverBudget(file, detail):
            return "'\(file)' is refused before any key derivation: \(detail). Export the certificate and key again "
                + "with the exporter's default iteration counts (for example 'openssl pkcs12 -export', which uses 2048)."
        case let .incompletePKCS12(file, detail):
            return "'\(file)' does not hold exactly one certificate and its private key (\(detail)). "
                + "Export the identity (certificate with its key) again as .p12."
        case let .notAProvisioningProfile(file, detail):
            return "'\(file)' is not a provisioning profile: it is not a CMS signed envelope (\(detail)). "
                + "Download the .mobileprovision again from the Apple Developer portal or App Store Connect."
        case let .unreadableProfileContent(file, detail):
            return "The provisioning profile '\(file)' does not hold a property list Slipway can read (\(detail)). "
                + "Download the profile again."
        case let .encodingFailed(subject, detail):
            return "Could not make \(subject): \(detail). This is a bug in Slipway or its crypto library; please report it."
        }
    }
}
