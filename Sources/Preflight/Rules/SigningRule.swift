import Basics
import Foundation
import PropertyList
import Signing

/// For every shipping bundle id, a provisioning profile of the lane's kind that has not expired,
/// holding a certificate that has not expired, and granting the capabilities the target's
/// entitlements file asks for (push, app groups, associated domains, iCloud). Read from a folder
/// of profiles (`--profiles`: what `signing sync` installs, or a decrypted signing storage).
public struct SigningRule: PreflightRule {
    public let id = "signing"
    public let summary = "Each shipping bundle id has an unexpired profile of the lane's kind, with an unexpired certificate, covering its entitlements"
    public let citation = "https://developer.apple.com/documentation/xcode/distributing-your-app-for-beta-testing-and-releases (ITMS-90161, ITMS-90046)"
    public let needsAppStoreConnect = false

    /// The capabilities compared: entitlement key, its name, and whether each listed value must be granted.
    static let capabilities: [(key: String, name: String, values: Bool)] = [
        ("aps-environment", "push notifications", false),
        ("com.apple.security.application-groups", "app groups", true),
        ("com.apple.developer.associated-domains", "associated domains", false),
        ("com.apple.developer.icloud-container-identifiers", "iCloud containers", true),
        ("com.apple.developer.icloud-services", "iCloud services", false),
        ("com.apple.developer.ubiquity-kvstore-identifier", "iCloud key-value storage", false),
    ]

    /// A profile is a few kilobytes (tens with a hundred devices); a larger file is refused before
    /// a byte of it is read.
    static let profileBudget = FileBudget("provisioning profile", limit: 4 << 20)
    /// At most this many profiles are read from the folder.
    static let maximumProfiles = 2_000

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? {
        if context.project == nil { return context.applicationProblem }
        return context.options.profilesPath == nil ? "no provisioning profiles folder given (--profiles)" : nil
    }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        guard let folder = context.options.profilesPath, let project = context.project else { return [] }
        let shown = context.display(folder)
        var profiles: [(file: String, profile: ProvisioningProfile)] = []
        var found: [PreflightFinding] = []
        let names = try context.fileSystem.contents(ofDirectory: folder).sorted()
            .filter { $0.hasSuffix(".mobileprovision") || $0.hasSuffix(".provisionprofile") }
        // Each profile is parsed and kept: a folder of a hundred thousand is refused, not read.
        guard names.count <= Self.maximumProfiles else {
            return [finding(.error, at: .file(shown), "'\(shown)' holds \(names.count) provisioning profiles, more than the \(Self.maximumProfiles) slipway reads; the signing rule did not read them",
                            advice: "keep only this app's profiles in the folder (slipway signing sync installs those)")]
        }
        for name in names {
            let path = folder + "/" + name
            do {
                profiles.append((context.display(path), try ProvisioningProfile(bytes: context.fileSystem.read(path, as: Self.profileBudget), file: context.display(path))))
            } catch {
                found.append(finding(.warning, at: .file(context.display(path)), "cannot be read as a provisioning profile: \(error.localizedDescription)",
                                     advice: "remove it from '\(shown)', or download it again (slipway signing sync)"))
            }
        }
        let kind = context.options.distribution
        let now = context.options.now
        for target in project.targets {
            guard let bundleID = target.bundleID else { continue }
            let matching = profiles.filter { $0.profile.kind.rawValue == kind && Self.matches($0.profile.bundleID, bundleID.value) }
            guard !matching.isEmpty else {
                found.append(finding(.error, at: bundleID.location, "'\(target.name)' (\(bundleID.value)) has no \(kind) provisioning profile in '\(shown)'",
                                     advice: "make one with slipway signing sync --type \(kind) --bundle-id \(bundleID.value)"))
                continue
            }
            let valid = matching.filter { $0.profile.expirationDate > now }
            guard let usable = valid.first(where: { $0.profile.certificates.contains { $0.notValidAfter > now } }) else {
                let detail = valid.isEmpty
                    ? "every \(kind) profile for it has expired (" + matching.map { "'\($0.file)' on \(DateText.day($0.profile.expirationDate))" }.joined(separator: ", ") + ")"
                    : "every certificate in its \(kind) profiles has expired (" + valid.map { "'\($0.file)'" }.joined(separator: ", ") + ")"
                found.append(finding(.error, at: bundleID.location, "'\(target.name)' (\(bundleID.value)): \(detail)",
                                     advice: "renew them: slipway signing sync --type \(kind) --bundle-id \(bundleID.value)"))
                continue
            }
            found += missingCapabilities(target, profile: usable.profile, file: usable.file)
        }
        return found
    }

    func missingCapabilities(_ target: PreflightTarget, profile: ProvisioningProfile, file: String) -> [PreflightFinding] {
        guard let path = target.entitlementsPath else { return [] }
        var found: [PreflightFinding] = []
        for capability in Self.capabilities {
            guard let wanted = target.entitlements[capability.key] else { continue }
            guard let granted = profile.entitlements[capability.key] else {
                found.append(finding(.error, at: .file(path), "'\(target.name)' asks for \(capability.name) (\(capability.key)) and its profile '\(file)' does not grant them",
                                     advice: "enable the capability for the App ID on the developer portal, then make the profile again (slipway signing sync --force)"))
                continue
            }
            guard capability.values else { continue }
            let grantedValues = Self.strings(granted)
            guard !grantedValues.contains("*") else { continue }
            let missing = Self.strings(wanted).filter { value in
                !grantedValues.contains(value) && !value.contains("$(")
            }
            if !missing.isEmpty {
                found.append(finding(.error, at: .file(path), "'\(target.name)' asks for \(capability.name) \(missing.map { "'\($0)'" }.joined(separator: ", ")) that its profile '\(file)' does not grant",
                                     advice: "add them to the App ID on the developer portal, then make the profile again (slipway signing sync --force)"))
            }
        }
        return found
    }

    static func strings(_ value: PropertyListValue) -> [String] {
        if let text = value.string { return [text] }
        return (value.array ?? []).compactMap(\.string)
    }

    /// True when a profile for `pattern` (`com.example.app`, `com.example.*`, `*`) signs `bundleID`.
    static func matches(_ pattern: String?, _ bundleID: String) -> Bool {
        guard let pattern else { return false }
        if pattern == bundleID || pattern == "*" { return true }
        return pattern.hasSuffix(".*") && bundleID.hasPrefix(String(pattern.dropLast()))
    }

}
