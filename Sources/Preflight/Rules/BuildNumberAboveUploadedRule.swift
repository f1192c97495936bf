import AppleAPI

/// The build number is higher than every build already uploaded for the version (read with
/// paging): a number used before is refused (ITMS-90189, Redundant Binary Upload).
public struct BuildNumberAboveUploadedRule: PreflightRule {
    public let id = "build-number-above-uploaded"
    public let summary = "The build number is higher than every build uploaded for this version"
    public let citation = "ITMS-90189 (Redundant Binary Upload: a build with this build number was already uploaded for this version)"
    public let needsAppStoreConnect = true

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? {
        if let problem = context.remoteAppProblem { return problem }
        return context.mainApplication?.build == nil ? "the app's build number cannot be read" : nil
    }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        guard let remote = context.remote, let app = remote.app, let build = context.mainApplication?.build,
              let highest = remote.buildNumbers.max(by: BuildNumbers.isLower), !BuildNumbers.isLower(highest, build.value) else { return [] }
        let used = remote.buildNumbers.contains { !BuildNumbers.isLower($0, build.value) && !BuildNumbers.isLower(build.value, $0) }
        return [finding(.error, at: build.location,
                        "build number \(build.value) is \(used ? "already used" : "lower than \(highest), the highest uploaded") for version \(remote.version ?? "?") of app \(app.id) (\(remote.buildNumbers.count) build\(remote.buildNumbers.count == 1 ? "" : "s") read)",
                        advice: "set the build number to \(BuildNumbers(latest: highest).next) or higher (appstore.build-number's 'next', then version.bump build-number)")]
    }
}
