import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway-macos-standin` (a test-only STAND-IN executable: the same CLI as `slipway`, reporting
/// macOS) against the real `slipway` on this Linux machine: the macOS-only steps validate and
/// are listed in the stand-in only, `run` knows it as macOS, and nothing in the environment
/// makes the real binary act as macOS. Nothing on disk changes.
@Suite("slipway-macos-standin (STAND-IN) against slipway", .dedicatedThreads)
struct MacOSStandInTests {
    func project() throws -> GitFixture {
        let repository = try GitFixture(prefix: "slipway-macos-standin")
        try repository.write("App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ }\n")
        try repository.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", PlatformCheckCommandTests.scheme)
        try repository.write("lanes/ios.yml", PlatformCheckCommandTests.lane(testScheme: "App"))
        try repository.commit("app")
        return repository
    }

    func run(_ executable: String, _ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(executable, arguments, in: directory, environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil])
    }

    @Test func theStandInActsAsMacOSAndTheRealBinaryDoesNot() throws {
        let repository = try project()
        let before = try Snapshot.of(repository.path)
        let standIn = try run(Binaries.macOSStandInSlipway, ["validate", "ios"], in: repository.path)
        #expect(standIn.status == 0, "\(standIn.standardError)")
        let planned = try run(Binaries.macOSStandInSlipway, ["run", "ios", "--platform", "linux"], in: repository.path)
        #expect(planned.status != 0)
        #expect(planned.standardError.contains("--platform linux checks and plans the lane as on linux, which needs --dry-run: this machine "
            + "runs macos, where a real run of linux-only steps cannot happen. Add --dry-run, or run the lane on linux."), "\(planned.standardError)")
        #expect(try run(Binaries.macOSStandInSlipway, ["steps"], in: repository.path).standardOutput.contains("sign.codesign"))
        #if os(Linux)
        // The real binary, with every variable a checkout's CI could set about the platform, stays Linux.
        let real = try CommandResult.run(Binaries.slipway, ["validate", "ios"], in: repository.path, environment: [
            "NO_COLOR": "1", "RUNNER_OS": "macOS", "SLIPWAY_PLATFORM": "macos", "OSTYPE": "darwin23",
        ])
        #expect(real.status != 0)
        #expect(real.standardError.contains("step 'xcode.build' runs only on macos, not on linux"), "\(real.standardError)")
        #expect(!(try run(Binaries.slipway, ["steps"], in: repository.path).standardOutput.contains("sign.codesign")))
        #endif
        #expect(try Snapshot.of(repository.path) == before)
    }
}
