@testable import FastlaneImport
import Testing
import TestThreads

/// gym (build_app) and scan (run_tests), with fastlane's documented examples.
@Suite(.dedicatedThreads) struct GymTranslatorTests {
    static let exportedArchive = DraftPair("archive", .string("${{ steps.archive.outputs.archive }}"))

    // https://docs.fastlane.tools/actions/build_app/
    @Test func buildAppDocumentedExamples() throws {
        let short = try ActionCase(#"build_app(scheme: "MyApp", workspace: "MyApp.xcworkspace")"#)
        #expect(short.kinds == ["xcode.archive", "xcode.export"])
        #expect(try short.step("xcode.archive").options == [
            DraftPair("workspace", .string("MyApp.xcworkspace")), DraftPair("scheme", .string("MyApp")),
            DraftPair("destinations", .list([.string("generic/platform=iOS")])),
        ])
        #expect(try short.step("xcode.export").options == [Self.exportedArchive, DraftPair("method", .string("app-store-connect"))])
        #expect(short.listed == [])

        let long = try ActionCase("""
            build_app(
              workspace: "MyApp.xcworkspace",
              configuration: "Debug",
              scheme: "MyApp",
              silent: true,
              clean: true,
              output_directory: "path/to/dir", # Destination directory. Defaults to current directory.
              output_name: "my-app.ipa",       # specify the name of the .ipa file to generate (including file extension)
              sdk: "iOS 11.1"                  # use SDK as the name or path of the base SDK when building the project.
            )
            """)
        #expect(try long.step("xcode.archive").options == [
            DraftPair("workspace", .string("MyApp.xcworkspace")), DraftPair("scheme", .string("MyApp")),
            DraftPair("destinations", .list([.string("generic/platform=iOS")])),
            DraftPair("configuration", .string("Debug")), DraftPair("sdk", .string("iOS 11.1")),
        ])
        #expect(try long.step("xcode.export").options == [
            Self.exportedArchive, DraftPair("export-path", .string("path/to/dir")), DraftPair("method", .string("app-store-connect")),
        ])
        #expect(long.listed == [
            "build_app(output_name: …): xcode.export names the file as xcodebuild does (the product's name); later steps find it at ${{ steps.export.outputs.path }}; rename it in a 'run' step if another name is needed",
        ])
        #expect(long.differences.contains("gym's clean: xcode.archive always archives into a fresh .xcarchive; a clean build is not needed"))

        for alias in ["gym", "build_ios_app"] {
            let lane = try ActionCase(alias)
            #expect(lane.kinds == ["xcode.archive", "xcode.export"])
            #expect(try lane.step("xcode.archive").option("destinations") == .list([.string("generic/platform=iOS")]))
        }
        let mac = try ActionCase("build_mac_app")
        #expect(try mac.step("xcode.archive").option("destinations") == .list([.string("generic/platform=macOS")]))
    }

    /// Issue 40, point 7: include_symbols: false was dropped without a line.
    @Test func includeSymbolsBecomesUploadSymbols() throws {
        let lane = try ActionCase(#"gym(scheme: "App", export_method: "app-store", include_symbols: false)"#)
        #expect(try lane.step("xcode.export").option("upload-symbols") == .bool(false))
        #expect(lane.listed == [])
    }

    /// Issue 40, point 7: skip_package_ipa still got an export.
    @Test func skipPackageIpaMakesNoExport() throws {
        let lane = try ActionCase(#"gym(scheme: "App", skip_package_ipa: true)"#)
        #expect(lane.kinds == ["xcode.archive"])
        #expect(lane.listed == [])
        #expect(lane.differences == ["gym's skip_package_ipa: true: no xcode.export step; the lane stops at the archive (${{ steps.archive.outputs.archive }})"])
    }

    /// Issue 40, point 8: gym adds .xcarchive to an archive_path without it.
    @Test func archivePathGetsTheExtensionGymAdds() throws {
        let bare = try ActionCase(#"gym(scheme: "App", archive_path: "build/App")"#)
        #expect(try bare.step("xcode.archive").option("archive-path") == .string("build/App.xcarchive"))
        let full = try ActionCase(#"gym(scheme: "App", archive_path: "build/App.xcarchive")"#)
        #expect(try full.step("xcode.archive").option("archive-path") == .string("build/App.xcarchive"))
    }

    @Test func everyArgumentIsCarriedOrListed() throws {
        let lane = try ActionCase("""
            gym(scheme: "App", export_method: "ad-hoc", skip_codesigning: true, toolchain: "swift", export_options: { method: "ad-hoc", iCloudContainerEnvironment: "Production" }, export_xcargs: "-quiet", build_path: BUILD_DIR, colour: true)
            """)
        #expect(try lane.step("xcode.archive").option("build-settings") == .map([
            DraftPair("CODE_SIGN_IDENTITY", .string("")), DraftPair("CODE_SIGNING_REQUIRED", .string("NO")),
            DraftPair("CODE_SIGN_ENTITLEMENTS", .string("")), DraftPair("CODE_SIGNING_ALLOWED", .string("NO")),
        ]))
        #expect(try lane.step("xcode.export").option("method") == .string("release-testing"))
        #expect(lane.listed == [
            "gym(toolchain: …): xcode.archive has no -toolchain option; set TOOLCHAINS to the toolchain's id in the lane's env: (xcodebuild reads it)",
            "gym(export_xcargs: …): xcode.export passes no extra xcodebuild arguments; put the setting in an ExportOptions.plist (options-plist) if it is one",
            "gym(colour: …): not a parameter fastlane documents for gym (https://docs.fastlane.tools/actions/build_app/); check the spelling, it is not translated",
            "gym(build_path: …): its value (BUILD_DIR) is only known when Ruby runs",
            "gym(export_options[iCloudContainerEnvironment]: …): xcode.export has no such option; use options-plist for a full ExportOptions.plist",
        ])
    }

    @Test func anExportMethodOnlyRubyKnowsIsListedWithTheChoices() throws {
        let lane = try ActionCase("gym(scheme: 'App', export_method: beta ? 'ad-hoc' : 'app-store')")
        #expect(try lane.step("xcode.export").option("method") == nil)
        #expect(lane.listed == [
            "gym(export_method: …): its value (beta ? 'ad-hoc' : 'app-store') is only known when Ruby runs; give xcode.export's method (app-store-connect, release-testing, debugging, enterprise, developer-id, mac-application)",
        ])
    }

    // https://docs.fastlane.tools/actions/run_tests/
    @Test func runTestsDocumentedExamples() throws {
        for alias in ["run_tests", "scan"] {
            let lane = try ActionCase(alias)
            #expect(lane.kinds == ["xcode.test"])
            #expect(lane.listed == [])
        }
        let named = try ActionCase(#"run_tests(workspace: "App.xcworkspace", scheme: "MyTests", clean: false)"#)
        #expect(try named.step("xcode.test").options == [DraftPair("workspace", .string("App.xcworkspace")), DraftPair("scheme", .string("MyTests"))])
        let withoutBuilding = try ActionCase(#"run_tests(derived_data_path: "my_folder", test_without_building: true)"#)
        #expect(try withoutBuilding.step("xcode.test").option("derived-data-path") == .string("my_folder"))
        #expect(try withoutBuilding.step("xcode.test").option("without-building") == .bool(true))
        let forTesting = try ActionCase(#"run_tests(derived_data_path: "my_folder", build_for_testing: true)"#)
        #expect(forTesting.listed == [
            "run_tests(build_for_testing: …): xcode.test runs the tests; for build-for-testing only, use an xcode.build step with build-settings, or a 'run' step",
        ])
        let xctestrun = try ActionCase(#"run_tests(xctestrun: "/path/to/mytests.xctestrun")"#)
        #expect(xctestrun.listed == [
            "run_tests(xctestrun: …): xcode.test runs a scheme, not an .xctestrun file; xcode.test has no option for it; run xcodebuild in a 'run' step if it is needed",
        ])
    }

    @Test func scanFailBuildFalseContinuesOnError() throws {
        let lane = try ActionCase(#"scan(scheme: "App", fail_build: false, code_coverage: true, devices: ["iPhone 15 (17.2)"])"#)
        let step = try lane.step("xcode.test")
        #expect(step.settings == [DraftPair("continue-on-error", .bool(true))])
        #expect(step.option("coverage") == .bool(true))
        #expect(lane.lane.draft.yaml().contains("    id: test\n    continue-on-error: true\n"))
    }
}
