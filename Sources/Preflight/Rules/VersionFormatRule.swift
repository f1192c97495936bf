/// CFBundleShortVersionString is at most three period-separated integers: Apple refuses the
/// upload otherwise (ITMS-90060).
public struct VersionFormatRule: PreflightRule {
    public let id = "version-format"
    public let summary = "The version (CFBundleShortVersionString) of every shipping target is at most three period-separated integers"
    public let citation = "https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundleshortversionstring (ITMS-90060)"
    public let needsAppStoreConnect = false

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? { context.project == nil ? context.applicationProblem : nil }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        var found: [PreflightFinding] = []
        for target in context.project?.targets ?? [] {
            guard let version = target.version else {
                if target.isMainApplication, context.projectVersion == nil {
                    found.append(finding(.note, at: .file(target.infoPlistPath ?? context.project?.projectPath ?? "."),
                                         "'\(target.name)': its version (CFBundleShortVersionString, MARKETING_VERSION) cannot be read for sure, so its format is not checked"
                                            + (target.unread["version"].map { ": \($0)" } ?? ""),
                                         advice: "write MARKETING_VERSION as a literal in the target's settings or .xcconfig, and CFBundleShortVersionString as $(MARKETING_VERSION)"))
                }
                continue
            }
            if !VersionOrder.isAppleVersion(version.value) {
                found.append(finding(.error, at: version.location,
                                     "'\(target.name)': version '\(version.value)' is not at most three period-separated integers, which App Store Connect requires",
                                     advice: "use a version such as 1.4 or 1.4.2 (digits and at most two periods); keep letters and build parts in the build number or the tag"))
            }
        }
        return found
    }
}
