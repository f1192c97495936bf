import Foundation

/// Which SDKs a target builds for (from SDKROOT and SUPPORTED_PLATFORMS) and which SDK a
/// `-destination` builds with, so that a scheme can be matched to a platform: the iOS scheme of
/// a Mac-and-iOS app for `--template ios`, and a refusal when an `xcode.*` step would archive a
/// macOS target for an iOS device.
public enum ApplePlatformSDK {
    /// The SDK each `platform=` of a destination builds with.
    static let destinationSDKs: [String: String] = [
        "iOS": "iphoneos", "iOS Simulator": "iphonesimulator", "macOS": "macosx",
        "tvOS": "appletvos", "tvOS Simulator": "appletvsimulator", "watchOS": "watchos", "watchOS Simulator": "watchsimulator",
        "visionOS": "xros", "visionOS Simulator": "xrsimulator", "DriverKit": "driverkit",
    ]

    /// The device SDK's simulator, which a target of that SDKROOT builds for too.
    static let simulators: [String: String] = [
        "iphoneos": "iphonesimulator", "appletvos": "appletvsimulator", "watchos": "watchsimulator", "xros": "xrsimulator",
    ]

    /// `iphoneos` for `iphoneos`, `iphoneos17.2` or `…/iPhoneOS17.2.sdk`; nil for a value that
    /// only Xcode resolves (`$(…)`) or that names no SDK (`auto`, empty).
    public static func normalized(_ sdk: String) -> String? {
        var name = sdk.trimmingCharacters(in: .whitespaces)
        if name.contains("$") { return nil }
        if let last = name.split(separator: "/").last { name = String(last) }
        if name.lowercased().hasSuffix(".sdk") { name = String(name.dropLast(4)) }
        name = String(name.lowercased().prefix { $0.isLetter })
        return name.isEmpty || name == "auto" ? nil : name
    }

    /// The SDKs a target builds for: SUPPORTED_PLATFORMS when it is literal, else SDKROOT's
    /// device SDK and its simulator; nil when neither says (the check is then skipped).
    public static func supported(sdkroot: String?, supportedPlatforms: String?) -> Set<String>? {
        if let list = supportedPlatforms, !list.contains("$") {
            let names = Set(list.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { normalized(String($0)) })
            if !names.isEmpty { return names }
        }
        guard let sdk = sdkroot.flatMap(normalized) else { return nil }
        return Set([sdk] + [simulators[sdk]].compactMap { $0 })
    }

    /// The SDK `destination` builds with; nil for a destination by id or with a variant (Mac
    /// Catalyst, Designed for iPad), which only Xcode can match.
    public static func sdk(of destination: XcodeDestination) -> String? {
        guard destination[.variant] == nil, let platform = destination[.platform] else { return nil }
        return destinationSDKs[platform]
    }

    /// The scheme file's `container:` reference resolved: the `.xcodeproj` that holds the
    /// target, relative to the same base as `scheme.path`; nil for other kinds of reference.
    public static func project(of reference: XcodeScheme.BuildableReference, in scheme: XcodeScheme) -> String? {
        let location = reference.referencedContainer
        guard location.hasPrefix("container:") else { return nil }
        let parts = scheme.path.split(separator: "/", omittingEmptySubsequences: false)
        guard let owner = parts.lastIndex(where: { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }) else { return nil }
        let base = parts[..<owner].joined(separator: "/")
        let project = XcodeWorkspaceData.join(base.isEmpty ? "." : base, String(location.dropFirst("container:".count)))
        return project.hasSuffix(".xcodeproj") ? project : nil
    }
}
