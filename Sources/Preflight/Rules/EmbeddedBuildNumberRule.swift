/// The targets an app embeds hold its build number (CFBundleVersion): App Store Connect warns
/// for each that does not (ITMS-90473, CFBundleVersion Mismatch).
public struct EmbeddedBuildNumberRule: PreflightRule {
    public let id = "embedded-build-number"
    public let summary = "The targets that ship inside the app hold the app's build number (CFBundleVersion)"
    public let citation = "ITMS-90473 (CFBundleVersion Mismatch); https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundleversion"
    public let needsAppStoreConnect = false

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? { context.project == nil ? context.applicationProblem : nil }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        let targets = context.project?.targets ?? []
        var found: [PreflightFinding] = []
        for target in targets {
            guard let containerName = target.container, let container = targets.first(where: { $0.name == containerName }),
                  let build = target.build, let expected = container.build, build.value != expected.value else { continue }
            found.append(finding(.warning, at: build.location,
                                 "'\(target.name)' has build number '\(build.value)', and '\(container.name)', which embeds it, has '\(expected.value)' (\(expected.location))",
                                 advice: "give every shipping target the same CURRENT_PROJECT_VERSION (set it once at the project level, or version.bump with build-number)"))
        }
        return found
    }
}
