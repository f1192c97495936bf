import Basics
import Foundation
@testable import Pins
import Testing
import TestThreads

@Suite(.dedicatedThreads) struct ToolfileParserTests {
    func problems(_ text: String) -> String? {
        do {
            _ = try ToolfileParser.parse(text, file: "Toolfile")
            return nil
        } catch {
            return errorText(error)
        }
    }

    @Test func readsTheThreeSources() throws {
        let toolfile = try ToolfileParser.parse("""
            tools:
              swiftlint:
                git: https://github.com/realm/SwiftLint.git
                product: swiftlint
                version: ^0.57
              swiftformat:
                archive: https://example.com/swiftformat-{version}-{os}-{arch}.tar.gz
                executable: bin/swiftformat
                platforms: [macos-arm64, linux-x86_64]
                os-names: { macos: darwin }
                version: 0.54.6
              git:
                system: git
                version: ">=2.30, <3"
                version-regex: 'git version (\\S+)'
              slipway-step-notify:
                git: file:///tmp/notify
                version: ~1.0.0
                version-args: [version, --short]
            """, file: "Toolfile")
        #expect(toolfile.names == ["swiftlint", "swiftformat", "git", "slipway-step-notify"])
        #expect(toolfile.tools[0].source == .git(url: "https://github.com/realm/SwiftLint.git", product: "swiftlint"))
        #expect(toolfile.tools[0].location == SourceLocation(file: "Toolfile", line: 2, column: 3))
        guard case .archive(let archive) = toolfile.tools[1].source else {
            Issue.record("swiftformat is not an archive tool")
            return
        }
        #expect(archive.platforms.map(\.description) == ["linux-x86_64", "macos-arm64"])
        #expect(archive.url(version: SemanticVersion("0.54.6")!, platform: ToolPlatform("macos-arm64")!)
            == "https://example.com/swiftformat-0.54.6-darwin-arm64.tar.gz")
        #expect(toolfile.tools[2].source == .system(executable: "git"))
        #expect(toolfile.tools[2].versionPattern == "git version (\\S+)")
        #expect(toolfile.tools[3].versionArguments == ["version", "--short"])
        #expect(toolfile.tools[3].source == .git(url: "file:///tmp/notify", product: "slipway-step-notify"))
    }

    @Test func malformedYAMLNamesLineAndColumn() {
        #expect(problems("tools:\n  fmt:\n    git: x\n   version: 1.0.0\n") == """
            Toolfile:4:4: error: invalid YAML: did not find expected key. Check the indentation and quoting here.
            """)
        #expect(problems("tools:\n  fmt:\n    git: x\n    version: >=1.2, <2\n") == """
            Toolfile:4:15: error: invalid YAML: did not find expected comment or line break. Check the indentation and quoting here. \
            A version constraint that starts with '>', '*' or '&' must be quoted, e.g. version: ">=1.2, <2".
            """)
    }

    @Test func unknownSourceKindIsNamed() {
        #expect(problems("tools:\n  fmt:\n    brew: swiftformat\n    version: 1.0.0\n") == """
            Toolfile:3:5: error: tool 'fmt' has an unknown source kind 'brew'. A source is one of: git (a repository URL, \
            built with swift build), archive (a download URL) or system (found on PATH)
            """)
        #expect(problems("tools:\n  fmt:\n    gti: https://x/y.git\n    version: 1.0.0\n") == """
            Toolfile:3:5: error: tool 'fmt' has an unknown source kind 'gti'. Did you mean 'git'? A source is one of: git \
            (a repository URL, built with swift build), archive (a download URL) or system (found on PATH)
            """)
    }

    @Test func everyProblemIsReportedAtOnce() {
        let text = """
            tools:
              lint:
                git: https://example.com/lint.git
                version: ~> 1.2
                platforms: [linux-x86_64]
              fmt:
                archive: https://example.com/fmt-{version}-{platform}.zip
                version: ^1.0
              ../bad:
                system: x
                version: 1.0.0
              both:
                git: a
                system: b
                version: 1.0.0
            extra: 1
            """
        #expect(problems(text) == """
            Toolfile:16:1: error: unknown key 'extra' at the top of the Toolfile; the only key is 'tools'
            Toolfile:5:5: error: tool 'lint' has an unknown key 'platforms' ('platforms' belongs to archive tools). Its keys are: git, version, version-args, version-regex, product
            Toolfile:4:14: error: tool 'lint': '~> 1.2' uses Bundler's '~>' operator, which Slipway does not accept because its meaning depends on how many parts the version has. Write '^1.2' instead, which means the same.
            Toolfile:7:14: error: unknown placeholder '{platform}' in the archive URL; use {version}, {os}, {arch}
            Toolfile:7:5: error: archive tool 'fmt' needs 'platforms', the platforms its URL serves, e.g. 'platforms: [linux-x86_64, macos-arm64]'
            Toolfile:8:14: error: 'fmt' is an archive tool, and an archive's versions cannot be listed, so its version must be exact: write e.g. 'version: 1.2.3' instead of '^1.0'.
            Toolfile:9:3: error: '../bad' is not a usable tool name; use letters, digits, '.', '-' and '_' (it names a folder in the tools cache)
            Toolfile:13:5: error: tool 'both' has several sources (git, system); keep exactly one
            """)
    }

    @Test func shapesAreChecked() {
        #expect(problems("") == "Toolfile:1:1: error: the Toolfile is empty; list the tools under 'tools:' (see docs/pins.md)")
        #expect(problems("- a\n") == "Toolfile:1:1: error: the Toolfile must be a mapping with a 'tools:' key, not a list")
        #expect(problems("tools:\n  x: 3\n") == """
            Toolfile:2:6: error: tool 'x' must be a mapping with a source (git, archive or system) and a version, not a text
            """)
        #expect(problems("tools:\n  x:\n    git: u\n") == "Toolfile:3:5: error: tool 'x' has no 'version'; add a constraint such as 'version: ^1.2'")
        #expect(problems("tools:\n  x:\n    archive: https://e.com/x-{version}.rar\n    platforms: [linux-x86_64]\n    version: 1.0.0\n") == """
            Toolfile:3:14: error: the archive URL of tool 'x' must end in .tar.gz, .tgz or .zip, the formats Slipway unpacks
            """)
        #expect(problems("tools:\n  x:\n    archive: https://e.com/x.tar.gz\n    platforms: [linux-amd64]\n    version: 1.0.0\n") == """
            Toolfile:4:17: error: 'linux-amd64' is not a platform. Did you mean 'linux-arm64'? Platforms are linux-arm64, linux-x86_64, macos-arm64, macos-x86_64
            """)
    }

    /// Nine nested anchors of nine aliases each (9^9 values expanded) are refused before they expand.
    @Test func aliasBombIsRefusedWithItsPlace() {
        let anchors = ["x: &a0 [v, v, v, v, v, v, v, v, v]"] + (1...8).map { level in
            "x\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]"
        }
        let text = "tools:\n  fmt:\n    git: https://example.com/fmt.git\n    version: ^1.0\n" + anchors.joined(separator: "\n") + "\n"
        #expect(problems(text) == """
            Toolfile:9:10: error: the alias '*a3' makes the aliases of this file expand to more than 10000 values \
            (an alias repeats its anchor's whole value, and nested aliases multiply); Toolfiles allow no more. \
            Write the values out, or use fewer, smaller aliases.
            """)
    }

    @Test func aSmallMappingReusedThroughAnAliasStillWorks() throws {
        let toolfile = try ToolfileParser.parse("""
            tools:
              fmt: &git
                git: https://example.com/fmt.git
                version: ^1.0
              lint: *git
            """, file: "Toolfile")
        #expect(toolfile.tools.map(\.name) == ["fmt", "lint"])
    }
}
