import Foundation

/// Why a certificates/bundle ids/devices/profiles call failed in a way Slipway explains itself
/// (other failures are `AppStoreConnectError`). Each message says what to do.
public enum AppStoreConnectProvisioningError: Error, LocalizedError, Sendable, Equatable {
    /// `POST /v1/certificates` answered 409 because the team already has as many certificates of
    /// this type as Apple allows ("You already have a current Distribution certificate or a
    /// pending certificate request."). `detail` is Apple's text.
    case certificateLimitReached(type: String, detail: String)
    /// `POST /v1/bundleIds` answered 409 because the identifier is registered already (by this
    /// team or, for a taken identifier, another one).
    case bundleIDAlreadyRegistered(identifier: String, detail: String)
    /// An App ID name with characters Apple refuses (only letters, digits and spaces); nothing was sent.
    case invalidBundleIDName(name: String, identifier: String)
    /// `POST /v1/devices` answered 409 because the UDID is registered already or is not a valid UDID.
    case deviceRefused(udid: String, detail: String)
    /// Apple refused to register (or enable) a device because the team has registered as many
    /// devices of its kind as the membership year allows.
    case deviceLimitReached(name: String, udid: String, detail: String)

    public var errorDescription: String? {
        switch self {
        case let .certificateLimitReached(type, detail):
            return "App Store Connect will not create another \(type) certificate: the team already has as many as Apple allows "
                + "(HTTP 409: \(detail)). Revoke one you no longer use (`slipway signing nuke --type \(Self.slipwayType(type))`, or "
                + "Certificates, Identifiers & Profiles → Certificates on developer.apple.com), or put the existing certificate and "
                + "its private key into the signing storage so that Slipway uses it instead of creating one."
        case let .bundleIDAlreadyRegistered(identifier, detail):
            return "the bundle id '\(identifier)' could not be registered: App Store Connect says it exists already (HTTP 409: "
                + "\(detail)). If your team registered it, use it as it is (it is found by its identifier); if another team "
                + "owns it, choose another bundle id."
        case let .invalidBundleIDName(name, identifier):
            return "'\(name)' cannot be the App ID name of '\(identifier)': Apple accepts only letters, digits and spaces in it. "
                + "Give a name such as '\(Self.suggestedName(for: identifier))'."
        case let .deviceRefused(udid, detail):
            return "App Store Connect refused to register the device '\(udid)' (HTTP 409: \(detail)). Check the UDID (Finder or "
                + "Xcode's Devices window shows it) and whether the device is registered already (`devices` lists them)."
        case let .deviceLimitReached(name, udid, detail):
            return "App Store Connect refused the device '\(name)' (\(udid)): the team has registered as many devices of this kind "
                + "as Apple allows in a membership year (\(detail)). Disabling a device does not free its place until the membership "
                + "renews; then remove the devices you no longer use on developer.apple.com (Certificates, Identifiers & Profiles → "
                + "Devices) and run the command again."
        }
    }

    /// The `slipway signing --type` a certificate type belongs to.
    static func slipwayType(_ certificateType: String) -> String {
        switch certificateType {
        case "DEVELOPMENT", "IOS_DEVELOPMENT", "MAC_APP_DEVELOPMENT": return "development"
        case "DEVELOPER_ID_APPLICATION", "DEVELOPER_ID_APPLICATION_G2": return "developer-id"
        default: return "app-store"
        }
    }

    /// A valid App ID name made from a bundle id: runs of other characters become one space.
    public static func suggestedName(for identifier: String) -> String {
        var words: [String] = [], word = ""
        for character in identifier {
            if character.isASCII && (character.isLetter || character.isNumber) { word.append(character) } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words.joined(separator: " ")
    }

    /// True when `name` has only ASCII letters, digits and spaces, and something else than spaces.
    public static func isValidBundleIDName(_ name: String) -> Bool {
        !name.trimmingCharacters(in: .whitespaces).isEmpty
            && name.allSatisfy { $0 == " " || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}
