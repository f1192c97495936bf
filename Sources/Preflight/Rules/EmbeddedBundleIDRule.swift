/// An embedded target's bundle id begins with the bundle id of the app that embeds it, then a
/// period (`com.example.app.widget` inside `com.example.app`); App Store Connect refuses the
/// upload otherwise.
public struct EmbeddedBundleIDRule: PreflightRule {
    public let id = "embedded-bundle-id"
    public let summary = "The bundle ids of the targets that ship inside the app are prefixed by the app's"
    public let citation = "https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundleidentifier (an app extension's bundle id is prefixed by its containing app's)"
    public let needsAppStoreConnect = false

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? { context.project == nil ? context.applicationProblem : nil }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        let targets = context.project?.targets ?? []
        var found: [PreflightFinding] = []
        for target in targets {
            guard let containerName = target.container, let container = targets.first(where: { $0.name == containerName }) else { continue }
            guard let bundleID = target.bundleID, let parent = container.bundleID else {
                found.append(finding(.note, at: .file(target.infoPlistPath ?? context.project?.projectPath ?? "."),
                                     "the bundle id of '\(target.bundleID == nil ? target.name : container.name)' cannot be read for sure, so '\(target.name)' is not compared with '\(container.name)'"
                                        + ((target.bundleID == nil ? target : container).unread["bundle id"].map { ": \($0)" } ?? ""),
                                     advice: "write PRODUCT_BUNDLE_IDENTIFIER as a literal, or as $(PARENT).suffix with PARENT a literal"))
                continue
            }
            if !bundleID.value.hasPrefix(parent.value + ".") {
                found.append(finding(.error, at: bundleID.location,
                                     "'\(target.name)' has bundle id '\(bundleID.value)', which does not begin with '\(parent.value).', the bundle id of '\(container.name)' that embeds it",
                                     advice: "set its PRODUCT_BUNDLE_IDENTIFIER to '\(parent.value).<name>'"))
            }
        }
        return found
    }
}
