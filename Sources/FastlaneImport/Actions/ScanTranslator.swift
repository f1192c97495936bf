import Basics

/// `run_tests` (`scan`) → `xcode.test` (id `test`).
enum ScanTranslator: FastlaneActionTranslator {
    static let names = ["run_tests", "scan"]
    static let documentation = docs("run_tests")
    static let defaults = [
        "scan writes HTML and JUnit reports to fastlane/test_output; xcode.test keeps the result bundle and 'slipway run --report junit' writes JUnit",
        "without device or destination scan picks a simulator; xcode.test without destinations uses the scheme's default",
    ]

    private static let xcodebuildOnly = "xcode.test has no option for it; run xcodebuild in a 'run' step if it is needed"
    private static let shown = "how xcodebuild's output is shown: Slipway formats it itself and keeps the raw log"
    private static let reports = "xcode.test keeps the result bundle (${{ steps.test.outputs.result-bundle }}); 'slipway run --report junit' writes JUnit; other reports are not written"
    private static let slack = "xcode.test posts nothing; add a notify step (docs/notify.md) after it"

    static let parameters: [FastlaneParameter] = [
        .handled("workspace", "xcode.test's workspace (else the project's workspace)"),
        .handled("project", "xcode.test's project (else the project's)"),
        .listed("package_path", "xcode.test tests an Xcode project or workspace; test a Swift package with a swift.test step"),
        .handled("scheme", "xcode.test's scheme (else the project's test scheme)"),
        .handled("device", "destinations: platform=iOS Simulator,name=NAME[,OS=VERSION]"),
        .handled("devices", "destinations, one per device"),
        .handled("skip_detect_devices", "no effect: xcode.test does not pick devices; without destinations xcodebuild uses the scheme's"),
        .listed("ensure_devices_found", "xcode.test fails when xcodebuild finds no destination, with xcodebuild's message"),
        .listed("force_quit_simulator", "xcode.test does not quit the Simulator; add a 'run' step with 'killall Simulator' before it"),
        .listed("reset_simulator", "xcode.test does not erase simulators; add a 'run' step with 'xcrun simctl erase all' before it"),
        .listed("disable_slide_to_type", "xcode.test does not change simulator settings"),
        .listed("prelaunch_simulator", "xcode.test does not boot the simulator first; add a 'run' step with 'xcrun simctl boot NAME'"),
        .listed("reinstall_app", "xcode.test does not uninstall the app; add a 'run' step with 'xcrun simctl uninstall booted BUNDLE_ID'"),
        .listed("app_identifier", "only used by reinstall_app, which xcode.test does not do"),
        .maps("only_testing", to: "only-testing"),
        .maps("skip_testing", to: "skip-testing"),
        .maps("testplan", to: "test-plan"),
        .listed("only_test_configurations", "xcode.test has no -only-test-configuration option; " + xcodebuildOnly),
        .listed("skip_test_configurations", "xcode.test has no -skip-test-configuration option; " + xcodebuildOnly),
        .listed("xctestrun", "xcode.test runs a scheme, not an .xctestrun file; " + xcodebuildOnly),
        .listed("toolchain", "xcode.test has no -toolchain option; set TOOLCHAINS in the lane's env: (xcodebuild reads it)"),
        .handled("clean", "said: xcode.test does not clean first"),
        .maps("code_coverage", to: "coverage"),
        .listed("address_sanitizer", "xcode.test has no -enableAddressSanitizer option; turn it on in the scheme's test action"),
        .listed("thread_sanitizer", "xcode.test has no -enableThreadSanitizer option; turn it on in the scheme's test action"),
        .listed("open_report", "nothing is opened on CI; the result bundle is ${{ steps.test.outputs.result-bundle }}"),
        .listed("output_directory", reports),
        .handled("output_style", shown),
        .listed("output_types", reports),
        .listed("output_files", reports),
        .handled("buildlog_path", "xcode.test's log: BUILDLOG_PATH/SCHEME.log"),
        .listed("include_simulator_logs", "xcode.test does not copy simulator logs; the result bundle has the test logs"),
        .handled("suppress_xcode_output", shown),
        .handled("xcodebuild_formatter", shown),
        .handled("output_remove_retry_attempts", "xcode.test reports a test that passes on a retry as flaky, once"),
        .handled("force_legacy_xcresulttool", "no effect: xcode.test reads the result bundle with the xcresulttool it finds"),
        .handled("disable_xcpretty", shown),
        .handled("formatter", shown),
        .handled("xcpretty_formatter", shown),
        .handled("xcpretty_args", shown),
        .maps("derived_data_path", to: "derived-data-path"),
        .listed("should_zip_build_products", "xcode.test does not zip build products; zip them in a 'run' step"),
        .listed("output_xctestrun", "xcode.test does not copy the .xctestrun file"),
        .maps("result_bundle_path", to: "result-bundle"),
        .handled("result_bundle", "xcode.test always keeps the result bundle"),
        .listed("use_clang_report_name", reports),
        .maps("parallel_testing", to: "parallel"),
        .listed("concurrent_workers", "xcode.test has no -parallel-testing-worker-count option; " + xcodebuildOnly),
        .listed("max_concurrent_simulators", "xcode.test has no -maximum-concurrent-test-simulator-destinations option; " + xcodebuildOnly),
        .listed("disable_concurrent_testing", "xcode.test has no -disable-concurrent-destination-testing option; give one destination"),
        .listed("skip_build", "xcode.test builds as xcodebuild test does"),
        .maps("test_without_building", to: "without-building"),
        .listed("build_for_testing", "xcode.test runs the tests; for build-for-testing only, use an xcode.build step with build-settings, or a 'run' step"),
        .maps("sdk", to: "sdk"),
        .maps("configuration", to: "configuration"),
        .handled("xcargs", "flags xcode.test has as options, and SETTING=value words as build-settings; anything else is listed"),
        .maps("xcconfig", to: "xcconfig"),
        .handled("app_name", "only names scan's log file and Slack message; no effect on the tests"),
        .listed("deployment_target_version", "xcode.test does not pick simulators; give the OS in devices or destination"),
        .listed("slack_url", slack), .listed("slack_channel", slack), .listed("slack_message", slack),
        .listed("slack_use_webhook_configured_username_and_icon", slack), .listed("slack_username", slack),
        .listed("slack_icon_url", slack), .handled("skip_slack", "nothing is posted to Slack by xcode.test"),
        .listed("slack_only_on_failure", slack), .listed("slack_default_payloads", slack),
        .handled("destination", "destinations"),
        .listed("run_rosetta_simulator", "add arch=x86_64 to the destination by hand"),
        .listed("catalyst_platform", "give destinations: ['platform=macOS,variant=Mac Catalyst'] for the Mac"),
        .listed("custom_report_file_name", reports),
        .listed("xcodebuild_command", "xcode.test runs xcodebuild itself (its xcode option picks the Xcode); a wrapper command has no counterpart"),
        .listed("cloned_source_packages_path", "xcode.test has no -clonedSourcePackagesDirPath option"),
        .listed("package_cache_path", "xcode.test has no -packageCachePath option"),
        .listed("skip_package_dependencies_resolution", "xcode.test resolves packages as xcodebuild does; there is no option to skip it"),
        .listed("disable_package_automatic_updates", "xcode.test has no -disableAutomaticPackageResolution option; commit Package.resolved"),
        .listed("skip_package_repository_fetches", "xcode.test has no -skipPackageUpdates option"),
        .listed("use_system_scm", "xcode.test has no -scmProvider system option"),
        .maps("number_of_retries", to: "retries"),
        .handled("fail_build", "false: the step gets continue-on-error: true"),
        .listed("package_authorization_provider", "xcode.test has no -packageAuthorizationProvider option"),
    ]

    static func prepare(_ call: RubyCall, builder: LaneBuilder) -> RubyCall {
        builder.withDefaults(call, from: builder.translator.scanfile)
    }

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var options = builder.container(call, statement)
        let scheme = builder.scheme(call, statement, testing: true)
        options.append(DraftPair("scheme", scheme))
        let destinations = self.destinations(call, statement, &builder)
        if !destinations.isEmpty { options.append(DraftPair("destinations", .list(destinations))) }
        builder.carry(call, optionMap, into: &options, statement, lists: ["only-testing", "skip-testing"])
        builder.xcargs(call, statement, into: &options, step: "xcode.test")
        if let folder = builder.literal(call, "buildlog_path", statement), case .string(let path) = folder {
            options.append(DraftPair("log", .string("\(path)/\(GymTranslator.text(scheme)).log")))
        }
        if call.argument("clean") != nil { builder.differ("scan's clean: xcode.test does not clean first; add a 'run' step with xcodebuild clean if it matters") }
        let id = builder.add("xcode.test", id: "test", options, from: statement)
        if case .bool(false)? = call.argument("fail_build"), let index = builder.draft.steps.lastIndex(where: { $0.id == id }) {
            builder.draft.steps[index].settings.append(DraftPair("continue-on-error", .bool(true)))
        }
    }

    /// destination, device and devices as xcodebuild destinations.
    static func destinations(_ call: RubyCall, _ statement: Fastfile.Statement, _ builder: inout LaneBuilder) -> [DraftValue] {
        var destinations: [DraftValue] = []
        if let destination = call.argument("destination") {
            for item in destination.list {
                guard let converted = builder.value(item, statement: statement) else {
                    builder.skipArgument(call.name, "destination", statement, "its value (\(LaneBuilder.source(of: item))) is only known when Ruby runs; give destinations by hand")
                    continue
                }
                destinations.append(converted)
            }
        }
        for key in ["device", "devices"] {
            for device in call.argument(key)?.list ?? [] {
                guard let name = device.text else { builder.skipArgument(call.name, key, statement, "not a literal device name (\(LaneBuilder.source(of: device))); give destinations by hand"); continue }
                destinations.append(.string(simulatorDestination(name)))
            }
        }
        return destinations
    }

    /// fastlane's `iPhone 15 (17.2)` as an xcodebuild destination.
    static func simulatorDestination(_ device: String) -> String {
        if device.hasSuffix(")"), let open = device.lastIndex(of: "(") {
            let name = String(device[device.startIndex..<open]).trimmingCharacters(in: " ")
            let os = String(device[device.index(after: open)..<device.index(before: device.endIndex)])
            return "platform=iOS Simulator,name=\(name),OS=\(os)"
        }
        return "platform=iOS Simulator,name=\(device)"
    }
}
