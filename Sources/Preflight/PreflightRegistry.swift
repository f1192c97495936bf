/// Every preflight rule, in the order they run and are listed (docs/preflight.md). A test walks it.
public enum PreflightRegistry {
    /// The rules: offline first, then those that read App Store Connect.
    public static var all: [any PreflightRule] {
        [
            VersionFormatRule(),
            BuildNumberFormatRule(),
            EmbeddedVersionRule(),
            EmbeddedBuildNumberRule(),
            EmbeddedBundleIDRule(),
            ExportComplianceRule(),
            MarketingIconRule(),
            PrivacyManifestRule(),
            SigningRule(),
            ListingRule(),
            AppStoreConnectAppRule(),
            VersionAboveReleasedRule(),
            VersionTrainOpenRule(),
            VersionMatchesPreparedRule(),
            BuildNumberAboveUploadedRule(),
        ]
    }

    /// `id  [offline|App Store Connect]  summary (citation)` lines, for `slipway preflight --rules`.
    public static func list() -> String {
        let width = all.map(\.id.count).max() ?? 0
        return all.map { rule in
            rule.id + String(repeating: " ", count: width - rule.id.count) + "  " + (rule.needsAppStoreConnect ? "remote " : "offline")
                + "  \(rule.summary)\n" + String(repeating: " ", count: width + 11) + "see: \(rule.citation)\n"
        }.joined()
    }
}
