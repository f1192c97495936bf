import AppleAPI

/// The version is higher than the last one made available on the App Store (ITMS-90062).
public struct VersionAboveReleasedRule: PreflightRule {
    public let id = "version-above-released"
    public let summary = "The version is higher than the last version made available on the App Store"
    public let citation = "ITMS-90062 (the value for CFBundleShortVersionString must contain a higher version than that of the previously approved version)"
    public let needsAppStoreConnect = true

    /// Versions that were made available on the App Store (approved and released).
    static let released: Set<String> = ["READY_FOR_SALE", "READY_FOR_DISTRIBUTION", "REPLACED_WITH_NEW_VERSION", "REMOVED_FROM_SALE",
                                        "DEVELOPER_REMOVED_FROM_SALE", "PREORDER_READY_FOR_SALE"]

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? {
        context.remoteAppProblem ?? (context.appVersion == nil ? "the app's version cannot be read" : nil)
    }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        guard let remote = context.remote, let app = remote.app, let version = context.appVersion else { return [] }
        let released = remote.versions.filter { Self.released.contains($0.state) }
        guard let highest = released.map(\.versionString).max(by: VersionOrder.isLower) else { return [] }
        guard VersionOrder.isLower(version.value, highest) else { return [] }
        return [finding(.error, at: version.location,
                        "version \(version.value) is lower than \(highest), which App Store Connect made available (app \(app.id), \(context.options.platform)); the upload would be refused",
                        advice: "raise the version above \(highest) (slipway version --next, or version.bump)")]
    }
}
