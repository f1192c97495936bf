import AppleAPI

/// The version's train is open: no version with this number was approved already (ITMS-90186),
/// and no approved version is higher (ITMS-90478).
public struct VersionTrainOpenRule: PreflightRule {
    public let id = "version-train-open"
    public let summary = "The version's train is not closed: no approved version has this number or a higher one"
    public let citation = "ITMS-90186 (Invalid Pre-Release Train: the train version is closed for new build submissions), ITMS-90478 (Invalid Version: a later version has been closed)"
    public let needsAppStoreConnect = true

    /// Versions App Store review approved: their train takes no more builds.
    static let closed = VersionAboveReleasedRule.released.union(["PENDING_APPLE_RELEASE", "PENDING_DEVELOPER_RELEASE", "ACCEPTED",
                                                                 "PROCESSING_FOR_DISTRIBUTION", "PROCESSING_FOR_APP_STORE"])

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? {
        context.remoteAppProblem ?? (context.appVersion == nil ? "the app's version cannot be read" : nil)
    }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        guard let remote = context.remote, let app = remote.app, let version = context.appVersion else { return [] }
        let closed = remote.versions.filter { Self.closed.contains($0.state) }
        if let same = closed.first(where: { VersionOrder.isSame($0.versionString, version.value) }) {
            return [finding(.error, at: version.location,
                            "version \(version.value) was already approved on App Store Connect (\(same.state), appStoreVersions/\(same.id) of app \(app.id)); its train is closed for new builds",
                            advice: "raise the version (slipway version --next, or version.bump)")]
        }
        // Lower than a version that is approved but not yet on sale: version-above-released does not see it.
        let pending = closed.filter { !VersionAboveReleasedRule.released.contains($0.state) }
        if let higher = pending.map(\.versionString).filter({ VersionOrder.isLower(version.value, $0) }).max(by: VersionOrder.isLower) {
            return [finding(.error, at: version.location,
                            "version \(version.value) is lower than \(higher), which App Store Connect has approved (app \(app.id)); a later version is closed, so builds of \(version.value) are refused",
                            advice: "raise the version above \(higher)")]
        }
        return []
    }
}
