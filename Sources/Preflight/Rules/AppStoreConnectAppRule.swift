/// App Store Connect has an app whose bundle id is the app target's: an upload for a bundle id
/// with no app record is refused ("No suitable application records were found").
public struct AppStoreConnectAppRule: PreflightRule {
    public let id = "app-store-connect-app"
    public let summary = "App Store Connect has an app with the app target's bundle id (CFBundleIdentifier)"
    public let citation = "https://developer.apple.com/help/app-store-connect/create-an-app-record/add-a-new-app"
    public let needsAppStoreConnect = true

    public init() {}

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        guard let remote = context.remote, remote.app == nil else { return [] }
        let at = context.mainApplication?.bundleID?.location ?? .appStoreConnect("apps?filter[bundleId]=\(remote.bundleID)")
        return [finding(.error, at: at, "App Store Connect has no app with bundle id '\(remote.bundleID)' (the app target's CFBundleIdentifier), so the upload would be refused",
                        advice: "create the app record in App Store Connect with this bundle id, or fix PRODUCT_BUNDLE_IDENTIFIER (a key of another team finds nothing)")]
    }
}
