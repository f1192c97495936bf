import Foundation

/// The options of an `ExportOptions.plist` for `xcodebuild -exportArchive`, typed. `plist()`
/// writes the XML property list (keys sorted, as Xcode writes them); `read(path:fileSystem:)`
/// reads one a lane gives.
public struct ExportOptions: Sendable, Hashable {
    /// `signingStyle`.
    public enum SigningStyle: String, Sendable, Hashable, CaseIterable { case manual, automatic }
    /// `destination`: write the product to the export path, or upload it (App Store Connect).
    public enum Destination: String, Sendable, Hashable, CaseIterable { case export, upload }
    /// `iCloudContainerEnvironment`.
    public enum ICloudEnvironment: String, Sendable, Hashable, CaseIterable {
        case development = "Development", production = "Production"
    }

    public var method: ExportMethod
    /// The 10-character Apple Developer team id.
    public var teamID: String?
    public var signingStyle: SigningStyle?
    /// Bundle id → provisioning profile name or UUID (manual signing).
    public var provisioningProfiles: [String: String]
    /// A certificate name or SHA-1, or "Apple Distribution" style automatic selectors.
    public var signingCertificate: String?
    public var manageAppVersionAndBuildNumber: Bool?
    public var uploadSymbols: Bool?
    public var destination: Destination?
    public var stripSwiftSymbols: Bool?
    /// `<none>`, `<thin-for-all-variants>` or a device model identifier.
    public var thinning: String?
    public var iCloudContainerEnvironment: ICloudEnvironment?

    public init(
        method: ExportMethod, teamID: String? = nil, signingStyle: SigningStyle? = nil,
        provisioningProfiles: [String: String] = [:], signingCertificate: String? = nil,
        manageAppVersionAndBuildNumber: Bool? = nil, uploadSymbols: Bool? = nil, destination: Destination? = nil,
        stripSwiftSymbols: Bool? = nil, thinning: String? = nil, iCloudContainerEnvironment: ICloudEnvironment? = nil
    ) {
        self.method = method
        self.teamID = teamID
        self.signingStyle = signingStyle
        self.provisioningProfiles = provisioningProfiles
        self.signingCertificate = signingCertificate
        self.manageAppVersionAndBuildNumber = manageAppVersionAndBuildNumber
        self.uploadSymbols = uploadSymbols
        self.destination = destination
        self.stripSwiftSymbols = stripSwiftSymbols
        self.thinning = thinning
        self.iCloudContainerEnvironment = iCloudContainerEnvironment
    }

    /// Every problem Xcode would refuse, in a fixed order; empty when the options are fine.
    public var problems: [String] {
        var problems: [String] = []
        if let teamID, !Self.isTeamID(teamID) {
            problems.append("team id '\(teamID)' is not 10 uppercase letters or digits (find it in the Apple Developer account, Membership)")
        }
        for (bundleID, profile) in provisioningProfiles.sorted(by: { $0.key < $1.key }) {
            if bundleID.isEmpty || !bundleID.unicodeScalars.allSatisfy(Self.isBundleIDCharacter) {
                problems.append("provisioning profile key '\(bundleID)' is not a bundle id (letters, digits, '.' and '-')")
            }
            if profile.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append("the provisioning profile for '\(bundleID)' is empty (give its name or UUID)")
            }
        }
        if let signingCertificate, signingCertificate.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append("signing certificate is empty (give its name, e.g. 'Apple Distribution', or SHA-1)")
        }
        if let thinning, thinning.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append("thinning is empty (use '<none>', '<thin-for-all-variants>' or a device model such as 'iPhone17,1')")
        }
        if destination == .upload, method != .appStoreConnect, method != .developerID {
            problems.append("destination 'upload' needs method 'app-store-connect' or 'developer-id', not '\(method.rawValue)'")
        }
        return problems
    }

    /// Throws `XcodeProjectError.invalidExportOptions` with every problem, if there are any.
    public func validate() throws {
        let problems = problems
        if !problems.isEmpty { throw XcodeProjectError.invalidExportOptions(path: nil, problems: problems) }
    }

    static func isTeamID(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }

    private static func isBundleIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "-")
    }

    /// The XML property list, keys sorted, tab-indented as Xcode writes it, ending in a newline.
    public func plist() -> String {
        var entries: [(String, String)] = [("method", string(method.rawValue))]
        func add(_ key: String, _ value: String?) { if let value { entries.append((key, value)) } }
        add("teamID", teamID.map(string))
        add("signingStyle", signingStyle.map { string($0.rawValue) })
        add("signingCertificate", signingCertificate.map(string))
        add("manageAppVersionAndBuildNumber", manageAppVersionAndBuildNumber.map(boolean))
        add("uploadSymbols", uploadSymbols.map(boolean))
        add("destination", destination.map { string($0.rawValue) })
        add("stripSwiftSymbols", stripSwiftSymbols.map(boolean))
        add("thinning", thinning.map(string))
        add("iCloudContainerEnvironment", iCloudContainerEnvironment.map { string($0.rawValue) })
        if !provisioningProfiles.isEmpty {
            let inner = provisioningProfiles.sorted { $0.key < $1.key }
                .map { "\t\t<key>\(Self.escape($0.key))</key>\n\t\t\(string($0.value))\n" }.joined()
            entries.append(("provisioningProfiles", "<dict>\n" + inner + "\t</dict>"))
        }
        let body = entries.sorted { $0.0 < $1.0 }.map { "\t<key>\($0.0)</key>\n\t\($0.1)\n" }.joined()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(body)</dict>
            </plist>

            """
    }

    private func string(_ value: String) -> String { "<string>\(Self.escape(value))</string>" }
    private func boolean(_ value: Bool) -> String { value ? "<true/>" : "<false/>" }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
