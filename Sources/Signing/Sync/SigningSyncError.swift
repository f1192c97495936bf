import Basics
import Foundation

/// Why `signing sync` (or `nuke`) stopped. Each message names what is missing or wrong and says
/// what to do; none carries a passphrase, a key or a token.
public enum SigningSyncError: Error, Equatable, Sendable {
    /// Apple has no profile type for this combination.
    case unsupportedPlatform(type: SigningType, platform: SigningPlatform)
    /// No bundle id was given.
    case noBundleIDs
    /// A read-only run found no usable certificate of `kind` in `storage`.
    case certificateMissingReadOnly(kind: SigningCertificateKind, storage: String)
    /// A read-only run found only expired certificates; `file` is the newest.
    case certificateExpiredReadOnly(file: String, expired: Date)
    /// A read-only run found no profile at `file`.
    case profileMissingReadOnly(file: String, bundleID: String)
    /// A read-only run found a profile that cannot be used: `reason` says why.
    case profileUnusableReadOnly(file: String, reason: String)
    /// The bundle id is not registered on App Store Connect and `--register` was not given.
    case bundleIDNotRegistered(bundleID: String, platform: String)
    /// A development or ad hoc profile needs devices and the team has none enabled.
    case noDevices(platform: String)
    /// The storage has a certificate without its private key.
    case keyMissing(file: String)
    /// Saving to the storage failed after Apple-side changes; `undone` says what was revoked again.
    case saveFailed(detail: String, undone: String)
    /// `nuke` was asked to change things without `--confirm`.
    case confirmationRequired(summary: String)
}

extension SigningSyncError: LocalizedError {
    /// A message that names the subject and says what to do.
    public var errorDescription: String? {
        let day = DateText.day
        switch self {
        case let .unsupportedPlatform(type, platform):
            let platforms = type.platforms.map(\.rawValue).joined(separator: ", ")
            return "Apple has no \(type.rawValue) profiles for \(platform.rawValue). Use --platform \(platforms) with --type \(type.rawValue)."
        case .noBundleIDs:
            return "No bundle id given. Name each app (and extension) with --bundle-id, e.g. --bundle-id com.example.app."
        case let .certificateMissingReadOnly(kind, storage):
            return "The signing storage '\(storage)' has no valid \(kind.rawValue) certificate with its private key, and this run is "
                + "read-only (the default when CI=true), so none is created. Run 'slipway signing sync' once without --readonly, "
                + "with an App Store Connect key, to create and store one."
        case let .certificateExpiredReadOnly(file, expired):
            return "The certificate '\(file)' expired on \(day(expired)), and this run is read-only, so it is not replaced. "
                + "Run 'slipway signing sync --renew' without --readonly, with an App Store Connect key, to make a new one."
        case let .profileMissingReadOnly(file, bundleID):
            return "The signing storage has no profile for '\(bundleID)' ('\(file)'), and this run is read-only, so none is created. "
                + "Run 'slipway signing sync' once without --readonly to create and store it."
        case let .profileUnusableReadOnly(file, reason):
            return "The profile '\(file)' cannot be used: \(reason). This run is read-only, so it is not replaced; run "
                + "'slipway signing sync' without --readonly to make a new one."
        case let .bundleIDNotRegistered(bundleID, platform):
            return "The bundle id '\(bundleID)' is not registered on App Store Connect (\(platform)). Register it in the developer "
                + "portal (Certificates, Identifiers & Profiles → Identifiers), or run again with --register to register it."
        case let .noDevices(platform):
            return "The team has no enabled \(platform) devices, and development and ad hoc profiles must list at least one. "
                + "Register a device in the developer portal (Certificates, Identifiers & Profiles → Devices) first."
        case let .keyMissing(file):
            return "The signing storage has the certificate '\(file)' but not its private key (.p12). Add the key (exported from "
                + "the keychain that made the request) or run 'slipway signing sync --renew' to make a new certificate."
        case let .saveFailed(detail, undone):
            return "Could not save to the signing storage: \(detail). \(undone)Nothing was stored; run the command again."
        case let .confirmationRequired(summary):
            return "This would \(summary). Run again with --confirm to do it, or with --dry-run to list everything first."
        }
    }
}
