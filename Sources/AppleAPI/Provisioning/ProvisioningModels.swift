import Basics
import Foundation

/// A signing certificate on App Store Connect (the `certificates` resource,
/// https://developer.apple.com/documentation/appstoreconnectapi/certificate).
public struct AppStoreConnectCertificate: Sendable, Hashable {
    /// The resource id (used to revoke it and to put it in a profile).
    public var id: String
    /// `attributes.name`, e.g. "Apple Distribution: Example Ltd".
    public var name: String
    /// `attributes.displayName`.
    public var displayName: String?
    /// Apple's raw type: "DISTRIBUTION", "IOS_DISTRIBUTION", "DEVELOPMENT", "DEVELOPER_ID_APPLICATION", ...
    public var certificateType: String
    /// The serial number (hex), as Apple lists it.
    public var serialNumber: String?
    /// When it expires.
    public var expirationDate: Date?
    /// The certificate, DER (from `certificateContent`, base64).
    public var content: [UInt8]

    /// Creates a value.
    public init(id: String, name: String, displayName: String? = nil, certificateType: String, serialNumber: String? = nil,
                expirationDate: Date? = nil, content: [UInt8] = []) {
        self.id = id
        self.name = name
        self.displayName = displayName
        self.certificateType = certificateType
        self.serialNumber = serialNumber
        self.expirationDate = expirationDate
        self.content = content
    }

    init(_ resource: JSONAPIResource) {
        self.init(id: resource.id, name: resource.string("name") ?? "", displayName: resource.string("displayName"),
                  certificateType: resource.string("certificateType") ?? "", serialNumber: resource.string("serialNumber"),
                  expirationDate: resource.string("expirationDate").flatMap(AppleDate.parse),
                  content: resource.string("certificateContent").flatMap { Data(base64Encoded: $0, options: .ignoreUnknownCharacters) }
                      .map(Array.init) ?? [])
    }
}

/// A registered bundle id (App ID) (https://developer.apple.com/documentation/appstoreconnectapi/bundleid).
public struct AppStoreConnectBundleID: Sendable, Hashable {
    /// The resource id (what a profile links to).
    public var id: String
    /// The bundle id itself, e.g. `com.example.app`.
    public var identifier: String
    /// The App ID's name (letters, digits and spaces).
    public var name: String
    /// IOS, MAC_OS or UNIVERSAL.
    public var platform: String
    /// The App ID prefix (usually the team id).
    public var seedID: String?

    /// Creates a value.
    public init(id: String, identifier: String, name: String, platform: String, seedID: String? = nil) {
        self.id = id
        self.identifier = identifier
        self.name = name
        self.platform = platform
        self.seedID = seedID
    }

    init(_ resource: JSONAPIResource) {
        self.init(id: resource.id, identifier: resource.string("identifier") ?? "", name: resource.string("name") ?? "",
                  platform: resource.string("platform") ?? "", seedID: resource.string("seedId"))
    }
}

/// A registered device (https://developer.apple.com/documentation/appstoreconnectapi/device).
public struct AppStoreConnectDevice: Sendable, Hashable {
    /// The resource id (what a profile links to).
    public var id: String
    /// The device's UDID.
    public var udid: String
    /// Its name in the portal.
    public var name: String
    /// IOS, MAC_OS or UNIVERSAL.
    public var platform: String
    /// ENABLED or DISABLED.
    public var status: String
    /// IPHONE, IPAD, MAC, APPLE_WATCH, APPLE_TV, APPLE_VISION_PRO, IPOD.
    public var deviceClass: String?
    /// The model, e.g. "iPhone 15 Pro" (nil until the device was used with Xcode).
    public var model: String?
    /// When it was registered, as Apple gives it.
    public var addedDate: Date?

    /// Creates a value.
    public init(id: String, udid: String, name: String, platform: String, status: String, deviceClass: String? = nil,
                model: String? = nil, addedDate: Date? = nil) {
        self.id = id
        self.udid = udid
        self.name = name
        self.platform = platform
        self.status = status
        self.deviceClass = deviceClass
        self.model = model
        self.addedDate = addedDate
    }

    init(_ resource: JSONAPIResource) {
        self.init(id: resource.id, udid: resource.string("udid") ?? "", name: resource.string("name") ?? "",
                  platform: resource.string("platform") ?? "", status: resource.string("status") ?? "",
                  deviceClass: resource.string("deviceClass"), model: resource.string("model"),
                  addedDate: resource.string("addedDate").flatMap(AppleDate.parse))
    }
}

/// A provisioning profile on App Store Connect (https://developer.apple.com/documentation/appstoreconnectapi/profile).
public struct AppStoreConnectProfile: Sendable, Hashable {
    /// The resource id.
    public var id: String
    /// The profile's name.
    public var name: String
    /// Apple's raw type: IOS_APP_DEVELOPMENT, IOS_APP_STORE, IOS_APP_ADHOC, IOS_APP_INHOUSE, MAC_APP_DIRECT, ...
    public var profileType: String
    /// ACTIVE or INVALID (a certificate in it was revoked, or it expired).
    public var profileState: String
    /// The profile's UUID.
    public var uuid: String
    /// When it expires.
    public var expirationDate: Date?
    /// The `.mobileprovision` bytes (from `profileContent`, base64).
    public var content: [UInt8]
    /// The bundle id resource it is for.
    public var bundleIDResourceID: String?
    /// The certificate resources it allows.
    public var certificateIDs: [String]
    /// The device resources it allows.
    public var deviceIDs: [String]

    /// Creates a value.
    public init(id: String, name: String, profileType: String, profileState: String, uuid: String, expirationDate: Date? = nil,
                content: [UInt8] = [], bundleIDResourceID: String? = nil, certificateIDs: [String] = [], deviceIDs: [String] = []) {
        self.id = id
        self.name = name
        self.profileType = profileType
        self.profileState = profileState
        self.uuid = uuid
        self.expirationDate = expirationDate
        self.content = content
        self.bundleIDResourceID = bundleIDResourceID
        self.certificateIDs = certificateIDs
        self.deviceIDs = deviceIDs
    }

    /// True when the profile is ACTIVE.
    public var isActive: Bool { profileState == "ACTIVE" }

    init(_ resource: JSONAPIResource) {
        self.init(id: resource.id, name: resource.string("name") ?? "", profileType: resource.string("profileType") ?? "",
                  profileState: resource.string("profileState") ?? "", uuid: resource.string("uuid") ?? "",
                  expirationDate: resource.string("expirationDate").flatMap(AppleDate.parse),
                  content: resource.string("profileContent").flatMap { Data(base64Encoded: $0, options: .ignoreUnknownCharacters) }
                      .map(Array.init) ?? [],
                  bundleIDResourceID: resource.related("bundleId").first?.id,
                  certificateIDs: resource.related("certificates").map(\.id), deviceIDs: resource.related("devices").map(\.id))
    }
}

/// Apple's date-times: `2027-01-01T00:00:00.000+0000`, `2027-01-01T00:00:00Z`, `2027-01-01T00:00:00.000+00:00`.
enum AppleDate {
    static func parse(_ text: String) -> Date? {
        if let date = DateText.date(iso8601: text, fractionalSeconds: true) ?? DateText.date(iso8601: text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        for format in ["yyyy-MM-dd'T'HH:mm:ss.SSSZ", "yyyy-MM-dd'T'HH:mm:ssZ"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
