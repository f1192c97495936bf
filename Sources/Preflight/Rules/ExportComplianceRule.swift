/// The app's Info.plist answers the export-compliance question (`ITSAppUsesNonExemptEncryption`):
/// without it, every build waits in TestFlight ("Missing Compliance") until someone answers in
/// App Store Connect.
public struct ExportComplianceRule: PreflightRule {
    public let id = "export-compliance"
    public let summary = "The app's Info.plist holds ITSAppUsesNonExemptEncryption, so TestFlight does not hold the build for the question"
    public let citation = "https://developer.apple.com/documentation/bundleresources/information-property-list/itsappusesnonexemptencryption"
    public let needsAppStoreConnect = false

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? { context.applicationProblem }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        guard let app = context.mainApplication else { return [] }
        let value = app.infoPlist["ITSAppUsesNonExemptEncryption"]
        if value == nil, app.encryptionSetting == nil {
            return [finding(.warning, at: .file(app.infoPlistPath ?? context.project?.projectPath ?? "."),
                            "'\(app.name)': the Info.plist has no ITSAppUsesNonExemptEncryption (nor INFOPLIST_KEY_ITSAppUsesNonExemptEncryption), so TestFlight will hold each build as \"Missing Compliance\" and ask whether the app uses encryption that is not exempt",
                            advice: "add <key>ITSAppUsesNonExemptEncryption</key><false/> when the app uses only exempt encryption (HTTPS, the system's), or <true/> with ITSEncryptionExportComplianceCode")]
        }
        let uses: Bool
        switch value {
        case .bool(let flag)?: uses = flag
        case .string(let text)?: uses = ["YES", "TRUE", "1"].contains(text.uppercased())
        default: uses = ["YES", "TRUE", "1"].contains((app.encryptionSetting?.value ?? "").uppercased())
        }
        if uses, app.infoPlist["ITSEncryptionExportComplianceCode"] == nil {
            return [finding(.warning, at: .file(app.infoPlistPath ?? context.project?.projectPath ?? "."),
                            "'\(app.name)': ITSAppUsesNonExemptEncryption is true and there is no ITSEncryptionExportComplianceCode, so App Store Connect will ask for export compliance documentation before the build can be tested or released",
                            advice: "add ITSEncryptionExportComplianceCode with the code App Store Connect gave for the approved documentation, or set ITSAppUsesNonExemptEncryption to false if the encryption is exempt")]
        }
        return []
    }
}
