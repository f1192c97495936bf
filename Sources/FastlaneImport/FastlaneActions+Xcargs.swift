enum XcargsTranslation {
    /// xcodebuild flags of gym's and scan's `xcargs` that are options of the xcode.* steps.
    static let xcargsFlags: [String: String] = [
        "-skipPackagePluginValidation": "skip-package-plugin-validation",
        "-skipMacroValidation": "skip-macro-validation",
        "-allowProvisioningUpdates": "allow-provisioning-updates",
    ]

    /// A build setting's name: letters, digits and `_`, not starting with a digit (as XcodeStepOptions checks).
    static func isSettingName(_ name: Substring) -> Bool {
        guard let first = name.first, !first.isNumber else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}

extension LaneBuilder {
    /// Translates a literal `xcargs` string: flags the xcode.* steps have as options become those
    /// options, `SETTING=value` words become `build-settings`, and anything else (another flag, a
    /// quoted word, a value only Ruby knows) is listed as not translated.
    mutating func xcargs(_ call: RubyCall, _ statement: Fastfile.Statement, into options: inout [DraftPair], step: String) {
        guard let argument = call.argument("xcargs") else { return }
        guard case .string(let text) = argument, !text.contains("#{") else {
            skipArgument(call.name, "xcargs", statement, "its value is only known when Ruby runs; give the flags as \(step)'s options")
            return
        }
        var settings: [DraftPair] = []
        var left: [Substring] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            if let option = XcargsTranslation.xcargsFlags[String(word)], step == "xcode.archive" || option != "allow-provisioning-updates" {
                options.append(DraftPair(option, .bool(true)))
            } else if let equals = word.firstIndex(of: "="), XcargsTranslation.isSettingName(word[..<equals]),
                      !word[word.index(after: equals)...].contains(where: { "'\"\\$`".contains($0) }) {
                settings.append(DraftPair(String(word[..<equals]), .string(String(word[word.index(after: equals)...]))))
            } else {
                left.append(word)
            }
        }
        Self.addBuildSettings(settings, to: &options)
        if !left.isEmpty {
            skipArgument(call.name, "xcargs", statement,
                         "\(step) has no option for '\(left.joined(separator: " "))'; add it by hand (build-settings, or a 'run' step) if it is needed")
        }
    }
}
