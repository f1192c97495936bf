import Basics
import Foundation
@testable import Pins
import Testing
import TestThreads

/// `deps verify` on lockfiles copied from public projects (see Fixtures/RealLockfiles/README.md):
/// each folder is consistent as committed, so every check must pass.
@Suite(.dedicatedThreads) struct RealLockfileTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/RealLockfiles").path

    @Test(arguments: ["duckduckgo-iOS", "duckduckgo-iOS-2020", "SwiftLint"])
    func realLockfilesPass(_ folder: String) async throws {
        let project = try PinsProject()
        project.extraEnvironment["PATH"] = "/usr/bin:/bin"
        let source = Self.fixtures + "/" + folder
        let files = try #require(FileManager.default.subpaths(atPath: source))
        for file in files where !FileManager.default.isDirectory(source + "/" + file) {
            try project.write(file, String(decoding: try Data(contentsOf: URL(fileURLWithPath: source + "/" + file)), as: UTF8.self))
        }
        let report = try await DependencyAuditor(context: project.context(online: false)).audit()
        #expect(report.failures.map(\.summary) == [])
        #expect(!report.findings.isEmpty)
    }

    @Test func duckDuckGosRubyOnlyGemfileLockPassesThePlatformCheck() async throws {
        let project = try PinsProject()
        try project.write("Gemfile.lock", String(decoding: try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/duckduckgo-iOS/Gemfile.lock")), as: UTF8.self))
        let report = try await DependencyAuditor(context: project.context(online: false)).audit()
        #expect(report.findings.filter { $0.check == "platforms" }.map(\.ok) == [true])
    }
}

private extension FileManager {
    func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
