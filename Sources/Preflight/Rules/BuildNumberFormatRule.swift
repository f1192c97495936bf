/// CFBundleVersion is one to three period-separated integers.
public struct BuildNumberFormatRule: PreflightRule {
    public let id = "build-number-format"
    public let summary = "The build number (CFBundleVersion) of every shipping target is one to three period-separated integers"
    public let citation = "https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundleversion"
    public let needsAppStoreConnect = false

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? { context.project == nil ? context.applicationProblem : nil }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        var found: [PreflightFinding] = []
        for target in context.project?.targets ?? [] {
            guard let build = target.build else {
                if target.isMainApplication {
                    found.append(finding(.note, at: .file(target.infoPlistPath ?? context.project?.projectPath ?? "."),
                                         "'\(target.name)': its build number (CFBundleVersion, CURRENT_PROJECT_VERSION) cannot be read for sure, so it is not checked",
                                         advice: "write CURRENT_PROJECT_VERSION as a literal in the target's settings or .xcconfig, and CFBundleVersion as $(CURRENT_PROJECT_VERSION)"))
                }
                continue
            }
            if !VersionOrder.isAppleVersion(build.value) {
                found.append(finding(.error, at: build.location,
                                     "'\(target.name)': build number '\(build.value)' is not one to three period-separated integers, which App Store Connect requires",
                                     advice: "use a build number such as 42 or 1.4.42 (digits and at most two periods); version.bump with build-number writes one"))
            }
        }
        return found
    }
}
