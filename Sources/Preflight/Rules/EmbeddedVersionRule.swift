/// The extensions, watch and clip apps an app embeds hold the app's version. This is
/// `slipway version`'s own check (`ProjectVersion.warnings`), reported as findings.
public struct EmbeddedVersionRule: PreflightRule {
    public let id = "embedded-version"
    public let summary = "The targets that ship inside the app hold the app's version (CFBundleShortVersionString)"
    public let citation = "ITMS-90473 (CFBundleShortVersionString Mismatch)"
    public let needsAppStoreConnect = false

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? { context.project == nil ? context.applicationProblem : nil }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        let at = PreflightLocation.file(context.project?.projectPath ?? ".")
        if let problem = context.projectVersionProblem {
            // Not decided is not refused: the per-target rules still compare what they can read.
            return [finding(.note, at: at, "the version of every shipping target cannot be read for sure, so they are not compared: \(problem)",
                            advice: "write MARKETING_VERSION as a literal (or through .xcconfig files in the checkout) for every shipping target")]
        }
        return (context.projectVersion?.warnings ?? []).map {
            finding(.warning, at: at, $0, advice: "set the embedded targets' MARKETING_VERSION to the app's (version.bump writes every shipping target)")
        }
    }
}
