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
                                         "'\(target.name)': its build number (CFBundleVersion, CURRENT_PROJECT_VERSION) cannot be read for sure, so it is not checked"
                                            + (target.unread["build number"].map { ": \($0)" } ?? ""),
                                         advice: "write CURRENT_PROJECT_VERSION as a literal in the target's settings or .xcconfig, and CFBundleVersion as $(CURRENT_PROJECT_VERSION)"))
                }
                continue
            }
            let parts = build.value.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count > 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= "0" && $0 <= "9" } }) {
                // Apple's page says one to three, and App Store Connect takes four-part build
                // numbers from apps that ship (Pocket Casts' 7.75.0.3): a warning, not a refusal.
                found.append(finding(.warning, at: build.location,
                                     "'\(target.name)': build number '\(build.value)' has \(parts.count) parts; Apple's documentation asks for one to three period-separated integers (App Store Connect has accepted four-part build numbers from shipping apps)",
                                     advice: "keep it if App Store Connect accepted it before; otherwise use at most three parts (42, or 1.4.42)"))
            } else if !VersionOrder.isAppleVersion(build.value) {
                found.append(finding(.error, at: build.location,
                                     "'\(target.name)': build number '\(build.value)' is not one to three period-separated integers, which App Store Connect requires",
                                     advice: "use a build number such as 42 or 1.4.42 (digits and at most two periods); version.bump with build-number writes one"))
            }
        }
        return found
    }
}
