import Basics

/// `build_app` (`gym`, `build_ios_app`, `build_mac_app`) → `xcode.archive` (id `archive`) and
/// `xcode.export` (id `export`). The export half is in GymTranslator+Export.swift.
enum GymTranslator: FastlaneActionTranslator {
    static let names = ["build_app", "gym", "build_ios_app", "build_mac_app"]
    static let documentation = docs("build_app")
    static let defaults = [
        "the archive is built for a generic device of the platform (destinations: generic/platform=iOS; build_mac_app: macOS)",
        "the .ipa goes into output_directory, default the project folder; xcode.export's export-path is build/export, and later steps find the file at ${{ steps.export.outputs.path }}",
        "gym zips the dSYMs next to the .ipa (APP.app.dSYM.zip); xcode.export does not (they stay in the archive's dSYMs folder)",
        "an archive_path without .xcarchive gets it added",
    ]

    static let parameters: [FastlaneParameter] = [
        .handled("workspace", "xcode.archive's workspace (else the project's workspace)"),
        .handled("project", "xcode.archive's project (else the project's)"),
        .handled("scheme", "xcode.archive's scheme (else the app's shared scheme)"),
        .handled("clean", "said: xcode.archive always archives into a fresh .xcarchive"),
        .handled("output_directory", "xcode.export's export-path"),
        .listed("output_name", "xcode.export names the file as xcodebuild does (the product's name); later steps find it at ${{ steps.export.outputs.path }}; rename it in a 'run' step if another name is needed"),
        .handled("app_name", "only names gym's log file; no effect on what is built"),
        .maps("configuration", to: "configuration"),
        .handled("silent", "how xcodebuild's output is shown: Slipway formats it itself and keeps the raw log (verbose: true streams it)"),
        .handled("codesigning_identity", "xcode.archive's build-settings CODE_SIGN_IDENTITY"),
        .handled("skip_package_ipa", "true: no xcode.export step (said)"),
        .listed("skip_package_pkg", "xcode.export exports what its method makes (a .pkg for app-store-connect on macOS); for the .app use method: mac-application or developer-id"),
        .handled("include_symbols", "xcode.export's upload-symbols"),
        .handled("include_bitcode", "said: Xcode 14 removed bitcode"),
        .handled("export_method", "xcode.export's method, in Xcode's names"),
        .handled("export_options", "a hash: xcode.export's method, profiles, signing-style, team-id, manage-version, upload-symbols; a path: options-plist"),
        .listed("export_xcargs", "xcode.export passes no extra xcodebuild arguments; put the setting in an ExportOptions.plist (options-plist) if it is one"),
        .handled("skip_build_archive", "true: no xcode.archive; xcode.export exports archive_path"),
        .handled("skip_archive", "true: an xcode.build step instead of xcode.archive, and no export"),
        .handled("skip_codesigning", "xcode.archive's build-settings CODE_SIGN_IDENTITY '', CODE_SIGNING_REQUIRED NO, CODE_SIGN_ENTITLEMENTS '', CODE_SIGNING_ALLOWED NO"),
        .handled("catalyst_platform", "macos: destinations generic/platform=macOS,variant=Mac Catalyst"),
        .listed("installer_cert_name", "xcode.export has no installer certificate option; give an ExportOptions.plist with installerSigningCertificate (options-plist)"),
        .handled("build_path", "xcode.archive's archive-path BUILD_PATH/SCHEME.xcarchive (gym adds the date to the name)"),
        .handled("archive_path", "xcode.archive's archive-path, with .xcarchive added when missing as gym does"),
        .maps("derived_data_path", to: "derived-data-path"),
        .listed("result_bundle", "xcode.archive keeps no result bundle; its raw log is ${{ steps.archive.outputs.log }}"),
        .listed("result_bundle_path", "xcode.archive keeps no result bundle; its raw log is ${{ steps.archive.outputs.log }}"),
        .handled("buildlog_path", "xcode.archive's log: BUILDLOG_PATH/SCHEME.log"),
        .maps("sdk", to: "sdk"),
        .listed("toolchain", "xcode.archive has no -toolchain option; set TOOLCHAINS to the toolchain's id in the lane's env: (xcodebuild reads it)"),
        .maps("destination", to: "destinations"),
        .handled("export_team_id", "xcode.export's team-id (else the Appfile's team_id)"),
        .handled("xcargs", "flags xcode.archive has as options, and SETTING=value words as build-settings; anything else is listed"),
        .maps("xcconfig", to: "xcconfig"),
        .handled("suppress_xcode_output", "how xcodebuild's output is shown: Slipway formats it itself and keeps the raw log"),
        .handled("xcodebuild_formatter", "how xcodebuild's output is shown: Slipway formats it itself and keeps the raw log"),
        .listed("build_timing_summary", "xcode.archive has no -showBuildTimingSummary option; xcodebuild's raw log (${{ steps.archive.outputs.log }}) has the build's steps"),
        .handled("disable_xcpretty", "how xcodebuild's output is shown: Slipway formats it itself (verbose: true streams it raw)"),
        .handled("xcpretty_test_format", "how xcodebuild's output is shown: Slipway formats it itself"),
        .handled("xcpretty_formatter", "how xcodebuild's output is shown: Slipway formats it itself"),
        .listed("xcpretty_report_junit", "xcode.archive writes no xcpretty report; the raw log is ${{ steps.archive.outputs.log }}"),
        .listed("xcpretty_report_html", "xcode.archive writes no xcpretty report; the raw log is ${{ steps.archive.outputs.log }}"),
        .listed("xcpretty_report_json", "xcode.archive writes no compilation database; the raw log is ${{ steps.archive.outputs.log }}"),
        .handled("xcpretty_utf", "how xcodebuild's output is shown: Slipway formats it itself"),
        .listed("analyze_build_time", "xcode.archive writes no culprits.txt; xcodebuild's raw log is ${{ steps.archive.outputs.log }}"),
        .handled("skip_profile_detection", "no effect: Slipway never guesses profiles from the project (signing.sync's outputs or the export options give them)"),
        .listed("xcodebuild_command", "xcode.archive runs xcodebuild itself (its xcode option picks the Xcode); a wrapper command has no counterpart: use a 'run' step"),
        .listed("cloned_source_packages_path", "xcode.archive has no -clonedSourcePackagesDirPath option; resolve the packages in a 'run' step if they must live there"),
        .listed("package_cache_path", "xcode.archive has no -packageCachePath option"),
        .listed("skip_package_dependencies_resolution", "xcode.archive resolves packages as xcodebuild does; there is no option to skip it"),
        .listed("disable_package_automatic_updates", "xcode.archive has no -disableAutomaticPackageResolution option; commit Package.resolved so that xcodebuild keeps its versions"),
        .listed("skip_package_repository_fetches", "xcode.archive has no -skipPackageUpdates option"),
        .listed("use_system_scm", "xcode.archive has no -scmProvider system option"),
        .listed("package_authorization_provider", "xcode.archive has no -packageAuthorizationProvider option"),
        .listed("generate_appstore_info", "xcode.export writes no AppStoreInfo.plist (swinfo); appstore.upload does not need one"),
    ]

    static func prepare(_ call: RubyCall, builder: LaneBuilder) -> RubyCall {
        builder.withDefaults(call, from: builder.translator.gymfile)
    }

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        if case .bool(true)? = call.argument("skip_build_archive") {
            guard let archive = archivePath(call, statement, &builder) else {
                builder.skip(statement, "gym's skip_build_archive exports the archive at archive_path, which is not given as a literal; write xcode.export's archive by hand")
                return
            }
            export(call, statement, archive: archive, into: &builder)
            return
        }
        var options = archiveOptions(call, statement, &builder)
        if case .bool(true)? = call.argument("skip_archive") {
            options.removeAll { $0.key == "archive-path" }
            builder.add("xcode.build", id: "build", options, from: statement)
            builder.differ("gym's skip_archive: an xcode.build step, with no archive and no export")
            return
        }
        let id = builder.add("xcode.archive", id: "archive", options, from: statement) ?? "archive"
        if case .bool(true)? = call.argument("skip_package_ipa") {
            builder.differ("gym's skip_package_ipa: true: no xcode.export step; the lane stops at the archive (${{ steps.\(id).outputs.archive }})")
            return
        }
        export(call, statement, archive: .string("${{ steps.\(id).outputs.archive }}"), into: &builder)
    }

    /// xcode.archive's options (also xcode.build's, without archive-path).
    static func archiveOptions(_ call: RubyCall, _ statement: Fastfile.Statement, _ builder: inout LaneBuilder) -> [DraftPair] {
        var options = builder.container(call, statement)
        let scheme = builder.scheme(call, statement, testing: false)
        options.append(DraftPair("scheme", scheme))
        if call.argument("destination") == nil {
            options.append(DraftPair("destinations", .list([.string(genericDestination(call))])))
        }
        builder.carry(call, optionMap, into: &options, statement, lists: ["destinations"])
        builder.xcargs(call, statement, into: &options, step: "xcode.archive")
        LaneBuilder.addBuildSettings(signingSettings(call, statement, &builder), to: &options)
        if let archive = archivePath(call, statement, &builder) {
            options.append(DraftPair("archive-path", archive))
        } else if call.argument("archive_path") == nil, let folder = builder.literal(call, "build_path", statement), case .string(let path) = folder {
            options.append(DraftPair("archive-path", .string("\(path)/\(text(scheme)).xcarchive")))
            builder.differ("gym's build_path: the archive is \(path)/\(text(scheme)).xcarchive (gym adds the date to its name)")
        }
        if let folder = builder.literal(call, "buildlog_path", statement), case .string(let path) = folder {
            options.append(DraftPair("log", .string("\(path)/\(text(scheme)).log")))
        }
        if call.argument("clean") != nil { builder.differ("gym's clean: xcode.archive always archives into a fresh .xcarchive; a clean build is not needed") }
        return options
    }

    /// `generic/platform=iOS`, macOS for build_mac_app, Mac Catalyst for catalyst_platform: macos.
    static func genericDestination(_ call: RubyCall) -> String {
        if call.argument("catalyst_platform")?.text == "macos" { return "generic/platform=macOS,variant=Mac Catalyst" }
        return call.name == "build_mac_app" ? "generic/platform=macOS" : "generic/platform=iOS"
    }

    /// gym's archive_path with `.xcarchive` added when it has another extension (as gym does).
    static func archivePath(_ call: RubyCall, _ statement: Fastfile.Statement, _ builder: inout LaneBuilder) -> DraftValue? {
        guard let value = builder.literal(call, "archive_path", statement) else { return nil }
        guard case .string(let path) = value else { return value }
        return .string(path.hasSuffix(".xcarchive") ? path : path + ".xcarchive")
    }

    /// The build settings gym passes for skip_codesigning or codesigning_identity.
    static func signingSettings(_ call: RubyCall, _ statement: Fastfile.Statement, _ builder: inout LaneBuilder) -> [DraftPair] {
        if case .bool(true)? = call.argument("skip_codesigning") {
            return [DraftPair("CODE_SIGN_IDENTITY", .string("")), DraftPair("CODE_SIGNING_REQUIRED", .string("NO")),
                    DraftPair("CODE_SIGN_ENTITLEMENTS", .string("")), DraftPair("CODE_SIGNING_ALLOWED", .string("NO"))]
        }
        if let identity = builder.literal(call, "codesigning_identity", statement) {
            return [DraftPair("CODE_SIGN_IDENTITY", identity)]
        }
        return []
    }

    /// A lane value as text to put in a path (`${{ inputs.scheme }}` stays an expression).
    static func text(_ value: DraftValue) -> String {
        if case .string(let text) = value { return text }
        return value.yaml
    }
}
