import Foundation
import TestSupport
import Xcode

/// The xcresulttool/xccov JSON fixtures under Fixtures/xcresult, and a stand-in for `xcrun`
/// that answers each command with one of them.
enum ResultFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xcresult")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name + ".json"))
    }

    /// A result bundle folder (its contents do not matter: the stand-in `xcrun` answers).
    static func bundle(in directory: TemporaryDirectory) throws -> String {
        try directory.write("Shop.xcresult/Info.plist", "<plist/>")
        return directory.path + "/Shop.xcresult"
    }

    /// An `xcrun` answering with the fixture `answers` names for a command's key: `summary`,
    /// `tests`, `record` (legacy `get` without `--id`), `id:ID` (legacy `get --id ID`),
    /// `coverage`; a key without an answer fails as `failure` (or exit 1 with no output).
    static func xcrun(_ answers: [String: String], failure: XcrunFailure? = nil,
                      refuse: Set<String> = []) -> ResultBundleReader.Xcrun {
        { arguments in
            let key = self.key(arguments)
            if refuse.contains(key) { throw failure ?? XcrunFailure(status: 1, standardError: "") }
            guard let name = answers[key] else { throw failure ?? XcrunFailure(status: 1, standardError: "") }
            if name.hasPrefix("raw:") { return Data(name.dropFirst(4).utf8) }
            return try data(name)
        }
    }

    static func key(_ arguments: [String]) -> String {
        if arguments.first == "xccov" { return "coverage" }
        if arguments.contains("test-results") { return arguments.contains("summary") ? "summary" : "tests" }
        if let index = arguments.firstIndex(of: "--id"), index + 1 < arguments.count { return "id:" + arguments[index + 1] }
        return "record"
    }

    /// An old `xcresulttool` (Xcode 15) refusing `get test-results`.
    static let oldTool = XcrunFailure(status: 64, standardError: "Error: Unexpected argument 'test-results'\nUsage: xcresulttool get [--format <format>] --path <path> [--id <id>]\n")
}
