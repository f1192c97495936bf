import Foundation
import SlipwayCLI
import Testing
import TestSupport
import TestThreads

/// `slipway init` picks the release lane from the package's products (issue 25, point 9).
@Suite(.dedicatedThreads) struct InitPackageTests {
    func slipway(_ arguments: [String], in directory: String, environment: [String: String?] = [:]) throws -> CommandResult {
        // SwiftPM leaves a lock file in TMPDIR for every package it reads: this one is removed afterwards.
        let scratch = try TemporaryDirectory(prefix: "slipway-init-tmp")
        return try CommandResult.run(Binaries.slipway, arguments, in: directory,
                                     environment: ["TMPDIR": scratch.path].merging(environment.merging(["NO_COLOR": "1"]) { $1 }) { $1 })
    }

    /// A package folder with `manifest` as its Package.swift and one source file per target.
    func package(_ manifest: String, targets: [String]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-init-package")
        try folder.write("Package.swift", manifest)
        for target in targets { try folder.write("Sources/\(target)/\(target).swift", "public let name = \"\(target)\"\n") }
        return folder
    }

    static let library = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Core",
            products: [.library(name: "Core", targets: ["Core"]), .library(name: "CoreTesting", targets: ["CoreTesting"])],
            targets: [.target(name: "Core"), .target(name: "CoreTesting", dependencies: ["Core"])]
        )
        """

    static let executable = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "tool",
            products: [.executable(name: "tool", targets: ["tool"]), .library(name: "ToolKit", targets: ["ToolKit"])],
            targets: [.executableTarget(name: "tool", dependencies: ["ToolKit"]), .target(name: "ToolKit")]
        )
        """

    func template(_ path: String) throws -> String {
        try String(contentsOfFile: Corpus.repositoryRoot + "/templates/" + path, encoding: .utf8)
    }

    func written(_ folder: TemporaryDirectory, _ name: String) throws -> String {
        try String(contentsOfFile: folder.path + "/lanes/" + name, encoding: .utf8)
    }

    @Test func aLibraryGetsTheLibraryLaneAndItValidates() throws {
        let folder = try package(Self.library, targets: ["Core", "CoreTesting"])
        let result = try slipway(["init"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == """
            Package.swift declares only library products ('Core', 'CoreTesting') (read with 'swift package dump-package'): \
            the release lane tests, versions, tags and publishes a GitHub release, with no build or archive.
            wrote    lanes/ci.yml
            wrote    lanes/release.yml
            Next: 'slipway lanes' to see them, 'slipway run ci' to build and test, \
            'slipway run release --input repository=OWNER/NAME --dry-run' to preview a release.

            """)
        #expect(try written(folder, "release.yml") == template("library/release.yml"),
                "the embedded library release.yml differs from templates/library: run scripts/embed-templates.sh")
        #expect(try written(folder, "ci.yml") == template("lanes/ci.yml"))
        let release = try written(folder, "release.yml")
        for absent in ["swift.build", "archive:", "checksums", "sign:"] { #expect(!release.contains(absent)) }
        let validate = try slipway(["validate"], in: folder.path)
        #expect(validate.status == 0, "\(validate.standardOutput)\(validate.standardError)")
        #expect(validate.standardOutput.contains("✓ release: 8 steps, valid"))
    }

    @Test func anExecutableKeepsTheExecutableLane() throws {
        let folder = try package(Self.executable, targets: ["tool", "ToolKit"])
        let result = try slipway(["init"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("""
            Package.swift declares the executable product 'tool' (read with 'swift package dump-package'): \
            the release lane builds and archives it (--input product=tool).
            wrote    lanes/ci.yml
            wrote    lanes/release.yml

            """))
        #expect(try written(folder, "release.yml") == template("lanes/release.yml"))
        let validate = try slipway(["validate"], in: folder.path)
        #expect(validate.status == 0, "\(validate.standardOutput)\(validate.standardError)")
        #expect(validate.standardOutput.contains("✓ release: 11 steps, valid"))
    }

    @Test func withoutSwiftTheManifestTextDecidesAndSaysWhy() throws {
        let folder = try package(Self.library, targets: ["Core", "CoreTesting"])
        let path = try TemporaryDirectory(prefix: "slipway-empty-path")
        let result = try slipway(["init"], in: folder.path, environment: ["PATH": path.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("""
            Package.swift declares only library products (read from Package.swift's text, because 'swift package dump-package' failed: \
            swift could not be started: 'swift' was not found on PATH. Install it or give its full path.): the release lane tests, \
            versions, tags and publishes a GitHub release, with no build or archive.

            """))
        #expect(try written(folder, "release.yml") == template("library/release.yml"))
    }

    @Test func whenNothingTellsItSaysWhichLaneItWroteAndHowToChoose() throws {
        let folder = try package("// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Odd\")\n", targets: [])
        let path = try TemporaryDirectory(prefix: "slipway-empty-path")
        let result = try slipway(["init"], in: folder.path, environment: ["PATH": path.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("""
            could not tell the products of Package.swift: 'swift package dump-package' failed (swift could not be started: \
            'swift' was not found on PATH. Install it or give its full path.) and its text has neither '.library(' nor '.executable('. \
            The release lane is the one for an executable; for a library, run 'slipway init --template library --force'.

            """))
        #expect(try written(folder, "release.yml") == template("lanes/release.yml"))
        let chosen = try slipway(["init", "--template", "library", "--force"], in: folder.path, environment: ["PATH": path.path])
        #expect(chosen.status == 0)
        #expect(chosen.standardOutput.hasPrefix("wrote    lanes/ci.yml\nwrote    lanes/release.yml\n"))
        #expect(try written(folder, "release.yml") == template("library/release.yml"))
    }
}
