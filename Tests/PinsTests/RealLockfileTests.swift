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
        // Every lockfile of the folder was audited (a fixture lost on the way, such as a
        // Package.resolved that a global gitignore kept out of a commit, fails here).
        let audited = Set(report.findings.map { ($0.file as NSString).lastPathComponent })
        let lockfiles = Set(files.map { ($0 as NSString).lastPathComponent }.filter { Self.lockfileNames.contains($0) })
        #expect(!lockfiles.isEmpty && lockfiles.isSubset(of: audited), "audited \(audited.sorted()), present \(lockfiles.sorted())")
        #expect(lockfiles == Self.expectedLockfiles[folder], "the fixture folder '\(folder)' is incomplete")
    }

    static let lockfileNames: Set = ["Package.resolved", "Gemfile.lock", "Cartfile.resolved", "Podfile.lock"]
    static let expectedLockfiles: [String: Set<String>] = [
        "duckduckgo-iOS": ["Gemfile.lock", "Package.resolved"],
        "duckduckgo-iOS-2020": ["Cartfile.resolved"],
        "SwiftLint": ["Package.resolved"],
    ]

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
