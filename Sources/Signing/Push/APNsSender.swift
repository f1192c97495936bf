import Basics
import Foundation

/// One test notification, as `slipway push send` sends it.
public struct APNsNotification: Sendable {
    /// The device token, lower-case hex.
    public let deviceToken: String
    /// `apns-topic`: the bundle id (with a suffix for some push types).
    public let topic: String
    /// `apns-push-type`.
    public let pushType: APNsPushType
    /// `apns-priority`: 10, 5 or 1.
    public let priority: Int
    /// `apns-expiration`: 0 (deliver once or never) or a UNIX time.
    public let expiration: Int64
    /// The JSON payload.
    public let payload: [UInt8]

    /// Checks every part before anything is sent.
    /// - Throws: `PushCredentialError.malformedDeviceToken`, `.malformedTopic`, `.invalidPriority`,
    ///   `.invalidPayload`, `.payloadTooLarge`.
    public init(deviceToken: String, topic: String, pushType: APNsPushType, priority: Int? = nil, expiration: Int64 = 0,
                payload: [UInt8]) throws {
        let token = deviceToken.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "<>")).lowercased()
        if token.isEmpty { throw PushCredentialError.malformedDeviceToken(detail: "is empty") }
        if let bad = token.first(where: { !$0.isHexDigit }) {
            throw PushCredentialError.malformedDeviceToken(detail: "holds '\(bad)', which is not a hex digit")
        }
        guard token.count % 2 == 0, token.count >= 16, token.count <= 200 else {
            throw PushCredentialError.malformedDeviceToken(detail: "has \(token.count) hex digits, not an even number between 16 and 200")
        }
        try APNsTopic.check(topic)
        if let priority, ![1, 5, 10].contains(priority) {
            throw PushCredentialError.invalidPriority(priority)
        }
        guard payload.count <= pushType.payloadLimit else {
            throw PushCredentialError.payloadTooLarge(size: payload.count, limit: pushType.payloadLimit)
        }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(payload)) } catch {
            throw PushCredentialError.invalidPayload(detail: "is not JSON")
        }
        guard let dictionary = object as? [String: Any] else {
            throw PushCredentialError.invalidPayload(detail: "is not a JSON object")
        }
        guard dictionary["aps"] is [String: Any] else {
            throw PushCredentialError.invalidPayload(detail: "has no 'aps' dictionary")
        }
        self.deviceToken = token
        self.topic = topic
        self.pushType = pushType
        self.priority = priority ?? pushType.defaultPriority
        self.expiration = expiration
        self.payload = payload
    }

    /// The payload of `--message TEXT`: `{"aps":{"alert":TEXT,"sound":"default"}}` for alerts,
    /// `{"aps":{"content-available":1}}` for background notifications.
    public static func payload(message: String?, pushType: APNsPushType) -> [UInt8] {
        if pushType == .background { return Array(#"{"aps":{"content-available":1}}"#.utf8) }
        let text = message ?? "Test notification from Slipway"
        return Array(#"{"aps":{"alert":\#(JSONFormatting.quoted(text)),"sound":"default"}}"#.utf8)
    }
}

/// APNs' answer to a delivered notification.
public struct APNsDelivery: Sendable, Equatable, Encodable {
    /// `apns-id`: Apple's id of the notification.
    public let apnsID: String?
    /// The host it went to.
    public let host: String
    /// The protocol spoken (HTTP/2).
    public let protocolVersion: String?
}

/// Sends notifications over APNs' HTTP/2 API with a provider token
/// (https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns):
/// `POST /3/device/<token>`, `authorization: bearer <ES256 JWT>`, `apns-topic`, `apns-push-type`,
/// `apns-priority`, `apns-expiration`. Errors carry Apple's `reason`, explained.
public struct APNsSender: Sendable {
    /// api.sandbox.push.apple.com.
    public static let sandboxHost = URL(string: "https://api.sandbox.push.apple.com")
    /// api.push.apple.com.
    public static let productionHost = URL(string: "https://api.push.apple.com")

    let http: any HTTPClient
    let key: APNsAuthKey
    let host: URL
    let trustedCertificatesFile: String?
    let now: @Sendable () -> Date

    /// A sender to `host` (one of the two above, or a test server) signing with `key`.
    public init(http: any HTTPClient, key: APNsAuthKey, host: URL, trustedCertificatesFile: String? = nil,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.http = http
        self.key = key
        self.host = host
        self.trustedCertificatesFile = trustedCertificatesFile
        self.now = now
    }

    /// Sends `notification`.
    /// - Throws: `PushCredentialError.rejected` (Apple's reason, explained), `.notHTTP2`, or
    ///   `HTTPError` when APNs cannot be reached.
    public func send(_ notification: APNsNotification) async throws -> APNsDelivery {
        let url = host.appendingPathComponent("3").appendingPathComponent("device").appendingPathComponent(notification.deviceToken)
        var request = HTTPRequest(method: .post, url: url, headers: [
            "authorization": "bearer " + (try key.token(now: now())),
            "apns-topic": notification.topic,
            "apns-push-type": notification.pushType.rawValue,
            "apns-priority": String(notification.priority),
            "apns-expiration": String(notification.expiration),
            "content-type": "application/json",
        ], body: .bytes(notification.payload), timeout: .seconds(30),
           limits: HTTPTransferLimits(maximumBytes: 64 * 1024))
        request.prefersHTTP2 = true
        request.trustedCertificatesFile = trustedCertificatesFile
        let response = try await http.send(request)
        let hostName = host.host ?? host.absoluteString
        if let version = response.protocolVersion, version != "HTTP/2" {
            throw PushCredentialError.notHTTP2(host: hostName, version: version)
        }
        let apnsID = response.headers["apns-id"]
        guard response.status == 200 else {
            let answer = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
            let reason = answer?["reason"] as? String ?? "no reason given"
            let timestamp = (answer?["timestamp"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue / 1000) }
            throw PushCredentialError.rejected(status: response.status, reason: reason, timestamp: timestamp, apnsID: apnsID)
        }
        return APNsDelivery(apnsID: apnsID, host: hostName, protocolVersion: response.protocolVersion)
    }
}
