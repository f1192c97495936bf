import Foundation

/// What `signing sync` is asked to do.
public struct SigningSyncRequest: Sendable {
    /// The kind of signing.
    public var type: SigningType
    /// The platform of the profiles.
    public var platform: SigningPlatform
    /// The bundle ids that need a profile.
    public var bundleIDs: [String]
    /// Never change anything on Apple's side or in the storage (and need no API key).
    public var readOnly: Bool
    /// Replace a certificate or profile that expires within `warningDays`.
    public var renew: Bool
    /// Register a bundle id that App Store Connect does not have.
    public var register: Bool
    /// Only read, and report what would be created, deleted and stored.
    public var dryRun: Bool
    /// Warn about (and, with `renew`, replace) what expires within this many days.
    public var warningDays: Int
    /// The time to check expiry against.
    public var now: Date

    /// Creates a request; read-only unless told otherwise.
    public init(type: SigningType, platform: SigningPlatform = .ios, bundleIDs: [String], readOnly: Bool = true,
                renew: Bool = false, register: Bool = false, dryRun: Bool = false, warningDays: Int = 30, now: Date = Date()) {
        self.type = type
        self.platform = platform
        self.bundleIDs = bundleIDs
        self.readOnly = readOnly
        self.renew = renew
        self.register = register
        self.dryRun = dryRun
        self.warningDays = warningDays
        self.now = now
    }
}

/// A profile `signing sync` ended with.
public struct SyncedProfile: Sendable {
    /// The bundle id it is for.
    public var bundleID: String
    /// Its path in the storage.
    public var path: String
    /// The profile (nil in a dry run when it would be created).
    public var profile: ProvisioningProfile?

    /// The profile's name ("" when not made yet).
    public var name: String { profile?.name ?? "" }
    /// The profile's UUID ("" when not made yet).
    public var uuid: String { profile?.uuid ?? "" }
}

/// What `signing sync` ended with and did.
public struct SigningSyncResult: Sendable {
    /// The certificate's id on App Store Connect (its file name in the storage).
    public var certificateID: String
    /// The certificate and key (nil in a dry run when one would be created).
    public var identity: SigningIdentity?
    /// One entry per bundle id, in the request's order.
    public var profiles: [SyncedProfile]
    /// What was changed, one line each ("would ..." in a dry run); empty when nothing was.
    public var actions: [String]
    /// Certificates and profiles that expire soon, and other things worth knowing.
    public var warnings: [String]

    /// The certificate's common name, e.g. "Apple Distribution: Example Ltd (ABCDE12345)".
    public var certificateName: String { identity?.certificate.commonName ?? "" }
    /// The team id (the certificate's organizational unit, else the first profile's).
    public var teamID: String { identity?.certificate.teamID ?? profiles.compactMap { $0.profile?.teamID }.first ?? "" }
}
