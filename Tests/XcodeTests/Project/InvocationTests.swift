import Testing
import TestThreads
import Xcode

@Suite("xcodebuild command lines", .dedicatedThreads)
struct InvocationTests {
    @Test("-showBuildSettings takes the action's place, whatever the other values are called")
    func showBuildSettings() throws {
        var invocation = XcodebuildInvocation(action: .showBuildSettings)
        invocation.project = "build.xcodeproj"
        invocation.scheme = "build"
        invocation.configuration = "build"
        #expect(try invocation.arguments() == ["-project", "build.xcodeproj", "-scheme", "build", "-configuration", "build", "-showBuildSettings"])
    }

    @Test("build: every build option in the stable order, settings sorted at the end")
    func build() throws {
        var invocation = XcodebuildInvocation(action: .build)
        invocation.workspace = "App.xcworkspace"
        invocation.scheme = "App"
        invocation.configuration = "Release"
        invocation.sdk = "iphonesimulator"
        invocation.destinations = [.simulator(name: "iPhone 16", os: "18.2"), .generic(platform: "iOS")]
        invocation.derivedDataPath = ".build/DerivedData"
        invocation.xcconfig = "Config/CI.xcconfig"
        invocation.resultBundlePath = ".build/Build.xcresult"
        invocation.skipPackagePluginValidation = true
        invocation.skipMacroValidation = true
        invocation.buildSettings = ["SWIFT_ACTIVE_COMPILATION_CONDITIONS": "CI", "CODE_SIGNING_ALLOWED": "NO"]
        #expect(try invocation.arguments() == [
            "-workspace", "App.xcworkspace", "-scheme", "App", "-configuration", "Release", "-sdk", "iphonesimulator",
            "-destination", "platform=iOS Simulator,name=iPhone 16,OS=18.2", "-destination", "generic/platform=iOS",
            "-derivedDataPath", ".build/DerivedData", "-xcconfig", "Config/CI.xcconfig",
            "-resultBundlePath", ".build/Build.xcresult", "-skipPackagePluginValidation", "-skipMacroValidation",
            "build", "CODE_SIGNING_ALLOWED=NO", "SWIFT_ACTIVE_COMPILATION_CONDITIONS=CI",
        ])
    }

    @Test("test: plan, selection, retries, parallel testing, coverage")
    func test() throws {
        var invocation = XcodebuildInvocation(action: .test)
        invocation.project = "App.xcodeproj"
        invocation.scheme = "App"
        invocation.destinations = [.device(id: "00008110-001A2B3C4D5E6F7A")]
        invocation.resultBundlePath = "out/Tests.xcresult"
        invocation.testPlan = "CI"
        invocation.onlyTesting = ["AppTests", "AppUITests/LoginTests/testLogin"]
        invocation.skipTesting = ["AppTests/SlowTests"]
        invocation.retryTestsOnFailure = true
        invocation.testIterations = 3
        invocation.parallelTestingEnabled = false
        invocation.enableCodeCoverage = true
        #expect(try invocation.arguments() == [
            "-project", "App.xcodeproj", "-scheme", "App", "-destination", "id=00008110-001A2B3C4D5E6F7A",
            "-resultBundlePath", "out/Tests.xcresult", "-testPlan", "CI",
            "-only-testing:AppTests", "-only-testing:AppUITests/LoginTests/testLogin", "-skip-testing:AppTests/SlowTests",
            "-retry-tests-on-failure", "-test-iterations", "3", "-parallel-testing-enabled", "NO",
            "-enableCodeCoverage", "YES", "test",
        ])
    }

    @Test("test-without-building and build-for-testing take test options")
    func testActions() throws {
        for action in [XcodebuildInvocation.Action.testWithoutBuilding, .buildForTesting] {
            var invocation = XcodebuildInvocation(action: action)
            invocation.project = "App.xcodeproj"
            invocation.scheme = "App"
            invocation.testPlan = "Smoke"
            #expect(try invocation.arguments() == ["-project", "App.xcodeproj", "-scheme", "App", "-testPlan", "Smoke", action.rawValue])
        }
    }

    @Test("archive")
    func archive() throws {
        var invocation = XcodebuildInvocation(action: .archive)
        invocation.workspace = "App.xcworkspace"
        invocation.scheme = "App"
        invocation.configuration = "Release"
        invocation.destinations = [.generic(platform: "iOS")]
        invocation.archivePath = "build/App.xcarchive"
        invocation.allowProvisioningUpdates = true
        #expect(try invocation.arguments() == [
            "-workspace", "App.xcworkspace", "-scheme", "App", "-configuration", "Release",
            "-destination", "generic/platform=iOS", "-archivePath", "build/App.xcarchive", "-allowProvisioningUpdates", "archive",
        ])
    }

    @Test("-exportArchive comes first and takes no container")
    func export() throws {
        var invocation = XcodebuildInvocation(action: .exportArchive)
        invocation.archivePath = "build/App.xcarchive"
        invocation.exportPath = "build/export"
        invocation.exportOptionsPlist = "build/ExportOptions.plist"
        invocation.allowProvisioningUpdates = true
        #expect(try invocation.arguments() == [
            "-exportArchive", "-archivePath", "build/App.xcarchive", "-exportPath", "build/export",
            "-exportOptionsPlist", "build/ExportOptions.plist", "-allowProvisioningUpdates",
        ])
    }

    @Test("both project and workspace")
    func both() {
        var invocation = XcodebuildInvocation(action: .build)
        invocation.project = "App.xcodeproj"
        invocation.workspace = "App.xcworkspace"
        invocation.scheme = "App"
        #expect(throws: XcodeProjectError.invalidInvocation(problems: [
            "both 'project' ('App.xcodeproj') and 'workspace' ('App.xcworkspace') are given; give one of them",
        ])) { try invocation.arguments() }
        #expect((try? invocation.arguments()) == nil)
        #expect(XcodeProjectError.invalidInvocation(problems: invocation.problems).errorDescription
            == "xcodebuild options: both 'project' ('App.xcodeproj') and 'workspace' ('App.xcworkspace') are given; give one of them.")
    }

    @Test("every problem at once, in order")
    func everything() {
        var invocation = XcodebuildInvocation(action: .build)
        invocation.testPlan = "CI"
        invocation.testIterations = 0
        invocation.onlyTesting = ["AppTests/"]
        invocation.archivePath = "App.xcarchive"
        invocation.exportPath = "out"
        invocation.buildSettings = ["1BAD": "x", "OK_KEY": "y", "BAD-KEY": "z"]
        #expect(invocation.problems == [
            "neither 'project' nor 'workspace' is given; give one of them",
            "'scheme' is required for 'build'",
            "'exportPath' and 'exportOptionsPlist' apply to -exportArchive, not 'build'",
            "'testPlan', 'onlyTesting', 'testIterations' apply to test actions, not 'build'",
            "'testIterations' is 0; give 1 or more",
            "a test identifier in 'onlyTesting'/'skipTesting' is empty or malformed; write Target, Target/Class or Target/Class/method",
            "'archivePath' applies to archive and -exportArchive, not 'build'",
            "build setting '1BAD' is not a valid name (letters, digits and '_', not starting with a digit)",
            "build setting 'BAD-KEY' is not a valid name (letters, digits and '_', not starting with a digit)",
        ])
    }

    @Test("-exportArchive without its paths, with a scheme")
    func exportProblems() {
        var invocation = XcodebuildInvocation(action: .exportArchive)
        invocation.scheme = "App"
        invocation.exportPath = "out"
        #expect(invocation.problems == [
            "'archivePath' is required for -exportArchive",
            "'exportOptionsPlist' is required for -exportArchive",
            "-exportArchive takes no 'project', 'workspace' or 'scheme' (the archive has them)",
        ])
    }

    @Test("build-setting keys")
    func keys() {
        #expect(XcodebuildInvocation.isBuildSettingKey("_A1"))
        #expect(XcodebuildInvocation.isBuildSettingKey("CODE_SIGN_IDENTITY"))
        #expect(!XcodebuildInvocation.isBuildSettingKey(""))
        #expect(!XcodebuildInvocation.isBuildSettingKey("9A"))
        #expect(!XcodebuildInvocation.isBuildSettingKey("A B"))
        #expect(!XcodebuildInvocation.isBuildSettingKey("ÄPFEL"))
    }
}
