import AppleAPI

extension PreflightContext {
    /// The App Store app: the one application no other target embeds; nil (and a reason) when there is none or several.
    var mainApplication: PreflightTarget? {
        guard let apps = project?.mainApplications, apps.count == 1 else { return nil }
        return apps[0]
    }

    /// Why the rules about the app cannot run, or nil.
    var applicationProblem: String? {
        if let projectProblem { return "the project could not be read: \(projectProblem)" }
        if let applicationChoiceProblem { return applicationChoiceProblem }
        guard let apps = project?.mainApplications else { return "the project could not be read" }
        if apps.isEmpty { return "the project has no application target (com.apple.product-type.application)" }
        if apps.count > 1 {
            return "the project has several applications (\(apps.map { "'\($0.name)'" }.joined(separator: ", "))) and --platform "
                + "\(options.platform) does not single one out by its SDKROOT; preflight checks one app: name it with --app"
        }
        return nil
    }

    /// The app's version: the app target's CFBundleShortVersionString, else `slipway version`'s.
    var appVersion: PreflightValue? {
        if let version = mainApplication?.version { return version }
        return projectVersion.map { PreflightValue(value: $0.version, location: .place($0.places.first ?? ($0.project))) }
    }

    /// Why the App Store Connect rules have nothing to compare (no app there), or nil.
    var remoteAppProblem: String? {
        guard let remote else { return "needs App Store Connect" }
        return remote.app == nil ? "App Store Connect has no app with bundle id '\(remote.bundleID)' (see app-store-connect-app)" : nil
    }
}

/// Version strings compared number by number, as Apple orders them (`1.10` > `1.9`, `1.0` = `1`).
enum VersionOrder {
    static func isLower(_ lhs: String, _ rhs: String) -> Bool { BuildNumbers.isLower(lhs, rhs) }
    static func isSame(_ lhs: String, _ rhs: String) -> Bool { !isLower(lhs, rhs) && !isLower(rhs, lhs) }

    /// At most three period-separated non-negative integers (`1`, `1.2`, `1.2.3`).
    static func isAppleVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...3).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 >= "0" && $0 <= "9" } }
    }
}
