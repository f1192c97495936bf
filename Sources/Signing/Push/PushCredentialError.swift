import Foundation

/// What checking push credentials (an APNs `.p8` key or a push `.p12`) and sending a test
/// notification throws. Each case names the file or option at fault and says what to do; no case
/// carries key material, a token or a password.
public enum PushCredentialError: Error, Equatable, Sendable {
    /// `file` cannot be read (`reason`: no such file, not a regular file, ...).
    case unreadableFile(file: String, reason: String)
    /// `file` is larger than any credential file (`limit` bytes).
    case fileTooLarge(file: String, limit: Int)
    /// `file` is not PEM text.
    case notPEM(file: String)
    /// `file` holds an encrypted PKCS#8 key, which APNs keys never are.
    case encryptedKey(file: String)
    /// `file` holds a key, but not a P-256 private key; `found` says what it is.
    case notP256(file: String, found: String)
    /// No `--key-id`, and the file is not named `AuthKey_<KEYID>.p8`.
    case missingKeyID(file: String)
    /// `--key-id` differs from the id in the file's name.
    case keyIDMismatch(file: String, fromName: String, given: String)
    /// A key id that is not ten letters and digits.
    case malformedKeyID(String)
    /// A team id that is not ten letters and digits.
    case malformedTeamID(String)
    /// The certificate in `file` is not an Apple Push Services certificate.
    case notAPushCertificate(file: String, commonName: String)
    /// The certificate in `file` expired on `date` (ISO 8601).
    case expired(file: String, date: String)
    /// `--topic` is not one the certificate in `file` can send to.
    case topicNotInCertificate(file: String, topic: String, topics: [String])
    /// A device token that is not an even number of hex digits (`detail` says what is wrong).
    case malformedDeviceToken(detail: String)
    /// A topic that is not a bundle id (with an optional APNs suffix).
    case malformedTopic(String)
    /// The payload is not a JSON object with an `aps` dictionary.
    case invalidPayload(detail: String)
    /// The payload is `size` bytes, over APNs' `limit`.
    case payloadTooLarge(size: Int, limit: Int)
    /// An unknown `--push-type`.
    case unknownPushType(String)
    /// An `apns-priority` other than 10, 5 or 1.
    case invalidPriority(Int)
    /// The HTTP exchange was not HTTP/2 (APNs speaks nothing else).
    case notHTTP2(host: String, version: String)
    /// APNs refused the notification: `status`, Apple's `reason` and, for `Unregistered`, when.
    case rejected(status: Int, reason: String, timestamp: Date?, apnsID: String?)
}

extension PushCredentialError: LocalizedError {
    /// A message that names the subject and says what to do.
    public var errorDescription: String? {
        switch self {
        case let .unreadableFile(file, reason):
            return "Cannot read '\(file)': \(reason). Check the path."
        case let .fileTooLarge(file, limit):
            return "'\(file)' is larger than \(limit) bytes, so it is not a push credential; it was not read. Check the path."
        case let .notPEM(file):
            return "'\(file)' is not a PEM private key (no '-----BEGIN PRIVATE KEY-----' block). "
                + "Give the .p8 file downloaded from Certificates, Identifiers & Profiles → Keys, as it is."
        case let .encryptedKey(file):
            return "'\(file)' holds an encrypted private key; APNs keys (.p8) are never encrypted. "
                + "Give the .p8 file as Apple's portal downloaded it, or decrypt it: 'openssl pkcs8 -in \(file) -out AuthKey_KEYID.p8'."
        case let .notP256(file, found):
            return "'\(file)' holds \(found), not the P-256 (ES256) private key of an APNs auth key. "
                + "Download the key again from Certificates, Identifiers & Profiles → Keys (with Apple Push Notifications service enabled)."
        case let .missingKeyID(file):
            return "'\(file)' is not named AuthKey_<KEYID>.p8, so its key id is unknown. "
                + "Give it with --key-id (the Key ID column of Certificates, Identifiers & Profiles → Keys)."
        case let .keyIDMismatch(file, fromName, given):
            return "--key-id is '\(given)', but '\(file)' is named for key '\(fromName)'. "
                + "Use the key id of this file (or rename the file if it was saved under another key's name)."
        case let .malformedKeyID(value):
            return "The key id '\(value)' is not ten letters and digits. Copy the Key ID from Certificates, Identifiers & Profiles → Keys."
        case let .malformedTeamID(value):
            return "The team id '\(value)' is not ten letters and digits. Copy the Team ID from the Membership page of your developer account."
        case let .notAPushCertificate(file, commonName):
            return "The certificate in '\(file)' ('\(commonName)') is not an Apple Push Services certificate: it has none of "
                + "Apple's push extensions (1.2.840.113635.100.6.3.1, .3.2). Export the push certificate (\"Apple Push Services: "
                + "<bundle id>\") with its key from Keychain Access, or use a .p8 key instead."
        case let .expired(file, date):
            return "The push certificate in '\(file)' expired on \(date). Create a new one in Certificates, Identifiers & Profiles "
                + "(or switch to a .p8 key, which does not expire) and export it with its key as .p12."
        case let .topicNotInCertificate(file, topic, topics):
            return "The push certificate in '\(file)' cannot send to the topic '\(topic)'; its topics are "
                + "\(topics.map { "'\($0)'" }.joined(separator: ", ")). Use one of them with --topic, or the certificate of that app."
        case let .malformedDeviceToken(detail):
            return "--device-token \(detail). Give the token the app received in "
                + "application(_:didRegisterForRemoteNotificationsWithDeviceToken:), as hex (64 digits for most devices)."
        case let .malformedTopic(value):
            return "--topic '\(value)' is not a bundle id (letters, digits, '-' and '.'). Give the app's bundle id, "
                + "with '.voip', '.complication' or '.push-type.liveactivity' for those push types."
        case let .invalidPayload(detail):
            return "The payload \(detail). Give a JSON object with an 'aps' dictionary, e.g. {\"aps\":{\"alert\":\"Hello\"}}, or use --message."
        case let .payloadTooLarge(size, limit):
            return "The payload is \(size) bytes; APNs accepts at most \(limit) (5120 for VoIP). Nothing was sent. Shorten it."
        case let .unknownPushType(value):
            return "--push-type '\(value)' is not an APNs push type. Use one of \(APNsPushType.allCases.map(\.rawValue).joined(separator: ", "))."
        case let .invalidPriority(value):
            return "--priority \(value) is not an APNs priority. Use 10 (immediate), 5 (power-conscious; required for background) or 1."
        case let .notHTTP2(host, version):
            return "'\(host)' answered over \(version), but APNs requires HTTP/2. Check that the host is APNs "
                + "(api.push.apple.com or api.sandbox.push.apple.com) and that libcurl was built with HTTP/2 (nghttp2)."
        case let .rejected(status, reason, timestamp, apnsID):
            let id = apnsID.map { " (apns-id \($0))" } ?? ""
            return "APNs refused the notification: HTTP \(status) \(reason)\(id). " + APNsReason.explain(reason, timestamp: timestamp)
        }
    }
}
