import AppleAPI

/// When App Store Connect prepares a version (one in an editable state), the project's version is
/// that one: otherwise the build lands on another train and cannot be chosen for the version.
public struct VersionMatchesPreparedRule: PreflightRule {
    public let id = "version-matches-prepared"
    public let summary = "The version equals the App Store version being prepared in App Store Connect, when there is one"
    public let citation = "https://developer.apple.com/help/app-store-connect/manage-builds/choose-a-build-to-submit"
    public let needsAppStoreConnect = true

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? {
        if context.options.destination == "testflight" {
            return "a TestFlight upload may be of another version than the one being prepared (App Store Connect opens that version's train)"
        }
        return context.remoteAppProblem ?? (context.appVersion == nil ? "the app's version cannot be read" : nil)
    }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        guard let remote = context.remote, let app = remote.app, let version = context.appVersion else { return [] }
        let prepared = remote.versions.filter(\.isEditable)
        guard !prepared.isEmpty, !prepared.contains(where: { VersionOrder.isSame($0.versionString, version.value) }) else { return [] }
        let names = prepared.map { "\($0.versionString) (\($0.state), appStoreVersions/\($0.id))" }.joined(separator: ", ")
        return [finding(.error, at: version.location,
                        "version \(version.value) is not the version App Store Connect prepares for app \(app.id): \(names); the build could not be chosen for it",
                        advice: "set the version to \(prepared[0].versionString), or change the version in App Store Connect to \(version.value)")]
    }
}
