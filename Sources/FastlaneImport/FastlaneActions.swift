import Basics
import Xcode

/// The fastlane actions Slipway translates, and how: one function per family. Each argument it
/// does not carry over is listed (`skipArgument`), and each difference in behaviour is said
/// (`differ`).
extension LaneBuilder {
    /// Actions that need no step in Slipway, with the reason printed.
    static let absorbed: [String: String] = [
        "app_store_connect_api_key": "the appstore steps take the key from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets",
        "setup_ci": "Slipway's signing.sync makes its own temporary keychain on CI",
        "clear_derived_data": "Slipway's xcode steps use the derived-data-path option when given",
        "xcversion": "use an xcode.select step or the xcode option of the xcode.* steps",
    ]

    /// Translates one action; false (and listed) when Slipway has no step for it.
    mutating func translateAction(_ call: RubyCall, _ statement: Fastfile.Statement) -> Bool {
        switch call.name {
        case "ensure_git_status_clean":
            add("git.ensure-clean", [], from: statement)
            for pair in call.keywords { skipArgument(call.name, pair.key, statement, "git.ensure-clean has no such option") }
        case "gym", "build_app", "build_ios_app", "build_mac_app":
            gym(withDefaults(call, from: translator.gymfile), statement)
        case "scan", "run_tests":
            scan(withDefaults(call, from: translator.scanfile), statement)
        case "match", "sync_code_signing":
            match(call, statement)
        case "pilot", "upload_to_testflight":
            pilot(call, statement)
        case "increment_build_number", "increment_version_number":
            increment(call, statement)
        case "changelog_from_git_commits":
            changelog(call, statement)
        case "add_git_tag":
            gitTag(call, statement)
        case "push_to_git_remote":
            push(call, statement)
        case "commit_version_bump", "git_commit":
            commit(call, statement)
        case "sh":
            shell(call, statement)
        case "notarize":
            var options = appStoreKeyOptions()
            if let file = literal(call, "package", statement) { options.append(DraftPair("file", file)) } else {
                draft.requireInput("notarize-file", "The .zip, .pkg or .dmg to notarize")
                options.append(DraftPair("file", .string("${{ inputs.notarize-file }}")))
            }
            for pair in call.keywords where !["package", "bundle_id", "verbose", "api_key", "username", "asc_provider", "print_log"].contains(pair.key) {
                skipArgument(call.name, pair.key, statement, "apple.notarize has no such option")
            }
            add("apple.notarize", id: "notarize", options, from: statement)
        case "cocoapods":
            add("run", ["command": .string("pod install")].pairs, from: statement)
            for pair in call.keywords { skipArgument(call.name, pair.key, statement, "write the pod command line in the run step") }
        case "latest_testflight_build_number", "app_store_build_number":
            _ = buildNumberStep(statement)
        case "xcodes" where call.argument("version") != nil:
            if let version = literal(call, "version", statement) {
                add("xcode.select", id: "xcode", [DraftPair("version", version)], from: statement)
            }
        default:
            skip(statement, "Slipway has no step for '\(call.name)'; use a 'run' step or a plugin step")
            return false
        }
        return true
    }

    // MARK: - Xcode

    /// The call with a Gymfile's or Scanfile's settings added where it does not set them.
    func withDefaults(_ call: RubyCall, from file: FastlaneSettings?) -> RubyCall {
        guard let file else { return call }
        var merged = call
        var seen = Set<String>()
        for entry in file.entries where call.argument(entry.name) == nil && seen.insert(entry.name).inserted {
            if let value = file.value(entry.name, lane: lane.name, platform: lane.platform) {
                merged.keywords.append(RubyPair(key: entry.name, value: value))
            }
        }
        return merged
    }

    /// The project or workspace options: the action's, else the surveyed container.
    private mutating func container(_ call: RubyCall, _ statement: Fastfile.Statement) -> [DraftPair] {
        for key in ["workspace", "project"] {
            if let argument = call.argument(key), let path = value(argument, statement: statement) { return [DraftPair(key, path)] }
        }
        if let container = translator.survey.container {
            return [DraftPair(container.kind == .workspace ? "workspace" : "project", .string(container.path))]
        }
        draft.requireInput("project", "The .xcodeproj to build", default: nil)
        return [DraftPair("project", .string("${{ inputs.project }}"))]
    }

    private mutating func scheme(_ call: RubyCall, _ statement: Fastfile.Statement, testing: Bool) -> DraftValue {
        if let argument = call.argument("scheme"), let scheme = value(argument, statement: statement) { return scheme }
        if let scheme = testing ? translator.survey.testScheme : translator.survey.appScheme { return .string(scheme.name) }
        draft.requireInput("scheme", "The scheme to build")
        return .string("${{ inputs.scheme }}")
    }

    /// Copies the arguments named in `map` (fastlane name → Slipway option), lists the rest
    /// unless they are in `handled`.
    private mutating func carry(_ call: RubyCall, _ map: [String: String], handled: Set<String>, into options: inout [DraftPair],
                                _ statement: Fastfile.Statement, step: String) {
        for pair in call.keywords where !handled.contains(pair.key) {
            guard let option = map[pair.key] else {
                skipArgument(call.name, pair.key, statement, "\(step) has no such option")
                continue
            }
            guard let converted = value(pair.value, statement: statement) else {
                skipArgument(call.name, pair.key, statement, "its value is only known when Ruby runs")
                continue
            }
            options.append(DraftPair(option, converted))
        }
    }

    private mutating func gym(_ call: RubyCall, _ statement: Fastfile.Statement) {
        var archive = container(call, statement)
        archive.append(DraftPair("scheme", scheme(call, statement, testing: false)))
        let platform = call.name == "build_mac_app" ? "macOS" : "iOS"
        if call.argument("destination") == nil {
            archive.append(DraftPair("destinations", .list([.string("generic/platform=\(platform)")])))
        }
        let exportKeys: Set<String> = ["export_method", "output_directory", "export_team_id", "export_options", "output_name",
                                       "skip_package_ipa", "include_symbols", "include_bitcode", "export_xcargs"]
        carry(call, ["configuration": "configuration", "derived_data_path": "derived-data-path", "xcconfig": "xcconfig",
                     "archive_path": "archive-path", "sdk": "sdk", "destination": "destinations",
                     "skip_package_dependencies_resolution": "skip-package-plugin-validation"],
              handled: exportKeys.union(["workspace", "project", "scheme", "clean", "silent", "suppress_xcode_output", "xcargs"]),
              into: &archive, statement, step: "xcode.archive")
        xcargs(call, statement, into: &archive, step: "xcode.archive")
        if call.argument("skip_package_dependencies_resolution") != nil {
            archive.removeAll { $0.key == "skip-package-plugin-validation" }
            skipArgument(call.name, "skip_package_dependencies_resolution", statement, "xcode.archive resolves packages as xcodebuild does; there is no option to skip it")
        }
        if let index = archive.firstIndex(where: { $0.key == "destinations" }), case .string(let one) = archive[index].value {
            archive[index].value = .list([.string(one)])
        }
        if call.argument("clean") != nil { differ("gym's clean: xcode.archive always archives into a fresh .xcarchive; a clean build is not needed") }
        add("xcode.archive", id: "archive", archive, from: statement)

        var export = [DraftPair("archive", .string("${{ steps.archive.outputs.archive }}"))]
        if let directory = literal(call, "output_directory", statement) {
            export.append(DraftPair("export-path", directory))
        }
        let options = call.argument("export_options")
        var method = call.argument("export_method")?.text
        if case .hash(let pairs)? = options {
            method = method ?? pairs.first(where: { $0.key == "method" })?.value.text
        }
        if let method {
            export.append(DraftPair("method", .string(String(fastlaneExportMethod: method))))
        } else if let given = literal(call, "export_method", statement) {
            export.append(DraftPair("method", given))
            differ("gym's export_method comes from the lane's input: give it in Xcode's names (app-store-connect, release-testing, debugging, enterprise)")
        } else if call.argument("export_method") != nil {
            // Listed by literal(_:_:_:).
        } else {
            export.append(DraftPair("method", .string("app-store-connect")))
            differ("gym without export_method: fastlane asks or defaults to app-store; the lane says app-store-connect")
        }
        if let team = literal(call, "export_team_id", statement)
            ?? translator.setting("team_id", preferMatchfile: false, lane: lane).flatMap({ value($0, statement: statement) }) {
            export.append(DraftPair("team-id", team))
        }
        if case .hash(let pairs)? = options {
            for pair in pairs {
                switch pair.key {
                case "method": break
                case "provisioningProfiles", "signingStyle", "manageAppVersionAndBuildNumber", "uploadSymbols", "teamID":
                    let option = ["provisioningProfiles": "profiles", "signingStyle": "signing-style", "teamID": "team-id",
                                  "manageAppVersionAndBuildNumber": "manage-version", "uploadSymbols": "upload-symbols"][pair.key] ?? pair.key
                    guard let converted = value(pair.value, statement: statement) else {
                        skipArgument(call.name, "export_options[\(pair.key)]", statement,
                                     option == "profiles" ? "its value is only known when Ruby runs; a signing.sync step's outputs give xcode.export its profiles (signing: \"${{ steps.signing }}\")"
                                                          : "its value is only known when Ruby runs")
                        continue
                    }
                    export.removeAll { $0.key == option }
                    export.append(DraftPair(option, converted))
                default:
                    skipArgument(call.name, "export_options[\(pair.key)]", statement, "xcode.export has no such option; use options-plist for a full ExportOptions.plist")
                }
            }
        } else if case .string(let plist)? = options {
            export.append(DraftPair("options-plist", .string(plist)))
        } else if options != nil {
            skipArgument(call.name, "export_options", statement, "not a literal hash or plist path; use xcode.export's options-plist")
        }
        if draft.steps.contains(where: { $0.kind == "signing.sync" }), !export.contains(where: { $0.key == "profiles" || $0.key == "options-plist" }) {
            let id = draft.steps.last(where: { $0.kind == "signing.sync" })?.id ?? "signing"
            export.append(DraftPair("signing", .string("${{ steps.\(id) }}")))
        }
        for key in ["output_name", "skip_package_ipa", "export_xcargs"] where call.argument(key) != nil {
            skipArgument(call.name, key, statement, "xcode.export names the file as xcodebuild does and always packages it")
        }
        if call.argument("include_bitcode") != nil { differ("gym's include_bitcode: Xcode 14 removed bitcode; dropped") }
        add("xcode.export", id: "export", export, from: statement)
    }

    private mutating func scan(_ call: RubyCall, _ statement: Fastfile.Statement) {
        var options = container(call, statement)
        options.append(DraftPair("scheme", scheme(call, statement, testing: true)))
        var destinations: [DraftValue] = []
        if let destination = call.argument("destination") {
            destinations += destination.list.compactMap { value($0, statement: statement) }
        }
        for key in ["device", "devices"] {
            for device in call.argument(key)?.list ?? [] {
                guard let name = device.text else { skipArgument(call.name, key, statement, "not a literal device name"); continue }
                destinations.append(.string(Self.simulatorDestination(name)))
            }
        }
        if !destinations.isEmpty { options.append(DraftPair("destinations", .list(destinations))) }
        carry(call, ["configuration": "configuration", "derived_data_path": "derived-data-path", "xcconfig": "xcconfig",
                     "only_testing": "only-testing", "skip_testing": "skip-testing", "testplan": "test-plan",
                     "number_of_retries": "retries", "sdk": "sdk"],
              handled: ["workspace", "project", "scheme", "destination", "device", "devices", "result_bundle", "output_types",
                        "output_directory", "clean", "code_coverage", "skip_package_dependencies_resolution", "fail_build", "xcargs"],
              into: &options, statement, step: "xcode.test")
        xcargs(call, statement, into: &options, step: "xcode.test")
        for index in options.indices where ["only-testing", "skip-testing"].contains(options[index].key) {
            if case .string(let one) = options[index].value { options[index].value = .list([.string(one)]) }
        }
        if call.argument("result_bundle") != nil || call.argument("output_types") != nil {
            differ("scan's result_bundle/output_types: xcode.test always keeps the result bundle and reads it; 'slipway run --report junit' writes JUnit")
        }
        for key in ["code_coverage", "skip_package_dependencies_resolution", "output_directory"] where call.argument(key) != nil {
            skipArgument(call.name, key, statement, "xcode.test has no such option; pass it through build-settings if needed")
        }
        add("xcode.test", id: "test", options, from: statement)
    }

    static func simulatorDestination(_ device: String) -> String {
        // fastlane's form: "iPhone 15 (17.2)".
        if device.hasSuffix(")"), let open = device.lastIndex(of: "(") {
            let name = String(device[device.startIndex..<open]).trimmingCharacters(in: " ")
            let os = String(device[device.index(after: open)..<device.index(before: device.endIndex)])
            return "platform=iOS Simulator,name=\(name),OS=\(os)"
        }
        return "platform=iOS Simulator,name=\(device)"
    }
}

extension [String: DraftValue] {
    /// Pairs in key order.
    var pairs: [DraftPair] { sorted { $0.key < $1.key }.map { DraftPair($0.key, $0.value) } }
}

extension String {
    /// fastlane's gym export methods in Xcode 15.3's names.
    init(fastlaneExportMethod name: String) {
        switch name {
        case "app-store", "app_store", "appstore": self = "app-store-connect"
        case "ad-hoc", "adhoc", "ad_hoc": self = "release-testing"
        case "development": self = "debugging"
        default: self = name
        }
    }
}
