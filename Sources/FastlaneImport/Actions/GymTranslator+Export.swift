import Basics

/// gym's export: `xcode.export` (id `export`).
extension GymTranslator {
    static func export(_ call: RubyCall, _ statement: Fastfile.Statement, archive: DraftValue, into builder: inout LaneBuilder) {
        var export = [DraftPair("archive", archive)]
        if let directory = builder.literal(call, "output_directory", statement) {
            export.append(DraftPair("export-path", directory))
        }
        if let method = exportMethod(call, statement, &builder) { export.append(DraftPair("method", method)) }
        if let team = builder.literal(call, "export_team_id", statement)
            ?? builder.translator.setting("team_id", preferMatchfile: false, lane: builder.lane).flatMap({ builder.value($0, statement: statement) }) {
            export.append(DraftPair("team-id", team))
        }
        exportOptions(call, statement, into: &export, &builder)
        if let symbols = builder.literal(call, "include_symbols", statement) {
            export.removeAll { $0.key == "upload-symbols" }
            export.append(DraftPair("upload-symbols", symbols))
        }
        if builder.draft.steps.contains(where: { $0.kind == "signing.sync" }), !export.contains(where: { $0.key == "profiles" || $0.key == "options-plist" }) {
            let id = builder.draft.steps.last(where: { $0.kind == "signing.sync" })?.id ?? "signing"
            export.append(DraftPair("signing", .string("${{ steps.\(id) }}")))
        }
        if call.argument("include_bitcode") != nil { builder.differ("gym's include_bitcode: Xcode 14 removed bitcode; dropped") }
        builder.add("xcode.export", id: "export", export, from: statement)
    }

    /// export_method (or export_options' method) in Xcode's names; app-store-connect (said)
    /// when neither is given.
    static func exportMethod(_ call: RubyCall, _ statement: Fastfile.Statement, _ builder: inout LaneBuilder) -> DraftValue? {
        var method = call.argument("export_method")?.text
        if case .hash(let pairs)? = call.argument("export_options") {
            method = method ?? pairs.first(where: { $0.key == "method" })?.value.text
        }
        if let method { return .string(String(fastlaneExportMethod: method)) }
        if let given = call.argument("export_method"), !builder.isKnown(given, statement) {
            builder.skipArgument(call.name, "export_method", statement,
                                 "its value (\(LaneBuilder.source(of: given))) is only known when Ruby runs; give xcode.export's method (app-store-connect, release-testing, debugging, enterprise, developer-id, mac-application)")
            return nil
        }
        if let given = builder.literal(call, "export_method", statement) {
            builder.differ("gym's export_method comes from the lane's input: give it in Xcode's names (app-store-connect, release-testing, debugging, enterprise)")
            return given
        }
        builder.differ("gym without export_method: fastlane asks or defaults to app-store; the lane says app-store-connect")
        return .string("app-store-connect")
    }

    static let exportOptionNames = ["provisioningProfiles": "profiles", "signingStyle": "signing-style", "teamID": "team-id",
                                    "manageAppVersionAndBuildNumber": "manage-version", "uploadSymbols": "upload-symbols"]

    /// export_options: a literal hash's keys xcode.export has, or a plist's path.
    static func exportOptions(_ call: RubyCall, _ statement: Fastfile.Statement, into export: inout [DraftPair], _ builder: inout LaneBuilder) {
        guard let options = call.argument("export_options") else { return }
        switch options {
        case .hash(let pairs):
            for pair in pairs where pair.key != "method" {
                guard let option = exportOptionNames[pair.key] else {
                    builder.skipArgument(call.name, "export_options[\(pair.key)]", statement, "xcode.export has no such option; use options-plist for a full ExportOptions.plist")
                    continue
                }
                guard let converted = builder.value(pair.value, statement: statement) else {
                    builder.skipArgument(call.name, "export_options[\(pair.key)]", statement,
                                         option == "profiles" ? "its value is only known when Ruby runs; a signing.sync step's outputs give xcode.export its profiles (signing: \"${{ steps.signing }}\")"
                                                              : "its value is only known when Ruby runs")
                    continue
                }
                export.removeAll { $0.key == option }
                export.append(DraftPair(option, converted))
            }
        case .string(let plist):
            export.append(DraftPair("options-plist", .string(plist)))
        default:
            builder.skipArgument(call.name, "export_options", statement, "not a literal hash or plist path; use xcode.export's options-plist")
        }
    }
}
