import Foundation

/// Why an App Store Connect API key cannot be used; found offline, before anything is sent.
/// Each message names the value at fault and says where to find the right one.
public enum AppStoreConnectKeyError: Error, LocalizedError, Sendable, Equatable {
    /// The key text is not PEM (no `-----BEGIN ...-----` block with base64 inside).
    case notPEM(source: String)
    /// The PEM holds something other than a P-256 private key.
    case notP256(source: String, found: String)
    /// A team key was given no issuer id.
    case missingIssuerID(keyID: String)
    /// The issuer id is not a UUID.
    case malformedIssuerID(String)
    /// An individual key was given an issuer id.
    case issuerIDForIndividualKey(keyID: String)
    /// The key id is not ten letters and digits.
    case malformedKeyID(String)
    /// The `.p8` file cannot be read.
    case unreadableKeyFile(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .notPEM(let source):
            return "the App Store Connect private key \(source) is not PEM text (a '-----BEGIN PRIVATE KEY-----' block). "
                + "Give the whole .p8 file downloaded from App Store Connect (Users and Access → Integrations), unchanged."
        case .notP256(let source, let found):
            return "the App Store Connect private key \(source) is \(found), not a P-256 key. "
                + "App Store Connect API keys are P-256 (ES256): give the .p8 file downloaded from Users and Access → Integrations."
        case .missingIssuerID(let keyID):
            return "no issuer id was given for the team key '\(keyID)'. Copy the Issuer ID shown above the key list in "
                + "App Store Connect (Users and Access → Integrations), or say that the key is an individual key."
        case .malformedIssuerID(let value):
            return "the issuer id '\(value)' is not a UUID (like 57246542-96fe-1a63-e053-0824d011072a). "
                + "Copy the Issuer ID shown above the key list in App Store Connect (Users and Access → Integrations)."
        case .issuerIDForIndividualKey(let keyID):
            return "the individual key '\(keyID)' was given an issuer id; individual keys have none. "
                + "Drop the issuer id, or say that the key is a team key."
        case .malformedKeyID(let value):
            return "the key id '\(value)' is not 10 letters and digits. "
                + "Copy the Key ID column of the key in App Store Connect (Users and Access → Integrations)."
        case .unreadableKeyFile(let path, let reason):
            return "cannot read the App Store Connect private key '\(path)': \(reason). "
                + "Give the path of the .p8 file downloaded from App Store Connect."
        }
    }
}
