import Foundation
@_spi(CMS) import X509

/// Makes provisioning profiles for tests and contract fakes: an XML property list with the
/// keys Apple's profiles carry, in a CMS SignedData envelope (content attached, signed
/// attributes with the signing time) signed by a `TestCertificateAuthority`. It uses
/// swift-certificates' CMS signer (`@_spi(CMS)`: not public API, acceptable in test support;
/// if an update removes it, this file is the one place to change). OpenSSL reads what it makes
/// (`openssl cms -verify -noverify -inform DER`, checked in SigningTests).
public struct ProvisioningProfileBuilder: Sendable {
    public var name = "Slipway Test Profile"
    public var uuid = UUID().uuidString
    public var teamID = "AB12CD34EF"
    public var appIDName = "Slipway Example"
    public var bundleID = "com.example.app"
    public var creationDate = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01
    public var expirationDate = Date(timeIntervalSince1970: 1_798_761_600) // 2027-01-01
    public var platforms = ["iOS"]
    public var devices: [String] = []
    public var provisionsAllDevices = false
    public var getTaskAllow = false
    /// DER of the certificates the profile allows ("DeveloperCertificates").
    public var certificates: [[UInt8]] = []

    /// Entitlements granted besides the App ID's: strings (`aps-environment`) and lists (app groups).
    public var extraStringEntitlements: [String: String] = [:]
    public var extraListEntitlements: [String: [String]] = [:]

    /// Signed in place of `plist()` when set: a hostile profile's content (issue 42's tests).
    public var content: [UInt8]?

    public init() {}

    /// The property list (XML), as Apple's profiles hold it.
    public func plist() throws -> [UInt8] {
        var entitlements: [String: Any] = [
            "application-identifier": "\(teamID).\(bundleID)",
            "com.apple.developer.team-identifier": teamID,
            "get-task-allow": getTaskAllow,
            "keychain-access-groups": ["\(teamID).*"],
        ]
        for (key, value) in extraStringEntitlements { entitlements[key] = value }
        for (key, value) in extraListEntitlements { entitlements[key] = value }
        if platforms.contains("OSX") {
            entitlements["com.apple.application-identifier"] = entitlements.removeValue(forKey: "application-identifier")
        }
        var plist: [String: Any] = [
            "AppIDName": appIDName,
            "ApplicationIdentifierPrefix": [teamID],
            "CreationDate": creationDate,
            "DeveloperCertificates": certificates.map { Data($0) },
            "Entitlements": entitlements,
            "ExpirationDate": expirationDate,
            "IsXcodeManaged": false,
            "Name": name,
            "Platform": platforms,
            "TeamIdentifier": [teamID],
            "TeamName": "Slipway test team",
            "TimeToLive": 365,
            "UUID": uuid,
            "Version": 1,
        ]
        if !devices.isEmpty { plist["ProvisionedDevices"] = devices }
        if provisionsAllDevices { plist["ProvisionsAllDevices"] = true }
        return Array(try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0))
    }

    /// The profile: the property list signed as CMS SignedData (DER) by `authority`.
    public func build(signedBy authority: TestCertificateAuthority) throws -> [UInt8] {
        try CMS.sign(try content ?? plist(), signatureAlgorithm: .ecdsaWithSHA256, certificate: authority.certificate,
                     privateKey: authority.privateKey, signingTime: creationDate, detached: false)
    }
}
