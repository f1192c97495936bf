import Basics
import Foundation

/// The `apns-push-type` values Apple documents
/// (https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns).
public enum APNsPushType: String, Sendable, CaseIterable {
    /// Each value as `apns-push-type` carries it; Apple's page describes what each is for.
    case alert, background, controls, location, voip, complication, fileprovider, liveactivity, mdm, pushtotalk, widgets

    /// The `apns-priority` Apple requires or recommends: 5 for background work (10 is refused),
    /// 10 (immediate) otherwise.
    public var defaultPriority: Int {
        switch self {
        case .background, .fileprovider, .mdm, .widgets, .controls: return 5
        default: return 10
        }
    }

    /// The largest payload APNs accepts for this type: 5 KB for VoIP, 4 KB otherwise.
    public var payloadLimit: Int { self == .voip ? 5_120 : 4_096 }
}

/// What Apple's `reason` values mean and what to do about them, from the table "Understand error
/// codes" of https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns.
public enum APNsReason {
    /// The explanation of `reason` (with `timestamp` for `Unregistered`), or a pointer to Apple's table.
    public static func explain(_ reason: String, timestamp: Date?) -> String {
        switch reason {
        case "BadDeviceToken":
            return "The device token is not valid for this environment: a token from a development build works only with --sandbox, "
                + "one from TestFlight or the App Store only with --production. Check the token and the environment."
        case "BadTopic", "MissingTopic":
            return "The apns-topic is missing or not valid. Give the app's bundle id with --topic."
        case "TopicDisallowed":
            return "This key or certificate may not send to that topic. Check --topic, and that the key's team owns the app."
        case "DeviceTokenNotForTopic":
            return "The device token belongs to another app than --topic. Use the token of the app with this bundle id."
        case "ExpiredProviderToken":
            return "The authentication token is older than an hour. Check this machine's clock (the token's iat is taken from it)."
        case "InvalidProviderToken":
            return "The authentication token did not verify: the key id, team id or .p8 key do not belong together, or the key was revoked. "
                + "Check --key-id and --team-id against Certificates, Identifiers & Profiles → Keys."
        case "MissingProviderToken":
            return "No authentication token and no client certificate reached APNs. Give --key with --key-id and --team-id."
        case "BadCertificate", "BadCertificateEnvironment":
            return "The client certificate is not valid for this environment. Use the other environment or another certificate."
        case "Forbidden":
            return "APNs refused the provider: the key may lack the Apple Push Notifications service. Check the key's services."
        case "Unregistered", "ExpiredToken":
            let when = timestamp.map { " on \(DateText.iso8601($0))" } ?? ""
            return "The device token is no longer active for the topic\(when): the app was removed or notifications were turned off. "
                + "Stop sending to this token."
        case "PayloadTooLarge":
            return "The payload is over 4096 bytes (5120 for VoIP). Shorten it."
        case "PayloadEmpty":
            return "The payload was empty. Give --payload or --message."
        case "BadPriority":
            return "The apns-priority is not allowed for this push type (background notifications must use 5). Check --priority."
        case "InvalidPushType":
            return "The apns-push-type is not valid for this topic. Check --push-type and the topic's suffix."
        case "BadExpirationDate":
            return "The apns-expiration is not valid. Check --expiration."
        case "BadCollapseId", "BadMessageId", "DuplicateHeaders", "BadPath", "MethodNotAllowed":
            return "The request was malformed (\(reason)). This is a bug in Slipway; please report it."
        case "TooManyRequests":
            return "Too many notifications were sent to this device in a short time. Wait before sending again."
        case "TooManyProviderTokenUpdates":
            return "The authentication token was renewed too often. Wait a few minutes before sending again."
        case "IdleTimeout", "InternalServerError", "ServiceUnavailable", "Shutdown":
            return "APNs had a problem on its side. Try again later."
        default:
            return "See Apple's table of reasons: https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns."
        }
    }
}
