import Foundation
import TestSupport

/// A STAND-IN MAC for the real apps' releases: a folder put first on PATH where `slipway` is
/// `slipway-macos-standin` (the same CLI reporting macOS), `xcodebuild` the app stand-in of
/// LanesTests (Fixtures/app-standin: products carry the project's version as it is then, a real
/// zip .ipa, no signing without an identity in this HOME's keychains) and `security` the keychain
/// stand-in (its state under HOME). Nothing here is Xcode or macOS.
struct StandInMac {
    static let appStandIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path + "/LanesTests/Fixtures/app-standin/xcodebuild"
    let tools: TemporaryDirectory
    let home: TemporaryDirectory

    init() throws {
        tools = try TemporaryDirectory(prefix: "slipway-app-mac")
        home = try TemporaryDirectory(prefix: "slipway-app-home")
        try FileManager.default.createSymbolicLink(atPath: tools.path + "/slipway", withDestinationPath: Binaries.macOSStandInSlipway)
        try FileManager.default.createSymbolicLink(atPath: tools.path + "/xcodebuild", withDestinationPath: Self.appStandIn)
        try SecurityStandIn.installScript(in: tools.path)
    }

    /// The stand-in xcodebuild's record of its calls (JSON lines).
    var calls: String { tools.path + "/xcodebuild-calls.jsonl" }

    /// The variables a Mac job sees: the tools first on PATH, the stand-ins' settings.
    func environment(xcconfig: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> [String: String] {
        ["PATH": tools.path + ":" + (path ?? "/usr/bin:/bin"), "SLIPWAY_STANDIN_CALLS": calls, "SLIPWAY_STANDIN_XCCONFIG": xcconfig]
    }

    /// The security stand-in's subcommands, in order, in `home`.
    static func securityCalls(home: String) throws -> [String] {
        try SecurityStandIn.calls(home: home).compactMap(\.first)
    }
}
